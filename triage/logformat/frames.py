"""Python traceback frames: ``File "/.../site-packages/vllm_ascend/worker/model_runner_v1.py", line
1234, in execute_model``. Which packages count (the Ascend stack's) is data
(``compat/conventions.yaml``, ``packages``); this module only reads the frame's shape."""

from __future__ import annotations

import re

_FRAME = re.compile(r'File "(?P<path>[^"]+)", line (?P<line>\d+), in (?P<func>[^\s]+)')


def frame_prefilter(packages: list[str]) -> str:
    """The prefilter pattern (rule dialect) of a frame inside one of ``packages``."""
    return r'File "[^"]*/(?:' + "|".join(re.escape(p) for p in packages) + r')/'


def frame_in(text: str, packages: frozenset[str]) -> tuple[str, str, str, int] | None:
    """(package, module, function, line) of the frame on ``text`` when its file lies inside one of
    ``packages`` (the last path component that names one: a checkout's ``verl/verl/...`` is ``verl``)."""
    m = _FRAME.search(text)
    if m is None:
        return None
    parts = m.group("path").replace("\\", "/").split("/")
    for i in range(len(parts) - 2, -1, -1):
        if parts[i] in packages:
            module = ".".join(parts[i:])
            module = module[:-3] if module.endswith(".py") else module
            return parts[i], module, m.group("func"), int(m.group("line"))
    return None
