"""Checks across rules that loading alone does not make: suppress targets and cycles.

Each check is a small function returning :class:`~triage.errors.RuleProblem` s.
"""

from __future__ import annotations

from triage.errors import RuleProblem
from triage.knowledge.loader import RuleSet


def suppress_targets_exist(rules: RuleSet) -> list[RuleProblem]:
    """Every id in ``suppresses`` names a loaded rule."""
    out = []
    for r in rules.rules:
        for target in r.rule.suppresses:
            if target not in rules.by_id:
                out.append(RuleProblem(r.file, r.line, f"rule {r.id}: suppresses", f"unknown rule id `{target}`"))
    return out


def no_suppress_cycles(rules: RuleSet) -> list[RuleProblem]:
    """No rule is (transitively) a symptom of itself."""
    graph = {r.id: [t for t in r.rule.suppresses if t in rules.by_id] for r in rules.rules}
    out = []
    state: dict[str, int] = {}

    def visit(node: str, path: list[str]) -> None:
        state[node] = 1
        for nxt in graph[node]:
            if state.get(nxt) == 1:
                cycle = path[path.index(nxt):] + [nxt] if nxt in path else [node, nxt]
                r = rules.by_id[node]
                out.append(RuleProblem(r.file, r.line, f"rule {node}: suppresses",
                                       "suppression cycle: " + " -> ".join(cycle)))
            elif state.get(nxt) is None:
                visit(nxt, path + [nxt])
        state[node] = 2

    for node in graph:
        if node not in state:
            visit(node, [node])
    return out


def no_self_suppression(rules: RuleSet) -> list[RuleProblem]:
    """A rule does not list itself in ``suppresses``."""
    return [RuleProblem(r.file, r.line, f"rule {r.id}: suppresses", "a rule cannot suppress itself")
            for r in rules.rules if r.id in r.rule.suppresses]


CHECKS = (suppress_targets_exist, no_self_suppression, no_suppress_cycles)


def lint(rules: RuleSet) -> list[RuleProblem]:
    """Run every cross-rule check."""
    return [p for check in CHECKS for p in check(rules)]
