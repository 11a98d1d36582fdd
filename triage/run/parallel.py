"""All cores: inputs, and byte ranges of large files, read in parallel processes.

The plan is the same whatever the number of jobs: a plain file larger than :data:`CHUNK` is read
as byte ranges cut at line ends (each range a summary whose line numbers continue the previous
one), every other input whole. ``--jobs 1`` reads the pieces one after another in this process;
``--jobs N`` reads them in N forked processes; both merge the pieces' summaries in input order,
so the final report is identical. Live announcements (``jsonl`` findings, a progress bar) come
as pieces finish, so their order may differ between runs with several jobs.
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from triage.inputs.sources import Source

#: Plain files larger than this are read as several byte ranges (bytes).
CHUNK = 32 << 20
#: Below this much input, ``--jobs auto`` reads serially: forking costs more than it saves.
PARALLEL_THRESHOLD = 48 << 20


@dataclass(frozen=True)
class Piece:
    """One unit of reading: a whole input, or bytes ``[start, end)`` of a plain file."""

    source: Source
    start: int = 0
    end: int | None = None

    @property
    def continues(self) -> bool:
        return self.start > 0

    @property
    def size(self) -> int:
        if self.end is not None:
            return self.end - self.start
        try:
            return Path(self.source.path).stat().st_size if self.source.path != "-" else 0
        except OSError:
            return 0


def available_cpus() -> int:
    """CPUs this process may use: its affinity mask, capped by a cgroup CPU quota (v2
    ``cpu.max`` or v1 ``cpu.cfs_quota_us``), never the host's count alone."""
    try:
        cpus = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cpus = os.cpu_count() or 1
    quota = _cgroup_quota()
    if quota is not None:
        cpus = min(cpus, max(1, math.ceil(quota)))
    return max(1, cpus)


def _cgroup_quota() -> float | None:
    try:
        text = Path("/sys/fs/cgroup/cpu.max").read_text().split()
        if text and text[0] != "max":
            return int(text[0]) / int(text[1])
        return None
    except (OSError, ValueError, IndexError):
        pass
    try:
        quota = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_quota_us").read_text())
        period = int(Path("/sys/fs/cgroup/cpu/cpu.cfs_period_us").read_text())
        return quota / period if quota > 0 and period > 0 else None
    except (OSError, ValueError):
        return None


def _splittable(source: Source, chunk: int) -> int | None:
    """The size of a plain UTF-8 file larger than ``chunk`` that may be cut into byte ranges, else
    None (stdin, archive members, compressed, UTF-16 or GBK files, no ``\\n`` line ends)."""
    if source.path == "-" or source.member is not None:
        return None
    p = Path(source.path)
    try:
        size = p.stat().st_size
        if size <= chunk or not p.is_file():
            return None
        with p.open("rb") as f:
            head = f.read(64 << 10)
    except OSError:
        return None
    compressed = (head[:2] == b"\x1f\x8b" or head[:6] == b"\xfd7zXZ\x00" or head[:3] == b"BZh"
                  or head[:4] == b"\x28\xb5\x2f\xfd")
    if compressed or b"\n" not in head:
        return None
    from triage.inputs.decode import sniff

    encoding, binary = sniff(head)
    # only plain UTF-8 text is cut: a transcoded, binary or BOM-carrying input is read whole, by the
    # same path as a small one (which also refuses or skips it when binary)
    return size if encoding is None and binary is None else None


def plan(sources: list[Source], chunk: int | None = None) -> list[Piece]:
    """The pieces to read, in input order: plain files cut at line ends every ``chunk`` bytes
    (default :data:`CHUNK`)."""
    chunk = chunk or CHUNK
    out: list[Piece] = []
    for s in sources:
        size = _splittable(s, chunk)
        if size is None:
            out.append(Piece(s))
            continue
        cuts = [0]
        with open(s.path, "rb") as f:
            pos = chunk
            while pos < size:
                f.seek(pos)
                tail = f.read(1 << 20)
                nl = tail.find(b"\n")
                while nl < 0 and tail:
                    more = f.read(1 << 20)
                    if not more:
                        break
                    tail += more
                    nl = tail.find(b"\n")
                if nl < 0:
                    break
                cut = pos + nl + 1
                if cut >= size:
                    break
                cuts.append(cut)
                pos = cut + chunk
        for i, start in enumerate(cuts):
            end = cuts[i + 1] if i + 1 < len(cuts) else size
            out.append(Piece(s, start, end))
    return out


class _Range:
    """A binary stream of bytes ``[start, end)`` of a file."""

    def __init__(self, path: str, start: int, end: int):
        self._f = open(path, "rb")  # noqa: SIM115 - closed by close()
        self._f.seek(start)
        self._left = end - start

    def read1(self, size: int = -1) -> bytes:
        if self._left <= 0:
            return b""
        n = self._left if size is None or size < 0 else min(size, self._left)
        data = self._f.read(n)
        self._left -= len(data)
        return data

    read = read1

    def close(self) -> None:
        self._f.close()


def read_piece(analysis, piece: Piece, as_text: bool = False) -> Iterator:
    """Feed one piece to ``analysis`` (in this process); yield new findings as they appear. An
    input that cannot be read is recorded in the report's input errors, not raised."""
    from triage.run.feed import feed_source

    if piece.end is None:
        yield from feed_source(analysis, piece.source, as_text=as_text)
        return
    stream = _Range(piece.source.path, piece.start, piece.end)
    try:
        yield from analysis.feed(stream, piece.source.name, node=piece.source.node, continues=piece.continues,
                                 sep=b"\n" if piece.continues else None)
    finally:
        stream.close()


_WORKER = None  # the analysis a forked worker reads with (inherited from the parent)


def _work(indices: list[int]) -> list[tuple]:
    """Read pieces ``indices`` in a worker: for each, the summaries, input errors and notices it
    added (a pool worker reads several pieces: only what each piece added is returned)."""
    analysis, pieces, as_text = _WORKER
    analysis.on_unexplained = None  # announced by the parent from the summaries (once)
    out = []
    for index in indices:
        before = (len(analysis.summaries), len(analysis.input_errors), len(analysis.notices))
        for _ in read_piece(analysis, pieces[index], as_text):
            pass
        out.append((analysis.summaries[before[0]:], analysis.input_errors[before[1]:],
                    analysis.notices[before[2]:]))
    return out


def batches(pieces: list[Piece], jobs: int) -> list[list[int]]:
    """Consecutive pieces grouped into tasks of at least 1/(8 x ``jobs``) of the input's bytes
    each: a bundle of 512 small files is 16 tasks for 2 jobs, not 512 round trips to a worker,
    while 16 large files stay 16 tasks."""
    total = sum(p.size for p in pieces)
    least = total / (8 * max(jobs, 1))
    out: list[list[int]] = []
    size = 0
    for i, p in enumerate(pieces):
        if not out or size >= least:
            out.append([])
            size = 0
        out[-1].append(i)
        size += p.size
    return out


def read_all(analysis, pieces: list[Piece], jobs: int = 1,
             on_piece: Callable[[Piece, list], None] | None = None, as_text: bool = False) -> None:
    """Read ``pieces`` into ``analysis`` with ``jobs`` processes; summaries are kept in piece order.

    ``on_piece(piece, new_findings)`` is called for each piece, with the findings first seen in it:
    as it finishes with ``jobs`` = 1; with more, when the group of pieces it was handed over in
    (:func:`batches`) finishes, in completion order.
    """
    if jobs <= 1 or len(pieces) <= 1:
        for piece in pieces:
            found = list(read_piece(analysis, piece, as_text))
            if on_piece is not None:
                on_piece(piece, found)
        return
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    global _WORKER
    _ = analysis.matcher  # build the prefilter once, before forking: the workers inherit it
    _WORKER = (analysis, pieces, as_text)
    results: dict[int, tuple] = {}
    ctx = multiprocessing.get_context("fork")
    pool = ProcessPoolExecutor(max_workers=min(jobs, len(pieces)), mp_context=ctx, initializer=_quiet_worker)
    try:
        futures = {pool.submit(_work, group): group for group in batches(pieces, jobs)}
        for fut in as_completed(futures):
            for i, result in zip(futures[fut], fut.result(), strict=True):
                results[i] = result
                if on_piece is not None:
                    found = [f for s in result[0] for f in analysis.announce(s)]
                    on_piece(pieces[i], found)
                for s in result[0]:
                    analysis.announce_unexplained(s)
        pool.shutdown()
    except BaseException:
        # Ctrl-C, SIGTERM or a failed worker: stop the workers now and keep what finished
        workers = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False, cancel_futures=True)
        for process in workers:
            process.terminate()
        for process in workers:
            process.join(timeout=2)
        pool.shutdown(wait=True)  # its manager thread sees the workers gone: nothing left to wait for at exit
        _keep(analysis, pieces, results)
        raise
    finally:
        _WORKER = None
    _keep(analysis, pieces, results)


def _quiet_worker() -> None:
    """In a worker: Ctrl-C (sent to the whole process group) is the parent's to handle, and SIGTERM
    (the parent stopping it) ends it at once, without the parent's handlers' tracebacks."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _keep(analysis, pieces: list[Piece], results: dict[int, tuple]) -> None:
    """Add the pieces read (``results``: piece index -> summaries, input errors, notices) to
    ``analysis`` in piece order. After an interruption some are missing: a byte range that continues
    a piece that was not read is left out too (its line numbers would be wrong), and a notice says
    how many pieces were not read."""
    kept = False
    missing = 0
    for i, piece in enumerate(pieces):
        if i not in results or (piece.continues and not kept):
            kept = False
            missing += 1
            continue
        kept = True
        summaries, errors, notices = results[i]
        analysis.summaries.extend(summaries)
        analysis.input_errors.extend(errors)
        for n in notices:
            analysis.note(n)
    if missing:
        analysis.note(f"{missing} of {len(pieces)} pieces of the input were not read (reading was interrupted)")
