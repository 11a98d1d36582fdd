"""The prefilter patterns a Hyperscan build refuses, searched in Python over each block.

hyperscan 0.7.23 (the newest wheel for glibc < 2.28) compiles no non-ASCII expression in UTF-8 mode,
and any build may refuse a construct (a backreference). Such a pattern must still flag every line it
matches: a pattern's own regex run on bytes would not (its repeats count bytes, ``\\S{0,20}`` spans 20
Chinese characters, 60 bytes; a ``.`` or a class takes one byte of a character). So a refused pattern
is searched by its required literals when their case folds like ASCII (every match holds one; the
rule's regex confirms the line), else by its own regex over the decoded text.
"""

from __future__ import annotations

import functools
import re

import hyperscan as hs

from triage.matching.base import PrefilterPattern, line_hits


@functools.cache
def takes_utf8() -> bool:
    """Whether this hyperscan build compiles a non-ASCII expression in UTF-8 mode (0.7.23 refuses every
    one as "Expression is not valid UTF-8")."""
    try:
        hs.Database(mode=hs.HS_MODE_BLOCK).compile(
            expressions=["\u00e9".encode("utf-8")], ids=[0], elements=1, flags=[hs.HS_FLAG_UTF8])
        return True
    except hs.error:
        return False


def _folds_like_ascii(literal: str) -> bool:
    """Whether bytes IGNORECASE finds ``literal`` (lower-cased) in every casing a line may hold."""
    return all(c.isascii() or c.lower() == c.upper() for c in literal)


class Refused:
    """One refused pattern (:attr:`target` is its target id), searched in Python."""

    def __init__(self, p: PrefilterPattern):
        self.target = p.target
        self._bytes: re.Pattern[bytes] | None = None
        self._text: re.Pattern[str] | None = None
        if p.literals and all(map(_folds_like_ascii, p.literals)):
            self._bytes = re.compile(b"|".join(re.escape(lit.encode("utf-8")) for lit in p.literals), re.IGNORECASE)
        else:  # the flags of the rules' confirmation (see LiteralMatcher)
            self._text = re.compile(p.regex, re.MULTILINE | re.ASCII | (re.IGNORECASE if p.ignore_case else 0))

    def starts(self, data: bytes, sep: bytes) -> list[int]:
        """Byte offsets of the hits in ``data`` (valid UTF-8), at most one search per line."""
        if self._bytes is not None:
            return line_hits(self._bytes, data, sep)
        text = data.decode("utf-8", "replace")
        out: list[int] = []
        chars = byte = 0
        for start in line_hits(self._text, text, sep.decode("ascii")):
            byte += len(text[chars:start].encode("utf-8"))
            chars = start
            out.append(byte)
        return out

    def in_line(self, line: bytes) -> bool:
        """Whether the pattern may match ``line``."""
        if self._bytes is not None:
            return self._bytes.search(line) is not None
        return self._text.search(line.decode("utf-8", "replace")) is not None
