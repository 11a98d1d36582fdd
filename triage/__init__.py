"""triage: diagnose failed LLM deployments on Huawei Ascend NPUs from their raw logs.

The three entry points:

- :func:`explain` -- diagnose text already in memory (a ``str`` or an iterable of lines);
- :func:`analyze` -- diagnose a file, a directory, a ``.gz`` or ``-`` for stdin;
- :func:`stream` -- yield each :class:`Finding` as soon as it is first seen, for live logs.

Each returns or yields pydantic models whose JSON is the CLI's ``--format json`` output.
"""

from triage.api import analyze, explain, stream
from triage.report import Evidence, Finding, Report, Unrecognised
from triage.version import __version__

__all__ = [
    "Evidence",
    "Finding",
    "Report",
    "Unrecognised",
    "__version__",
    "analyze",
    "explain",
    "stream",
]
