"""``docs/rules.md``: the catalog of rules, generated from the rule files and the corpus."""

from __future__ import annotations

from collections import defaultdict

from triage.kbtools.corpus import CorpusCase
from triage.knowledge.compat import Knowledge
from triage.knowledge.loader import RuleSet
from triage.render.markdown import cell


def render_catalog(rules: RuleSet, cases: list[CorpusCase], knowledge: Knowledge | None = None) -> str:
    """Markdown: one table per rule file (id, title, layer, component, severity, corpus sources),
    then the fact checks and the facts of ``compat/`` (``knowledge``) when given."""
    sources: dict[str, list[str]] = defaultdict(list)
    for c in cases:
        ids = [c.case.expect.root_cause, *c.case.expect.also]
        for rid in ids:
            if rid:
                label = c.case.source + (" (synthetic)" if c.case.synthetic else "")
                if label not in sources[rid]:
                    sources[rid].append(label)
    by_file: dict[str, list] = defaultdict(list)
    for r in rules.rules:
        by_file[r.file.rsplit("/", 1)[-1]].append(r)
    real = sum(1 for r in rules.rules if any("(synthetic)" not in s for s in sources.get(r.id, [])))
    out = ["# Rule catalog", "",
           "Generated from `rules/` and `corpus/` by `triage rules catalog > docs/rules.md`; a test fails when it is",
           "out of date.", "",
           f"{len(rules.rules)} rules, {real} of them backed by a real public log; "
           f"{sum(1 for c in cases if c.case.healthy)} healthy logs.", ""]
    for name in sorted(by_file):
        out += [f"## {name}", "", "| id | title | layer | component | severity | sources |",
                "|---|---|---|---|---|---|"]
        for r in by_file[name]:
            src = ", ".join(sources.get(r.id, [])) or "none"
            out.append(f"| `{r.id}` | {cell(r.rule.title)} | {r.rule.layer} | {cell(r.rule.component)} | "
                       f"{r.rule.severity} | {cell(src)} |")
        out.append("")
    if knowledge is not None:
        out += ["## Fact checks (compat/checks.yaml)", "",
                "Findings reasoned from the environment facts and the compatibility tables.", "",
                "| id | title | layer | component | severity | sources |", "|---|---|---|---|---|---|"]
        for c in knowledge.checks:
            src = ", ".join(sources.get(c.id, [])) or "none"
            out.append(f"| `{c.id}` | {cell(c.title)} | {c.layer} | {cell(c.component)} | {c.severity} | {cell(src)} |")
        out += ["", "## Facts (compat/facts.yaml)", "", "| fact | meaning | type | extractors |", "|---|---|---|---|"]
        for name, spec in knowledge.facts.items():
            ids = ", ".join(f"`{e.id}`" for e in knowledge.extractors if e.fact == name)
            out.append(f"| `{name}` | {cell(spec.label)} | {spec.type} | {ids} |")
        out.append("")
    return "\n".join(out)
