"""Renderers: a :class:`~triage.report.Report` to text, JSON, JSON lines, Markdown or SARIF."""

from __future__ import annotations

FORMATS = ("text", "json", "jsonl", "markdown", "sarif")
