"""Counts in words: ``1 line``, ``2 lines``, ``0 findings``."""

from __future__ import annotations


def count(n: int, singular: str, plural: str | None = None) -> str:
    """``n`` and the noun, singular for exactly one: ``count(1, "line") == "1 line"``,
    ``count(3, "finding") == "3 findings"``, ``count(2, "entry", "entries") == "2 entries"``."""
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"
