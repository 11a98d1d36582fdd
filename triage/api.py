"""The Python API: :func:`explain`, :func:`analyze`, :func:`stream`."""

from __future__ import annotations

import io
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path

from triage.compat import Knowledge
from triage.engine import Analysis
from triage.errors import InputError
from triage.loader import RuleSet, entry_point_packs, load_rules, user_packs_from_env
from triage.report import Finding, Report
from triage.sources import BinaryInput, Source, expand, open_source, plain_file_bytes, transcode
from triage.summary import SInputError, Summary

# Below this many bytes of known input, a cached Hyperscan database or the literal prefilter
# (built in ~50 ms) is cheaper than compiling a database.
SMALL_INPUT = 64 << 10

_default_rules: RuleSet | None = None


def default_rules() -> RuleSet:
    """The built-in rules, packs of installed plugins and ``TRIAGE_RULES_PATH``, loaded once.

    Raises :class:`~triage.errors.RulesInvalid` if any rule file is invalid.
    """
    global _default_rules
    if _default_rules is None:
        _default_rules = load_rules([*entry_point_packs(), *user_packs_from_env()])
    return _default_rules


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

    Returns the ranked :class:`~triage.report.Report`. Raises
    :class:`~triage.errors.RulesInvalid` if the rules cannot be loaded and ``ValueError`` for an
    unknown ``matcher`` name or language. ``knowledge`` replaces the built-in fact extractors, fact
    checks and compatibility tables (``compat/``). ``lang`` is ``en`` or ``zh`` (None:
    ``TRIAGE_LANG``, else the locale).
    """
    data = _text_bytes(text)
    if matcher is None and len(data) < SMALL_INPUT:
        matcher = "small"
    analysis = Analysis(rules or default_rules(), matcher, knowledge=knowledge, lang=lang)
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
    analysis = _read_paths(paths, rules=rules, matcher=matcher, knowledge=knowledge, lang=lang, jobs=jobs,
                           node_level=node_level, as_text=as_text)
    return analysis.report()


def summarize(paths: str | Path | Sequence[str | Path], *, rules: RuleSet | None = None,
              jobs: int | None = 1, node_level: int | None = None, node: str | None = None,
              as_text: bool = False) -> Summary:
    """The language-neutral summary of some logs (what ``triage analyze --format summary``
    writes), to be merged with others by :func:`merge`. ``node`` names the machine the logs come
    from when their lines and paths do not (default: the host name). Raises as :func:`analyze`."""
    analysis = _read_paths(paths, rules=rules, jobs=jobs, node_level=node_level, as_text=as_text)
    summary = analysis.summary()
    if node is not None:
        summary = summary.model_copy(update={"host": node,
                                             "files": [f.model_copy(update={"node": f.node or node})
                                                       for f in summary.files]})
    return summary


def merge(summaries: Sequence[Summary], *, rules: RuleSet | None = None, knowledge: Knowledge | None = None,
          lang: str | None = None) -> Report:
    """The report of several summaries (of several nodes, processes or Ray tasks) taken together:
    the same report as analysing their inputs at once. A summary made with other rules is
    reported in the notices."""
    from triage.diagnose import diagnose
    from triage.summary import merge as merge_summaries

    ruleset = rules or default_rules()
    merged = merge_summaries(list(summaries))
    if merged.rules_digest and merged.rules_digest != ruleset.digest:
        merged = merged.model_copy(update={"notices": [
            *merged.notices, f"the summaries were made with rules {merged.rules_digest}, these are "
                             f"{ruleset.digest}: findings of rules that differ may be missing"]})
    from triage.compat import load_compat

    return diagnose(merged, ruleset, knowledge or load_compat(), lang=lang)


def _read_paths(paths, *, rules=None, matcher=None, knowledge=None, lang=None, jobs=1, node_level=None,
                as_text=False) -> Analysis:
    from triage.parallel import PARALLEL_THRESHOLD, available_cpus, plan, read_all

    if isinstance(paths, (str, Path)):
        paths = [paths]
    sources, problems = expand_inputs([str(p) for p in paths], node_level=node_level)
    size = total_size(sources)
    if matcher is None and size < SMALL_INPUT:
        matcher = "small"
    analysis = Analysis(rules or default_rules(), matcher, knowledge=knowledge, lang=lang)
    analysis.input_errors.extend(problems)
    pieces = plan(sources)
    if jobs is None:
        jobs = available_cpus() if size >= PARALLEL_THRESHOLD else 1
    read_all(analysis, pieces, jobs, as_text=as_text)
    return analysis




def expand_inputs(paths: Sequence[str], node_level: int | None = None) -> tuple[list[Source], list[SInputError]]:
    """The sources to read for ``paths`` (``node_level`` as for :func:`analyze`), and an input
    error for each path that cannot be expanded (missing, an archive that cannot be listed).

    Raises :class:`~triage.errors.InputError` when no source is left: one ``path: reason`` per
    failed path joined by ``; ``, or ``no input files`` when the paths hold no file at all.
    """
    errors: list[tuple[str, InputError]] = []
    sources = expand(list(paths), errors, node_level=node_level)
    if not sources:
        raise InputError("; ".join(str(exc) for _, exc in errors) if errors else "no input files")
    return sources, [SInputError(file=path, message=str(exc)) for path, exc in errors]


def feed_source(analysis: Analysis, source: Source, *, follow: bool = False, as_text: bool = False
                ) -> Iterator[Finding]:
    """Feed one input to ``analysis``; yield new findings as they appear.

    With ``follow``, keep reading the file as it grows (until KeyboardInterrupt), like ``tail -F``:
    across log rotation the new text under the name is read too, its lines numbered from 1 (a notice
    says where the previous text ended).
    An input that cannot be opened or read to its end is recorded in the report's
    ``input_errors`` (what was read before the failure is kept), not raised. A binary input
    (see :func:`triage.sources.sniff`) is an input error when the user named it and a notice
    when it was met in a directory or an archive; ``as_text`` reads it as text instead.
    """
    try:
        if follow:
            yield from _follow(analysis, source, as_text)
            return
        with open_source(source, as_text=as_text) as stream:
            try:
                yield from analysis.feed(stream, source.name, node=source.node)
            except OSError as exc:
                raise InputError(f"{source.label}: read failed: {exc.strerror or exc}") from None
    except BinaryInput as exc:
        if source.named:
            analysis.input_errors.append(SInputError(file=source.name, message=str(exc)))
        else:
            analysis.note(f"{source.label}: skipped: binary file, not a log (--text reads it anyway)")
    except InputError as exc:
        # Keep what was read before the failure; the report carries the error (exit code 2).
        message = str(exc) if str(exc).startswith(source.label) else f"{source.label}: {exc}"
        analysis.input_errors.append(SInputError(file=source.name, message=message))


def _follow(analysis: Analysis, source: Source, as_text: bool) -> Iterator[Finding]:
    """Feed a followed file: each file that appears under its name (rotation) is a new input whose
    lines are numbered from 1, and a notice says where the previous one ended."""
    from triage.sources import Follower, text_stream

    follower = Follower(source.path)
    try:
        while True:
            before = analysis.lines_read
            try:
                yield from analysis.feed(text_stream(follower, source.label, as_text=as_text), source.name)
            except OSError as exc:
                raise InputError(f"{source.label}: read failed: {exc.strerror or exc}") from None
            why = follower.rotated
            analysis.note(f"{source.label} was {why} after line {analysis.lines_read - before} "
                          "(rotated): the lines after that are numbered from 1 in the new text")
            follower.resume()
    finally:
        follower.close()


def stream(lines: Iterable[str | bytes], *, rules: RuleSet | None = None,
           matcher: str | None = None, lang: str | None = None) -> Iterator[Finding]:
    """Yield each :class:`~triage.report.Finding` as soon as its rule first fires in ``lines``.

    ``lines`` may be an endless iterator (a followed log); each line is processed as it arrives.
    Lines are taken as text (``bytes`` are decoded as UTF-8 with replacement; no encoding sniffing).
    Findings reasoned from facts need the whole log and are only in :func:`analyze`'s report.
    """
    analysis = Analysis(rules or default_rules(), matcher, lang=lang)
    yield from analysis.feed(_LineStream(lines), None)


class _LineStream:
    """A binary stream whose ``read1`` returns the next line of an iterator, as it arrives."""

    def __init__(self, lines: Iterable[str | bytes]):
        self._lines = iter(lines)
        self._rest = b""

    def read1(self, size: int) -> bytes:
        if not self._rest:
            try:
                line = next(self._lines)
            except StopIteration:
                return b""
            data = line.encode("utf-8", "replace") if isinstance(line, str) else bytes(line)
            self._rest = data if data.endswith(b"\n") else data + b"\n"
        out, self._rest = self._rest[:size], self._rest[size:]
        return out


def total_size(sources: list[Source]) -> int:
    """Bytes of input in ``sources``; stdin, archives and compressed files count as large."""
    total, all_plain = plain_file_bytes(sources)
    return total if all_plain else SMALL_INPUT  # the size on disk says little otherwise
