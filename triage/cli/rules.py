"""``triage rules ...``: list, show, lint, test, why, schema."""

from __future__ import annotations

import json
import re
from enum import Enum
from pathlib import Path
from typing import get_args

import typer

from triage.cli.common import Arg, DisableOpt, LangOpt, RulesOpt, Severity, _fail, _lang, _load, rules_app
from triage.cli.console import console
from triage.errors import EXIT_FINDINGS, EXIT_RULES, TriageError
from triage.knowledge.lookup import component_matches, keyword_matches, unknown_id
from triage.knowledge.schema import Layer as LayerName
from triage.util.plural import count

Layer = Enum("Layer", {name: name for name in get_args(LayerName)}, type=str)  # type: ignore[misc]
ListFormat = Enum("ListFormat", {"table": "table", "json": "json"}, type=str)  # type: ignore[misc]
TextFormat = Enum("TextFormat", {"text": "text", "json": "json"}, type=str)  # type: ignore[misc]
_LIST_HEADER = ("id", "layer", "component", "severity", "priority", "title")


@rules_app.command("list")
def list_rules(
    layer: Layer = typer.Option(None, "--layer", case_sensitive=False, metavar="LAYER",
                                help="Only this layer: hardware, driver or framework (any case)."),
    component: str = typer.Option(None, "--component", metavar="NAME",
                                  help="Only components whose name is or holds these words (any case)."),
    severity: Severity = typer.Option(None, "--severity", case_sensitive=False, metavar="SEVERITY",
                                      help="Only this severity: critical, error, warning or info (any case)."),
    grep: str = typer.Option(None, "--grep", "-k", metavar="WORDS",
                             help="Only rules whose id, title, component or cause holds every one of these "
                                  "words (any case, either language)."),
    format: ListFormat = typer.Option("table", "--format", "-f", case_sensitive=False, metavar="FORMAT",
                                      help="table (tab-separated with a header row when piped) or json."),
    rules: list[Path] = RulesOpt,
    lang: str = LangOpt,
) -> None:
    """List the loaded rules (titles in the chosen language where the rule has it)."""
    try:
        language = _lang(lang)
        ruleset = _load(rules, None)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None

    def title(r) -> str:
        return r.rule.zh.title if language == "zh" and r.rule.zh is not None else r.rule.title

    picked = [r for r in ruleset.rules
              if (layer is None or r.rule.layer == layer.value)
              and (component is None or component_matches(component, r.rule.component))
              and (severity is None or r.rule.severity == severity.value)
              and (grep is None or keyword_matches(grep, r))]
    if format.value == "json":
        print(json.dumps([{"id": r.id, "title": title(r), "layer": r.rule.layer, "component": r.rule.component,
                           "severity": r.rule.severity, "priority": r.rule.priority, "generic": r.rule.generic,
                           "confidence": r.rule.effective_confidence, "pack": r.pack, "file": r.file}
                          for r in picked], indent=2, ensure_ascii=False))
        return
    out = console()
    packs = any(r.pack != "builtin" for r in picked)  # a pack column once a pack beside the built-in rules is loaded
    if not out.is_terminal:  # piped: whole lines, tab-separated, never cut to a width
        print("\t".join([*_LIST_HEADER, *(["pack"] if packs else [])]))
        for r in picked:
            print("\t".join([r.id, r.rule.layer, r.rule.component, r.rule.severity, str(r.rule.priority),
                             title(r), *([r.pack] if packs else [])]))
        return
    from rich.table import Table

    table = Table(box=None)
    # ids are never cut (they are what `rules show` takes); the title wraps instead
    table.add_column("id", no_wrap=True, min_width=max((len(r.id) for r in picked), default=2))
    for name in ("layer", "component", "severity", "prio"):
        table.add_column(name, no_wrap=True)
    table.add_column("title", overflow="fold")
    if packs:
        table.add_column("pack", no_wrap=True)
    for r in picked:
        table.add_row(r.id, r.rule.layer, r.rule.component, r.rule.severity, str(r.rule.priority), title(r),
                      *([r.pack] if packs else []))
    out.print(table)
    out.print(count(len(picked), "rule"), style="dim")


@rules_app.command("show")
def show(rule_id: str = Arg(..., "ID"), rules: list[Path] = RulesOpt,
         corpus: Path = typer.Option(None, "--corpus", metavar="DIR",
                                     help="Corpus directory (default: the checkout's)."),
         lang: str = LangOpt) -> None:
    """Show one rule (or fact check) ID whole: fields, examples and the corpus cases that expect it.

    With --lang zh the title, cause and fix are shown in Chinese and the English under `en`.
    """
    import yaml

    from triage.kbtools.corpus import default_corpus_dir, load_cases

    def localised(data: dict) -> dict:
        zh = data.pop("zh", None)
        if language != "zh" or not zh:
            if zh:
                data["zh"] = zh
            return data
        english = {k: data[k] for k in ("title", "cause", "fix") if k in data}
        data.update({"title": zh["title"], "cause": zh["cause"], "fix": zh["fix"]})
        data["en"] = english
        return data

    try:
        language = _lang(lang)
        ruleset = _load(rules, None)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    r = ruleset.by_id.get(rule_id)
    if r is None:
        from triage.knowledge.compat import load_compat

        knowledge = load_compat()
        check = next((c for c in knowledge.checks if c.id == rule_id), None)
        if check is None:
            raise _fail(unknown_id("rule or fact check", rule_id, [*ruleset.by_id, *(c.id for c in knowledge.checks)]),
                        2)
        # a fact check (compat/checks.yaml): reasoned from facts, see docs/compat.md
        file, line = knowledge.where[rule_id]
        print(f"# {file}:{line} (fact check, reasoner `{check.test}` in triage/compat/checks.py)")
        print(yaml.safe_dump(localised(check.model_dump(exclude_defaults=True)), sort_keys=False,
                             allow_unicode=True, width=110), end="")
    else:
        # Plain print: the YAML must stay valid when redirected to a file, whatever the width.
        print(f"# {r.file}:{r.line} (pack {r.pack})")
        print(yaml.safe_dump(localised(r.rule.model_dump(exclude_defaults=True)), sort_keys=False,
                             allow_unicode=True, width=110), end="")
    folder = corpus or default_corpus_dir()
    if folder:
        cases = [c for c in load_cases(folder)
                 if c.case.expect.root_cause == rule_id or rule_id in c.case.expect.also]
        print(f"# corpus cases ({len(cases)}):")
        for c in cases:
            kind = "synthetic" if c.case.synthetic else "real"
            print(f"#   {c.folder} ({kind}, {c.case.source})")


@rules_app.command("lint")
def lint_cmd(paths: list[Path] = Arg(None, "PACK"), rules: list[Path] = RulesOpt) -> None:
    """Check rule files: schema, regex dialect and safety, placeholders, suppress targets, cycles.

    PACK: rule packs (directories or files) to check; default: the loaded ones. What a user pack
    may leave out (references, no_match examples) is printed as a warning and does not fail.
    """
    from triage.knowledge.lint import lint
    from triage.knowledge.loader import builtin_rules_dir

    builtin = builtin_rules_dir().resolve()
    # Files of the built-in pack are checked by loading the built-in pack itself.
    extra = [p for p in [*(paths or []), *(rules or [])]
             if builtin != p.resolve() and builtin not in p.resolve().parents]
    try:
        ruleset = _load(extra, None)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    problems = lint(ruleset)
    err = console(stderr=True)
    for w in ruleset.warnings:  # what a user pack may lack (the built-in base may not): never an error
        err.print(f"warning: {w}", highlight=False, soft_wrap=True, markup=False)
    for p in problems:
        err.print(str(p), highlight=False, soft_wrap=True, markup=False)
    if problems:
        raise typer.Exit(EXIT_RULES)
    warned = f", {count(len(ruleset.warnings), 'warning')}" if ruleset.warnings else ""
    print(f"{count(len(ruleset), 'rule')} OK ({count(len(ruleset.files), 'file')}){warned}")


@rules_app.command("test")
def test_cmd(
    rule_id: str = Arg(None, "ID"),
    corpus: Path = typer.Option(None, "--corpus", metavar="DIR", help="Corpus directory (default: the checkout's)."),
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Print passing checks too."),
) -> None:
    """Run each rule's examples, the fact extractors' and checks' examples (compat/) and the corpus
    cases; print pass/fail and corpus accuracy.

    ID: only this rule, fact check or extractor.
    """
    from triage.kbtools.corpus import default_corpus_dir
    from triage.kbtools.selftest import check_checks, check_corpus, check_examples, check_extractors
    from triage.knowledge.compat import load_compat

    try:
        ruleset = _load(rules, disable)
        knowledge = load_compat()
        known = set(ruleset.by_id) | {c.id for c in knowledge.checks} | {e.id for e in knowledge.extractors}
        if rule_id and rule_id not in known:
            raise _fail(unknown_id("rule, check or extractor", rule_id, known), 2)
        results = check_examples(ruleset, rule_id)
        if not rule_id or rule_id.startswith("compat.") or rule_id not in ruleset.by_id:
            results += [r for r in check_checks(knowledge, ruleset) + check_extractors(knowledge, ruleset)
                        if not rule_id or r.subject == rule_id]
        folder = corpus or default_corpus_dir()
        case_results = check_corpus(ruleset, folder, rule_id) if folder else []
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    from rich.markup import escape

    out = console()
    for r in [*results, *case_results]:
        if verbose or not r.passed:
            mark = "[green]PASS[/]" if r.passed else "[red]FAIL[/]"
            out.print(f"{mark} {escape(r.subject)} {r.check} {escape(r.detail)}", soft_wrap=True)
    ex_fail = sum(not r.passed for r in results)
    rc = [r for r in case_results if r.check == "root_cause"]
    right = sum(r.passed for r in rc)
    out.print(f"examples: {len(results) - ex_fail} passed, {ex_fail} failed")
    if not folder:
        out.print("corpus: not checked (no corpus/ next to this installation: pass --corpus DIR)")
    if folder:
        share = f"{100 * right / len(rc):.1f}%" if rc else "n/a"
        healthy = [r for r in case_results if r.check == "healthy"]
        out.print(f"corpus: {right}/{len(rc)} root causes right ({share}); "
                      f"healthy logs clean: {sum(r.passed for r in healthy)}/{len(healthy)}")
    failed = ex_fail + sum(not r.passed for r in case_results)
    print(f"{len(results) + len(case_results) - failed} passed, {failed} failed")
    raise typer.Exit(EXIT_FINDINGS if failed else 0)


@rules_app.command("schema")
def schema_cmd(builtin: bool = typer.Option(False, "--builtin", help="The stricter schema of the built-in rules "
                                            "(references, no_match examples, confidence and zh required).")) -> None:
    """Print the JSON Schema of rule files (for editors: yaml-language-server); by default the
    schema of a user rule pack."""
    from triage.knowledge.schema import rule_file_json_schema

    print(json.dumps(rule_file_json_schema(builtin=builtin), indent=2))


@rules_app.command("why")
def why(rule_id: str = Arg(..., "ID"), log: str = Arg(..., "LOG"), rules: list[Path] = RulesOpt) -> None:
    """Say why rule ID did (not) fire on LOG (a file, or - for stdin): which condition failed, on the
    nearest line."""
    from triage.kbtools.why import explain_rule

    try:
        ruleset = _load(rules, None)
        r = ruleset.by_id.get(rule_id)
        if r is None:
            raise _fail(unknown_id("rule", rule_id, ruleset.by_id), 2)
        lines = explain_rule(r, log)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    for line in lines:
        print(line)


@rules_app.command("catalog")
def catalog_cmd(corpus: Path = typer.Option(None, "--corpus", metavar="DIR",
                                            help="Corpus directory (default: the checkout's)."),
                rules: list[Path] = RulesOpt) -> None:
    """Print the rule catalog (Markdown) that docs/rules.md holds."""
    from triage.kbtools.catalog import render_catalog
    from triage.kbtools.corpus import default_corpus_dir, load_cases

    try:
        ruleset = _load(rules, None)
        folder = corpus or default_corpus_dir()
        cases = load_cases(folder) if folder else []
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    from triage.knowledge.compat import load_compat

    print(render_catalog(ruleset, cases, load_compat()))


@rules_app.command("coverage")
def coverage_cmd(
    catalogs: Path = typer.Option(None, "--catalogs", metavar="DIR",
                                  help="Catalog directory (default: the checkout's catalogs/)."),
    only: str = typer.Option(None, "--catalog", metavar="NAME", help="Only this catalog."),
    missing: bool = typer.Option(False, "--missing", help="List the entries no specific rule covers."),
    format: TextFormat = typer.Option("text", "--format", "-f", case_sensitive=False, help="Output format."),
    rules: list[Path] = RulesOpt,
) -> None:
    """How much of each message catalog (catalogs/*.yaml) a specific rule covers: per catalog
    `covered/total (pct%)`, then the overall figure. Exit 1 when an entry's recorded `rule` does
    not fire on it."""
    from triage.kbtools.coverage import default_catalog_dir, load_catalogs, measure, percent

    folder = catalogs or default_catalog_dir()
    if folder is None or not folder.is_dir():
        raise _fail("no catalogs/ directory next to this installation: pass --catalogs DIR", 2)
    try:
        ruleset = _load(rules, None)
        loaded = [c for _, c in load_catalogs(folder) if only is None or c.catalog == only]
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    if only is not None and not loaded:
        raise _fail(f"no catalog `{only}` in {folder}", 2)
    results = measure(loaded, ruleset)
    stale = [r for cov in results for r in cov.results
             if r.entry.rule and not r.entry.excluded and r.entry.rule not in r.fired]
    covered = sum(c.covered for c in results)
    total = sum(c.total for c in results)
    if format.value == "json":
        print(json.dumps({
            "catalogs": [{"catalog": c.catalog.catalog, "title": c.catalog.title, "repo": c.catalog.repo,
                          "commit": c.catalog.commit, "covered": c.covered, "total": c.total,
                          "excluded": len(c.results) - c.total,
                          "missing": [{"template": r.entry.template, "path": r.entry.path, "line": r.entry.line}
                                      for r in c.counted if not r.covered],
                          "entries": [{"template": r.entry.template, "path": r.entry.path, "line": r.entry.line,
                                       "rule": r.entry.rule, "excluded": r.entry.excluded, "fired": r.fired}
                                      for r in c.results]} for c in results],
            "covered": covered, "total": total,
            "stale": [{"catalog": r.catalog, "template": r.entry.template, "rule": r.entry.rule, "fired": r.fired}
                      for r in stale]}, indent=2, ensure_ascii=False))
        raise typer.Exit(EXIT_FINDINGS if stale else 0)
    width = max((len(c.catalog.catalog) for c in results), default=10)
    for c in results:
        excluded = len(c.results) - c.total
        note = f", {excluded} excluded" if excluded else ""
        print(f"{c.catalog.catalog:<{width}}  {percent(c.covered, c.total)}  "
              f"{c.catalog.repo}@{c.catalog.commit[:8]}{note}")
        if missing:
            for r in c.counted:
                if not r.covered:
                    where = f"{r.entry.path}:{r.entry.line}" if r.entry.line else r.entry.path
                    print(f"    missing: {where}: {r.entry.template}")
    for r in stale:
        console(stderr=True).print(f"{r.catalog}: `{r.entry.template}`: recorded rule {r.entry.rule} does not "
                                   f"fire (fired: {r.fired})", highlight=False, soft_wrap=True, markup=False)
    print(f"{'overall':<{width}}  {percent(covered, total)}")
    raise typer.Exit(EXIT_FINDINGS if stale else 0)


@rules_app.command("suggest")
def suggest_cmd(
    log: list[str] = Arg(..., "LOG"),
    prefix: str = typer.Option("local", "--prefix", metavar="NAME", help="First part of the draft rules' ids."),
    output: Path = typer.Option(None, "--output", "-o", metavar="FILE", help="Write the rule file here."),
    rules: list[Path] = RulesOpt,
) -> None:
    """Draft a rule for each error line no rule explains: a YAML skeleton to fill in.

    LOG: the log files (or - for standard input) with the lines no rule knows. Each draft's regex
    generalises the line's numbers, hex values, paths, IPs, versions and ids; its example is the
    line; it is marked `draft: true` with a TODO cause and fix and `confidence: hypothesis`.
    """

    from triage.kbtools.suggest import draftable, suggest
    from triage.report.models import Origin, Unrecognised
    from triage.run.analysis import Analysis
    from triage.run.feed import expand_inputs, feed_source

    if not re.fullmatch(r"[a-z0-9][a-z0-9_-]*", prefix):
        raise _fail(f"--prefix: `{prefix}` is not a rule-id part (lowercase letters, digits, - and _)", 2)
    try:
        ruleset = _load(rules, None)
        sources, problems = expand_inputs(log)
        analysis = Analysis(ruleset, "reference")
        for source in sources:
            for _ in feed_source(analysis, source):
                pass
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    summary = analysis.summary()
    files = [f.name for f in summary.files]
    lines = [Unrecognised(file=files[u.file], line=u.line, text=u.text, kind=u.kind,
                          origin=Origin(**u.origin) if u.origin else Origin())
             for u in sorted(summary.unrecognised, key=lambda u: (u.file, u.line))]
    for problem in [*problems, *summary.input_errors]:
        console(stderr=True).print(f"triage: {problem.message}", style="red", highlight=False, soft_wrap=True,
                                   markup=False)
    good, vague = draftable(lines)
    for u in vague:
        console(stderr=True).print(f"triage: {u.file or '-'}:{u.line}: too few stable words to draft a rule from "
                                   f"(it would match every line of its kind): {u.text.strip()[:120]}",
                                   highlight=False, soft_wrap=True, markup=False)
    if not good:
        if vague:
            why = "no unexplained line states enough stable words: nothing to draft"
        elif summary.hits:
            why = "every error line is explained by a rule: nothing to draft"
        else:
            why = ("no error line found: no rule fired and no line looks like an error (paste the lines around "
                   "the failure, or draft the rule by hand: docs/rule-writing.md)")
        console(stderr=True).print(f"triage: {why}", highlight=False, soft_wrap=True)
        raise typer.Exit(0)
    text = suggest(good, prefix)
    if output is not None:
        output.write_text(text, encoding="utf-8")
        n = text.count("\n- id: ")
        console(stderr=True).print(f"triage: {count(n, 'draft rule')} written to {output}", highlight=False,
                                   soft_wrap=True, markup=False)
    else:
        print(text, end="")
