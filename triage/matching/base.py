"""What every prefilter shares: the patterns it looks for, and how a hit becomes a line."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Protocol

from triage.inputs.reader import Block
from triage.knowledge.compiled import CompiledRule
from triage.logformat.detectors import DETECTORS

Candidate = tuple[int, bytes, Sequence[int]]


@dataclass(frozen=True)
class PrefilterPattern:
    """One pattern a prefilter searches for; a hit makes candidate ``target`` (a rule or detector)."""

    target: int
    regex: str
    ignore_case: bool
    #: The literals one of which every match contains (lower-cased; see
    #: :func:`triage.matching.literal.required_literals`), computed with the translation and cached
    #: with it; None when the pattern has none (it is then searched with its regex).
    literals: tuple[str, ...] | None = None


class Matcher(Protocol):
    """Finds candidate lines in a block: ``(line number, raw line, candidate ids)``, in line order."""

    name: str

    def candidates(self, block: Block) -> Iterator[Candidate]:
        """Lines of ``block`` that may match, in order: ``(line number, raw bytes without the line
        end, candidate target ids)``; a superset of the lines any rule or detector accepts."""
        ...


def _unanchor(pattern: str) -> str:
    # A prefilter runs on the raw line, before prefixes are stripped: drop the line anchors
    # (the dialect allows them only at the very start and end), which only widens the match.
    if pattern.startswith("^"):
        pattern = pattern[1:]
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1]
    return pattern


# A leading piece that may match nothing (`[-*\s]*`, `\s*`, `(?:\*\*)?`) does not change which lines
# an unanchored pattern matches, but gives Hyperscan no literal to start from: it is dropped.
_HEAD = re.compile(r"^(?:\[(?:\\.|[^\]\\])*\]|\\[sSwWd]|\(\?:(?:\\.|[^()\\])*\))[*?]")


def _trim_head(pattern: str) -> str:
    from re import _parser  # the stdlib parser: checks that the piece is the first item of the pattern

    while True:
        m = _HEAD.match(pattern)
        if not m or m.end() == len(pattern):
            return pattern
        rest = pattern[m.end():]
        if rest[:1] in "*+?{":
            return pattern
        try:
            old, new = _parser.parse(pattern), _parser.parse(rest)
        except re.error:
            return pattern
        if len(old.data) != len(new.data) + 1 or any(op is _parser.BRANCH for op, _ in old.data):
            return pattern
        pattern = rest


# Trailing pieces that only extend a match to the end of the line. Dropping them keeps the
# prefilter a superset, and avoids one Python callback per byte that Hyperscan reports for each
# possible end of `.+` ("RuntimeError: (?P<message>.+)" would call back ~100 times a line).
# A piece: `.`, `\S` `\s` `\w` `\d` (and their negations), a class, an escaped or a plain character.
_PIECE = r"(?:\.|\\[SsWwDd]|\[\^?[^\]]*\]|\\[^A-Za-z0-9]|[^\\()|\[\]{}*+?^$.])"
_TAIL = re.compile(rf"(?:\(\?P<\w+>{_PIECE}[+*?]\??\)|{_PIECE}[+*?]\??)$")


def _trim_tail(pattern: str) -> str:
    while True:
        m = _TAIL.search(pattern)
        if m and m.start() > 0:
            head = pattern[: m.start()]
            # the piece must not be escaped (`\.+` is a literal dot) and must not end a group or class
            backslashes = len(head) - len(head.rstrip("\\"))
            if not (backslashes % 2 or head.endswith(("(", "|"))):
                pattern = head
                continue
        # A group that ends the pattern: its own trailing piece is as free to go
        # (`(?P<error>\w*Error: .+)` -> `(?P<error>\w*Error: )`, `(?P<value>\d[\w.+-]*)` -> `(?P<value>\d)`);
        # the match that remains still starts where the full one did, so the lines are a superset.
        trimmed = _trim_in_last_group(pattern)
        if trimmed is None:
            return pattern
        pattern = trimmed


def _syntax(pattern: str, end: int | None = None) -> Iterator[int]:
    """Offsets of the characters of ``pattern[:end]`` that are regex syntax: outside character
    classes and escapes (a class's opening ``[`` is yielded, its body is not)."""
    i, n = 0, len(pattern) if end is None else end
    in_class = False
    while i < n:
        c = pattern[i]
        if c == "\\":
            i += 2
            continue
        if in_class:
            if c == "]":
                in_class = False
        else:
            yield i
            if c == "[":
                in_class = True
                if pattern.startswith("^", i + 1):
                    i += 1
                if pattern.startswith("]", i + 1):  # `[]...]`: a literal `]` first
                    i += 1
        i += 1


def _trim_in_last_group(pattern: str) -> str | None:
    """``pattern`` with the group that ends it trimmed, or None: an optional group (``(...)?``,
    ``(...)*``) dropped, else the trailing piece inside the group trimmed. Only plain,
    non-capturing and named groups (never a lookaround, where trimming would narrow)."""
    m = re.search(r"\)[?*]\??$", pattern)
    if m:
        close, optional = m.start(), True
    elif pattern.endswith(")"):
        close, optional = len(pattern) - 1, False
    else:
        return None
    opens: list[int] = []
    start = None
    for i in _syntax(pattern, close + 1):
        c = pattern[i]
        if c == "(":
            opens.append(i)
        elif c == ")":
            if not opens:
                return None
            start = opens.pop()
            if i != close:
                start = None
    if start is None:  # the closing parenthesis is escaped or inside a class
        return None
    named = re.match(r"\(\?P<\w+>", pattern[start:])
    if named:
        opener = named.group()
    elif pattern.startswith("(?:", start):
        opener = "(?:"
    elif not pattern.startswith("(?", start):
        opener = "("
    else:
        return None  # a lookaround, a flag group, a conditional
    if optional:
        head = pattern[:start]
        return head if head and not head.endswith(("(", "|")) else None
    inner = pattern[start + len(opener): close]
    new = _trim_tail(inner)
    if new == inner or not new:
        return None
    return pattern[: start + len(opener)] + new + ")"


def exact_prefilter(pattern: str) -> bool:
    """True when the prefilter form of ``pattern`` is the pattern itself (no line anchors, no piece
    trimmed) and it begins with a word character: its hits on a raw line are then exactly the lines
    it matches once the line's prefix (timestamps, ``> ``, process tags) is stripped."""
    return (_unanchor(pattern) == pattern and _trim_tail(pattern) == pattern and _trim_head(pattern) == pattern
            and _starts_with_word(pattern))


def _starts_with_word(pattern: str) -> bool:
    from re import _parser

    try:
        items = _parser.parse(pattern).data
    except re.error:
        return False

    def first_is_word(seq) -> bool:
        if not seq:
            return False
        op, arg = seq[0]
        if op is _parser.LITERAL:
            return chr(arg).isalnum()
        if op is _parser.SUBPATTERN:
            return first_is_word(list(arg[-1]))
        if op is _parser.BRANCH:
            return all(first_is_word(list(alt)) for alt in arg[1])
        return False

    return first_is_word(list(items))


def prefilter_patterns(rules: Sequence[CompiledRule], extra: Sequence[tuple[str, bool]] = ()) -> list[PrefilterPattern]:
    """Every pattern whose hit may make a rule (or a detector) match, with its target id.

    Detector ``k`` has target ``len(rules) + k``; ``extra`` patterns (``(regex, ignore_case)``, the
    fact extractors) follow the detectors, pattern ``i`` with target ``len(rules) + len(DETECTORS) + i``.
    The translation parses every regex; its result is cached on disk, keyed by the patterns and by
    this module's code, so a pasted line does not pay it again.
    """
    import hashlib

    from triage.util.cache import cache_dir, load_pickle, store_pickle

    key = hashlib.sha256()
    for rule in rules:
        key.update(repr((rule.index, [(c.spec.regex, c.spec.contains, c.spec.ignore_case)
                                      for pred in (rule.anchor, rule.follower) if pred is not None
                                      for c in pred.prefilter_conditions()])).encode())
    key.update(repr((DETECTORS, list(extra))).encode())
    key.update(Path(__file__).read_bytes())
    key.update((Path(__file__).parent / "literals.py").read_bytes())
    path = cache_dir() / f"prefilter-{key.hexdigest()[:24]}.pickle"
    cached = load_pickle(path)
    if isinstance(cached, list):
        return cached
    from triage.matching.literals import required_literals

    out = [replace(p, literals=(tuple(lits) if (lits := required_literals(p.regex)) is not None else None))
           for p in _translate(rules, extra)]
    store_pickle(path, out, keep=8)
    return out


def _translate(rules: Sequence[CompiledRule], extra: Sequence[tuple[str, bool]]) -> list[PrefilterPattern]:
    out: list[PrefilterPattern] = []
    for rule in rules:
        for pred in (rule.anchor, rule.follower):
            if pred is None:
                continue
            for cond in pred.prefilter_conditions():
                spec = cond.spec
                regex = (_relax_repeats(_trim_tail(_unanchor(spec.regex))) if spec.regex is not None
                         else re.escape(spec.contains or ""))
                out.append(PrefilterPattern(rule.index, regex, spec.ignore_case))
    base = len(rules)
    for k, (_, regex) in enumerate(DETECTORS):
        out.append(PrefilterPattern(base + k, regex, False))
    base += len(DETECTORS)
    for i, (regex, ignore_case) in enumerate(extra):
        out.append(PrefilterPattern(base + i, _relax_repeats(_trim_head(_trim_tail(_unanchor(regex)))), ignore_case))
    return out


#: Bounded repeats wider than this become unbounded in the prefilter (``[^\n]{0,240}?`` -> ``[^\n]*?``).
MAX_PREFILTER_REPEAT = 24
_REPEAT = re.compile(r"\{(\d*),(\d+)\}")


def _relax_repeats(regex: str) -> str:
    """``regex`` with every wide bounded repeat ``{m,n}`` (n > :data:`MAX_PREFILTER_REPEAT`)
    made unbounded: ``*`` when m is 0, else ``+``. The result matches wherever ``regex`` does (a
    superset, which is all a prefilter needs: the rule's own regex confirms), and Hyperscan compiles
    an unbounded repeat in a fraction of the time a wide bounded one takes (one pattern with
    ``{1,400}?`` before a literal took 40 s). Escapes and character classes are skipped."""
    out: list[str] = []
    pos = 0
    for i in _syntax(regex):
        m = _REPEAT.match(regex, i) if regex[i] == "{" else None
        if m and int(m.group(2)) > MAX_PREFILTER_REPEAT:
            out += [regex[pos:i], "+" if m.group(1) not in ("", "0") else "*"]
            pos = m.end()
    out.append(regex[pos:])
    return "".join(out)


def line_around(data: bytes | bytearray, sep: bytes, offset: int, limit: int | None = None) -> tuple[int, int]:
    """Start and end (exclusive, without the separator) of the line holding byte ``offset``.

    ``limit`` is where the block's data ends in ``data`` (default: its length).
    """
    limit = len(data) if limit is None else limit
    start = data.rfind(sep, 0, offset) + 1
    end = data.find(sep, offset, limit)
    if end < 0:
        end = limit
    return start, end


def hits_by_line(block: Block, data: bytes | bytearray, limit: int,
                 hits: list[tuple[int, object]]) -> Iterator[tuple[int, int, int, list]]:
    """Group ``hits`` (``(byte offset, payload)``, sorted by offset) by the line they fall on.

    Yields ``(line start, line end, line number, payloads)`` in line order. ``data[:limit]`` is
    the block's text; when ``data`` is the block's own buffer the newline count is shared with
    the reader (each byte is counted once), otherwise it is counted here.
    """
    sep = block.sep
    own = data is block.buf
    seps = counted_to = 0
    start = end = -1
    payloads: list = []
    for offset, payload in hits:
        if not (start <= offset < end or offset == end >= 0):
            if payloads:
                yield start, end, block.first_line + seps, payloads
            start, end = line_around(data, sep, offset, limit)
            if own:
                seps = block.count_to(start)  # the reader finishes the count from here
            else:
                seps += data.count(sep, counted_to, start)
                counted_to = start
            payloads = []
        payloads.append(payload)
    if payloads:
        yield start, end, block.first_line + seps, payloads


def line_hits(rx: re.Pattern, text, sep) -> list[int]:
    """Start offsets of ``rx`` hits in ``text``, searching again from the start of each line.

    ``finditer`` would let a match that began on one line (``\\s`` and ``\\S`` can span a line
    end) swallow a real match on the next; restarting at the following line start cannot.
    """
    out = []
    pos = 0
    while True:
        m = rx.search(text, pos)
        if m is None:
            return out
        out.append(m.start())
        nxt = text.find(sep, m.start())
        if nxt < 0:
            return out
        pos = nxt + 1


def strip_cr(line: bytes, sep: bytes) -> bytes:
    """``line`` without the ``\\r`` of a CRLF line end (when lines end at ``\\n``)."""
    return line[:-1] if sep == b"\n" and line.endswith(b"\r") else line
