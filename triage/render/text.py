"""The human report: root cause, its layer and first fix on the first line; then the rest."""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from triage.plural import count
from triage.report import Fact, Finding, Report

_SEVERITY_STYLE = {"critical": "bold red", "error": "red", "warning": "yellow", "info": "cyan"}


def where(file: str | None, line: int) -> str:
    """``file:line``, or ``line N`` for stdin and pasted text."""
    return f"{file}:{line}" if file else f"line {line}"


def headline(report: Report) -> str:
    """The first line of the report, as plain text.

    A root cause is always the headline. Otherwise, when an input could not be read in full
    (``input_errors``), the headline says so and how many lines were read: a clean verdict on
    part of the input is never presented as a clean log.
    """
    root = report.root_cause
    if root is not None:
        return f"Root cause: {root.title} [{root.layer}/{root.component}] -> fix: {root.fix[0]}"
    lines = count(report.lines_read, "line")
    if report.input_errors and report.lines_read == 0:
        return "Nothing could be read: see the input errors below"
    incomplete = f"; {incomplete_inputs(report)} (see the input errors below)" if report.input_errors else ""
    if report.unrecognised:
        return (f"No known root cause: {count(len(report.unrecognised), 'unrecognised error line')}; "
                f"first at {where(report.unrecognised[0].file, report.unrecognised[0].line)}{incomplete}")
    if report.findings:
        return f"No error found; {count(len(report.findings), 'notice')} in {lines}{incomplete}"
    if report.input_errors:
        return f"Input incomplete: no problem found in the {lines} read{incomplete}"
    if report.lines_read == 0:
        return "No problem found in 0 lines: the input was empty"
    return f"No problem found in {lines}"


def incomplete_inputs(report: Report) -> str:
    """``x.gz was not read in full`` (one input error) or ``N inputs were not read in full``."""
    errors = report.input_errors
    if len(errors) == 1:
        return f"{errors[0].file or '-'} was not read in full"
    return f"{len(errors)} inputs were not read in full"


def footer(report: Report) -> str:
    """The last line: lines read, findings, input errors, and the digests of the knowledge used."""
    compat = f", compat {report.compat_digest}" if report.compat_digest else ""
    errors = f", {count(len(report.input_errors), 'input')} not read in full" if report.input_errors else ""
    return (f"{count(report.lines_read, 'line')} read, {count(len(report.findings), 'finding')}{errors}, "
            f"rules {report.rules_digest}{compat}")


def fact_line(fact: Fact) -> str:
    """``label: value (file:line)``, with the other values seen for the same fact."""
    others = f"; also {', '.join(fact.others)}" if fact.others else ""
    return f"{fact.label}: {fact.value}{others} ({where(fact.file, fact.line)})"


def stream_line(finding: Finding) -> str:
    """One line announcing a finding the moment it is first seen (streaming mode)."""
    return (f"[{finding.severity}] {where(finding.first_file, finding.first_line)} "
            f"{finding.rule_id}: {finding.title} [{finding.layer}/{finding.component}]")


def to_text(report: Report, *, color: bool = False, width: int = 100) -> str:
    """``report`` as the text the CLI prints (the same lines ``triage analyze`` writes to a pipe).

    ``color`` adds ANSI styles; ``width`` (columns) only matters for the styled output, lines are
    never wrapped. Returns the text, ending in a newline.
    """
    import io

    buffer = io.StringIO()
    out = Console(file=buffer, width=width, soft_wrap=True, highlight=False, force_terminal=color,
                  color_system="standard" if color else None, no_color=not color)
    render(report, out)
    return buffer.getvalue()


def render(report: Report, console: Console) -> None:
    """Print ``report`` for a person on ``console``."""
    root = report.root_cause
    style = _SEVERITY_STYLE.get(root.severity, "") if root else ("yellow" if report.unrecognised else "green")
    console.print(escape(headline(report)), style=style, highlight=False, soft_wrap=True)
    if root is not None:
        _finding_block(root, console, full=True)
    others = [f for f in report.findings if root is None or f.rule_id != root.rule_id]
    if others:
        console.print()
        console.print(f"Other findings ({len(others)}):", style="bold", soft_wrap=True)
        for f in others:
            _finding_block(f, console, full=root is None and f is others[0])
    if report.facts:
        console.print()
        console.print("Environment (read from the log):", style="bold", soft_wrap=True)
        for fact in report.facts:
            console.print(f"  {escape(fact_line(fact))}", highlight=False, soft_wrap=True)
    if report.unrecognised:
        console.print()
        console.print("Unrecognised error lines (no rule explains them):", style="bold yellow", soft_wrap=True)
        for u in report.unrecognised:
            console.print(f"  {escape(where(u.file, u.line))}: {escape(u.text)}", highlight=False, soft_wrap=True)
    for t in report.truncated_lines:
        console.print(f"note: {where(t.file, t.line)} is {t.length} bytes long; matched on its first "
                      f"{t.limit} bytes", style="dim", highlight=False, markup=False, soft_wrap=True)
    for note in report.notices:
        console.print(f"note: {note}", style="dim", highlight=False, markup=False, soft_wrap=True)
    console.print()
    console.print(footer(report), style="dim", highlight=False, soft_wrap=True, markup=False)


def _finding_block(f: Finding, console: Console, *, full: bool) -> None:
    sev = _SEVERITY_STYLE.get(f.severity, "")
    if not full:
        note = f" (symptom of {f.suppressed_by})" if f.suppressed_by else ""
        console.print(f"- [{sev}]{f.severity}[/] {escape(f.title)} {escape(f'[{f.layer}/{f.component}]')} "
                      f"{f.rule_id}, x{f.count}{escape(note)}", highlight=False, soft_wrap=True)
        # a fact check's evidence is the facts it compared: show them all (a rule: its first line)
        for ev in f.evidence if f.pack == "compat" else f.evidence[:1]:
            console.print(f"    {escape(where(ev.file, ev.line))}: {escape(ev.text.strip())}", style="dim",
                          highlight=False, soft_wrap=True)
        return
    console.print(f"  rule {f.rule_id} · severity {f.severity} · seen {f.count}x, "
                  f"{where(f.first_file, f.first_line)}"
                  + (f" to {where(f.last_file, f.last_line)}" if f.count > 1 else ""),
                  style="dim", highlight=False, soft_wrap=True, markup=False)
    console.print(f"  Cause: {escape(f.cause)}", highlight=False, soft_wrap=True)
    console.print("  Fix:", highlight=False, soft_wrap=True)
    for i, step in enumerate(f.fix, 1):
        console.print(f"    {i}. {escape(step)}", highlight=False, soft_wrap=True)
    console.print("  Evidence:", highlight=False, soft_wrap=True)
    for ev in f.evidence:
        console.print(f"    {escape(where(ev.file, ev.line))}: {escape(ev.text.strip())}", highlight=False,
                      soft_wrap=True)
    if f.references:
        console.print("  See: " + escape(" ".join(f.references[:3])), style="dim", highlight=False, soft_wrap=True)
