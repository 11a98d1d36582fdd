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
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from triage.errors import InputError

BLOCK_SIZE = 4 << 20
#: Lines longer than this are matched on their first MAX_LINE bytes (and reported).
MAX_LINE = BLOCK_SIZE
#: Truncated lines remembered per input (more are truncated all the same, not listed).
MAX_TRUNCATED_KEPT = 100


class Block:
    """Line-aligned bytes: whole lines, each ending in ``sep`` except possibly the input's last.

    ``data`` is a zero-copy view of the reader's buffer, valid only until the reader moves on to
    the next block; ``buf[:end]`` is the same bytes, for the search methods views lack.
    ``first_line`` is the 1-based number of the block's first line.
    """

    __slots__ = ("buf", "end", "first_line", "sep", "data", "seps")

    def __init__(self, buf: bytearray | bytes, end: int, first_line: int, sep: bytes):
        self.buf = buf
        self.end = end
        self.first_line = first_line
        self.sep = sep
        self.data = memoryview(buf)[:end]
        self.seps = -1  # number of separators in the block, once counted

    def line_count(self) -> int:
        if self.seps < 0:
            self.seps = self.buf.count(self.sep, 0, self.end)
        n = self.seps
        ends_with_sep = self.end > 0 and self.buf[self.end - 1] == self.sep[0]
        return n + (0 if ends_with_sep or not self.end else 1)

    def seps_before(self, offset: int, known_at: int, known_seps: int) -> int:
        """Separators in ``[0, offset)``, counting from the cheaper end.

        ``known_seps`` separators are known to lie before ``known_at <= offset``; counting forward
        from there or backward from the block's end (whose total is known) reads fewer bytes, so
        finding a hit's line number costs at most half a pass over the block on top of the one
        line count.
        """
        if self.seps >= 0 and self.end - offset < offset - known_at:
            return self.seps - self.buf.count(self.sep, offset, self.end)
        return known_seps + self.buf.count(self.sep, known_at, offset)

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

    def _fill(self, view: memoryview) -> int:
        """Read what is available (at most ``len(view)`` bytes) into ``view``; 0 at end of input."""
        try:
            # read1, not readinto1: with bytes already buffered (after a peek) CPython's readinto1
            # still blocks on the pipe for the rest of a large view, which would stall streaming.
            read1 = getattr(self.stream, "read1", None) or self.stream.read
            chunk = read1(len(view))
            view[: len(chunk)] = chunk
            return len(chunk)
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            raise InputError(f"compressed input is truncated or corrupt after line {self.lines_read}: "
                             f"{exc}") from None

    def __iter__(self) -> Iterator[Block]:
        size = max(1, min(self.block_size, self.max_line))
        buf = bytearray(size)
        filled = 0
        decided = False  # whether the line separator is known (\n, or \r for CR-only input)
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
                        yield self._block(buf, cut + 1)
                        tail = filled - cut - 1
                        buf[:tail] = buf[cut + 1: filled]
                        filled = tail
                        continue
                    yield self._truncated_block(bytes(buf[: self.max_line]))
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
            yield self._block(buf, cut + 1)
            tail = filled - cut - 1
            if tail:
                buf[:tail] = buf[cut + 1: filled]
            filled = tail
        if skipping:
            self._note_truncated_length(skipping)
        if filled:
            if not decided and buf.find(b"\r", 0, filled) >= 0:
                self.sep = b"\r"
            yield self._block(buf, filled)

    def _block(self, buf: bytearray, end: int) -> Block:
        block = Block(buf, end, self.lines_read + 1, self.sep)
        self.lines_read += block.line_count()
        return block

    def _truncated_block(self, data: bytes) -> Block:
        block = Block(data + self.sep, len(data) + 1, self.lines_read + 1, self.sep)
        self.lines_read += 1
        if len(self.truncated) < MAX_TRUNCATED_KEPT:
            self.truncated.append((self.lines_read, len(data)))
        return block

    def _note_truncated_length(self, length: int) -> None:
        if self.truncated and self.truncated[-1][0] == self.lines_read:
            self.truncated[-1] = (self.lines_read, length)


def decode_line(raw: bytes) -> str:
    """Decode one line: UTF-8, with undecodable bytes replaced (never dropped)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")
