"""Root cause first: one total order of findings, and which findings are symptoms of which.

The order: suppressed last; then specific rules, then unexplained error lines (a line no rule
knows, shown in its own words), then generic wrappers; then hypotheses after confirmed and likely
causes; then priority (higher first), severity, and the earliest line.
"""

from __future__ import annotations

from triage.knowledge.schema import CONFIDENCES, SEVERITIES

#: Tiers of the order: a specific rule, an unexplained line, a generic wrapper.
SPECIFIC, UNEXPLAINED, GENERIC = 0, 1, 2


def confidence_of(rule) -> str:
    """A rule's confidence (``confirmed`` when not stated: user packs, fact checks)."""
    return getattr(rule, "confidence", None) or "confirmed"


def tier_of(rule) -> int:
    """:data:`SPECIFIC` or :data:`GENERIC` for a rule or fact check."""
    return GENERIC if rule.generic else SPECIFIC


def rank_key(rule, position: tuple[int, int], suppressed: bool, tier: int | None = None) -> tuple:
    """Sort key of a finding of ``rule`` (a :class:`~triage.knowledge.schema.Rule` or fact check) first seen
    at ``position`` (file index, line)."""
    hypothesis = CONFIDENCES.index(confidence_of(rule)) >= CONFIDENCES.index("hypothesis")
    return (suppressed, tier_of(rule) if tier is None else tier, hypothesis, -rule.priority,
            SEVERITIES.index(rule.severity), position)
