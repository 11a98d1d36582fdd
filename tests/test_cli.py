"""The command line, through typer's runner and through real processes with pipes."""

from __future__ import annotations

import json
import select
import subprocess
import sys

from typer.testing import CliRunner

from tests.conftest import CORPUS, MINIMAL_RULE, default_sigint, write_pack
from triage.cli.app import app

runner = CliRunner()
OOM_LINE = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
            "58.10 GiB already allocated; 1.10 GiB free; 58.60 GiB reserved in total by PyTorch)")


def _first_case_with_root():
    from triage.kbtools.corpus import load_cases

    return next(c for c in load_cases(CORPUS) if c.case.expect.root_cause and not c.case.synthetic)


def test_analyze_file_json_shape_and_exit_code():
    case = _first_case_with_root()
    result = runner.invoke(app, ["analyze", str(case.log), "--format", "json"])
    assert result.exit_code == 1, result.output
    data = json.loads(result.stdout)
    assert data["schema_version"] == 1
    assert set(data) >= {"triage_version", "rules_digest", "root_cause", "findings", "unrecognised", "lines_read"}
    assert data["root_cause"]["rule_id"] == case.case.expect.root_cause
    assert data["findings"][0] == data["root_cause"]
    finding = data["root_cause"]
    for key in ("rule_id", "title", "layer", "component", "severity", "cause", "fix", "evidence", "first_line",
                "last_line", "count", "captures", "references"):
        assert key in finding
    ev = finding["evidence"][0]
    assert ev["file"] == str(case.log)
    raw_lines = case.log.read_text(encoding="utf-8", errors="replace").splitlines()
    assert raw_lines[ev["line"] - 1] == ev["text"]
    assert data["lines_read"] == len(raw_lines)


def test_text_report_first_line_names_root_cause_layer_and_fix():
    case = _first_case_with_root()
    result = runner.invoke(app, ["analyze", str(case.log)])
    data = json.loads(runner.invoke(app, ["analyze", str(case.log), "-f", "json"]).stdout)
    root = data["root_cause"]
    first = result.stdout.splitlines()[0]
    assert first.startswith("Root cause: " + root["title"])
    assert f"[{root['layer']}/{root['component']}]" in first
    assert root["fix"][0][:30] in first


def test_clean_input_exits_zero(tmp_path):
    log = tmp_path / "ok.log"
    log.write_text("INFO 12-05 07:51:00 [core.py:75] all good\n")
    result = runner.invoke(app, ["analyze", str(log)])
    assert result.exit_code == 0
    assert result.stdout.startswith("No problem found in 1 line\n")


def test_unrecognised_error_is_never_clean(tmp_path):
    log = tmp_path / "bad.log"
    log.write_text("Traceback (most recent call last):\n  File \"x.py\", line 1\nZzzTotallyNewError: flux capacitor\n")
    result = runner.invoke(app, ["analyze", str(log), "-f", "json"])
    assert result.exit_code == 1
    data = json.loads(result.stdout)
    assert data["root_cause"]["rule_id"] == "unexplained.python-exception"
    assert data["root_cause"]["layer"] == "framework" and data["root_cause"]["layer_guessed"] is True
    assert "flux capacitor" in data["root_cause"]["cause"]
    no_origin = {"node": None, "rank": None, "dp": None, "tp": None, "device": None, "pid": None, "group": None,
                 "group_rank": None}
    assert data["unrecognised"] == [{"file": str(log), "line": 3, "text": "ZzzTotallyNewError: flux capacitor",
                                     "kind": "python-exception", "origin": no_origin, "severity": "error"}]


def test_missing_file_is_one_line_error_exit_2(tmp_path):
    result = runner.invoke(app, ["analyze", str(tmp_path / "nope.log")])
    assert result.exit_code == 2
    assert "no such file" in result.stderr and "Traceback" not in result.output


def test_one_missing_path_among_several_reports_the_others(tmp_path):
    good = tmp_path / "good.log"
    good.write_text("INFO start\n" + OOM_LINE + "\n")
    missing = tmp_path / "missing.log"
    result = runner.invoke(app, ["analyze", str(good), str(missing), "-f", "json"])
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["root_cause"]["first_file"] == str(good) and data["lines_read"] == 2
    assert data["input_errors"] == [{"file": str(missing), "message": f"{missing}: no such file or directory"}]
    result = runner.invoke(app, ["analyze", str(missing), str(good)])
    assert result.exit_code == 2
    assert result.stdout.startswith("Root cause: ")
    assert result.stderr.splitlines() == [f"triage: {missing}: no such file or directory"]


def test_every_path_missing_is_one_error_line_and_no_report(tmp_path):
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    result = runner.invoke(app, ["analyze", str(a), str(b), "-f", "json"])
    assert result.exit_code == 2 and result.stdout == ""
    assert result.stderr == f"triage: {a}: no such file or directory; {b}: no such file or directory\n"


def test_invalid_rule_pack_exit_3(tmp_path):
    pack = write_pack(tmp_path, MINIMAL_RULE.replace("priority: 60", "priority: high"))
    result = runner.invoke(app, ["analyze", "--rules", str(pack), "-"], input="x\n")
    assert result.exit_code == 3
    assert "pack.yaml:7: rule test.sample: priority" in result.stderr


def test_user_pack_rule_fires_and_says_its_pack(tmp_path):
    pack = write_pack(tmp_path, MINIMAL_RULE)
    result = runner.invoke(app, ["analyze", "--rules", str(pack), "-f", "json", "-"], input="sample failure 7\n")
    data = json.loads(result.stdout)
    assert data["root_cause"]["rule_id"] == "test.sample"
    assert data["root_cause"]["cause"] == "The sample failed with code 7."
    assert data["root_cause"]["pack"] == str(pack)


def test_explain_pasted_line():
    result = runner.invoke(app, ["explain", OOM_LINE, "-f", "json"])
    data = json.loads(result.stdout)
    assert data["root_cause"] is not None
    assert data["root_cause"]["layer"] in ("framework", "driver")


def test_disable_silences_a_rule():
    fired = json.loads(runner.invoke(app, ["explain", OOM_LINE, "-f", "json"]).stdout)["root_cause"]["rule_id"]
    again = json.loads(runner.invoke(app, ["explain", OOM_LINE, "-f", "json", "--disable", fired]).stdout)
    assert fired not in [f["rule_id"] for f in again["findings"]]


def _triage(*args: str) -> list[str]:
    return [sys.executable, "-c", "from triage.cli.app import main; main()", *args]


def test_piped_stdin_gives_same_root_cause_as_file():
    case = _first_case_with_root()
    piped = subprocess.run(_triage("analyze", "-", "-f", "json"), input=case.log.read_bytes(),
                           capture_output=True, timeout=120)
    assert piped.returncode == 1, piped.stderr
    data = json.loads(piped.stdout)
    assert data["root_cause"]["rule_id"] == case.case.expect.root_cause
    assert data["root_cause"]["evidence"][0]["file"] is None


def test_streaming_pipe_prints_finding_before_input_ends():
    proc = subprocess.Popen(_triage("analyze", "-"), stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)
    try:
        proc.stdin.write((OOM_LINE + "\n").encode())
        proc.stdin.flush()
        ready, _, _ = select.select([proc.stderr], [], [], 60)  # never block the suite forever
        assert ready, "no finding announced within 60 s while stdin was open"
        line = proc.stderr.readline()
        assert b"[" in line and b"line 1" in line, line  # announced while stdin is still open
        assert proc.poll() is None
    finally:
        proc.stdin.close()
        out = proc.stdout.read()
        proc.wait(timeout=60)
    assert out.decode().startswith("Root cause: ")


def test_jsonl_streams_one_finding_per_line_then_summary():
    result = subprocess.run(_triage("analyze", "-", "-f", "jsonl"), input=(OOM_LINE + "\n").encode(),
                            capture_output=True, timeout=120)
    rows = [json.loads(line) for line in result.stdout.decode().splitlines()]
    assert [r["type"] for r in rows][-1] == "summary"
    assert rows[0]["type"] == "finding" and rows[-1]["root_cause"] == rows[0]["rule_id"]


def test_follow_announces_appended_lines_and_reports_on_interrupt(tmp_path):
    import signal

    log = tmp_path / "growing.log"
    log.write_text("INFO starting\n")
    proc = subprocess.Popen(_triage("analyze", "--follow", str(log)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=default_sigint)
    try:
        with log.open("a") as f:
            f.write(OOM_LINE + "\n")
        ready, _, _ = select.select([proc.stderr], [], [], 60)
        assert ready, "the appended line was not announced"
        assert b"growing.log:2 memory." in proc.stderr.readline()  # specific before generic
    finally:
        proc.send_signal(signal.SIGINT)
        out, _ = proc.communicate(timeout=60)
    # Ctrl-C is the documented end of a followed file: the headline says where reading stopped
    assert out.decode().startswith("Reading ended by SIGINT after 2 lines. Root cause: ")
    assert proc.returncode == 1


def test_a_machine_format_run_never_imports_rich(tmp_path):
    # rich costs ~40 ms of every start; only a terminal report (text) and the rules/corpus commands need it
    log = tmp_path / "oom.log"
    log.write_text(OOM_LINE + "\n", encoding="utf-8")
    code = ("import sys\nfrom triage.cli.app import main\nsys.argv = ['triage', 'analyze', sys.argv[1], '-f', 'json']\n"
            "try:\n    main()\nexcept SystemExit as e:\n    code = e.code\n"
            "print([m for m in sys.modules if m == 'rich' or m.startswith('rich.')], file=sys.stderr)\n")
    proc = subprocess.run([sys.executable, "-c", code, str(log)], capture_output=True, text=True, timeout=60)
    assert json.loads(proc.stdout)["root_cause"]["rule_id"]
    assert proc.stderr.strip().splitlines()[-1] == "[]"


def test_the_collector_is_paused_only_for_the_start_up(tmp_path, monkeypatch):
    """`triage analyze` loads its rules with the garbage collector paused, then collects again (with
    the start-up's objects frozen) before it reads; importing triage leaves the collector as found."""
    import gc

    from triage.cli import analyze as commands
    from triage.cli.app import main

    log = tmp_path / "x.log"
    log.write_text("INFO nothing to see\n", encoding="utf-8")
    states = []
    real_run = commands._run

    def spy(*args, **kwargs):
        states.append(gc.isenabled())
        return real_run(*args, **kwargs)

    monkeypatch.setattr(commands, "_run", spy)
    monkeypatch.setattr(sys, "argv", ["triage", "analyze", str(log), "-f", "json"])
    try:
        try:
            main()
        except SystemExit as exc:
            assert exc.code == 0
        assert states == [False]  # paused until _run starts reading
        assert gc.isenabled() and gc.get_freeze_count() > 0
    finally:
        gc.unfreeze()
        gc.enable()
    for before in ("gc.disable()", "gc.enable()"):
        code = f"import gc; {before}; import triage; print(gc.isenabled())"
        out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
        assert out.strip() == str(before == "gc.enable()")
