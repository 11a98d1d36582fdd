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
import io
import zlib
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from triage.errors import InputError

BLOCK_SIZE = 4 << 20
#: Lines longer than this are matched on their first MAX_LINE bytes (and reported).
MAX_LINE = BLOCK_SIZE


@dataclass(frozen=True)
class Block:
    """Line-aligned bytes: whole lines, each ending in ``sep`` except possibly the input's last.

    ``first_line`` is the 1-based number of the block's first line.
    """

    data: bytes
    first_line: int
    sep: bytes

    def line_count(self) -> int:
        n = self.data.count(self.sep)
        return n + (0 if self.data.endswith(self.sep) or not self.data else 1)

    def lines(self) -> Iterator[tuple[int, bytes]]:
        """(line number, line bytes without its end) for every line of the block."""
        parts = self.data.split(self.sep)
        if self.data.endswith(self.sep):
            parts.pop()
        cr = self.sep == b"\n"
        for offset, part in enumerate(parts):
            if cr and part.endswith(b"\r"):
                part = part[:-1]
            yield self.first_line + offset, part


@dataclass
class BlockReader:
    """Iterate a binary stream as :class:`Block` s; counts lines and remembers truncated ones."""

    stream: BinaryIO
    block_size: int = BLOCK_SIZE
    max_line: int = MAX_LINE
    lines_read: int = 0
    truncated: list[tuple[int, int]] = field(default_factory=list)  # (line number, length in bytes)
    sep: bytes = b"\n"

    def _read(self) -> bytes:
        read1 = getattr(self.stream, "read1", None)
        try:
            return read1(self.block_size) if read1 else self.stream.read(self.block_size)
        except (EOFError, zlib.error, gzip.BadGzipFile) as exc:
            raise InputError(f"compressed input is truncated or corrupt after line {self.lines_read}: "
                             f"{exc}") from None

    def __iter__(self) -> Iterator[Block]:
        pending = b""
        decided = False  # whether the line separator is known (\n, or \r for CR-only input)
        skipping = 0  # bytes of an over-long line still being skipped (>0 while skipping)
        while True:
            chunk = self._read()
            if not chunk:
                break
            if skipping:
                cut = chunk.find(self.sep)
                if cut < 0:
                    skipping += len(chunk)
                    continue
                self._note_truncated_length(skipping + cut)
                skipping = 0
                chunk = chunk[cut + 1:]
                if not chunk:
                    continue
            data = pending + chunk if pending else chunk
            if not decided:
                if b"\n" in data:
                    decided = True
                elif len(data) > self.max_line and b"\r" in data:
                    self.sep, decided = b"\r", True
                else:
                    pending = data
                    continue
            cut = data.rfind(self.sep)
            if cut < 0:
                if len(data) > self.max_line:
                    yield self._truncated_block(data)
                    skipping = len(data)
                    pending = b""
                else:
                    pending = data
                continue
            block = data[: cut + 1]
            pending = data[cut + 1:]
            yield self._block(block)
            if len(pending) > self.max_line:
                yield self._truncated_block(pending)
                skipping, pending = len(pending), b""
        if skipping:
            self._note_truncated_length(skipping)
        if pending:
            if not decided and b"\n" not in pending and b"\r" in pending:
                self.sep = b"\r"
            yield self._block(pending)

    def _block(self, data: bytes) -> Block:
        block = Block(data, self.lines_read + 1, self.sep)
        self.lines_read += block.line_count()
        return block

    def _truncated_block(self, data: bytes) -> Block:
        block = Block(data[: self.max_line] + self.sep, self.lines_read + 1, self.sep)
        self.lines_read += 1
        self.truncated.append((self.lines_read, len(data)))
        return block

    def _note_truncated_length(self, length: int) -> None:
        line, _ = self.truncated[-1]
        self.truncated[-1] = (line, length)


def text_stream(text: str) -> BinaryIO:
    """A binary stream over ``text`` encoded as UTF-8 (for :func:`triage.explain`)."""
    return io.BytesIO(text.encode("utf-8", "surrogateescape"))


def decode_line(raw: bytes) -> str:
    """Decode one line: UTF-8, with undecodable bytes replaced (never dropped)."""
    try:
        return raw.decode("utf-8")
    except UnicodeDecodeError:
        return raw.decode("utf-8", "replace")
