"""The knowledge base: every rule's examples, every corpus case, the healthy-log gate, lint."""

from __future__ import annotations

import pytest

from tests.conftest import CORPUS
from triage.kbtools.corpus import load_cases
from triage.kbtools.selftest import check_case, check_examples
from triage.knowledge.lint import lint
from triage.knowledge.loader import load_rules

RULES = load_rules()
CASES = load_cases(CORPUS)


def test_rules_lint_clean():
    assert [str(p) for p in lint(RULES)] == []


@pytest.mark.parametrize("rule_id", [r.id for r in RULES.rules])
def test_rule_examples(rule_id):
    failures = [f"{r.check}: {r.detail}" for r in check_examples(RULES, rule_id) if not r.passed]
    assert failures == []


@pytest.mark.parametrize("case", [c for c in CASES if not c.case.healthy], ids=lambda c: c.name)
def test_corpus_case_root_cause(case):
    result = check_case(RULES, case)
    assert result.passed, result.detail


@pytest.mark.parametrize("case", [c for c in CASES if c.case.healthy], ids=lambda c: c.name)
def test_healthy_log_has_no_error_finding(case):
    result = check_case(RULES, case)
    assert result.passed, result.detail


def test_every_rule_is_backed_by_a_corpus_case():
    backed = set()
    for c in CASES:
        backed.add(c.case.expect.root_cause)
        backed.update(c.case.expect.also)
    assert sorted(r.id for r in RULES.rules if r.id not in backed) == []


def test_corpus_cases_name_existing_rules():
    from triage.knowledge.compat import load_compat
    from triage.logformat.detectors import KIND_RANK

    knowledge = load_compat()
    known = set(RULES.by_id) | {c.id for c in knowledge.checks} | {f"unexplained.{k}" for k in KIND_RANK}
    known |= {f"unexplained.{c.kind}" for c in knowledge.conventions} | {"stall.repeated-wait"}
    unknown = [(c.name, rid) for c in CASES for rid in [c.case.expect.root_cause, *c.case.expect.also]
               if rid is not None and rid not in known]
    assert unknown == []


def test_corpus_cases_record_a_public_source():
    bad = [c.name for c in CASES if not c.case.source or (c.case.synthetic and not c.case.quotes)]
    assert bad == []


def test_catalog_is_up_to_date():
    from tests.conftest import ROOT
    from triage.kbtools.catalog import render_catalog
    from triage.knowledge.compat import load_compat

    expected = render_catalog(RULES, CASES, load_compat()) + "\n"
    assert (ROOT / "docs" / "rules.md").read_text(encoding="utf-8") == expected, \
        "run: triage rules catalog > docs/rules.md"


def test_rule_files_carry_the_schema_header():
    from tests.conftest import ROOT

    files = [p for p in (ROOT / "rules").glob("*.yaml")]
    assert files and all(p.read_text(encoding="utf-8").startswith("# yaml-language-server: $schema=") for p in files)


def test_knowledge_base_breadth():
    real = {rid for c in CASES if not c.case.synthetic for rid in [c.case.expect.root_cause, *c.case.expect.also]}
    assert sum(1 for r in RULES.rules if r.id in real) >= 150
    assert sum(1 for c in CASES if c.case.healthy and not c.case.synthetic) >= 20


def _catalog_entries():
    from triage.kbtools.coverage import default_catalog_dir, load_catalogs

    folder = default_catalog_dir()
    out = []
    for _, cat in load_catalogs(folder) if folder else []:
        for i, entry in enumerate(cat.entries):
            if entry.rule and not entry.excluded:
                out.append(pytest.param(cat.catalog, entry, id=f"{cat.catalog}[{i}]"))
    return out


_CATALOG_ENTRIES = _catalog_entries()


@pytest.mark.parametrize(("catalog", "entry"), _CATALOG_ENTRIES)
def test_catalog_entry_is_covered_by_its_rule(catalog, entry):
    from dataclasses import replace

    from triage.api import explain
    from triage.knowledge.compat import load_compat

    report = explain(entry.sample_line(), rules=RULES, matcher="reference",
                     knowledge=replace(load_compat(), checks=[]))
    fired = [f.rule_id for f in report.findings if not f.generic and f.pack != "unexplained"]
    assert entry.rule in fired, f"{catalog}: {entry.path}:{entry.line}: `{entry.sample_line()}` fired {fired}"


def test_catalog_coverage_meets_the_targets():
    from triage.kbtools.coverage import default_catalog_dir, load_catalogs

    cats = {c.catalog: c for _, c in load_catalogs(default_catalog_dir())}
    counted = [e for c in cats.values() for e in c.entries if not e.excluded]
    covered = [e for e in counted if e.rule]
    assert len(covered) >= 0.8 * len(counted)
    hccl = [e for e in cats["hccl-guide"].entries if not e.excluded]
    assert hccl and all(e.rule for e in hccl)
    # an entry either names the rule that covers it, or is honestly left uncovered / excluded with a reason
    assert all(e.excluded.strip() for c in cats.values() for e in c.entries if e.excluded is not None)
