"""SARIF 2.1.0, for code-scanning dashboards and CI systems that read it."""

from __future__ import annotations

import json
from pathlib import Path

from triage.report.models import Report

_LEVEL = {"critical": "error", "error": "error", "warning": "warning", "info": "note"}


def _uri(file: str | None) -> str:
    """A SARIF artifact URI: ``file://`` for absolute paths, relative paths as they are."""
    if not file:
        return "stdin"
    path = Path(file.split(":", 1)[0] if ":" in file and not Path(file).exists() else file)
    return path.as_uri() + file[len(str(path)):] if path.is_absolute() else file


def render(report: Report) -> str:
    """The report as a SARIF 2.1.0 log with one run; each finding's evidence lines are locations."""
    rules = []
    index: dict[str, int] = {}
    results = []
    for f in report.findings:
        if f.rule_id not in index:
            index[f.rule_id] = len(rules)
            rules.append({
                "id": f.rule_id, "name": f.rule_id, "shortDescription": {"text": f.title},
                "fullDescription": {"text": f.cause}, "help": {"text": "\n".join(f.fix)},
                "helpUri": f.references[0] if f.references else None,
                "properties": {"layer": f.layer, "component": f.component, "severity": f.severity,
                               "priority": f.priority, "generic": f.generic},
            })
        locations = [{"physicalLocation": {
            "artifactLocation": {"uri": _uri(ev.file)},
            "region": {"startLine": ev.line, "snippet": {"text": ev.text}}}} for ev in f.evidence]
        results.append({
            "ruleId": f.rule_id, "ruleIndex": index[f.rule_id],
            "level": "note" if f.suppressed_by else _LEVEL[f.severity],
            "message": {"text": f"{f.title}: {f.cause}"}, "locations": locations,
            "properties": {"count": f.count, "root_cause": report.root_cause is not None
                           and f.rule_id == report.root_cause.rule_id, "suppressed_by": f.suppressed_by},
        })
    for u in report.unrecognised:
        results.append({"ruleId": "triage.unrecognised", "level": "warning",
                        "message": {"text": f"Unrecognised error line: {u.text}"},
                        "locations": [{"physicalLocation": {"artifactLocation": {"uri": _uri(u.file)},
                                                            "region": {"startLine": u.line}}}]})
    sarif = {
        "$schema": "https://json.schemastore.org/sarif-2.1.0.json",
        "version": "2.1.0",
        "runs": [{"tool": {"driver": {"name": "triage", "version": report.triage_version,
                                      "rules": rules}},
                  "results": results}],
    }
    if report.interrupted is not None or report.ended_by is not None:
        # reading stopped on a signal: say so where SARIF records how a run went
        sarif["runs"][0]["invocations"] = [{
            "executionSuccessful": report.interrupted is None, "exitCode": report.exit_code(),
            "properties": {"interrupted": report.interrupted, "ended_by": report.ended_by,
                           "lines_read": report.lines_read}}]
    return json.dumps(sarif, indent=2, ensure_ascii=False)
