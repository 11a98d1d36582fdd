"""``triage collect``: gather the environment facts a diagnosis needs into one text file.

Everything here is read-only: a few commands (``npu-smi info``, ``pip list``, ``uname -a``) run without a shell,
with stdin closed and a timeout, and a few files (CANN, driver and firmware version files, ``/etc/os-release``,
``/proc/meminfo``) are read. The output is plain text made of sections, each starting with a header line
``==> <kind>: <name> <==`` (or ``==> <kind> <==``), so that ``triage analyze`` reads it like any log, and each
command's or file's text is copied verbatim. Whatever is missing is noted in a ``==> skipped: ... <==`` line,
never raised.

The world is passed in (``root``, ``environ``, ``run``, ``which``, ``now``) so that tests can fake it.
"""

from __future__ import annotations

import fnmatch
import os
import platform
import re
import shlex
import shutil
import signal
import stat
import subprocess
import sys
import threading
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import TextIO

SECTION_CAP = 2 * 1024 * 1024
"""Most bytes of command or file text kept in one section."""
TIMEOUT = 10.0
"""Seconds each command may run before it is killed."""
MAX_CANN_FILES = 20
"""Most ``ascend_*_install.info`` files gathered from the ``cann*`` layout."""
_CANN_DEPTH = 5  # directories below /usr/local/Ascend/cann* searched for install.info files
_CANN_DIRS = 5000  # directories visited at most, whatever the layout

ENV_PREFIXES = ("ASCEND_", "HCCL_", "VLLM_", "PYTORCH_NPU_")
ENV_NAMES = ("TORCH_DEVICE_BACKEND_AUTOLOAD", "LD_LIBRARY_PATH", "PYTHONPATH", "CUDA_VISIBLE_DEVICES")
SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD")
REDACTED = "<redacted>"

# (pattern below the root, what to do): each pattern is a literal path or a glob
_FILES: tuple[tuple[str, str], ...] = (
    ("/usr/local/Ascend/ascend-toolkit/latest/*/ascend_toolkit_install.info", "read"),
    ("/usr/local/Ascend/ascend-toolkit/latest/version.cfg", "read"),
    ("/usr/local/Ascend/ascend-toolkit/set_env.sh", "presence"),
    ("/usr/local/Ascend/driver/version.info", "read"),
    ("/usr/local/Ascend/firmware/version.info", "read"),
    ("/usr/local/Ascend/nnal/*/latest/version.info", "read"),
    ("/usr/local/Ascend/mindie/latest/version.info", "read"),
)
_CANN_PATTERN = "/usr/local/Ascend/cann*/**/ascend_*_install.info"
_DEVICES = ("/dev/davinci_manager", "/dev/devmm_svm", "/dev/hisi_hdc")
_CONTAINER_WORDS = ("docker", "kubepods", "containerd")


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


def same_python(a: str, b: str) -> bool:
    """Whether the interpreters at paths ``a`` and ``b`` see the same packages.

    Two paths are the same interpreter when they resolve to the same program *and* sit in the same directory
    (after resolving that directory), so ``.venv/bin/python`` and ``.venv/bin/python3`` match but a venv's
    ``python`` and the ``/usr/bin/python3`` it links to do not. Never raises.
    """
    try:
        return (os.path.realpath(a) == os.path.realpath(b)
                and os.path.realpath(os.path.dirname(os.path.abspath(a)))
                == os.path.realpath(os.path.dirname(os.path.abspath(b))))
    except (OSError, ValueError):
        return False


SERVING_PROGRAMS = ("vllm",)
"""Programs on PATH whose interpreter (read from their shebang) runs the serving stack."""
_SERVING_NAMES = re.compile(r"(vllm|mindie|sglang|lmdeploy)", re.IGNORECASE)
_MAX_PROCESSES = 10000
_PIP_EXEC = re.compile(r"""^'''exec' "?([^"]+?)"? "\$0" "\$@"$""")


def shebang_interpreter(script: str, which: Callable[..., str | None], path: str | None) -> str | None:
    """The Python interpreter a script runs with, read from its first two lines, or None.

    Reads ``#!/abs/python``, ``#!/usr/bin/env python3`` (found with ``which(name, path=path)``) and
    the form pip writes for long paths (``#!/bin/sh``, then a line ``'''exec' "/abs/python" "$0" "$@"``).
    Never raises.
    """
    try:
        with open(script, "rb") as fh:
            head = fh.read(2048).decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    if not head or not head[0].startswith("#!"):
        return None
    try:
        words = shlex.split(head[0][2:].strip())
    except ValueError:
        return None
    if not words:
        return None
    program = os.path.basename(words[0])
    if program == "env":
        names = [w for w in words[1:] if not w.startswith("-") and "=" not in w]
        return which(names[0], path=path) if names and "python" in names[0] else None
    if program in ("sh", "bash") and len(head) > 1:
        m = _PIP_EXEC.match(head[1].strip())
        return m.group(1) if m else None
    return words[0] if "python" in program else None


def serving_processes(proc: Path, root: Path) -> list[tuple[str, str, str]]:
    """``(pid, interpreter, what)`` for each running Python process of a serving stack (vLLM,
    MindIE, SGLang, LMDeploy) that shares this root file system (the interpreter of a process in
    another container cannot be run from here). Reads ``proc/<pid>/cmdline``, ``exe`` and ``root``;
    never raises."""
    out: list[tuple[str, str, str]] = []
    try:
        here = os.stat(root)
        pids = sorted((e.name for e in os.scandir(proc) if e.name.isdigit()), key=int)[:_MAX_PROCESSES]
    except OSError:
        return out
    for pid in pids:
        try:
            argv = (proc / pid / "cmdline").read_bytes().split(b"\0")
            exe = os.readlink(proc / pid / "exe")
            theirs = os.stat(proc / pid / "root")
        except OSError:
            continue  # gone, or not ours to read
        if (theirs.st_dev, theirs.st_ino) != (here.st_dev, here.st_ino):
            continue
        if "python" not in os.path.basename(exe):
            continue
        target = _run_target([a.decode("utf-8", "replace") for a in argv[1:] if a])
        m = _SERVING_NAMES.match(target) if target else None
        if m:
            out.append((pid, exe.removesuffix(" (deleted)"), m.group(1).lower()))
    return out


def _run_target(args: list[str]) -> str | None:
    """What a Python command line runs: the module of ``-m``, or the script's name (``vllm`` for
    ``/venv/bin/vllm serve``, ``api_server`` for ``api_server.py``); None for ``-c`` or nothing."""
    skip = False
    for i, arg in enumerate(args):
        if skip:  # the value of -W or -X
            skip = False
            continue
        if arg == "-m":
            return args[i + 1] if i + 1 < len(args) else None
        if arg == "-c":
            return None
        if arg.startswith("-"):
            skip = arg in ("-W", "-X")
            continue
        return os.path.basename(arg).removesuffix(".py")
    return None


def select_env(environ: Mapping[str, str]) -> list[tuple[str, str]]:
    """The variables a diagnosis needs, sorted by name, with secret-looking values replaced by ``<redacted>``.

    Kept: names starting with one of ``ENV_PREFIXES`` and the names in ``ENV_NAMES``; every other variable (for
    example ``HF_TOKEN``) is left out. A kept variable whose name contains TOKEN, KEY, SECRET or PASSWORD (any
    case) gets the value ``<redacted>``. Newlines in values are written as ``\\n`` so that each variable stays one
    line. Never raises.
    """
    picked = []
    for name in sorted(environ):
        if not (name.startswith(ENV_PREFIXES) or name in ENV_NAMES):
            continue
        value = environ[name]
        if any(word in name.upper() for word in SECRET_WORDS):
            value = REDACTED
        picked.append((name, value.replace("\r", "\\r").replace("\n", "\\n")))
    return picked


class _Collector:
    def __init__(self, out: TextIO, root: Path, environ: Mapping[str, str], run: Runner,
                 which: Callable[..., str | None], timeout: float,
                 on_section: Callable[[str, str], None] | None) -> None:
        self.out, self.root, self.environ, self.run, self.which = out, root, environ, run, which
        self.timeout, self.on_section = timeout, on_section
        self.skipped: list[str] = []
        self.seen: set[str] = set()

    # -- output ------------------------------------------------------------------------------------------------
    def section(self, kind: str, name: str, body: str, trailer: Sequence[str] = ()) -> None:
        body, cut = _cap(body)
        self.out.write(f"==> {kind}: {name} <==\n" if name else f"==> {kind} <==\n")
        if body:
            self.out.write(body if body.endswith("\n") else body + "\n")
        if cut:
            self.out.write(f"--- truncated at {SECTION_CAP} bytes ---\n")
        for line in trailer:
            self.out.write(line + "\n")
        if self.on_section is not None:
            self.on_section(kind, name)

    def skip(self, kind: str, name: str, why: str) -> None:
        self.skipped.append(f"{kind} {name}: {why}")

    def path(self, absolute: str) -> Path:
        return self.root / absolute.lstrip("/")

    # -- commands ----------------------------------------------------------------------------------------------
    def command(self, argv: Sequence[str], name: str | None = None) -> None:
        name = name or shlex.join(argv)
        try:
            result = self.run(list(argv), timeout=self.timeout, env=self.environ)
        except OSError as exc:
            self.skip("command", name, exc.strerror or str(exc))
            return
        stdout, stderr = _decode(result.stdout), _decode(result.stderr)
        body = stdout
        if stderr:
            if body and not body.endswith("\n"):
                body += "\n"
            body += "--- stderr ---\n" + stderr
        trailer = []
        if result.timed_out:
            trailer.append(f"--- timed out after {self.timeout:g} s ---")
            self.skip("command", name, f"timed out after {self.timeout:g} s")
        elif result.returncode:
            trailer.append(f"--- exit status {result.returncode} ---")
        self.section("command", name, body, trailer)

    def program(self, program: str, args: Sequence[str]) -> None:
        found = self.which(program, path=self.environ.get("PATH"))
        if not found:
            self.skip("command", shlex.join([program, *args]), f"{program} not found")
            return
        self.command([found, *args], shlex.join([program, *args]))

    def pythons(self, python: str | None, extra: Sequence[str]) -> list[tuple[str, str]]:
        """The interpreters whose packages matter, each once, with why: triage's own, the ones asked
        for, the one behind each serving program on PATH (its shebang), the ones running a serving
        stack now (``/proc``), and the ``python3`` on PATH."""
        found: list[tuple[str, str]] = []

        def add(path: str, why: str) -> None:
            if not any(same_python(path, seen) for seen, _ in found):
                found.append((path, why))

        if python:
            add(python, "runs triage")
        for path in extra:
            add(path, "--python")
        for program in SERVING_PROGRAMS:
            script = self.which(program, path=self.environ.get("PATH"))
            if not script:
                continue
            interpreter = shebang_interpreter(script, self.which, self.environ.get("PATH"))
            if interpreter is None:
                self.skip("python", f"behind {script}", "no Python shebang")
            else:
                add(interpreter, f"runs {program} ({script})")
        for pid, exe, what in serving_processes(self.path("/proc"), self.root):
            add(exe, f"runs {what} (process {pid})")
        on_path = self.which("python3", path=self.environ.get("PATH"))
        if on_path:
            add(on_path, "python3 on PATH")
        else:
            self.skip("command", "python3 -m pip list --disable-pip-version-check", "python3 not found")
        return found

    def pip_lists(self, python: str | None, extra: Sequence[str] = ()) -> None:
        args = ["-m", "pip", "list", "--disable-pip-version-check"]
        found = self.pythons(python, extra)
        self.section("pythons", "", "".join(f"{path}: {why}\n" for path, why in found))
        for path, _ in found:
            self.command([path, *args])

    # -- files -------------------------------------------------------------------------------------------------
    def read(self, absolute: str, first_lines: int | None = None) -> bool:
        """Copy one file into a section; False (and a skipped note) when it cannot be read."""
        path = self.path(absolute)
        try:
            if not stat.S_ISREG(path.stat().st_mode):
                self.skip("file", absolute, "not a regular file")
                return False
            with open(path, "rb") as fh:
                data = fh.read(SECTION_CAP + 1)
        except FileNotFoundError:
            self.skip("file", absolute, "not found")
            return False
        except OSError as exc:
            self.skip("file", absolute, exc.strerror or str(exc))
            return False
        text = _decode(data)
        if first_lines is not None:
            text = "".join(text.splitlines(keepends=True)[:first_lines])
        self.section("file", absolute, text)
        return True

    def presence(self, absolute: str) -> None:
        path = self.path(absolute)
        try:
            size = path.stat().st_size
        except FileNotFoundError:
            self.skip("file", absolute, "not found")
            return
        except OSError as exc:
            self.skip("file", absolute, exc.strerror or str(exc))
            return
        self.section("file", absolute, f"exists, {size} bytes (content not collected)\n")

    def unseen(self, paths: Iterator[Path]) -> list[str]:
        """Absolute names of ``paths`` (below the root) not gathered yet, by resolved path."""
        names = []
        for p in paths:
            real = os.path.realpath(p)
            if real in self.seen:
                continue
            self.seen.add(real)
            names.append("/" + p.relative_to(self.root).as_posix())
        return names

    def files(self) -> None:
        for pattern, how in _FILES:
            if any(ch in pattern for ch in "*?["):
                matches = self.unseen(iter(sorted(self.root.glob(pattern.lstrip("/")))))
                if not matches:
                    self.skip("file", pattern, "none found")
            else:
                matches = [pattern]
                self.seen.add(os.path.realpath(self.path(pattern)))
            for name in matches:
                if how == "read":
                    self.read(name)
                else:
                    self.presence(name)
        found, more = self.cann_files()
        for name in self.unseen(iter(found)):
            self.read(name)
        if not found:
            self.skip("file", _CANN_PATTERN, "none found")
        elif more:
            self.skip("file", _CANN_PATTERN, f"more than {MAX_CANN_FILES} files, only the first {MAX_CANN_FILES}")
        self.read("/etc/os-release")
        self.read("/proc/meminfo", first_lines=3)
        limits = ("/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes")
        present = [name for name in limits if self.path(name).is_file()]
        if present:
            self.read(present[0])
        else:
            self.skip("file", " or ".join(limits), "not found")

    def cann_files(self) -> tuple[list[Path], bool]:
        """The ``ascend_*_install.info`` files below ``/usr/local/Ascend/cann*`` (bounded depth and count)."""
        base = self.path("/usr/local/Ascend")
        try:
            tops = sorted(e.path for e in os.scandir(base) if e.name.startswith("cann") and e.is_dir())
        except OSError:
            return [], False
        found: list[Path] = []
        visited = 0
        for top in tops:
            depth0 = top.rstrip(os.sep).count(os.sep)
            for dirpath, dirnames, filenames in os.walk(top, followlinks=True):
                visited += 1
                if visited > _CANN_DIRS:
                    return found, True
                if dirpath.count(os.sep) - depth0 >= _CANN_DEPTH:
                    dirnames[:] = []
                dirnames.sort()
                for name in sorted(fnmatch.filter(filenames, "ascend_*_install.info")):
                    if len(found) == MAX_CANN_FILES:
                        return found, True
                    found.append(Path(dirpath) / name)
        return found, False

    # -- the rest ----------------------------------------------------------------------------------------------
    def env(self) -> None:
        self.section("env", "", "".join(f"{name}={value}\n" for name, value in select_env(self.environ)))

    def devices(self) -> None:
        dev = self.path("/dev")
        try:
            numbered = sorted((e.name for e in os.scandir(dev) if re.fullmatch(r"davinci\d+", e.name)), key=_natural)
        except OSError:
            numbered = []
        present = [f"/dev/{name}" for name in numbered]
        if not numbered:
            self.skip("device", "/dev/davinci<N>", "none found")
        for name in _DEVICES:
            if os.path.lexists(self.path(name)):
                present.append(name)
            else:
                self.skip("device", name, "not found")
        self.section("devices", "", "".join(f"{name}\n" for name in present))

    def container(self) -> None:
        reasons = [f"{name} exists" for name in ("/.dockerenv", "/run/.containerenv")
                   if os.path.lexists(self.path(name))]
        try:
            cgroup = self.path("/proc/1/cgroup").read_bytes()[:SECTION_CAP].decode("utf-8", "replace")
        except OSError:
            cgroup = ""
        words = [w for w in _CONTAINER_WORDS if w in cgroup]
        if words:
            reasons.append("/proc/1/cgroup mentions " + ", ".join(words))
        if reasons:
            lines = [f"container: yes ({'; '.join(reasons)})"]
        else:
            lines = ["container: no (no /.dockerenv, /proc/1/cgroup mentions none of "
                     f"{', '.join(_CONTAINER_WORDS)})"]
        try:
            vfs = os.statvfs(self.path("/dev/shm"))
            size, free = vfs.f_frsize * vfs.f_blocks, vfs.f_frsize * vfs.f_bavail
            lines.append(f"/dev/shm: size {_mib(size)}, free {_mib(free)}")
        except (OSError, AttributeError) as exc:  # AttributeError: no statvfs (Windows)
            self.skip("file", "/dev/shm", getattr(exc, "strerror", None) or "size unknown")
        self.section("container", "", "".join(line + "\n" for line in lines))


def collect(out: TextIO, *, root: Path = Path("/"), environ: Mapping[str, str] = os.environ,
            run: Runner = run_command, which: Callable[..., str | None] = shutil.which,
            now: Callable[[], datetime] = _now, python: str | None = sys.executable, timeout: float = TIMEOUT,
            on_section: Callable[[str, str], None] | None = None, pythons: Sequence[str] = ()) -> list[str]:
    """Write the environment facts of this host or container to ``out``; return the notes of what was skipped.

    ``root`` prefixes every file and device path (tests pass a fake tree); ``environ`` is the environment both
    reported (filtered and redacted, see :func:`select_env`) and given to the commands; ``run(argv, *, timeout,
    env)`` runs a command and returns a :class:`CommandResult` (default :func:`run_command`); ``which(name, path=)``
    finds a program on ``environ['PATH']`` (default :func:`shutil.which`); ``now()`` gives the time in the header;
    ``python`` is the interpreter whose ``pip list`` comes first (None: none); ``pythons`` are more
    interpreters to list (``--python``); after them come the interpreter of each serving program on
    PATH (``vllm``, by its shebang), those of the serving processes running now (vLLM, MindIE, SGLang,
    LMDeploy; read from ``/proc``) and the ``python3`` on PATH, each interpreter once; a
    ``==> pythons <==`` section says why each was chosen;
    ``timeout`` is the seconds each command may take; ``on_section(kind, name)`` is called after each section.

    Missing programs, files and devices, unreadable files, commands that cannot start and timeouts are written
    as ``==> skipped: <note> <==`` lines at the end and returned; none raises. Raises only what writing to
    ``out`` raises (``OSError``).
    """
    from triage.version import __version__

    c = _Collector(out, Path(root), environ, run, which, timeout, on_section)
    stamp = now().astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
    out.write(f"# triage collect {__version__} at {stamp} on {platform.machine() or 'unknown'}\n")
    c.program("npu-smi", ["info"])
    c.program("npu-smi", ["info", "-m"])
    c.program("uname", ["-a"])
    c.pip_lists(python, pythons)
    c.files()
    c.env()
    c.devices()
    c.container()
    for note in c.skipped:
        out.write(f"==> skipped: {note} <==\n")
    out.flush()
    return list(c.skipped)
