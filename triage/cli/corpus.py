"""``triage corpus ...``: turn a real log into a corpus case, and re-bless expectations."""

from __future__ import annotations

import re
from pathlib import Path

import typer

from triage.cli.common import Arg, RulesOpt, _fail, _load, app
from triage.cli.console import console
from triage.errors import EXIT_FINDINGS, EXIT_INPUT, TriageError
from triage.util.plural import count

corpus_app = typer.Typer(no_args_is_help=True, help="Create and maintain corpus cases (real logs as fixtures).")
app.add_typer(corpus_app, name="corpus")


def _slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-")[:60] or "case"


def _trim(lines: list[str], keep: set[int], context: int) -> list[str]:
    wanted: set[int] = set()
    for n in keep:
        wanted.update(range(max(1, n - context), min(len(lines), n + context) + 1))
    return [lines[n - 1] for n in sorted(wanted)]


@corpus_app.command("add")
def add(
    log: Path = Arg(..., "LOG"),
    source: str = typer.Option(..., "--source", metavar="REF",
                               help="Where the log comes from, e.g. vllm-project/vllm-ascend#564."),
    expect: str = typer.Option(..., "--expect", metavar="ID", help="The rule id that must rank first."),
    url: str = typer.Option(None, "--url", metavar="URL", help="Link to the report."),
    name: str = typer.Option(None, "--name", metavar="NAME",
                             help="Case folder name (default: from the rule id and source)."),
    context: int = typer.Option(3, "--context", metavar="N", help="Lines kept around each evidence line."),
    corpus: Path = typer.Option(None, "--corpus", metavar="DIR",
                                help="Corpus directory (default: the checkout's corpus/)."),
    redact: bool = typer.Option(True, "--redact/--no-redact", help="Redact IPs, hosts, users and secrets."),
    rules: list[Path] = RulesOpt,
) -> None:
    """Create corpus/<case>/ from LOG: trimmed around the evidence, redacted, checked to keep its root cause."""
    from triage.api import explain
    from triage.kbtools.corpus import default_corpus_dir
    from triage.render.redact import Redactor

    try:
        ruleset = _load(rules, None)
        if expect not in ruleset.by_id:
            raise _fail(f"no rule `{expect}`", EXIT_INPUT)
        text = log.read_bytes().decode("utf-8", "replace")
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    except OSError as exc:
        raise _fail(f"{log}: {exc.strerror or exc}", EXIT_INPUT) from None
    full = explain(text, rules=ruleset)
    lead = full.findings[0].rule_id if full.findings else None
    if lead != expect:
        raise _fail(f"the full log ranks {lead} first, not {expect}: fix the rule first "
                    f"(try `triage rules why {expect} {log}`)", EXIT_FINDINGS)
    # split like the reader (and grep -n): only at \n, one trailing \r dropped
    lines = [line[:-1] if line.endswith("\r") else line for line in text.split("\n")]
    if lines and lines[-1] == "":
        lines.pop()
    keep = {ev.line for f in full.findings for ev in f.evidence} | {u.line for u in full.unrecognised}
    trimmed = _trim(lines, keep, context)
    cut = explain(trimmed, rules=ruleset)
    if [f.rule_id for f in cut.findings][:1] != [expect]:
        raise _fail(f"trimming to {len(trimmed)} lines changes the root cause; rerun with a larger --context",
                    EXIT_FINDINGS)
    if redact:
        red = Redactor()
        for line in trimmed:
            red.scan(line)
        trimmed = [red.apply(line) for line in trimmed]
    folder = (corpus or default_corpus_dir() or Path("corpus")) / (name or _slug(f"{expect.replace('.', '-')}-"
                                                                             f"{source.split('/')[-1]}"))
    if folder.exists():
        raise _fail(f"{folder} already exists", EXIT_INPUT)
    folder.mkdir(parents=True)
    (folder / "log.txt").write_text("\n".join(trimmed) + "\n", encoding="utf-8")
    rule = ruleset.by_id[expect].rule
    also = [f.rule_id for f in cut.findings if f.rule_id != expect]
    case = {"source": source, "url": url, "synthetic": False,
            "expect": {"root_cause": expect, "layer": rule.layer, "also": also},
            "notes": f"Trimmed by `triage corpus add` from {len(lines)} to {len(trimmed)} lines (context {context})."}
    if url is None:
        del case["url"]
    import yaml  # only for this command: `analyze` never loads PyYAML

    (folder / "case.yaml").write_text(yaml.safe_dump(case, sort_keys=False, allow_unicode=True, width=110),
                                      encoding="utf-8")
    console(soft_wrap=True).print(
        f"wrote {folder} ({len(trimmed)} of {len(lines)} lines; also fires: {also}); add a note on the cause to "
        "case.yaml")


@corpus_app.command("bless")
def bless(
    cases: list[str] = Arg(None, "CASE"),
    corpus: Path = typer.Option(None, "--corpus", metavar="DIR",
                                help="Corpus directory (default: the checkout's corpus/)."),
    rules: list[Path] = RulesOpt,
    facts: bool = typer.Option(False, "--facts", help="Record every fact read (value and line), not only "
                               "the facts the case already expects."),
) -> None:
    """Rewrite each case's `expect` from the current output, so that `git diff` is the review.

    CASE: case folder names (default: all).
    """
    from triage.api import analyze
    from triage.kbtools.corpus import default_corpus_dir, load_cases

    try:
        ruleset = _load(rules, None)
        folder = corpus or default_corpus_dir()
        if folder is None:
            raise _fail("no corpus directory: pass --corpus", EXIT_INPUT)
        selected = [c for c in load_cases(folder) if not cases or c.name in cases]
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    changed = 0
    for c in selected:
        report = analyze(c.log, rules=ruleset)
        if c.case.healthy:  # only its facts are blessed: a healthy log has no diagnosis to record
            expect = c.case.expect.model_dump(exclude={"facts"})
        else:
            lead = report.findings[0] if report.findings else None
            expect = {"root_cause": lead.rule_id if lead else None, "layer": lead.layer if lead else None,
                      "also": [f.rule_id for f in report.findings[1:]]}
        wanted = {f.name for f in report.facts} if facts else set(c.case.expect.facts)
        read = {f.name: {"value": f.value, "line": f.line} for f in report.facts if f.name in wanted}
        if read:
            expect["facts"] = read
        meta = c.folder / "case.yaml"
        text = meta.read_text(encoding="utf-8")
        import yaml  # only for this command: `analyze` never loads PyYAML

        block = yaml.safe_dump({"expect": expect}, sort_keys=False, width=110)
        new = re.sub(r"^expect:\n(?:[ \t].*\n?)*", block, text, count=1, flags=re.M)
        if new != text:
            meta.write_text(new, encoding="utf-8")
            changed += 1
    print(f"{changed} of {count(len(selected), 'case')} rewritten")
