"""Which node a file of a log bundle comes from, by the bundle's folder layout.

A bundle collected from several machines usually holds one folder per node (``node-1/``,
``10.0.0.2/``, ``worker-0/``) below the directory the user names. The first folder level is taken
as the node when that directory holds at least two folders of logs whose names are not Ascend log
subdirectories (``debug``, ``run``, ``plog``, ``device-N``, ``log``...). ``--node-level N`` takes
the N-th level instead, whatever the names.
"""

from __future__ import annotations

from pathlib import Path

from triage.correlate.origin import ASCEND_LOG_DIRS


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
