"""Which node a file of a log bundle comes from, by the bundle's folder layout.

A bundle collected from several machines usually holds one folder per node (``node-1/``,
``10.0.0.2/``, ``host-a/``) below the directory the user names (``worker-N`` and ``rank-N`` folders
are read as ranks, not nodes). The first folder level is taken
as the node when that directory holds at least two folders of logs whose names are not Ascend log
subdirectories (``debug``, ``run``, ``plog``, ``device-N``, ``log``...). ``--node-level N`` takes
the N-th level instead, whatever the names. When the user names the node folders themselves
(``triage analyze job-logs/node-*``, two or more directories with distinct names that are not Ascend
log subdirectories), each is the node of the files below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from triage.logformat.origin import ASCEND_LOG_DIRS


def nodes_below(root: Path, files: list[Path], level: int | None = None) -> dict[Path, str]:
    """``{file: node}`` for the files below ``root`` whose path names a node (see the module
    docstring); files directly in ``root`` get none. ``level`` >= 1 forces the folder level."""
    parts = {f: f.relative_to(root).parts for f in files}
    if level is not None:
        if level < 1:
            raise ValueError("--node-level must be 1 or more")
        return {f: p[level - 1] for f, p in parts.items() if len(p) > level}
    folders = {p[0] for p in parts.values() if len(p) > 1}
    candidates = {d for d in folders if not ASCEND_LOG_DIRS.match(d)}
    if len(candidates) < 2:
        return {}
    return {f: p[0] for f, p in parts.items() if len(p) > 1 and p[0] in candidates}


def named_nodes(paths: Sequence[str]) -> dict[str, str]:
    """``{path: node}`` when ``paths`` name two or more directories with distinct names that are not
    Ascend log subdirectories (``job-logs/node-*``): each directory's name is the node of the files
    below it that their folder layout does not place. Else empty."""
    dirs = [p for p in paths if p != "-" and Path(p).is_dir()]
    names = {p: Path(p).resolve().name for p in dirs}
    if len(dirs) < 2 or len(set(names.values())) < len(dirs) or any(
            not n or ASCEND_LOG_DIRS.match(n) for n in names.values()):
        return {}
    return names
