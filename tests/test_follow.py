"""--follow across log rotation, and SIGTERM: real files rotated by the test, real processes."""

from __future__ import annotations

import json
import os
import queue
import shutil
import signal
import subprocess
import sys
import threading

import pytest

from triage.inputs.follow import Follower

OOM = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
       "58.10 GiB already allocated; 1.10 GiB free; 58.60 GiB reserved in total by PyTorch)")
VECTOR = "RuntimeError: ACL stream synchronize failed, error code:507035"
EZ = "EZ9999: Inner Error!"
WAIT = 60  # seconds before a test gives up waiting (never reached when it works)


def _read1(follower: Follower) -> bytes:
    """``follower.read1()`` in a thread, so that a follower that never returns fails the test."""
    out: list[bytes] = []
    worker = threading.Thread(target=lambda: out.append(follower.read1(1 << 16)), daemon=True)
    worker.start()
    worker.join(WAIT)
    assert out, "read1 did not return"
    return out[0]


def test_follower_reads_on_after_rename_and_recreate_and_after_copytruncate(tmp_path):
    log = tmp_path / "server.log"
    log.write_bytes(b"first\n")
    follower = Follower(str(log), poll=0.01)
    try:
        assert _read1(follower) == b"first\n"
        with log.open("ab") as f:
            f.write(b"second\n")
        assert _read1(follower) == b"second\n"
        # logrotate `create`: rename, then a new file under the name; the writer still adds to the old one
        with log.open("ab") as old:
            log.rename(tmp_path / "server.log.1")
            log.write_bytes(b"new 1\n")
            old.write(b"third\n")
        assert _read1(follower) == b"third\n"  # the rest of the old file first
        assert _read1(follower) == b"" and follower.rotated == "re-created"
        follower.resume()
        assert _read1(follower) == b"new 1\n"
        # logrotate `copytruncate`: copy, then truncate the file in place; the writer starts over
        with log.open("ab") as f:
            f.write(b"new 2 with a longer line\n")
        assert _read1(follower) == b"new 2 with a longer line\n"
        shutil.copy(log, tmp_path / "server.log.2")
        with log.open("r+b") as f:
            f.truncate(0)
        with log.open("ab") as f:
            f.write(b"after\n")
        assert _read1(follower) == b"" and follower.rotated == "truncated"
        follower.resume()
        assert _read1(follower) == b"after\n"
    finally:
        follower.close()


def _triage(*args: str) -> list[str]:
    return [sys.executable, "-c", "from triage.cli.app import main; main()", *args]


def _lines(stream) -> queue.Queue:
    lines: queue.Queue = queue.Queue()

    def pump() -> None:
        for line in stream:
            lines.put(line.decode())
        lines.put(None)

    threading.Thread(target=pump, daemon=True).start()
    return lines


def test_follow_keeps_the_log_across_rotation_then_sigterm_reports(tmp_path):
    log = tmp_path / "server.log"
    log.write_text("INFO starting\n" + "INFO warming up the engine, step n of many\n" * 50)
    proc = subprocess.Popen(_triage("analyze", "--follow", str(log), "-f", "jsonl"), stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, env={**os.environ, "NO_COLOR": "1"})
    out = _lines(proc.stdout)

    def next_finding() -> dict:
        line = out.get(timeout=WAIT)
        assert line is not None, proc.stderr.read().decode()
        return json.loads(line)

    try:
        with log.open("a") as f:
            f.write(OOM + "\n")
        first = next_finding()
        assert (first["rule_id"], first["first_line"]) == ("memory.npu-oom-caching-allocator", 52)
        # rename and re-create (logrotate `create`)
        log.rename(tmp_path / "server.log.1")
        log.write_text("INFO reopened\n" + VECTOR + "\n")
        second = next_finding()
        assert (second["rule_id"], second["first_line"]) == ("op.vector-core-exception", 2)
        # copy and truncate in place (logrotate `copytruncate`)
        shutil.copy(log, tmp_path / "server.log.2")
        with log.open("r+b") as f:
            f.truncate(0)
        with log.open("a") as f:
            f.write(EZ + "\n")
        third = next_finding()
        assert (third["rule_id"], third["first_line"]) == ("generic.ez9999-inner-error", 1)
    finally:
        proc.send_signal(signal.SIGTERM)  # like `timeout` or a container stop
        proc.wait(timeout=WAIT)
    rows = []
    while (line := out.get(timeout=WAIT)) is not None:
        rows.append(json.loads(line))
    summary = rows[-1]
    assert summary["type"] == "summary" and summary["root_cause"] == "memory.npu-oom-caching-allocator"
    assert summary["files"] == [str(log)] * 3
    assert summary["notices"] == [
        f"{log} was re-created after line 52 (rotated): the lines after that are numbered from 1 in the new text",
        f"{log} was truncated after line 2 (rotated): the lines after that are numbered from 1 in the new text"]
    assert proc.returncode == 1


@pytest.mark.skipif(not hasattr(signal, "SIGTERM") or os.name != "posix", reason="POSIX signals")
def test_sigterm_prints_the_report_of_what_was_read(tmp_path):
    log = tmp_path / "growing.log"
    log.write_text("INFO starting\n" + OOM + "\n")
    proc = subprocess.Popen(_triage("analyze", "--follow", str(log)), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env={**os.environ, "NO_COLOR": "1"})
    err = _lines(proc.stderr)
    try:
        announced = err.get(timeout=WAIT)
        assert announced is not None and "growing.log:2 memory." in announced
    finally:
        proc.send_signal(signal.SIGTERM)
        stdout = proc.stdout.read().decode()
        proc.wait(timeout=WAIT)
    # the signal is the documented end of a followed file: the headline says where reading stopped
    assert stdout.startswith("Reading ended by SIGTERM after 2 lines. Root cause: NPU HBM exhausted")
    assert stdout.splitlines()[-1].startswith("2 lines read, 1 finding, rules ")
    assert proc.returncode == 1
