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

from triage.dialect import _c, _p
from triage.matching.base import Candidate, PrefilterPattern, line_around, strip_cr
from triage.normalize import strip_ansi
from triage.reader import Block

MIN_LITERAL = 3


def required_literals(pattern: str) -> list[str] | None:
    """Lower-cased literals, one of which every match of ``pattern`` contains; None if unknown."""
    try:
        tree = list(_p.parse(pattern, re.ASCII))
    except re.error:
        return None
    return _literals_of(tree)


def _literals_of(items: list) -> list[str] | None:
    while len(items) == 1 and items[0][0] == _c.SUBPATTERN:
        items = list(items[0][1][-1])
    if len(items) == 1 and items[0][0] == _c.BRANCH:
        out: list[str] = []
        for alt in items[0][1][1]:
            lits = _literals_of(list(alt))
            if lits is None:
                return None
            out.extend(lits)
        return out
    best = ""
    run = ""
    for op, av in _flatten(items):
        if op == _c.LITERAL:
            run += chr(av)
            if len(run) > len(best):
                best = run
        else:
            run = ""
    return [best.lower()] if len(best) >= MIN_LITERAL else None


def _flatten(items: list) -> list:
    out = []
    for op, av in items:
        if op == _c.SUBPATTERN and not any(o == _c.BRANCH for o, _ in av[-1]):
            out.extend(_flatten(list(av[-1])))
        else:
            out.append((op, av))
    return out


def trie_regex(words: Sequence[str]) -> str:
    """A regex matching any of ``words``, shaped as a trie so ``re`` need not try each word."""
    trie: dict = {}
    for w in words:
        node = trie
        for ch in w:
            node = node.setdefault(ch, {})
        node[""] = {}

    def render(node: dict) -> str:
        if "" in node and len(node) == 1:
            return ""
        branches = [re.escape(ch) + render(child) for ch, child in sorted(node.items()) if ch]
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return render(trie)


class LiteralMatcher:
    """Pure-Python prefilter for machines without a Hyperscan wheel."""

    name = "literal"

    def __init__(self, patterns: Sequence[PrefilterPattern], target_count: int):
        self._by_literal: dict[str, set[int]] = {}
        self._slow: list[tuple[re.Pattern[str], int]] = []
        for p in patterns:
            lits = required_literals(p.regex)
            if lits is None:
                flags = re.MULTILINE | re.ASCII | (re.IGNORECASE if p.ignore_case else 0)
                self._slow.append((re.compile(p.regex, flags), p.target))
                continue
            for lit in lits:
                self._by_literal.setdefault(lit, set()).add(p.target)
        words = sorted(self._by_literal) + ["\x1b"]
        self._scan = re.compile(trie_regex(words).encode("utf-8"))
        self._literals = sorted(self._by_literal.items())

    def _targets_in(self, text: str) -> set[int]:
        low = text.lower()
        found: set[int] = set()
        for lit, targets in self._literals:
            if lit in low:
                found |= targets
        for rx, target in self._slow:
            if rx.search(text):
                found.add(target)
        return found

    def candidates(self, block: Block) -> Iterator[Candidate]:
        data = bytes(block.data)
        sep = block.sep
        offsets = [m.start() for m in self._scan.finditer(data.lower())]
        if self._slow:
            text = data.decode("utf-8", "replace")
            if len(text) == len(data):  # ASCII: str offsets are byte offsets
                for rx, _ in self._slow:
                    offsets.extend(m.start() for m in rx.finditer(text))
            else:
                offsets.extend(self._all_line_starts(data, sep))  # offer every line
        if not offsets:
            return
        offsets.sort()
        line_no = block.first_line
        counted_to = 0
        last_start = -1
        for off in offsets:
            if off < last_start:
                continue
            start, end = line_around(data, sep, off)
            if start == last_start:
                continue
            line_no += data.count(sep, counted_to, start)
            counted_to = start
            last_start = start
            line = strip_cr(data[start:end], sep)
            text = line.decode("utf-8", "replace")
            if "\x1b" in text:
                text = strip_ansi(text)
            targets = self._targets_in(text)
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
