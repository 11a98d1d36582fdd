"""triage: diagnose failed LLM deployments on Huawei Ascend NPUs from their raw logs.

The three entry points:

- :func:`explain` -- diagnose text already in memory (a ``str`` or an iterable of lines);
- :func:`analyze` -- diagnose a file, a directory, a ``.gz`` or ``-`` for stdin;
- :func:`stream` -- yield each :class:`Finding` as soon as it is first seen, for live logs.

For many nodes, the map and reduce steps apart: :func:`summarize` (the language-neutral
:class:`Summary` of some logs, what ``triage analyze --format summary`` writes) and :func:`merge`
(the report of several summaries). Ray: :func:`triage.run.fanout.analyze_on_ray`.

Each returns or yields pydantic models whose JSON is the CLI's ``--format json`` output;
:func:`render_text`, :func:`render_markdown` and :func:`render_html` turn a report into the CLI's text,
Markdown and HTML.
"""

from triage.util.gc_pause import paused as _paused

with _paused():  # tens of thousands of objects (pydantic models, validators) and no garbage
    from triage.api import analyze, explain, merge, stream, summarize
    from triage.report.models import Evidence, Finding, Report, Unrecognised
    from triage.scan.summary import Summary
    from triage.version import __version__


def render_text(report: Report, *, color: bool = False, width: int = 100) -> str:
    """The report as ``triage analyze`` prints it (plain text unless ``color``; see
    :func:`triage.render.text.to_text`)."""
    from triage.render.text import to_text

    return to_text(report, color=color, width=width)


def render_markdown(report: Report) -> str:
    """The report as ``triage analyze --format markdown`` prints it (GitHub-flavoured Markdown,
    without the final newline)."""
    from triage.render.markdown import render

    return render(report)


def render_html(report: Report) -> str:
    """The report as ``triage analyze --format html`` prints it: one self-contained HTML document
    (inline CSS and SVG, no script; the timeline of the ranks when there are several)."""
    from triage.render.html import render

    return render(report)


__all__ = [
    "Evidence",
    "Finding",
    "Report",
    "Summary",
    "Unrecognised",
    "__version__",
    "analyze",
    "explain",
    "merge",
    "render_html",
    "render_markdown",
    "render_text",
    "stream",
    "summarize",
]
