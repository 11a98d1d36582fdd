"""Stalls: a log that ends by repeating one line that says the process waits (for a lock, a peer, a
download, a connection), three or more times with nothing else after it, numbers and times aside.

The map step keeps the last bytes of each read (:class:`Tail`, a copy of at most :data:`TAIL` bytes
per block); at the end of the read, :func:`stall_of` looks at its last lines. What a waiting line
says, and the periodic lines of a healthy server that never count, are data
(``compat/conventions.yaml``, ``stall``).
"""

from __future__ import annotations

import re

from triage.knowledge.compat.schema import Stall
from triage.knowledge.dialect import compile_rule_regex
from triage.logformat.normalize import message_of, normalize

#: Bytes of the end of a read kept to look for a stall (the last lines, however long a block is).
TAIL = 16 << 10
#: Repeated lines counted at most (the finding says "N or more times" beyond).
MAX_COUNT = 1000
_MASK = re.compile(r"0x[0-9a-fA-F]+|\d+")


class Tail:
    """The last :data:`TAIL` bytes read (whole lines of the last blocks, the first may be partial)."""

    __slots__ = ("data",)

    def __init__(self) -> None:
        self.data = b""

    def see(self, buf, end: int) -> None:
        """Remember the end of a block: ``buf[:end]`` (the reader's buffer, copied)."""
        start = max(0, end - TAIL)
        piece = bytes(buf[start:end])
        self.data = piece if len(piece) >= TAIL else (self.data + piece)[-TAIL:]


class StallCheck:
    """The compiled ``stall`` of ``compat/conventions.yaml``."""

    def __init__(self, spec: Stall):
        self.says = compile_rule_regex(spec.says, False)
        self.not_says = compile_rule_regex(spec.not_says, False)
        self.repeats = spec.repeats

    def of(self, tail: Tail, last_line: int, sep: bytes = b"\n") -> tuple[int, int, str] | None:
        """(first line of the repeated run, times repeated, the last line's text) when the read
        ending at line ``last_line`` ends in a stall, else None."""
        data = tail.data
        if not data:
            return None
        lines = data.split(sep)
        if lines and lines[-1] == b"":
            lines.pop()  # the final separator
        number = last_line
        while lines and not lines[-1].strip():  # blank lines at the end: skipped, still numbered
            lines.pop()
            number -= 1
        if len(lines) < 2 or number < 1:
            return None
        lines = lines[1:] if len(data) >= TAIL else lines  # the first piece may be a partial line
        last = lines[-1].decode("utf-8", "replace").rstrip("\r")
        key = _key(last)
        count = 0
        for raw in reversed(lines):
            if count >= MAX_COUNT or _key(raw.decode("utf-8", "replace").rstrip("\r")) != key:
                break
            count += 1
        if count < self.repeats:
            return None
        message = message_of(normalize(last))
        if not self.says.search(message) or self.not_says.search(last):
            return None
        return number - count + 1, count, last


def _key(line: str) -> str:
    """The line without its process prefixes, numbers and times (what repeats)."""
    return _MASK.sub("N", message_of(normalize(line))).strip()
