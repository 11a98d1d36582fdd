"""A failing log is never called clean: the error-line conventions of every program in the stack
(compat/conventions.yaml), stalls, interrupted runs, restarts, several files, one jsonl verdict."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pytest

from tests.conftest import CORPUS, default_sigint
from triage.api import analyze, explain
from triage.knowledge.compat import load_compat
from triage.knowledge.loader import load_rules

ROOT = Path(__file__).resolve().parents[1]
KNOWLEDGE = load_compat()
NO_RULES = load_rules([], builtin=False)
EXAMPLE = ROOT / "examples" / "vllm-ascend-507035.log"


def _kinds(text: str) -> list[str]:
    """The kinds of unexplained lines in ``text`` read with no rules (only the conventions speak)."""
    report = explain(text, rules=NO_RULES, knowledge=replace(KNOWLEDGE, checks=[]))
    return [u.kind for u in report.unrecognised]


CONVENTION_EXAMPLES = [pytest.param(c.kind, e.text, True, id=f"{c.kind}-match-{i}")
                       for c in KNOWLEDGE.conventions for i, e in enumerate(c.examples.match)]
CONVENTION_EXAMPLES += [pytest.param(c.kind, e.text, False, id=f"{c.kind}-no-match-{i}")
                        for c in KNOWLEDGE.conventions for i, e in enumerate(c.examples.no_match)]


@pytest.mark.parametrize(("kind", "text", "matches"), CONVENTION_EXAMPLES)
def test_convention_examples(kind, text, matches):
    assert (kind in _kinds(text)) is matches


def test_every_convention_has_real_or_rendered_examples():
    for c in KNOWLEDGE.conventions:
        for e in [*c.examples.match, *c.examples.no_match]:
            assert e.source.startswith(("http", "rendered:", "corpus/", "a ", "an ", "vllm-project/", "pip ")) \
                or "(" in e.source, (c.kind, e.source)


def test_error_code_zero_is_not_an_error():
    assert _kinds("INFO 08-28 02:30:00 [worker.py:12] aclrtSynchronizeStream returned, error code is 0") == []
    assert _kinds("RuntimeError: ACL stream synchronize failed, error code is 507035") == ["python-exception"]


def test_warning_level_conventions_do_not_fail_the_exit_code():
    line = ("  Warning  FailedMount  2m (x3 over 6m)  kubelet  MountVolume.SetUp failed for volume \"logs\" : "
            "hostPath type check failed: /var/log/npu is not a directory")
    report = explain(line, rules=NO_RULES)
    assert report.findings[0].rule_id == "unexplained.k8s-warning-event"
    assert report.findings[0].severity == "warning"
    assert [u.severity for u in report.unrecognised] == ["warning"]
    assert report.exit_code("error") == 0 and report.exit_code("warning") == 1


def test_an_outcome_line_leads_only_alone():
    # `Killed` leads when nothing else fired; beside a wrapper that fired it is only listed
    assert explain("Killed\n", rules=NO_RULES).root_cause.rule_id == "unexplained.shell-error"
    report = explain("ERROR: Could not find a version that satisfies the requirement zzz-demo==1.0 (from "
                     "versions: none)\ngmake: *** [Makefile:286: vllm_ascend_C] Error 2\n", rules=NO_RULES)
    assert report.root_cause.rule_id == "unexplained.pip-error"


def test_a_malformed_convention_names_its_file_line_and_field(tmp_path):
    from triage.errors import RulesInvalid
    from triage.knowledge.compat.load import _load_compat

    text = (ROOT / "compat" / "conventions.yaml").read_text(encoding="utf-8")
    bad = text.replace("prefilter: 'ninja: build stopped", "prefilter: '(?i)ninja: build stopped", 1)
    bad = bad.replace("    prefilter: 'make(?:\\[\\d+\\])?", "    prefilter: '(?i)make(?:\\[\\d+\\])?", 1)
    (tmp_path / "conventions.yaml").write_text(bad, encoding="utf-8")
    with pytest.raises(RulesInvalid) as err:
        _load_compat(tmp_path)
    problem = err.value.problems[0]
    assert problem.file.endswith("conventions.yaml") and problem.field == "convention build-error: prefilter"
    assert bad.splitlines()[problem.line - 1].strip().startswith("prefilter: '(?i)make")


# -- stalls -----------------------------------------------------------------------------------------

def test_a_log_ending_in_a_repeated_wait_is_a_stall():
    lines = ["INFO loading model"] + [f"[rank{r}] waiting for rank 3 to join the process group (attempt {i})"
                                      for i, r in enumerate([0, 0, 0, 0])]
    report = explain("\n".join(lines) + "\n")
    stall = next(f for f in report.findings if f.rule_id == "stall.repeated-wait")
    assert (stall.severity, stall.count, stall.first_line, stall.last_line) == ("warning", 4, 2, 5)
    assert stall.evidence[0].text.endswith("(attempt 3)")
    assert report.exit_code() == 0


@pytest.mark.parametrize("tail", [
    # something else after the repeated line
    ["Waiting for the lock", "Waiting for the lock", "Waiting for the lock", "INFO lock acquired"],
    # vLLM's periodic engine statistics say "Waiting: 0 reqs": a healthy idle server
    [f"INFO 08-28 02:40:0{i} [loggers.py:118] Engine 000: Avg prompt throughput: 0.0 tokens/s, Avg generation "
     "throughput: 0.0 tokens/s, Running: 0 reqs, Waiting: 0 reqs, GPU KV cache usage: 0.0%" for i in range(5)],
    # repeated, but not a wait
    ["iteration 10 | lm loss 2.1", "iteration 11 | lm loss 2.0", "iteration 12 | lm loss 1.9"],
    # a wait seen only twice
    ["Waiting for the lock", "Waiting for the lock"],
])
def test_no_stall(tail):
    assert not [f for f in explain("\n".join(tail) + "\n").findings if f.rule_id == "stall.repeated-wait"]


def test_the_stall_examples_of_the_data():
    spec = KNOWLEDGE.stall
    for e in spec.examples.match:
        report = explain("\n".join([e.text] * spec.repeats) + "\n")
        assert any(f.rule_id == "stall.repeated-wait" for f in report.findings), e.text
    for e in spec.examples.no_match:
        report = explain("\n".join([e.text] * (spec.repeats + 2)) + "\n")
        assert not any(f.rule_id == "stall.repeated-wait" for f in report.findings), e.text


# -- restarts, several files, the traceback's package -------------------------------------------------

def test_a_clean_restart_leads_with_the_earlier_attempts_cause(tmp_path):
    log = tmp_path / "restart.log"
    log.write_text(EXAMPLE.read_text() + "INFO 08-28 02:35:00 [api_server.py:1287] vLLM API server version 0.9.1\n")
    report = analyze(str(log))
    assert report.root_cause.rule_id == "op.vector-core-exception"
    assert report.root_cause_earlier_attempt is True
    assert report.unrecognised == []  # the earlier attempt's EngineDeadError is not the last one's
    assert report.earlier_attempts[0].root_cause == "op.vector-core-exception"
    from triage.render.text import headline

    assert "restarted after it" in headline(report)


def test_a_restart_that_fails_again_leads_with_its_own_cause(tmp_path):
    log = tmp_path / "restart.log"
    log.write_text(EXAMPLE.read_text() + "INFO 08-28 02:35:00 [api_server.py:1287] vLLM API server version 0.9.1\n"
                   "ERROR 08-28 02:36:00 [core.py:634] RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB\n")
    report = analyze(str(log))
    assert report.root_cause.rule_id != "op.vector-core-exception"
    assert report.root_cause_earlier_attempt is False


def test_two_files_never_merge_into_one_possible_cause(tmp_path):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("ValueError: the first file's own message, no rule knows it\n")
    b.write_text("ValueError: the second file's own message, no rule knows it\n")
    report = analyze([str(a), str(b)])
    lead = report.root_cause
    assert lead.rule_id == "unexplained.python-exception"
    assert {e.file for e in lead.evidence} == {str(a)}
    assert sorted((u.file, u.line) for u in report.unrecognised) == [(str(a), 1), (str(b), 1)]


def test_an_exception_names_the_package_it_was_raised_in():
    text = (
        "INFO 08-28 02:30:00 [__init__.py:30] vllm-ascend version 0.9.1\n"
        "Traceback (most recent call last):\n"
        '  File "/usr/local/lib/python3.11/site-packages/vllm_ascend/worker/model_runner_v1.py", line 1234, '
        "in execute_model\n"
        "    hidden = self._run(x)\n"
        '  File "/usr/local/lib/python3.11/site-packages/torch/nn/modules/module.py", line 1751, in _call_impl\n'
        "    return forward_call(*args, **kwargs)\n"
        "subprocess.CalledProcessError: Command '['bishengir-compile', 'x.mlir']' returned non-zero exit status 1.\n")
    lead = explain(text).root_cause
    assert lead.rule_id == "unexplained.python-exception"
    assert lead.component == "vllm-ascend"
    assert "vllm_ascend.worker.model_runner_v1.execute_model" in lead.cause
    assert "0.9.1" in lead.cause and "vllm_ascend/worker/model_runner_v1.py" in lead.fix[0]
    # without a frame in the stack the exception class is no component
    assert explain(text.splitlines()[-1]).root_cause.component == "Python"


# -- the CLI: jsonl withdrawals, long lines, interrupted runs ----------------------------------------------

def _cli(*args):
    return [sys.executable, "-c", "from triage.cli.app import main; main()", *args]


def test_jsonl_withdraws_what_the_report_explains(tmp_path):
    log = tmp_path / "restart.log"
    log.write_text(EXAMPLE.read_text() + "INFO 08-28 02:35:00 [api_server.py:1287] vLLM API server version 0.9.1\n")
    out = subprocess.run(_cli("analyze", "-", "-f", "jsonl"), input=log.read_text(), capture_output=True,
                         text=True, timeout=120)
    records = [json.loads(x) for x in out.stdout.splitlines()]
    announced = {(r["file"], r["line"]) for r in records if r["type"] == "unexplained"}
    withdrawn = {(r["file"], r["line"]) for r in records if r["type"] == "withdrawn"}
    final = records[-1]
    assert final["type"] == "summary" and final["unrecognised"] == []
    assert announced and announced == withdrawn


def test_a_line_over_the_limit_is_said_in_the_headline():
    from triage.render.text import headline
    from triage.run.analysis import Analysis

    analysis = Analysis(load_rules(), "reference", max_line=4096, block_size=4096)
    import io

    list(analysis.feed(io.BytesIO(b"ok\n" + b"x" * 20000 + b" RuntimeError: lost past the limit\nok\n")))
    report = analysis.report()
    assert report.truncated_lines[0].line == 2
    assert "over the line limit read only in part" in headline(report)


def _wait_for(proc, needle: str, limit: float = 120.0) -> list[str]:
    lines = []
    end = time.monotonic() + limit
    while time.monotonic() < end:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line)
        if needle in line:
            return lines
    raise AssertionError(f"{needle!r} not seen in {lines}")


# a slow disk: every block read is followed by a pause, in the CLI's process and its forked workers
_SLOW_CLI = ("import time\nimport triage.inputs.reader as reader\n_iter = reader.BlockReader.__iter__\n"
             "def slow(self):\n    for block in _iter(self):\n        yield block\n        time.sleep(2.0)\n"
             "reader.BlockReader.__iter__ = slow\nfrom triage.cli.app import main\nmain()\n")


@pytest.mark.parametrize(("jobs", "sig", "code"), [("1", signal.SIGINT, 130), ("2", signal.SIGTERM, 143),
                                                   ("auto", signal.SIGINT, 130)])
def test_an_interrupted_run_reports_what_was_read(tmp_path, jobs, sig, code):
    folder = tmp_path / "logs"
    folder.mkdir()
    (folder / "a.log").write_text(EXAMPLE.read_text() + "INFO filler line\n" * 20000)
    for name in "bcdef":
        (folder / f"{name}.log").write_text("INFO filler line\n" * 20000)
    proc = subprocess.Popen([sys.executable, "-c", _SLOW_CLI, "analyze", str(folder), "-f", "jsonl", "--jobs", jobs],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    _wait_for(proc, "op.vector-core-exception")
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=120)
    final = json.loads(out.splitlines()[-1])
    assert proc.returncode == code, err
    assert final["interrupted"] == ("SIGINT" if sig == signal.SIGINT else "SIGTERM")
    assert 20000 <= final["lines_read"] < 6 * 20000 and final["root_cause"] == "op.vector-core-exception"


def test_stdin_ended_by_a_signal_is_a_normal_end():
    proc = subprocess.Popen(_cli("analyze", "-", "-f", "jsonl"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, preexec_fn=default_sigint)
    proc.stdin.write(EXAMPLE.read_text())
    proc.stdin.flush()
    _wait_for(proc, "op.vector-core-exception")
    proc.send_signal(signal.SIGINT)
    out, _ = proc.communicate(timeout=120)
    final = json.loads(out.splitlines()[-1])
    assert proc.returncode == 1 and final["ended_by"] == "SIGINT" and final["interrupted"] is None


# -- the corpus: failing logs get a finding or a line, healthy logs stay clean --------------------------

def test_every_failing_corpus_log_gets_a_finding_or_a_line():
    from triage.kbtools.corpus import load_cases

    called_clean = []
    for case in load_cases(CORPUS):
        if case.case.healthy or case.case.expect.root_cause is None:
            continue
        report = analyze(str(case.log))
        if not report.findings and not report.unrecognised:
            called_clean.append(case.name)
    assert called_clean == []


def test_the_healthy_corpus_logs_of_the_stacks_programs():
    from triage.kbtools.corpus import load_cases

    healthy = [c for c in load_cases(CORPUS) if c.case.healthy and c.name.startswith("healthy-")]
    assert len(healthy) >= 20
    alarms = []
    for case in healthy:
        report = analyze(str(case.log))
        errors = [f for f in report.findings
                  if f.severity in ("critical", "error") or f.pack in ("unexplained", "stall")]
        if report.exit_code() != 0 or errors or report.unrecognised:
            alarms.append((case.name, [f.rule_id for f in report.findings], [u.kind for u in report.unrecognised]))
    assert alarms == []


def test_an_sglang_error_line_leads_without_its_timestamp():
    """sglang's logger prints ``[time] message`` with no level: its error lines are a convention of their
    own, and the search hint quotes the message, not the time (sgl-kernel-npu#468, second fresh check)."""
    report = explain("[2026-05-11 11:19:08 TP0] Prefill batch. #new-seq: 1, #new-token: 6\n"
                     "[2026-05-11 11:19:09] Error in request: npu_wrapper_preprocess.<locals>._preprocess() "
                     "missing 1 required positional argument: 'interpolation'\n")
    assert report.root_cause.rule_id == "unexplained.sglang-error"
    assert report.root_cause.fix[0].endswith("`Error in request: npu_wrapper_preprocess.<locals>._preprocess() "
                                             "missing 1 requir`.")
