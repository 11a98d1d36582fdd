"""Machine-readable renderers: JSON (one object), JSON lines (one finding a line)."""

from __future__ import annotations

import json

from triage.report.models import Finding, Report, Unrecognised


def to_json(report: Report) -> str:
    """The report as one JSON object (schema ``schema_version``)."""
    return report.model_dump_json(indent=2)


def finding_line(finding: Finding) -> str:
    """One finding as a compact JSON line, tagged ``"type": "finding"``."""
    return json.dumps({"type": "finding", **finding.model_dump()}, ensure_ascii=False)


def unexplained_line(line: Unrecognised) -> str:
    """An error line no rule explains, announced when first seen: ``"type": "unexplained"``."""
    return json.dumps({"type": "unexplained", **line.model_dump()}, ensure_ascii=False)


def summary_line(report: Report) -> str:
    """The closing JSON line of ``jsonl`` output: the ranking and counts, without the findings."""
    data = report.model_dump(exclude={"findings"})
    data["root_cause"] = report.root_cause.rule_id if report.root_cause else None
    data["ranking"] = [f.rule_id for f in report.findings]
    # streamed findings are sent before the ranking exists: which of them are symptoms, and of what
    data["suppressed"] = {f.rule_id: f.suppressed_by for f in report.findings if f.suppressed_by}
    return json.dumps({"type": "summary", **data}, ensure_ascii=False)


def withdrawn_lines(report: Report, announced: list[tuple], redactor=None) -> list[str]:
    """``{"type": "withdrawn", ...}`` JSON lines for the unexplained lines announced while reading
    (``announced``: (file, line, kind, text)) that the final report does not keep (a rule explained
    it, a specific root cause leaves it unlisted, or it belongs to an earlier attempt), so that a jsonl
    stream ends agreeing with its closing summary line. Lines are matched by file and text: a byte
    range of a large file numbers its lines from its own start while reading."""
    kept = {(u.file, u.text) for u in report.unrecognised}
    kept |= {(e.file, e.text) for f in report.findings if f.pack == "unexplained" for e in f.evidence}
    out = []
    for file, line, kind, text in announced:
        if (file, text) not in kept:
            shown = redactor.apply(file) if (redactor is not None and file) else file
            out.append(json.dumps({"type": "withdrawn", "file": shown, "line": line, "kind": kind}))
    return out
