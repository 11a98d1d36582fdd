"""Read logs as line-aligned blocks of bytes, with true line numbers and nothing dropped.

A line ends at ``\\n``; a ``\\r`` before it is not part of the line. Only input in which no
``\\n`` appears (within the first ``max_line`` bytes, or at all) is split on ``\\r``. Line numbers
are then those ``grep -n`` and editors show. A line with no line end within ``max_line`` bytes
(4 MiB by default) is kept as its first ``max_line`` bytes (matched on that prefix) and recorded
in :attr:`BlockReader.truncated`; memory stays bounded whatever the input.

Blocks are read with ``read1`` so a pipe yields its lines as soon as they arrive (streaming),
while a file is read in large blocks (speed).
"""

from __future__ import annotations

import gzip
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from triage.errors import InputError
from triage.util.plural import count

BLOCK_SIZE = 4 << 20
#: Lines longer than this are matched on their first MAX_LINE bytes (and reported).
MAX_LINE = BLOCK_SIZE
#: The buffer starts this small and grows while the input keeps it full.
INITIAL_BUFFER = 64 << 10
#: Truncated lines remembered per input (more are truncated all the same, not listed).
MAX_TRUNCATED_KEPT = 100


class Block:
    """Line-aligned bytes: whole lines, each ending in ``sep`` except possibly the input's last.

    ``data`` is a zero-copy view of the reader's buffer, valid only until the reader moves on to
    the next block; ``buf[:end]`` is the same bytes, for the search methods views lack.
    ``first_line`` is the 1-based number of the block's first line.
    """

    __slots__ = ("buf", "end", "first_line", "sep", "data", "seps", "known_at", "known_seps")

    def __init__(self, buf: bytearray | bytes, end: int, first_line: int, sep: bytes):
        self.buf = buf
        self.end = end
        self.first_line = first_line
        self.sep = sep
        self.data = memoryview(buf)[:end]
        self.seps = -1  # number of separators in the block, once counted
        # Separators counted so far from the start (by a matcher locating its hits): the reader
        # finishes from there, so every byte is counted once.
        self.known_at = 0
        self.known_seps = 0

    def count_to(self, offset: int) -> int:
        """Separators in ``[0, offset)``; counting moves forward only, so call with rising offsets."""
        if offset > self.known_at:
            self.known_seps += self.buf.count(self.sep, self.known_at, offset)
            self.known_at = offset
        elif offset < self.known_at:
            return self.buf.count(self.sep, 0, offset)
        return self.known_seps

    def line_count(self) -> int:
        """Lines in the block: separators, plus one for a last line without its separator."""
        if self.seps < 0:
            self.seps = self.count_to(self.end)
        n = self.seps
        ends_with_sep = self.end > 0 and self.buf[self.end - 1] == self.sep[0]
        return n + (0 if ends_with_sep or not self.end else 1)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """(line number, line bytes without its end) for every line of the block."""
        data = bytes(self.data)
        parts = data.split(self.sep)
        if data.endswith(self.sep):
            parts.pop()
        cr = self.sep == b"\n"
        for offset, part in enumerate(parts):
            if cr and part.endswith(b"\r"):
                part = part[:-1]
            yield self.first_line + offset, part


@dataclass
class BlockReader:
    """Iterate a binary stream as :class:`Block` s; counts lines and remembers truncated ones.

    One buffer of ``block_size`` bytes is reused for the whole input (``readinto``): the partial
    last line of a block is moved to the front and completed by the next read.
    """

    stream: BinaryIO
    block_size: int = BLOCK_SIZE
    max_line: int = MAX_LINE
    lines_read: int = 0
    truncated: list[tuple[int, int]] = field(default_factory=list)  # (line number, length in bytes)
    sep: bytes = b"\n"
    #: True when ``sep`` is known beforehand (a byte range of a file whose start decided it).
    fixed_sep: bool = False
    _error: InputError | None = field(default=None, init=False, repr=False)

    def _fill(self, view: memoryview) -> int:
        """Read what is available (at most ``len(view)`` bytes) into ``view``; 0 at end of input."""
        try:
            # read1, not readinto1: with bytes already buffered (after a peek) CPython's readinto1
            # still blocks on the pipe for the rest of a large view, which would stall streaming.
            read1 = getattr(self.stream, "read1", None) or self.stream.read
            chunk = read1(len(view))
            view[: len(chunk)] = chunk
            return len(chunk)
        except (EOFError, zlib.error, gzip.BadGzipFile, zipfile.BadZipFile, tarfile.ReadError) as exc:
            # raised once the bytes read before the failure are emitted (a last line cut short included)
            self._error = InputError(f"compressed input is truncated or corrupt: {exc}")
            return 0

    def __iter__(self) -> Iterator[Block]:
        size = max(1, min(self.block_size, self.max_line, INITIAL_BUFFER))
        buf = bytearray(size)
        filled = 0
        decided = self.fixed_sep  # whether the line separator is known (\n, or \r for CR-only input)
        skipping = 0  # bytes of an over-long line still being skipped (>0 while skipping)
        while True:
            if filled == len(buf):
                # A line longer than the buffer: grow up to max_line, then keep a prefix.
                if len(buf) < self.max_line:
                    grown = bytearray(min(len(buf) * 2, self.max_line))
                    grown[:filled] = buf[:filled]
                    buf = grown
                else:
                    if not decided and buf.find(b"\r", 0, filled) >= 0:
                        self.sep, decided = b"\r", True  # no \n in a whole buffer: CR-only input
                    cut = buf.rfind(self.sep, 0, filled) if decided else -1
                    if cut >= 0:
                        yield from self._emit(buf, cut + 1)
                        tail = filled - cut - 1
                        buf[:tail] = buf[cut + 1: filled]
                        filled = tail
                        continue
                    yield from self._emit_truncated(bytes(buf[: self.max_line]))
                    skipping, filled = filled, 0
            n = self._fill(memoryview(buf)[filled:])
            if n == 0:
                break
            if skipping:
                cut = buf.find(self.sep, 0, n)
                if cut < 0:
                    skipping += n
                    continue
                self._note_truncated_length(skipping + cut)
                skipping = 0
                rest = n - cut - 1
                buf[:rest] = buf[cut + 1: n]
                filled = rest
                if not filled:
                    continue
            else:
                filled += n
            if not decided:
                if buf.find(b"\n", 0, filled) >= 0:
                    decided = True
                else:
                    continue  # decided when the buffer fills or the input ends
            cut = buf.rfind(self.sep, 0, filled)
            if cut < 0:
                continue
            full = filled == len(buf)
            yield from self._emit(buf, cut + 1)
            tail = filled - cut - 1
            if full and len(buf) < self.block_size:
                # The input keeps the buffer full: grow it, so big inputs are read in big blocks
                # while a small file never pays for (or scans) a 4 MiB buffer.
                grown = bytearray(min(len(buf) * 4, self.block_size))
                grown[:tail] = buf[cut + 1: filled]
                buf = grown
            elif tail:
                buf[:tail] = buf[cut + 1: filled]
            filled = tail
        if skipping:
            self._note_truncated_length(skipping)
        if filled:
            if not decided and buf.find(b"\r", 0, filled) >= 0:
                self.sep = b"\r"
            yield from self._emit(buf, filled)
        if self._error is not None:
            raise InputError(f"{self._error} (read {count(self.lines_read, 'line')} before it)")

    def _emit(self, buf: bytearray, end: int) -> Iterator[Block]:
        block = Block(buf, end, self.lines_read + 1, self.sep)
        try:
            yield block
        finally:  # after the consumer: it may have counted part of the block already
            self.lines_read += block.line_count()

    def _emit_truncated(self, data: bytes) -> Iterator[Block]:
        block = Block(data + self.sep, len(data) + 1, self.lines_read + 1, self.sep)
        if len(self.truncated) < MAX_TRUNCATED_KEPT:
            self.truncated.append((self.lines_read + 1, len(data)))
        try:
            yield block
        finally:
            self.lines_read += 1

    def _note_truncated_length(self, length: int) -> None:
        if self.truncated and self.truncated[-1][0] == self.lines_read:
            self.truncated[-1] = (self.lines_read, length)


def decode_line(raw: bytes) -> str:
    """Decode one line: UTF-8, with undecodable bytes replaced (never dropped)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")
