"""Renderers: a :class:`~triage.report.models.Report` to text, JSON, JSON lines, Markdown, SARIF, HTML or
GitHub workflow annotations."""

from __future__ import annotations

FORMATS = ("text", "json", "jsonl", "markdown", "sarif", "html", "github", "summary")
"""Output formats of ``analyze``; ``summary`` is the language-neutral map-step output that
``triage merge`` reads (triage/summary.py), not a report."""
