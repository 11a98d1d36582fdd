"""Portable prefilter in pure Python: required literals, searched with one trie-shaped regex.

Each prefilter pattern is reduced to literals of which at least one appears in every match
(its longest literal run, or one per branch of a top-level alternation). All literals go into
one case-folded trie regex that scans the lower-cased block; a pattern without a usable literal
is searched with its own regex over the block. A hit line is offered to every pattern whose
literal occurs in it.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

from triage.inputs.reader import Block
from triage.logformat.normalize import strip_ansi
from triage.matching.base import Candidate, PrefilterPattern, hits_by_line, line_hits, strip_cr
from triage.matching.literals import required_literals, trie_regex


class LiteralMatcher:
    """Pure-Python prefilter for machines without a Hyperscan wheel.

    ``small`` (for a few pasted lines): no trie regex is compiled; each line is searched for every
    literal with ``in``, which costs less than compiling the trie of a large rule set.
    """

    name = "literal"

    def __init__(self, patterns: Sequence[PrefilterPattern], *, small: bool = False):
        self._by_literal: dict[str, set[int]] = {}
        self._slow: list[tuple[re.Pattern[str], int]] = []
        self._small = small
        for p in patterns:
            lits = list(p.literals) if p.literals is not None else required_literals(p.regex)
            if lits is None:
                flags = re.MULTILINE | re.ASCII | (re.IGNORECASE if p.ignore_case else 0)
                self._slow.append((re.compile(p.regex, flags), p.target))
                continue
            for lit in lits:
                self._by_literal.setdefault(lit, set()).add(p.target)
        self._literals = sorted(self._by_literal.items())
        if small:
            self.name = "literal-small"
            return
        words = sorted(self._by_literal) + ["\x1b"]
        self._scan = re.compile(trie_regex(words).encode("utf-8"))
        self._by_bytes = {lit.encode("utf-8"): targets for lit, targets in self._by_literal.items()}
        self._lengths = sorted({len(w) for w in self._by_bytes})

    def _targets_in(self, text: str) -> set[int]:
        """Every target whose literal (or slow pattern) occurs in one line (the rare slow path)."""
        low = text.lower()
        found: set[int] = set()
        for lit, targets in self._literals:
            if lit in low:
                found |= targets
        for rx, target in self._slow:
            if rx.search(text):
                found.add(target)
        return found

    def _occurrences(self, low: bytes) -> list[tuple[int, bytes]]:
        """(offset, longest literal starting there) for every literal occurrence in ``low``.

        ``finditer`` skips what starts inside a match, so each match's span is probed again at
        every inner position; the trie shape makes every shorter literal a prefix of a match.
        """
        scan = self._scan
        out = []
        for m in scan.finditer(low):
            s, e = m.span()
            out.append((s, m.group()))
            for p in range(s + 1, e):
                inner = scan.match(low, p)
                if inner is not None:
                    out.append((p, inner.group()))
        return out

    def candidates(self, block: Block) -> Iterator[Candidate]:
        if self._small:
            yield from self._line_by_line(block)
            return
        data = bytes(block.data)
        sep = block.sep
        hits: list[tuple[int, bytes | int]] = list(self._occurrences(data.lower()))
        every_line = False
        if self._slow:
            text = data.decode("utf-8", "replace")
            if len(text) == len(data):  # ASCII: str offsets are byte offsets
                for rx, target in self._slow:
                    hits.extend((off, target) for off in line_hits(rx, text, sep.decode()))
            else:
                every_line = True
                hits.extend((off, -1) for off in self._all_line_starts(data, sep))
        hits.sort(key=lambda h: h[0])
        # group over the block's own buffer so the reader reuses this newline count
        for start, end, line_no, whats in hits_by_line(block, block.buf, block.end, hits):
            targets: set[int] = set()
            recheck = every_line
            for what in whats:
                if isinstance(what, int):
                    if what >= 0:
                        targets.add(what)
                elif what == b"\x1b":
                    recheck = True  # ANSI codes may split a literal: look at the line without them
                else:
                    for n in self._lengths:
                        if n > len(what):
                            break
                        found = self._by_bytes.get(what[:n])
                        if found:
                            targets |= found
            if targets or recheck:
                yield from self._emit(block.buf, sep, (start, end), line_no, targets, recheck)

    def _line_by_line(self, block: Block) -> Iterator[Candidate]:
        """Every line searched for every literal (and slow pattern): for a few lines only."""
        for line_no, line in block.lines():
            targets = self._targets_in(strip_ansi(line.decode("utf-8", "replace")))
            if targets:
                yield line_no, line, sorted(targets)

    def _emit(self, data: bytes, sep: bytes, span: tuple[int, int], line_no: int, targets: set[int],
              recheck: bool) -> Iterator[Candidate]:
        line = strip_cr(data[span[0]:span[1]], sep)
        if recheck:
            targets = targets | self._targets_in(strip_ansi(line.decode("utf-8", "replace")))
        if targets:
            yield line_no, line, sorted(targets)

    @staticmethod
    def _all_line_starts(data: bytes, sep: bytes) -> list[int]:
        starts = [0]
        pos = data.find(sep)
        while pos >= 0 and pos + 1 < len(data):
            starts.append(pos + 1)
            pos = data.find(sep, pos + 1)
        return starts
