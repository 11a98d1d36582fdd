"""A new user's answers (issue 12, items 1-5): separate logs, facts in fixes, one error block."""

from __future__ import annotations

from typer.testing import CliRunner

import triage
from triage.cli import app

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
