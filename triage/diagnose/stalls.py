"""The finding of a stalled log: it ends by repeating one line that says the process waits (see
:mod:`triage.scan.stall`). A warning: the process may be hung waiting on that thing."""

from __future__ import annotations

from triage.report.i18n import t
from triage.report.models import Evidence, Finding
from triage.scan.summary import Summary

STALL_ID = "stall.repeated-wait"


def stall_findings(summary: Summary, files: list[str | None], lang: str) -> list[Finding]:
    """One warning finding per input that ends in a stall (its repeated line quoted)."""
    out = []
    for i, f in enumerate(summary.files):
        if f.stall is None:
            continue
        first, times, text = f.stall
        last = first + times - 1
        quoted = text if len(text) <= 160 else text[:157] + "..."
        out.append(Finding(
            rule_id=STALL_ID, title=t("stall_title", lang, n=times), layer="framework",
            component=t("stall_component", lang), severity="warning", priority=0, generic=False,
            cause=t("stall_cause", lang, n=times, line=quoted),
            fix=[t("stall_fix_1", lang), t("stall_fix_2", lang), t("stall_fix_3", lang)],
            evidence=[Evidence(file=files[i], line=last, text=text)], first_line=first, last_line=last,
            first_file=files[i], last_file=files[i], count=times, captures={"line": text}, references=[],
            suppressed_by=None, pack="stall", confidence="hypothesis"))
    return out
