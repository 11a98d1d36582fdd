"""Feeding inputs to an analysis: paths expanded into sources, each source opened and read into the
map step (followed files included), and the lines of a Python iterable as a stream."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence

from triage.errors import InputError
from triage.inputs.sources import BinaryInput, Source, expand, open_source, plain_file_bytes
from triage.report.models import Finding
from triage.run.analysis import Analysis
from triage.scan.summary import SInputError

# Below this many bytes of known input, a cached Hyperscan database or the literal prefilter
# (built in ~50 ms) is cheaper than compiling a database.
SMALL_INPUT = 64 << 10

def with_node(sources: list[Source], node: str | None) -> list[Source]:
    """``sources`` with ``node`` as the node of those whose path names none (``--node``): the
    origin of their lines then carries it, as if a bundle folder had named it."""
    if node is None:
        return sources
    from dataclasses import replace

    return [s if s.node else replace(s, node=node) for s in sources]


def expand_inputs(paths: Sequence[str], node_level: int | None = None) -> tuple[list[Source], list[SInputError]]:
    """The sources to read for ``paths`` (``node_level`` as for :func:`analyze`), and an input
    error for each path that cannot be expanded (missing, an archive that cannot be listed).

    Raises :class:`~triage.errors.InputError` when no source is left: one ``path: reason`` per
    failed path joined by ``; ``, or ``PATH: no input files`` when the paths hold no file at all.
    """
    errors: list[tuple[str, InputError]] = []
    sources = expand(list(paths), errors, node_level=node_level)
    if not sources:
        raise InputError("; ".join(str(exc) for _, exc in errors) if errors
                         else f"{', '.join(paths)}: no input files (nothing to read below it)")
    return sources, [SInputError(file=path, message=str(exc)) for path, exc in errors]


def feed_source(analysis: Analysis, source: Source, *, follow: bool = False, as_text: bool = False
                ) -> Iterator[Finding]:
    """Feed one input to ``analysis``; yield new findings as they appear.

    With ``follow``, keep reading the file as it grows (until KeyboardInterrupt), like ``tail -F``:
    across log rotation the new text under the name is read too, its lines numbered from 1 (a notice
    says where the previous text ended).
    An input that cannot be opened or read to its end is recorded in the report's
    ``input_errors`` (what was read before the failure is kept), not raised. A binary input
    (see :func:`triage.inputs.sources.sniff`) is an input error when the user named it and a notice
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
            analysis.skipped_binary = getattr(analysis, "skipped_binary", 0) + 1
    except InputError as exc:
        # Keep what was read before the failure; the report carries the error (exit code 2).
        message = str(exc) if str(exc).startswith(source.label) else f"{source.label}: {exc}"
        analysis.input_errors.append(SInputError(file=source.name, message=message))


def _follow(analysis: Analysis, source: Source, as_text: bool) -> Iterator[Finding]:
    """Feed a followed file: each file that appears under its name (rotation) is a new input whose
    lines are numbered from 1, and a notice says where the previous one ended."""
    from triage.inputs.follow import Follower
    from triage.inputs.sources import text_stream

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


class LineStream:
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
