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
import stat
import sys
from collections.abc import Callable, Iterator, Mapping, Sequence
from datetime import datetime, timezone
from pathlib import Path
from typing import TextIO

from triage.collect.commands import SECTION_CAP, TIMEOUT, Runner, _cap, _decode, _mib, _natural, _now, run_command
from triage.collect.environment import (
    SERVING_PROGRAMS,
    same_python,
    select_env,
    serving_processes,
    shebang_interpreter,
)

MAX_CANN_FILES = 20
"""Most ``ascend_*_install.info`` files gathered from the ``cann*`` layout."""
_CANN_DEPTH = 5  # directories below /usr/local/Ascend/cann* searched for install.info files
_CANN_DIRS = 5000  # directories visited at most, whatever the layout


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
