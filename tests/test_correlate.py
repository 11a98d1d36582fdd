"""Correlation details found by a cold review: origins, pieces, summaries from elsewhere, drafts."""

from __future__ import annotations

import gzip
import json
import re

from typer.testing import CliRunner

from triage import analyze, explain
from triage.cli.app import app
from triage.inputs.sources import Source
from triage.kbtools.suggest import generalise
from triage.logformat.origin import origin_of_line, peer_of_line
from triage.render.markdown import render as markdown

runner = CliRunner()

HBM = ("[ERROR] RUNTIME(1946898,python3):2025-06-01-10:12:09.951.999 [api_impl.cc:5990]1946898 "
       "GetMemUceInfo:Error message is: [[0x80e01801]HBM Multi Bit Error.;],isSmmuFault=0.")


# -- origins ------------------------------------------------------------------------------------
def test_a_peer_rank_in_parentheses_is_not_the_lines_own_rank():
    line = "[ERROR] HCCL(77,python3):2025-06-01-10:12:09.951.999 [x.cc:1] wait timeout (peer rank=5)"
    assert origin_of_line(line).rank is None
    assert origin_of_line("(VllmWorker rank=3 pid=77) ERROR 06-01 10:12:10 [x.py:1] boom").rank == 3


def test_peer_rank_forms():
    assert peer_of_line("remote rank: [24]") == 24
    assert peer_of_line("Waiting peer rank: 4") == 4
    assert peer_of_line("INFO nothing to see") is None


def test_compose_service_names_need_a_digit_or_separator():
    # a log level at line start is not a docker compose service prefix
    assert origin_of_line("ERROR | something failed").node is None


# -- pieces -------------------------------------------------------------------------------------
def test_only_plain_utf8_files_are_cut_into_pieces(tmp_path):
    import triage.run.parallel as parallel

    body = "".join(f"INFO line {i}\n" for i in range(4000))
    plain = tmp_path / "plain.log"
    plain.write_text(body)
    utf16 = tmp_path / "utf16.log"
    utf16.write_bytes(body.encode("utf-16"))
    binary = tmp_path / "blob.log"
    binary.write_bytes(b"\n".join(bytes(range(256)) for _ in range(200)))
    chunk = 8 << 10
    assert len(parallel.plan([Source(str(plain), str(plain))], chunk)) > 1
    assert len(parallel.plan([Source(str(utf16), str(utf16))], chunk)) == 1
    assert len(parallel.plan([Source(str(binary), str(binary))], chunk)) == 1
    # and the UTF-16 file read with --jobs gives the same lines as read alone
    assert analyze([utf16], jobs=2).lines_read == analyze([utf16], jobs=1).lines_read == 4000


def test_an_input_error_is_reported_once_with_jobs(tmp_path):
    good = tmp_path / "a.log"
    good.write_text(HBM + "\n")
    broken = tmp_path / "b.log.gz"
    data = gzip.compress("".join(f"INFO step {i * 7919 % 100003}\n" for i in range(20000)).encode())
    broken.write_bytes(data[: len(data) // 2])  # truncated
    for jobs in (1, 2):
        report = analyze([good, broken], jobs=jobs)
        assert [e.file for e in report.input_errors] == [str(broken)], report.input_errors
        assert report.root_cause.rule_id == "hw.hbm-multi-bit-ecc"


# -- summaries from elsewhere -------------------------------------------------------------------
def _summary(tmp_path) -> dict:
    log = tmp_path / "rank-1.log"
    log.write_text(HBM + "\n")
    result = runner.invoke(app, ["analyze", str(log), "--format", "summary"])
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def test_merge_refuses_a_summary_of_another_version_or_with_bad_indices(tmp_path):
    good = _summary(tmp_path)
    cases = {
        "version": dict(good, summary_version=2),
        "index": json.loads(json.dumps(good).replace('"file": 0', '"file": 7')),
        "origin": json.loads(json.dumps(good).replace('"rank": 1', '"rank": "one"')),
    }
    for name, data in cases.items():
        path = tmp_path / f"{name}.json"
        path.write_text(json.dumps(data))
        result = runner.invoke(app, ["merge", str(path)])
        assert result.exit_code == 2, (name, result.output)
        assert "not a triage summary" in result.stderr, (name, result.stderr)
    path = tmp_path / "good.json"
    path.write_text(json.dumps(good))
    result = runner.invoke(app, ["merge", str(path), "-f", "json"])
    assert result.exit_code == 1 and json.loads(result.stdout)["root_cause"]["rule_id"] == "hw.hbm-multi-bit-ecc"


# -- the Markdown report carries the cluster verdict --------------------------------------------
def test_markdown_names_the_first_failing_rank(tmp_path):
    (tmp_path / "node-0").mkdir()
    (tmp_path / "node-0" / "rank-0.log").write_text(
        "[rank0]:[E601 10:12:11.000 ProcessGroupHCCL.cpp:1] [Rank 0] Watchdog caught collective operation "
        "timeout: WorkHCCL(SeqNum=9, OpType=ALLREDUCE) ran for 1800000 milliseconds before timing out.\n")
    (tmp_path / "node-0" / "rank-1.log").write_text(HBM + "\n")
    report = analyze([tmp_path])
    text = markdown(report)
    assert report.cluster is not None and report.cluster.first_failure.rank == 1
    assert "**Cluster: 2 ranks" in text and "- First failure: rank 1:" in text


# -- rule drafts --------------------------------------------------------------------------------
def test_drafted_patterns_escape_only_metacharacters():
    line = "[ERROR] zz(1).conf: value=[3] + 0x1f at /opt/x-1.2/a.py: bad (code 17)?"
    pattern = generalise(line)
    assert re.search(pattern, line)
    assert re.search(pattern, line.replace("17", "4096").replace("0x1f", "0xdead").replace("/opt/x-1.2", "/srv/y"))
    assert "\\ " not in pattern and "\\=" not in pattern and "\\:" not in pattern and "\\-" not in pattern


def test_explain_of_a_bare_wrapper_lists_no_unexplained_line():
    report = explain("EI9999: Inner Error!\n")
    assert report.root_cause.rule_id == "generic.ez9999-inner-error"
    assert report.unrecognised == []


def test_node_folders_named_one_by_one_are_the_nodes(tmp_path, builtin_rules):
    from benchmarks.bundlegen import make_bundle

    truth = make_bundle(tmp_path / "b", rules=builtin_rules, nodes=3, ranks_per_node=2, lines_per_rank=200)
    whole = analyze([tmp_path / "b"])
    one_by_one = analyze(sorted((tmp_path / "b").glob("node-*")))
    assert one_by_one.cluster.nodes == whole.cluster.nodes == [f"node-{k}" for k in range(3)]
    assert one_by_one.cluster.first_failure.node == truth.first_node
    # two folders with the same name, or Ascend log folders, name no node
    assert analyze([tmp_path / "b" / "node-0"]).cluster.nodes == []


def _plog(pid: int, rank: int, size: int) -> str:
    return (f"[INFO] HCCL({pid},python):2025-06-01-10:00:00.000.000 [op_base.cc:1] [HcclCommInitRootInfo] "
            f"rank[{rank}] rankSize[{size}] deviceLogicId[{rank % 8}] init success\n")


def test_a_plog_file_takes_the_rank_of_its_largest_communicator_whole_or_in_pieces(tmp_path, monkeypatch):
    import triage.run.parallel as parallel

    ecc = "[ERROR] DRV(100,python):2025-06-01-10:00:09.000.000 [dev.cc:1] HBM MULTI BIT ECC ERROR\n"
    noise = "[INFO] RUNTIME(100,python):2025-06-01-10:00:01.000.000 [stream.cc:1] stream created\n" * 2000
    # a tensor-parallel group first (rank 1 of 4), the world (rank 13 of 16) later, each in its own piece
    one = tmp_path / "plog-100.log"
    one.write_text(_plog(100, 1, 4) + noise + _plog(100, 13, 16) + noise + ecc)
    # two processes' lines in one file (rank 2 and rank 5 of the world): no rank for the file
    two = tmp_path / "plog-200.log"
    two.write_text(_plog(200, 2, 16) + _plog(201, 5, 16) + ecc.replace("(100,", "(200,"))
    whole = analyze([str(one), str(two)])
    monkeypatch.setattr(parallel, "CHUNK", 64 << 10)
    assert len(parallel.plan([Source(one.name, str(one))])) >= 3
    pieces = analyze([str(one), str(two)])
    for report in (whole, pieces):
        f = next(f for f in report.findings if f.rule_id == "hw.hbm-multi-bit-ecc")
        assert f.ranks == [13]  # file one only: file two has no rank
        assert sorted((e.file == str(one), e.origin.rank) for e in f.evidence) == [(False, None), (True, 13)]


def test_a_warning_that_explains_an_error_leads_with_the_errors_severity():
    """triton-ascend warns that the BiSheng compiler is missing (a UserWarning: alone, no failure), then
    raises ``0 active drivers``: the warning rule explains the error, so it leads as critical and the run
    exits 1; the same warning alone stays a warning and the run is clean."""
    warn = ("/tmp/ta/lib/python3.11/site-packages/triton/backends/ascend/driver.py:179: UserWarning: "
            "[Errno 2] No such file or directory: 'ccec'\n")
    error = "RuntimeError: 0 active drivers ([]). There should only be one.\n"
    report = explain(warn + "  warnings.warn(red + str(e_npucompiler) + reset)\n" + error)
    first, *rest = report.findings
    assert (first.rule_id, first.severity) == ("triton.ascend-backend-inactive", "critical")
    assert [(f.rule_id, f.suppressed_by) for f in rest] == [
        ("triton.no-active-driver", "triton.ascend-backend-inactive")]
    result = CliRunner().invoke(app, ["explain", warn + error])
    assert result.exit_code == 1 and result.output.startswith("Root cause: triton-ascend's NPU backend")
    alone = explain(warn)
    assert [(f.rule_id, f.severity) for f in alone.findings] == [("triton.ascend-backend-inactive", "warning")]
    assert CliRunner().invoke(app, ["explain", warn]).exit_code == 0


def test_a_warning_is_not_raised_by_a_wrapper_or_outside_the_file_where_it_explains_an_error(tmp_path):
    # an info line that lists generic.python-runtime-error in `suppresses` does not lead over an
    # unrelated exception (the wrapper may be another failure's): the exception leads in its own words
    report = explain("Gemma 2 should use flash attention 2, change `flash_attn` to fa2.\n"
                     "RuntimeError: shape mismatch in my dataset collator\n")
    assert report.root_cause is not None and report.root_cause.rule_id.startswith("unexplained.")
    assert [(f.rule_id, f.severity) for f in report.findings if not f.rule_id.startswith("unexplained.")][0] == (
        "training.llamafactory-attention-adjusted", "info")
    # a warning that explains only a wrapper stays below the specific error of the same log
    report = explain("WARNING 09-18 10:33:14 [camem.py:64] Failed to import vllm_ascend_C:No module named "
                     "'vllm_ascend.vllm_ascend_C'\n"
                     "RuntimeError: Ascend config is not initialized. Please call init_ascend_config first.\n"
                     "RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}\n")
    assert report.root_cause.rule_id == "vllm-ascend.internal-platform"
    assert {f.rule_id: f.severity for f in report.findings}["install.vllm-ascend-custom-ops-missing"] == "warning"
    # two files: the warning alone in a.log is no incident root; in b.log it explains the error and is
    warn = ("/tmp/ta/lib/python3.11/site-packages/triton/backends/ascend/driver.py:179: UserWarning: "
            "[Errno 2] No such file or directory: 'ccec'\n")
    (tmp_path / "a.log").write_text(warn)
    (tmp_path / "b.log").write_text(warn + "RuntimeError: 0 active drivers ([]). There should only be one.\n")
    report = analyze([tmp_path / "a.log", tmp_path / "b.log"])
    assert report.root_cause.rule_id == "triton.ascend-backend-inactive"
    roots = {inc.origins[0].file.rsplit("/", 1)[-1]: inc.root_cause for inc in report.incidents
             if len({o.file for o in inc.origins}) == 1}
    assert roots == {"a.log": None, "b.log": "triton.ascend-backend-inactive"}
