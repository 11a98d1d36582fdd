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
    trust (a pickle can run code: only a file owned by this user that nobody else can write)."""
    import pickle

    try:
        st = path.stat()
        if (hasattr(os, "getuid") and st.st_uid != os.getuid()) or st.st_mode & 0o022:
            return None
        with path.open("rb") as f:
            return pickle.load(f)
    except Exception:  # absent, stale or unreadable: rebuild
        return None


def store_pickle(path: Path, value, keep: int = 8) -> None:
    """Pickle ``value`` to ``path`` atomically, keeping the ``keep`` newest files of the same
    prefix (the part of the name before its first ``-``); a read-only cache is no error."""
    import pickle

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(f".{os.getpid()}.tmp")
        with tmp.open("wb") as f:
            pickle.dump(value, f, protocol=pickle.HIGHEST_PROTOCOL)
        tmp.replace(path)
        prefix = path.name.split("-", 1)[0]
        for old in sorted(path.parent.glob(f"{prefix}-*.pickle"), key=lambda p: p.stat().st_mtime)[:-keep]:
            old.unlink(missing_ok=True)
    except Exception:
        pass
