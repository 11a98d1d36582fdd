"""Run rules against their own examples and against the corpus (used by ``triage rules test``
and by the test suite)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path

from triage.api import analyze, explain
from triage.kbtools.corpus import CorpusCase, load_cases
from triage.knowledge.compat import Knowledge
from triage.knowledge.loader import RuleSet
from triage.knowledge.schema import SEVERITIES
from triage.report.models import Report


@dataclass
class Result:
    """One check: which rule or case, what was checked, whether it passed, and why not."""

    subject: str
    check: str
    passed: bool
    detail: str = ""


def check_examples(rules: RuleSet, rule_id: str | None = None) -> list[Result]:
    """Each ``examples.match`` must make the rule fire *and rank first*; each ``no_match`` must not.

    The rules are judged alone: the fact checks (``compat/checks.yaml``), which may explain a
    rule's line better, have examples of their own.
    """
    from triage.knowledge.compat import load_compat

    knowledge = replace(load_compat(), checks=[])
    out = []
    for compiled in rules.rules:
        rule = compiled.rule
        if rule_id and rule.id != rule_id:
            continue
        for i, text in enumerate(rule.examples.match_texts()):
            report = explain(text, rules=rules, matcher="reference", knowledge=knowledge)
            ids = [f.rule_id for f in report.findings]
            ok = bool(ids) and ids[0] == rule.id
            detail = "" if ok else (f"ranked {ids}" if rule.id in ids else f"did not fire (fired: {ids})")
            out.append(Result(rule.id, f"examples.match[{i}]", ok, detail))
        for i, text in enumerate(rule.examples.no_match):
            report = explain(text, rules=rules, matcher="reference", knowledge=knowledge)
            ok = rule.id not in {f.rule_id for f in report.findings}
            out.append(Result(rule.id, f"examples.no_match[{i}]", ok, "" if ok else "fired"))
    return out


def check_case(rules: RuleSet, case: CorpusCase, matcher: str | None = None) -> Result:
    """The case's log must give the expected root cause (and layer), with ``also`` rules fired."""
    report = analyze(case.log, rules=rules, matcher=matcher)
    expect = case.case.expect
    fired = [f.rule_id for f in report.findings]
    if case.case.healthy or expect.root_cause is None:
        # a healthy log stays clean: no error-level finding and no unrecognised error line
        bad = [f.rule_id for f in report.findings if f.severity in SEVERITIES[:2]]
        bad += [f"unrecognised {u.kind} at line {u.line}" for u in report.unrecognised if u.severity in SEVERITIES[:2]]
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
    problems += fact_problems(report, expect.facts)
    return Result(case.name, "root_cause", not problems, "; ".join(problems))


def fact_problems(report: Report, expected: dict) -> list[str]:
    """How the report's facts differ from ``expected`` (``{name: FactExpectation}``)."""
    got = {f.name: f for f in report.facts}
    out = []
    for name, want in expected.items():
        fact = got.get(name)
        if fact is None:
            out.append(f"fact {name} not read (expected {want.value} at line {want.line})")
        elif (fact.value, fact.line) != (want.value, want.line):
            out.append(f"fact {name} = {fact.value} at line {fact.line}, expected {want.value} at line {want.line}")
    return out


def check_extractors(knowledge: Knowledge, rules: RuleSet) -> list[Result]:
    """Each extractor reads its examples' values (through the whole engine, prefilter included,
    unless a stronger extractor gives the fact too) and reads nothing from its ``no_match`` lines."""
    out = []
    for ex in knowledge.extractors:
        alone = replace(knowledge, extractors=[ex], checks=[])
        for i, example in enumerate(ex.examples):
            for label, know in (("alone", alone), ("with all extractors", knowledge)):
                report = explain(example.text, rules=rules, knowledge=know)
                fact = next((f for f in report.facts if f.name == ex.fact), None)
                stronger = (fact is not None and fact.extractor != ex.id
                            and _priority(knowledge, fact.extractor) > ex.priority)
                ok = fact is not None and (fact.value == example.value or stronger)
                detail = "" if ok else f"{label}: read {fact.value if fact else None!r}, expected {example.value!r}"
                out.append(Result(ex.id, f"examples[{i}] {label}", ok, detail))
        for i, text in enumerate(ex.no_match):
            report = explain(text, rules=rules, knowledge=alone)
            ok = not report.facts
            out.append(Result(ex.id, f"no_match[{i}]", ok, "" if ok else f"read {report.facts[0].value!r}"))
    return out


def _priority(knowledge: Knowledge, extractor_id: str) -> int:
    return next((e.priority for e in knowledge.extractors if e.id == extractor_id), 0)


def check_checks(knowledge: Knowledge, rules: RuleSet) -> list[Result]:
    """Each fact check must fire and lead the report on its ``match`` examples, and stay silent
    on its ``no_match`` ones; every id it suppresses must exist."""
    out = []
    for check in knowledge.checks:
        for i, text in enumerate(check.examples.match):
            report = explain(text, rules=rules, knowledge=knowledge)
            ids = [f.rule_id for f in report.findings]
            ok = bool(ids) and ids[0] == check.id
            detail = "" if ok else (f"ranked {ids}" if check.id in ids else f"did not fire (fired: {ids})")
            out.append(Result(check.id, f"examples.match[{i}]", ok, detail))
        for i, text in enumerate(check.examples.no_match):
            report = explain(text, rules=rules, knowledge=knowledge)
            ok = check.id not in {f.rule_id for f in report.findings}
            out.append(Result(check.id, f"examples.no_match[{i}]", ok, "" if ok else "fired"))
        checks = {c.id for c in knowledge.checks}
        unknown = [rid for rid in check.suppresses if rid not in rules.by_id and rid not in checks]
        out.append(Result(check.id, "suppresses", not unknown, f"unknown rule ids {unknown}" if unknown else ""))
    return out


def check_corpus(rules: RuleSet, corpus: Path, rule_id: str | None = None) -> list[Result]:
    """Check every case below ``corpus`` (only those expecting ``rule_id`` if given)."""
    results = []
    for case in load_cases(corpus):
        expect = case.case.expect
        if rule_id and rule_id != expect.root_cause and rule_id not in expect.also:
            continue
        results.append(check_case(rules, case))
    return results
