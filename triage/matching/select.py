"""Pick the fastest matcher this machine can run (``TRIAGE_MATCHER`` forces one)."""

from __future__ import annotations

import os
from collections.abc import Sequence

from triage.knowledge.compiled import CompiledRule
from triage.matching.base import DETECTORS, Matcher, prefilter_patterns

MATCHERS = ("auto", "small", "hyperscan", "literal", "reference")


def choose_matcher(rules: Sequence[CompiledRule], name: str | None = None, *, use_cache: bool = True,
                   extra: Sequence[tuple[str, bool]] = (), limits: dict[int, int] | None = None
                   ) -> Matcher:
    """Build the matcher ``name`` (``auto``: Hyperscan if it imports, else the literal prefilter;
    ``small``, for a few lines: Hyperscan only if its compiled database is already cached, else the
    literal prefilter, so a pasted line never waits for a compile).

    ``extra`` patterns (``(regex, ignore_case)``) become targets after the detectors (see
    :func:`~triage.matching.base.prefilter_patterns`). ``limits`` maps a target whose prefilter
    pattern is exactly its test to ``k``: a matcher may offer only the last ``k`` lines of a block
    that match it (Hyperscan does; the others offer all, and the engine reads the same last k).

    Raises ``ValueError`` for an unknown name and ``ImportError`` when ``hyperscan`` is asked
    for explicitly but cannot be imported.
    """
    name = name or os.environ.get("TRIAGE_MATCHER") or "auto"
    if name not in MATCHERS:
        raise ValueError(f"unknown matcher `{name}` (choose from {', '.join(MATCHERS)})")
    targets = len(rules) + len(DETECTORS) + len(extra)
    if name == "reference":
        from triage.matching.reference import ReferenceMatcher

        return ReferenceMatcher(targets)
    patterns = prefilter_patterns(rules, extra)
    if name in ("auto", "hyperscan", "small"):
        try:
            from triage.matching.hyperscan_matcher import HyperscanMatcher
        except ImportError:
            if name == "hyperscan":
                raise
        else:
            try:
                return HyperscanMatcher(patterns, use_cache=use_cache, only_cached=name == "small", limits=limits)
            except LookupError:
                pass
    from triage.matching.literal import LiteralMatcher

    return LiteralMatcher(patterns, small=name == "small")
