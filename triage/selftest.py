"""Run rules against their own examples and against the corpus (used by ``triage rules test``
and by the test suite)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from triage.api import analyze, explain
from triage.corpus import CorpusCase, load_cases
from triage.loader import RuleSet
from triage.schema import SEVERITIES


@dataclass
class Result:
    """One check: which rule or case, what was checked, whether it passed, and why not."""

    subject: str
    check: str
    passed: bool
    detail: str = ""


def check_examples(rules: RuleSet, rule_id: str | None = None) -> list[Result]:
    """Each ``examples.match`` must make the rule fire *and rank first*; each ``no_match`` must not."""
    out = []
    for compiled in rules.rules:
        rule = compiled.rule
        if rule_id and rule.id != rule_id:
            continue
        for i, text in enumerate(rule.examples.match):
            report = explain(text, rules=rules, matcher="reference")
            ids = [f.rule_id for f in report.findings]
            ok = bool(ids) and ids[0] == rule.id
            detail = "" if ok else (f"ranked {ids}" if rule.id in ids else f"did not fire (fired: {ids})")
            out.append(Result(rule.id, f"examples.match[{i}]", ok, detail))
        for i, text in enumerate(rule.examples.no_match):
            report = explain(text, rules=rules, matcher="reference")
            ok = rule.id not in {f.rule_id for f in report.findings}
            out.append(Result(rule.id, f"examples.no_match[{i}]", ok, "" if ok else "fired"))
    return out


def check_case(rules: RuleSet, case: CorpusCase, matcher: str | None = None) -> Result:
    """The case's log must give the expected root cause (and layer), with ``also`` rules fired."""
    report = analyze(case.log, rules=rules, matcher=matcher)
    expect = case.case.expect
    fired = [f.rule_id for f in report.findings]
    if case.case.healthy or expect.root_cause is None:
        bad = [f.rule_id for f in report.findings if f.severity in SEVERITIES[:2]]
        return Result(case.name, "healthy", not bad, f"error findings: {bad}" if bad else "")
    # `root_cause` in the report is the top finding of severity error or critical; a case may
    # expect a warning-level rule (an unhealthy device, a risky setting) to lead instead.
    expected_rule = rules.by_id.get(expect.root_cause)
    lead_only = expected_rule is not None and expected_rule.rule.severity not in SEVERITIES[:2]
    root = (report.findings[0] if report.findings else None) if lead_only else report.root_cause
    problems = []
    if root is None or root.rule_id != expect.root_cause:
        problems.append(f"root cause {root.rule_id if root else None}, expected {expect.root_cause} (fired {fired})")
    elif expect.layer and root.layer != expect.layer:
        problems.append(f"layer {root.layer}, expected {expect.layer}")
    missing = [r for r in expect.also if r not in fired]
    if missing:
        problems.append(f"also expected to fire: {missing}")
    return Result(case.name, "root_cause", not problems, "; ".join(problems))


def check_corpus(rules: RuleSet, corpus: Path, rule_id: str | None = None) -> list[Result]:
    """Check every case below ``corpus`` (only those expecting ``rule_id`` if given)."""
    results = []
    for case in load_cases(corpus):
        expect = case.case.expect
        if rule_id and rule_id != expect.root_cause and rule_id not in expect.also:
            continue
        results.append(check_case(rules, case))
    return results
