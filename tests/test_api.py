"""The Python API: explain, analyze, stream."""

from __future__ import annotations

import gzip

import triage
from tests.conftest import CORPUS


def test_explain_str_and_lines_agree():
    text = "INFO start\nRuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n"
    a = triage.explain(text)
    b = triage.explain(["INFO start", "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"])
    assert a.model_dump() == b.model_dump()
    assert a.root_cause is not None and a.root_cause.first_line == 2
    assert a.lines_read == 2


def test_report_json_is_cli_json_shape():
    report = triage.explain("EZ9999: Inner Error!")
    data = report.model_dump()
    assert data["schema_version"] == 1
    assert data["root_cause"]["rule_id"] == "generic.ez9999-inner-error"
    assert report.exit_code() == 1


def test_analyze_directory_and_gz(tmp_path):
    log = next(p for p in sorted(CORPUS.rglob("log.txt")) if "healthy" not in p.parent.name)
    (tmp_path / "a.log.gz").write_bytes(gzip.compress(log.read_bytes()))
    direct = triage.analyze(log)
    packed = triage.analyze(tmp_path)
    assert [f.rule_id for f in packed.findings] == [f.rule_id for f in direct.findings]
    assert packed.files == [str(tmp_path / "a.log.gz")]


def test_analyze_records_a_missing_path_and_reads_the_others(tmp_path):
    import pytest

    from triage.errors import InputError

    good = tmp_path / "good.log"
    good.write_text("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n")
    report = triage.analyze([good, tmp_path / "missing.log"])
    assert report.root_cause is not None and report.lines_read == 1
    assert [(p.file, p.message) for p in report.input_errors] == [
        (str(tmp_path / "missing.log"), f"{tmp_path / 'missing.log'}: no such file or directory")]
    assert report.exit_code() == 2
    with pytest.raises(InputError, match="missing.log: no such file or directory"):
        triage.analyze([tmp_path / "missing.log"])


def test_stream_yields_findings_as_first_seen():
    seen = []

    def lines():
        yield "INFO nothing here"
        yield "EZ9999: Inner Error!"
        assert seen, "the finding must be yielded before the next line is read"
        yield "EZ9999: Inner Error!"

    for finding in triage.stream(lines()):
        seen.append(finding)
    assert "generic.ez9999-inner-error" in [f.rule_id for f in seen]
    assert {f.first_line for f in seen} == {2} and all(f.count == 1 for f in seen)


def test_pasted_markdown_quote_markers_are_stripped():
    report = triage.explain("> > RuntimeError: NPU out of memory.\n")
    assert report.root_cause is not None and report.root_cause.rule_id == "memory.npu-oom-short-message"


def test_cann_error_stack_and_compiler_errors_are_never_clean():
    report = triage.explain(
        "       GEInitialize failed.[FUNC:GEInitialize][FILE:ge_api.cc][LINE:337]\n"
        "src/kernels/a.cpp:12:3: error: no matching function for call to 'Foo'\n")
    # no rule knows either line: the one that states a message leads in its own words (issue 11)
    root = report.root_cause
    assert root is not None and root.rule_id == "unexplained.compile-error"
    assert root.layer_guessed and not root.generic and root.severity == "error"
    assert "no matching function for call to 'Foo'" in root.cause
    assert [(u.line, u.kind) for u in report.unrecognised] == [(1, "cann-error-stack"), (2, "compile-error")]
    assert report.exit_code() == 1
    assert report.exit_code("critical") == 0  # an unexplained line counts as severity error


def test_followed_by_pairs_each_anchor_once(tmp_path):
    from tests.conftest import write_pack
    from triage.knowledge.loader import load_rules

    pack = write_pack(tmp_path, """\
rules:
  - id: test.block
    title: An error block with its detail line
    layer: driver
    component: test
    severity: error
    match:
      any: [{regex: 'BLOCK START'}]
    followed_by:
      within: 3
      match:
        any: [{regex: 'detail (?P<what>\\w+)'}]
    cause: The block failed because of {what}.
    fix:
      - Fix {what}.
    references: [https://example.org]
    examples: {match: ["BLOCK START\\ndetail x"], no_match: ["detail x\\nBLOCK START"]}
""")
    rules = load_rules([pack], builtin=False)
    text = "BLOCK START\ndetail one\ndetail two\ndetail three\nnoise\nnoise\nnoise\nnoise\ndetail late\n"
    report = triage.explain(text, rules=rules, matcher="reference")
    [finding] = report.findings
    assert (finding.count, finding.first_line, finding.last_line) == (1, 1, 2)
    assert [e.line for e in finding.evidence] == [1, 2] and finding.cause == "The block failed because of one."
    for matcher in ("literal", "hyperscan"):
        again = triage.explain(text, rules=rules, matcher=matcher).findings
        assert [(f.count, f.first_line, f.last_line) for f in again] == [(1, 1, 2)]
