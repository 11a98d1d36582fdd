"""The literals a regex requires: what every match of a pattern must contain (lower-cased), for
the literal prefilter and Hyperscan's start points, and a trie regex of many words."""

from __future__ import annotations

import functools
import re
from collections.abc import Sequence

from triage.knowledge.dialect import _c, _p

MIN_LITERAL = 3


@functools.lru_cache(maxsize=8192)
def required_literals(pattern: str) -> list[str] | None:
    """Lower-cased literals, one of which every match of ``pattern`` contains; None if unknown."""
    try:
        tree = list(_p.parse(pattern, re.ASCII))
    except re.error:
        return None
    return _literals_of(tree)


def _literals_of(items: list) -> list[str] | None:
    """Literals one of which every match contains, chosen to be as long as possible.

    Candidates are each run of literal characters in the top-level sequence, and each group
    there whose alternatives all have literals; the candidate whose shortest literal is longest
    wins (a long literal is rare in a log, so it flags few lines).
    """
    while len(items) == 1 and items[0][0] == _c.SUBPATTERN:
        items = list(items[0][1][-1])
    if len(items) == 1 and items[0][0] == _c.BRANCH:
        return _branch_literals(items[0][1][1])
    candidates: list[list[str]] = []
    run = ""
    for op, av in _flatten(items) + [(None, None)]:
        if op == _c.LITERAL:
            run += chr(av)
            continue
        if len(run) >= MIN_LITERAL:
            candidates.append([run.lower()])
        run = ""
        branch = None
        if op == _c.BRANCH:  # the parser inlines (?:a|b) groups as a bare BRANCH
            branch = av[1]
        elif op == _c.SUBPATTERN:
            inner = list(av[-1])
            if len(inner) == 1 and inner[0][0] == _c.BRANCH:
                branch = inner[0][1][1]
        if branch is not None:
            lits = _branch_literals(branch)
            if lits:
                candidates.append(lits)
    if not candidates:
        return None
    return max(candidates, key=lambda lits: min(len(x) for x in lits))


def _branch_literals(alternatives) -> list[str] | None:
    out: list[str] = []
    for alt in alternatives:
        lits = _literals_of(list(alt))
        if lits is None:
            return None
        out.extend(lits)
    return out


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
        branches = []
        for ch, child in sorted(node.items()):
            if not ch:
                continue
            run = [ch]  # a chain of single children (a long literal) is written out, not recursed into
            while len(child) == 1 and "" not in child:
                (ch, child), = child.items()
                run.append(ch)
            branches.append(re.escape("".join(run)) + render(child))
        body = branches[0] if len(branches) == 1 else "(?:" + "|".join(branches) + ")"
        return f"(?:{body})?" if "" in node else body

    return render(trie)
