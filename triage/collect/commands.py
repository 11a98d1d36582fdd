"""Running a command read-only (no shell, stdin closed, a timeout, output capped) and the text
helpers of the collect sections."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import threading
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone

SECTION_CAP = 2 * 1024 * 1024
"""Most bytes of command or file text kept in one section."""
TIMEOUT = 10.0
"""Seconds each command may run before it is killed."""


@dataclass(frozen=True)
class CommandResult:
    """What a command printed: ``returncode`` is None when it was killed after its timeout."""

    returncode: int | None
    stdout: bytes
    stderr: bytes
    timed_out: bool = False


Runner = Callable[..., CommandResult]
"""``run(argv, *, timeout, env) -> CommandResult``; raises ``OSError`` when the program cannot be started."""


def _drain(stream, kept: bytearray, limit: int) -> None:
    """Read ``stream`` to its end, keeping its first ``limit`` bytes (the rest is read and dropped)."""
    try:
        while chunk := stream.read1(65536):
            if len(kept) < limit:
                kept += chunk[: limit - len(kept)]
    except (OSError, ValueError):
        pass
    finally:
        stream.close()


def run_command(argv: Sequence[str], *, timeout: float = TIMEOUT, env: Mapping[str, str] | None = None,
                limit: int = SECTION_CAP + 1) -> CommandResult:
    """Run ``argv`` (no shell, stdin closed) and return its exit status and first ``limit`` bytes of output.

    After ``timeout`` seconds the command and every process it started in its session are killed and
    ``timed_out`` is set; whatever it printed until then is kept. ``env`` is the whole environment (default: this
    process's). Raises ``OSError`` (e.g. ``FileNotFoundError``, ``PermissionError``) when it cannot be started.
    """
    posix = os.name == "posix"
    proc = subprocess.Popen(list(argv), stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            env=None if env is None else dict(env), start_new_session=posix)
    out, err = bytearray(), bytearray()
    readers = [threading.Thread(target=_drain, args=(proc.stdout, out, limit), daemon=True),
               threading.Thread(target=_drain, args=(proc.stderr, err, limit), daemon=True)]
    for reader in readers:
        reader.start()
    timed_out = False
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        timed_out = True
        try:
            if posix:
                os.killpg(proc.pid, signal.SIGKILL)  # the shell script's children too (they hold the pipes)
            else:
                proc.kill()
        except OSError:
            pass
        proc.wait()
    for reader in readers:
        reader.join(timeout=2.0)  # a grandchild that left the session may keep a pipe open: stop waiting
    return CommandResult(None if timed_out else proc.returncode, bytes(out), bytes(err), timed_out)


def _now() -> datetime:
    return datetime.now(timezone.utc)


def _decode(data: bytes) -> str:
    return data.decode("utf-8", "replace")


def _cap(text: str, limit: int = SECTION_CAP) -> tuple[str, bool]:
    """``text`` cut to at most ``limit`` UTF-8 bytes (at a character boundary); the flag says whether it was cut."""
    data = text.encode("utf-8", "surrogatepass")
    if len(data) <= limit:
        return text, False
    return data[:limit].decode("utf-8", "ignore"), True


def _mib(n: int) -> str:
    return f"{n} bytes ({n / 1024 / 1024:.1f} MiB)"


def _natural(path: str) -> list:
    return [int(part) if part.isdigit() else part for part in re.split(r"(\d+)", path)]
