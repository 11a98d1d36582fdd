"""Root cause first: suppression, then specific before generic, then priority, then earliest line."""

from __future__ import annotations

from triage.compiled import CompiledRule
from triage.schema import SEVERITIES


def rank_key(rule: CompiledRule, position: tuple[int, int], suppressed: bool) -> tuple:
    """Sort key of a finding; ``position`` is (file index, line) of its first occurrence."""
    return (suppressed, rule.rule.generic, -rule.rule.priority, SEVERITIES.index(rule.rule.severity), position)


def apply_suppression(order: list[CompiledRule]) -> dict[str, str]:
    """Which fired rule is suppressed by which: ``{symptom id: cause id}``.

    ``order`` is the fired rules sorted without suppression; a rule acts only while it is not
    suppressed itself, so a cycle cannot hide both of its rules.
    """
    fired = {r.id for r in order}
    suppressed: dict[str, str] = {}
    for rule in order:
        if rule.id in suppressed:
            continue
        for target in rule.rule.suppresses:
            if target in fired and target != rule.id and target not in suppressed:
                suppressed[target] = rule.id
    return suppressed
