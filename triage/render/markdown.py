"""Markdown for a GitHub issue: the diagnosis up front, evidence in a collapsible block."""

from __future__ import annotations

from triage.plural import count
from triage.render.text import headline, where
from triage.report import Finding, Report


def cell(text: str) -> str:
    """``text`` made safe for one Markdown table cell."""
    return text.replace("|", "\\|").replace("\n", " ")


def _fence(lines: list[str]) -> str:
    body = "\n".join(lines)
    ticks = "```"
    while ticks in body:
        ticks += "`"
    return f"{ticks}text\n{body}\n{ticks}"


def render(report: Report) -> str:
    """The report as GitHub-flavoured Markdown."""
    out = [f"### triage: {cell(headline(report))}", ""]
    root = report.root_cause
    if root is not None:  # the heading names it: the block starts with where it belongs
        out += _finding(root)
    others = [f for f in report.findings if root is None or f.rule_id != root.rule_id]
    if others:
        out += ["", "| severity | finding | layer / component | rule | first seen | count |",
                "|---|---|---|---|---|---|"]
        for f in others:
            note = f" (symptom of `{f.suppressed_by}`)" if f.suppressed_by else ""
            out.append(f"| {f.severity} | {cell(f.title)}{note} | {f.layer} / {cell(f.component)} | "
                       f"`{f.rule_id}` | {cell(where(f.first_file, f.first_line))} | {f.count} |")
    if report.facts:
        out += ["", "| environment | value | line |", "|---|---|---|"]
        for fact in report.facts:
            value = fact.value + (f" (also {', '.join(fact.others)})" if fact.others else "")
            out.append(f"| {cell(fact.label)} | {cell(value)} | {cell(where(fact.file, fact.line))} |")
    if report.unrecognised:
        out += ["", "**Unrecognised error lines** (no rule explains them):", "",
                _fence([f"{where(u.file, u.line)}: {u.text}" for u in report.unrecognised])]
    if report.input_errors:
        out += ["", f"**Input not read in full** ({count(len(report.input_errors), 'input')}):", ""]
        out += [f"- {cell(p.message)}" for p in report.input_errors]
    if report.notices:
        out += ["", "**Notes**:", ""] + [f"- {cell(n)}" for n in report.notices]
    evidence = [f"{where(ev.file, ev.line)}: {ev.text}" for f in others for ev in f.evidence]
    if evidence:
        out += ["", "<details><summary>Evidence of the other findings</summary>", "", _fence(evidence), "",
                "</details>"]
    out += ["", f"<sub>{count(report.lines_read, 'line')} read · triage {report.triage_version} · "
                f"rules {report.rules_digest}</sub>"]
    return "\n".join(out)


def _finding(f: Finding) -> list[str]:
    out = [f"Layer `{f.layer}`, component {f.component}, severity {f.severity} (`{f.rule_id}`, seen {f.count}x)",
           "", f.cause, "", "**Fix**", ""]
    out += [f"{i}. {step}" for i, step in enumerate(f.fix, 1)]
    out += ["", "<details><summary>Evidence</summary>", "",
            _fence([f"{where(ev.file, ev.line)}: {ev.text}" for ev in f.evidence]), "", "</details>"]
    if f.references:
        out += ["", "References: " + ", ".join(f.references)]
    return out
