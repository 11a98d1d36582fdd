"""A new user's answers (issue 12, items 1-5): separate logs, facts in fixes, one error block."""

from __future__ import annotations

from typer.testing import CliRunner

import triage
from triage.cli.app import app

runner = CliRunner()

PORT = ("[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] [60570][HcclSocket][Listen] "
        "socket type[0], listen on ip[192.2.2.195] and specific port[16666] fail. Please check the port status "
        "and whether the port is being used by other process.")
OOM = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
       "58.00 GiB already allocated; 0 bytes free; 59.00 GiB reserved in total by PyTorch)")


def test_two_unrelated_logs_are_two_incidents_each_with_its_root_cause(tmp_path):
    hccl, run = tmp_path / "hccl.log", tmp_path / "run1.log"
    hccl.write_text("INFO start\n" + PORT + "\n")
    run.write_text("INFO start\n" + OOM + "\n")
    report = triage.analyze([hccl, run])
    roots = {(inc.origins[0].file, inc.root_cause) for inc in report.incidents}
    assert len(report.incidents) == 2
    assert report.root_cause.rule_id in {r for _, r in roots}  # the top incident's root cause
    by_file = {f: r for f, r in roots}
    assert by_file[str(hccl)].startswith("hccl.") and by_file[str(run)].startswith("memory.")
    # neither file's finding is marked a symptom of the other's
    assert all(f.suppressed_by is None for f in report.findings if f.rule_id in by_file.values())
    text = runner.invoke(app, ["analyze", str(hccl), str(run)]).stdout
    assert "Separate incidents (2):" in text
    assert f"[{hccl}] root cause: " in text and f"[{run}] root cause: " in text


def test_codes_of_one_error_block_are_parts_of_its_cause():
    log = "\n".join([
        "INFO boot",
        "[rank0]: RuntimeError: capture_begin:build/CMakeFiles/torch_npu.dir/compiler_depend.ts:214 NPU function "
        "error: c10_npu::acl::AclmdlRICaptureBegin(capture_stream_, capture_mode), error code is 207005",
        "EL0006: [PID: 12] 2026-01-01-00:00:00.000.000 Failed to allocate memory.",
        "[ERROR] 2026-04-17-09:16:39 (PID:1802934, Device:0, RankID:-1) ERR00100 PTA call acl api failed",
    ]) + "\n"
    report = triage.explain(log)
    root = report.root_cause.rule_id
    by_id = {f.rule_id: f for f in report.findings}
    assert not by_id[root].generic
    assert by_id["codes.cann-error"].suppressed_by == root
    assert by_id["generic.err00100-acl-api-failed"].suppressed_by == root


def test_a_code_far_from_the_cause_is_not_absorbed():
    filler = "\n".join(f"INFO step {i}" for i in range(200))
    log = (OOM + "\n" + filler + "\nEL0006: [PID: 12] 2026-01-01-00:00:00.000.000 Failed to allocate memory.\n")
    report = triage.explain(log)
    code = next(f for f in report.findings if f.rule_id == "codes.cann-error")
    assert code.suppressed_by is None


def test_the_text_report_explains_the_layers(tmp_path):
    log = tmp_path / "oom.log"
    log.write_text(OOM + "\n")
    lines = runner.invoke(app, ["analyze", str(log)]).stdout.splitlines()
    legend = next(line for line in lines if line.startswith("Layers: "))
    assert "hardware = " in legend and "driver = " in legend and "framework = " in legend
    assert "CANN" in legend and "container" in legend


def test_the_bare_runtime_error_title_says_its_message():
    report = triage.explain("RuntimeError: the flux capacitor overheated\n")
    assert report.root_cause.title == "The program stopped with a RuntimeError: the flux capacitor overheated"


def _oom_log(weights_gib: float) -> str:
    return (
        "(VllmWorker rank=0 pid=12) INFO 06-17 06:12:00 [model_runner.py:1100] "
        f"Model loading took {weights_gib} GiB and 12.3 seconds\n"
        "(VllmWorker rank=0 pid=12) ERROR 06-17 06:13:00 [worker.py:100] RuntimeError: NPU out of memory. Tried to "
        "allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.00 GiB already allocated; 1.00 GiB free; "
        "58.20 GiB reserved in total by PyTorch)\n")


def test_the_oom_fix_leads_with_the_kv_cache_pool_when_the_weights_are_small():
    # a 7B model at TP=2: 7 GiB of weights on a 61 GiB card -> the KV-cache pool is the lever
    small = triage.explain(_oom_log(7.1)).root_cause
    assert small.rule_id == "memory.npu-oom-caching-allocator"
    assert small.fix[0].startswith("For vLLM, lower `--gpu-memory-utilization`")
    # weights filling most of the card -> more NPUs or a quantized checkpoint lead
    big = triage.explain(_oom_log(45.0)).root_cause
    assert big.fix[0].startswith("Spread the model over more NPUs")
    # without the weights figure nothing is assumed: the written order stays
    unknown = triage.explain(_oom_log(7.1).splitlines()[1] + "\n").root_cause
    assert unknown.fix[0].startswith("Spread the model over more NPUs")
    assert sorted(small.fix) == sorted(big.fix) == sorted(unknown.fix)


def test_fix_conditions_are_checked_when_rules_load(tmp_path):
    from tests.conftest import write_pack
    from triage.errors import RulesInvalid
    from triage.knowledge.loader import load_rules

    pack = write_pack(tmp_path, """\
rules:
  - id: test.cond
    title: A rule with a conditional fix step
    layer: framework
    component: test
    severity: error
    match:
      any:
        - regex: 'zzz (?P<size>\\d+) GiB'
    cause: Something happened.
    fix:
      - Plain step.
      - text: Conditional step.
        lead_when: 'size > nonexistent_fact + __import__'
    examples:
      match: ["zzz 3 GiB"]
""")
    try:
        load_rules([pack])
    except RulesInvalid as exc:
        assert any("fix[1].lead_when" in p.field and "neither a capture group nor a fact name" in p.message
                   for p in exc.problems), exc.problems
    else:
        raise AssertionError("an unknown name in a condition must not load")


def _crash_loop(attempts: int = 3, filler: int = 5) -> str:
    lines = []
    for attempt in range(attempts):
        lines.append("INFO 06-17 06:11:00 [api_server.py:1395] vLLM API server version 0.9.1")
        lines += [f"INFO 06-17 06:11:{i % 60:02d} [core.py:1] step {i}" for i in range(filler)]
        lines.append(OOM if attempt < attempts - 1 else PORT)
    return "\n".join(lines) + "\n"


def test_a_restarting_service_is_diagnosed_on_its_last_attempt(tmp_path):
    log = tmp_path / "pod.log"
    log.write_text(_crash_loop())
    report = triage.analyze(log)
    assert report.root_cause.rule_id == "hccl.npu-port-in-use"
    assert [f.rule_id for f in report.findings if f.rule_id.startswith("memory.")] == []
    assert [(a.first_line, a.last_line, a.root_cause) for a in report.earlier_attempts] == [
        (1, 7, "memory.npu-oom-caching-allocator"), (8, 14, "memory.npu-oom-caching-allocator")]
    text = runner.invoke(app, ["analyze", str(log)]).stdout
    assert "Earlier attempts (2; this report diagnoses the last one):" in text


def test_several_start_up_lines_before_any_failure_are_not_restarts():
    # a DP deployment prints the banner once per API server: not a restart without a failure before it
    log = ("INFO 06-17 06:11:00 [api_server.py:1395] vLLM API server version 0.9.1\n" * 3) + OOM + "\n"
    report = triage.explain(log)
    assert report.earlier_attempts == [] and report.root_cause.rule_id.startswith("memory.")


def test_restarts_survive_byte_ranges(tmp_path, monkeypatch):
    from triage.run import parallel

    log = tmp_path / "pod.log"
    log.write_text(_crash_loop(attempts=4, filler=400))
    whole = triage.analyze(log)
    monkeypatch.setattr(parallel, "CHUNK", 4096)  # many pieces, cut inside the attempts
    assert len(parallel.plan(__import__("triage.inputs.sources", fromlist=["expand"]).expand([str(log)]))) > 5
    pieces = triage.analyze(log, jobs=1)
    assert [(a.first_line, a.last_line) for a in pieces.earlier_attempts] == [
        (a.first_line, a.last_line) for a in whole.earlier_attempts]
    assert len(whole.earlier_attempts) == 3
    assert pieces.root_cause.rule_id == whole.root_cause.rule_id == "hccl.npu-port-in-use"
