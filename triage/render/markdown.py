"""Markdown for a GitHub issue: the diagnosis up front, evidence in a collapsible block.

Headings and labels are in the report's language (``report.lang``), from :mod:`triage.report.i18n`, as in
the text report; rule texts come localised in the report, rule ids, severities, captured values,
commands and codes are the same in both.
"""

from __future__ import annotations

from triage.render.text import attempt_lines, cluster_lines, headline, incident_lines, where
from triage.report.i18n import fact_label, layer_label, localise, t
from triage.report.models import Finding, Report
from triage.util.plural import count


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
    lang = report.lang
    out = [f"### triage: {cell(headline(report))}", ""]
    root = report.root_cause
    if root is not None:  # the heading names it: the block starts with where it belongs
        out += _finding(root, lang)
    for block in (cluster_lines(report), incident_lines(report), attempt_lines(report)):
        if block:
            out += ["", *_section(block)]
    others = [f for f in report.findings if root is None or f.rule_id != root.rule_id]
    if others:
        out += ["", t("md_findings_header", lang), "|---|---|---|---|---|---|"]
        for f in others:
            note = t("md_symptom_of", lang, rule=f.suppressed_by) if f.suppressed_by else ""
            out.append(f"| {f.severity} | {cell(f.title)}{note} | {layer_label(f.layer, lang)} / {cell(f.component)} | "
                       f"`{f.rule_id}` | {cell(where(f.first_file, f.first_line, lang))} | {f.count} |")
    if report.facts:
        out += ["", t("md_environment_header", lang), "|---|---|---|"]
        for fact in report.facts:
            value = fact.value + (t("md_also", lang, values=", ".join(fact.others)) if fact.others else "")
            out.append(f"| {cell(fact_label(fact.name, fact.label, lang))} | {cell(value)} | "
                       f"{cell(where(fact.file, fact.line, lang))} |")
    if report.unrecognised:
        out += ["", t("md_unrecognised", lang), "",
                _fence([f"{where(u.file, u.line, lang)}: {u.text}" for u in report.unrecognised])]
    if report.input_errors:
        n = len(report.input_errors)
        out += ["", t("md_input_errors", lang, n=n, inputs=count(n, "input")), ""]
        out += [f"- {cell(p.message)}" for p in report.input_errors]
    if report.notices:
        out += ["", t("md_notes", lang), ""] + [f"- {cell(localise(n, lang))}" for n in report.notices]
    evidence = [f"{where(ev.file, ev.line, lang)}: {ev.text}" for f in others for ev in f.evidence]
    if evidence:
        out += ["", f"<details><summary>{t('md_other_evidence', lang)}</summary>", "", _fence(evidence), "",
                "</details>"]
    out += ["", "<sub>" + t("md_footer", lang, lines=count(report.lines_read, "line"), n=report.lines_read,
                            version=report.triage_version, digest=report.rules_digest) + "</sub>"]
    return "\n".join(out)


def _section(lines: list[str]) -> list[str]:
    """A text-report section (heading line, then lines indented by 2 or 5 spaces) as a bold
    heading and a (nested) Markdown list."""
    out = [f"**{cell(lines[0].strip())}**", ""]
    for line in lines[1:]:
        nested = line.startswith("     ")
        out.append(("  - " if nested else "- ") + cell(line.strip()))
    return out


def _finding(f: Finding, lang: str = "en") -> list[str]:
    out = [t("md_layer_line", lang, layer=layer_label(f.layer, lang), component=f.component, severity=f.severity,
             rule=f.rule_id, count=f.count),
           "", f.cause, "", f"**{t('Fix', lang)}**", ""]
    out += [f"{i}. {step}" for i, step in enumerate(f.fix, 1)]
    out += ["", f"<details><summary>{t('Evidence', lang)}</summary>", "",
            _fence([f"{where(ev.file, ev.line, lang)}: {ev.text}" for ev in f.evidence]), "", "</details>"]
    if f.references:
        out += ["", t("md_references", lang) + ", ".join(f.references)]
    return out
