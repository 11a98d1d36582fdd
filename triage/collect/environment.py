"""What the environment says: the Python that a serving program runs (its script's shebang, its
processes) and the environment variables worth collecting, secrets redacted."""

from __future__ import annotations

import os
import re
import shlex
from collections.abc import Callable, Mapping
from pathlib import Path

ENV_PREFIXES = ("ASCEND_", "HCCL_", "VLLM_", "PYTORCH_NPU_")
ENV_NAMES = ("TORCH_DEVICE_BACKEND_AUTOLOAD", "LD_LIBRARY_PATH", "PYTHONPATH", "CUDA_VISIBLE_DEVICES")
SECRET_WORDS = ("TOKEN", "KEY", "SECRET", "PASSWORD")
REDACTED = "<redacted>"


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
