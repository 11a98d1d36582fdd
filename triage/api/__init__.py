"""The Python API: :func:`explain`, :func:`analyze`, :func:`stream`, and the map and reduce steps
apart, :func:`summarize` and :func:`merge`. Each returns or yields the pydantic models of
:mod:`triage.report` (the JSON of ``--format json``)."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from triage.inputs.decode import transcode
from triage.knowledge.compat import Knowledge
from triage.knowledge.loader import RuleSet, default_rules
from triage.report.models import Finding, Report
from triage.run.analysis import Analysis
from triage.run.feed import SMALL_INPUT, LineStream
from triage.run.steps import merge, read_paths, summarize

__all__ = ["analyze", "default_rules", "explain", "merge", "stream", "summarize"]


def _text_bytes(text: str | bytes | Iterable[str | bytes]) -> bytes:
    if isinstance(text, str):
        return text.encode("utf-8", "replace")
    if isinstance(text, (bytes, bytearray)):
        return bytes(text)
    out = bytearray()
    for line in text:
        data = line.encode("utf-8", "replace") if isinstance(line, str) else bytes(line)
        out += data if data.endswith(b"\n") else data + b"\n"
    return bytes(out)


def explain(text: str | bytes | Iterable[str | bytes], *, rules: RuleSet | None = None,
            matcher: str | None = None, knowledge: Knowledge | None = None, lang: str | None = None) -> Report:
    """Diagnose log text in memory: a ``str`` or ``bytes``, or an iterable of lines (with or without
    ``\\n``); bytes that are not UTF-8 are decoded with replacement, never dropped.

    Returns the ranked :class:`~triage.report.models.Report`. Raises
    :class:`~triage.errors.RulesInvalid` if the rules cannot be loaded and ``ValueError`` for an
    unknown ``matcher`` name or language. ``knowledge`` replaces the built-in fact extractors, fact
    checks and compatibility tables (``compat/``). ``lang`` is ``en`` or ``zh`` (None:
    ``TRIAGE_LANG``, else the locale).
    """
    data = _text_bytes(text)
    if matcher is None and len(data) < SMALL_INPUT:
        matcher = "small"
    analysis = Analysis(rules if rules is not None else default_rules(), matcher, knowledge=knowledge, lang=lang)
    # bytes get the same sniffing as files: a BOM, UTF-16, GBK text
    stream = transcode(io.BufferedReader(io.BytesIO(data))) if not isinstance(text, str) else io.BytesIO(data)
    for _ in analysis.feed(stream, None):
        pass
    return analysis.report()


def analyze(paths: str | Path | Sequence[str | Path], *, rules: RuleSet | None = None,
            matcher: str | None = None, knowledge: Knowledge | None = None, as_text: bool = False,
            lang: str | None = None, jobs: int | None = 1, node_level: int | None = None) -> Report:
    """Diagnose log files: paths to files, directories (every file below), compressed files and
    archives, or ``-`` for stdin.

    A path that does not exist (or an archive that cannot be listed) is recorded in
    ``Report.input_errors`` and the other paths are read; when *no* path gives anything to read,
    :class:`~triage.errors.InputError` is raised with one ``path: reason`` per path (joined by
    ``; ``). Inputs that fail while being read are listed in ``Report.input_errors`` too, with
    what was read before the failure kept. Binary files are an input error when named and
    skipped with a notice inside a directory or an archive, unless ``as_text``.

    ``jobs`` is the number of processes (None: the CPUs this process may use, serial for small
    input); the report is the same for any number. ``node_level`` picks the folder level of a
    bundle that names the node (see docs/bundles.md). ``lang`` is ``en`` or ``zh`` (None:
    ``TRIAGE_LANG`` or the locale decides). Raises :class:`~triage.errors.RulesInvalid` for
    invalid rules and ``ValueError`` for an unknown ``matcher`` or language. Facts read from any
    of the inputs (a ``triage collect`` file beside the logs) feed the compatibility checks
    together.
    """
    analysis = read_paths(paths, rules=rules, matcher=matcher, knowledge=knowledge, lang=lang, jobs=jobs,
                           node_level=node_level, as_text=as_text)
    return analysis.report()


def stream(lines: Iterable[str | bytes], *, rules: RuleSet | None = None,
           matcher: str | None = None, lang: str | None = None) -> Iterator[Finding]:
    """Yield each :class:`~triage.report.models.Finding` as soon as its rule first fires in ``lines``.

    ``lines`` may be an endless iterator (a followed log); each line is processed as it arrives.
    Lines are taken as text (``bytes`` are decoded as UTF-8 with replacement; no encoding sniffing).
    Findings reasoned from facts need the whole log and are only in :func:`analyze`'s report.
    """
    analysis = Analysis(rules if rules is not None else default_rules(), matcher, lang=lang)
    yield from analysis.feed(LineStream(lines), None)
