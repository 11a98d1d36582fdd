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
