"""triage: diagnose failed LLM deployments on Huawei Ascend NPUs from their raw logs.

The three entry points:

- :func:`explain` -- diagnose text already in memory (a ``str`` or an iterable of lines);
- :func:`analyze` -- diagnose a file, a directory, a ``.gz`` or ``-`` for stdin;
- :func:`stream` -- yield each :class:`Finding` as soon as it is first seen, for live logs.

For many nodes, the map and reduce steps apart: :func:`summarize` (the language-neutral
:class:`Summary` of some logs, what ``triage analyze --format summary`` writes) and :func:`merge`
(the report of several summaries). Ray: :func:`triage.fanout.analyze_on_ray`.

Each returns or yields pydantic models whose JSON is the CLI's ``--format json`` output.
"""

from triage.api import analyze, explain, merge, stream, summarize
from triage.report import Evidence, Finding, Report, Unrecognised
from triage.summary import Summary
from triage.version import __version__

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
    "stream",
    "summarize",
]
