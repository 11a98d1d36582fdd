"""When no rule knows the line (issue 11): the telling line leads, live announcements, rule drafts."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import triage
from triage.cli.app import app

runner = CliRunner()

# The new user's log of the issue: four HCCL plog lines that state their own cause (no rule knows
# them) and one generic EI9999 wrapper.
HCCL_LINES = "\n".join(
    f"[ERROR] HCCL(4242,python3):2025-12-04-14:46:0{i}.911.312 [zzz_link.cc:81{i}] [4242][Zzz]Zzz link "
    f"negotiation with peer {i} refused: crc mismatch on lane {i}"
    for i in range(4))
LOG = f"INFO start\n{HCCL_LINES}\nEI9999: Inner Error!\n"


def test_telling_line_leads_over_a_generic_wrapper():
    report = triage.explain(LOG)
    root = report.root_cause
    assert root is not None and root.rule_id == "unexplained.plog-error"
    assert root.generic is False and root.layer == "driver" and root.layer_guessed and root.component == "HCCL"
    assert "crc mismatch on lane 0" in root.cause and root.first_line == 2
    assert "triage rules suggest" in root.fix[2]
    ids = [f.rule_id for f in report.findings]
    assert ids.index("unexplained.plog-error") < ids.index("generic.ez9999-inner-error")
    # the unexplained lines are listed whenever the root cause is unexplained (one per shape: the
    # four lines differ only in their numbers)
    assert [u.line for u in report.unrecognised] == [2]


def test_a_specific_rule_outranks_an_unexplained_line():
    oom = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
           "58.00 GiB already allocated; 0 bytes free; 59.00 GiB reserved in total by PyTorch)")
    report = triage.explain(LOG + oom + "\n")
    assert report.root_cause.rule_id.startswith("memory.")
    assert "unexplained.plog-error" not in [f.rule_id for f in report.findings]
    assert report.unrecognised == []


def test_a_code_with_a_known_meaning_is_not_a_wrapper():
    # an ACL code the table knows says something: an unexplained stack line does not displace it
    report = triage.explain("        build op model failed, result = 500001[FUNC:ReportInnerError]"
                            "[FILE:log_inner.cpp][LINE:145]\n")
    assert report.root_cause.rule_id == "codes.acl-error"


def test_unexplained_counts_as_error_for_fail_on(tmp_path):
    log = tmp_path / "x.log"
    log.write_text(LOG)
    assert runner.invoke(app, ["analyze", str(log)]).exit_code == 1
    # EI9999 is severity error and the unexplained line counts as error: --fail-on critical ignores both
    assert runner.invoke(app, ["analyze", str(log), "--fail-on", "critical"]).exit_code == 0


def test_unexplained_lines_are_announced_live_in_jsonl(tmp_path):
    result = runner.invoke(app, ["analyze", "-", "-f", "jsonl"], input=LOG)
    records = [json.loads(line) for line in result.stdout.splitlines()]
    kinds = [r["type"] for r in records]
    assert kinds.count("unexplained") == 1 and kinds[-1] == "summary"  # one per shape
    first = next(r for r in records if r["type"] == "unexplained")
    assert first["line"] == 2 and first["kind"] == "plog-error" and "crc mismatch on lane 0" in first["text"]
    assert kinds.index("unexplained") < kinds.index("summary")
    assert records[-1]["root_cause"] == "unexplained.plog-error"


def test_unexplained_lines_are_announced_on_stderr_in_text_mode():
    result = runner.invoke(app, ["analyze", "-"], input=LOG)
    assert "[unexplained] line 2 (plog-error):" in result.stderr
    assert result.stdout.splitlines()[0].startswith("Possible cause: An error no rule knows (HCCL): ")


def test_suggest_drafts_a_rule_that_lint_accepts_with_a_warning(tmp_path):
    log = tmp_path / "x.log"
    log.write_text(LOG)
    draft = tmp_path / "pack" / "draft.yaml"
    draft.parent.mkdir()
    result = runner.invoke(app, ["rules", "suggest", str(log), "-o", str(draft)])
    assert result.exit_code == 0, result.output
    text = draft.read_text()
    assert "draft: true" in text and "confidence: hypothesis" in text and "TODO" in text
    lint = runner.invoke(app, ["rules", "lint", "--rules", str(draft.parent)])
    assert lint.exit_code == 0 and "warning:" in lint.stderr and "draft" in lint.stderr
    from triage.knowledge.loader import load_rules

    rules = load_rules([draft.parent])
    drafts = [r for r in rules.rules if r.pack != "builtin"]
    assert len(drafts) == 1  # the four lines differ only in numbers: one rule
    rule_id = drafts[0].id
    # it matches its own line and a variant with other numbers, paths and IPs
    variant = ("[ERROR] HCCL(9,python3):2026-01-01-00:00:00.000.000 [zzz_link.cc:999] [9][Zzz]Zzz link "
               "negotiation with peer 15 refused: crc mismatch on lane 7")
    for text_ in (HCCL_LINES.splitlines()[0], variant):
        report = triage.explain(text_, rules=rules)
        assert report.findings[0].rule_id == rule_id
        assert report.findings[0].confidence == "hypothesis"


def test_suggest_generalises_paths_ips_and_hex(tmp_path):
    from triage.kbtools.suggest import skeleton
    from triage.report.models import Unrecognised

    line = ("[ERROR] RUNTIME(7,python):2025-01-01-00:00:00.000.000 [x.cc:1] open /usr/local/Ascend/driver/lib64/a.so "
            "from 10.0.0.7:8080 failed, ret 0x7f3a, version 8.0.RC3")
    rule = skeleton(Unrecognised(file=None, line=1, text=line, kind="plog-error"))
    import re

    rx = re.compile(rule["match"]["any"][0]["regex"])
    assert rx.search(line)
    assert rx.search(line.replace("/usr/local/Ascend/driver/lib64/a.so", "/opt/x/y/b.so")
                     .replace("10.0.0.7:8080", "192.168.1.20:60000").replace("0x7f3a", "0x1")
                     .replace("8.0.RC3", "8.1.RC1"))


def test_drafts_are_refused_in_the_builtin_base(tmp_path, monkeypatch):
    import shutil

    from triage.errors import RulesInvalid
    from triage.knowledge import loader

    base = tmp_path / "rules"
    shutil.copytree(loader.builtin_rules_dir(), base)
    log = tmp_path / "x.log"
    log.write_text(LOG)
    runner.invoke(app, ["rules", "suggest", str(log), "-o", str(base / "zz-draft.yaml")])
    monkeypatch.setattr(loader, "builtin_rules_dir", lambda: base)
    try:
        loader.load_rules()
    except RulesInvalid as exc:
        assert any("draft" in p.field for p in exc.problems)
    else:
        raise AssertionError("a draft in the built-in base must not load")


def test_a_vllm_critical_line_keeps_a_crashed_log_from_being_called_clean():
    # the workers' own trace was not pasted: the engine's CRITICAL shutdown line is all that tells the crash
    log = ("(VllmWorker rank=0 pid=101) INFO 05-02 01:29:53 [model_runner_v1.py:2114] Starting to load model /m\n"
           "(EngineCore_DP0 pid=99) CRITICAL 05-02 01:31:10 [multiproc_executor.py:49] MultiprocExecutor got "
           "fatal signal from worker processes, shutting down.\n"
           "INFO 05-02 01:31:10 [launcher.py:80] a CRITICAL 05-02 01:31:10 [x.py:1] echoed in a message is not one\n")
    report = triage.explain(log)
    root = report.root_cause
    assert root is not None and root.rule_id == "unexplained.fatal-log"
    assert (root.component, root.layer, root.layer_guessed) == ("vLLM", "framework", True)
    assert root.first_line == 2 and "got fatal signal from worker processes" in root.cause
    assert [(u.line, u.kind) for u in report.unrecognised] == [(2, "fatal-log")]


def test_a_torch_c10_error_line_is_an_unexplained_error():
    """vllm-project/vllm-ascend#4594 (not cited: the shape only): torch_npu's c10 logger at ERROR,
    ``[rank1]:[E1201 06:31:02.635343200 compiler_depend.ts:444] message``, one per rank, and nothing a
    rule knows. The log is not clean: the first rank's line leads, in its own words; the c10 header's
    unpadded month and its nanoseconds (a monotonic clock, not the second's fraction) give its time;
    a warning and ProcessGroupHCCL's follow-up lines are not errors of their own."""
    text = "\n".join([
        "[rank0]:[W1201 06:30:59.100000000 compiler_depend.ts:1] Warning: a slow path was taken here",
        "[rank1]:[E1201 06:31:02.635343200 compiler_depend.ts:444] SelfAttentionOperation setup failed!",
        "[rank1]:[E1201 06:31:02.635400000 ProcessGroupHCCL.cpp:628] Some HCCL operations have failed or timed out. "
        "Due to the asynchronous nature of ASCEND kernels, subsequent NPU operations might run on corrupted data.",
        "[rank0]:[E107 06:31:03.000000001 compiler_depend.ts:444] SelfAttentionOperation setup failed!",
    ])
    report = triage.explain(text)
    root = report.root_cause
    assert (root.rule_id, root.first_line, root.ranks) == ("unexplained.torch-log-error", 2, [1])
    assert (root.component, root.layer) == ("torch_npu", "framework")
    assert "SelfAttentionOperation setup failed!" in root.title and "[E1201" not in root.title
    assert [(u.line, u.kind) for u in report.unrecognised] == [(2, "torch-log-error")]  # one per shape
    from triage.logformat.times import time_of_line

    assert str(time_of_line(text.splitlines()[1]).when) == "1900-12-01 06:31:02"
    assert str(time_of_line(text.splitlines()[3]).when) == "1900-01-07 06:31:03"


def test_an_earlier_python_exception_leads_over_a_later_c10_error_line():
    """A c10 ERROR line that follows a rank's exception (another rank's TCPStore check failing once the
    first is gone) is no better a lead than the exception: the earlier line leads."""
    report = triage.explain("\n".join([
        "[rank0]:Traceback (most recent call last):",
        '[rank0]:  File "/srv/train.py", line 10, in <module>',
        "[rank0]:ValueError: the tokenizer config has no chat template for this model",
        '[rank1]:[E1201 06:31:09.635343200 ProcessGroupHCCL.cpp:1515] [PG 0 Rank 1] Failed to check the "should '
        'dump" flag on TCPStore, (maybe TCPStore server has shut down too early), with error: Connection reset',
    ]))
    assert (report.root_cause.rule_id, report.root_cause.first_line) == ("unexplained.python-exception", 3)


def test_a_c10_error_line_behind_torchruns_tee_prefix():
    """``torchrun --tee 3`` puts ``[default4]:`` (role and local rank) before each line: stripped, and
    the ``[rank4]:`` behind it still names the rank."""
    report = triage.explain("[default4]:[rank4]:[E1201 06:31:02.635343200 compiler_depend.ts:444] "
                            "SelfAttentionOperation setup failed!")
    assert (report.root_cause.rule_id, report.root_cause.ranks) == ("unexplained.torch-log-error", [4])
