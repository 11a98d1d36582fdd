"""Where triage keeps what it can rebuild: compiled Hyperscan databases, validated rule sets."""

from __future__ import annotations

import os
from pathlib import Path


def cache_dir() -> Path:
    """``$TRIAGE_CACHE_DIR``, else ``$XDG_CACHE_HOME/triage``, else ``~/.cache/triage``."""
    explicit = os.environ.get("TRIAGE_CACHE_DIR")
    if explicit:
        return Path(explicit)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "triage"


def load_pickle(path: Path):
    """The object pickled at ``path``, or None when it is absent, unreadable, stale, or not safe to
    trust. A pickle can run code: the file is opened without following a symbolic link and checked
    on the open descriptor (owned by this user, writable by nobody else), in a directory nobody
    else can write."""
    import stat

    try:
        if not _private_dir(path.parent):
            return None
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0))
        with os.fdopen(fd, "rb") as f:
            st = os.fstat(f.fileno())
            if not stat.S_ISREG(st.st_mode) or st.st_mode & 0o022 or (
                    hasattr(os, "getuid") and st.st_uid != os.getuid()):
                return None
            return _unpickle(f)
    except Exception:  # absent, stale or unreadable: rebuild
        return None


def _unpickle(f):
    """``pickle.load(f)`` with the garbage collector paused (:func:`triage.util.gc_pause.paused`): a rule
    set is ~20,000 new objects and no garbage, and the collector's passes over them cost ~30% of the load."""
    import pickle

    from triage.util.gc_pause import paused

    with paused():
        return pickle.load(f)


def _private_dir(folder: Path) -> bool:
    """Whether ``folder`` is a real directory of this user that nobody else can write."""
    try:
        st = os.lstat(folder)
    except OSError:
        return False
    import stat

    return stat.S_ISDIR(st.st_mode) and not st.st_mode & 0o022 and (
        not hasattr(os, "getuid") or st.st_uid == os.getuid())


def store_pickle(path: Path, value, keep: int = 8) -> None:
    """Pickle ``value`` to ``path`` atomically (a new file, never through a link), in a cache
    directory created private (0700), keeping the ``keep`` newest files of the same prefix (the
    part of the name before its first ``-``); a read-only cache is no error."""
    import pickle

    try:
        path.parent.mkdir(mode=0o700, parents=True, exist_ok=True)
        if not _private_dir(path.parent):
            return
        tmp = path.with_name(f"{path.name}.{os.getpid()}.tmp")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
        with os.fdopen(fd, "wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
        prefix = path.name.split("-", 1)[0]
        for old in sorted(path.parent.glob(f"{prefix}-*.pickle"), key=lambda p: p.stat().st_mtime)[:-keep]:
            old.unlink(missing_ok=True)
    except Exception:
        pass
