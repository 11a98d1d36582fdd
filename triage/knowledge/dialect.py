"""The portable regex dialect of rules, and the checks that keep rule regexes linear-time.

The dialect is the subset of Python ``re`` syntax that Python ``re``, the ``regex`` package and
Hyperscan read the same way (see ``docs/rule-writing.md``). :func:`check_pattern` returns the
problems it finds as short sentences that name the construct; an empty list means the pattern is
accepted.
"""

from __future__ import annotations

import re
import warnings

try:  # Python >= 3.11
    import re._constants as _c  # type: ignore[import-not-found]
    import re._parser as _p  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - Python 3.10
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_UNBOUNDED = _c.MAXREPEAT
_REPEATS = {_c.MAX_REPEAT, _c.MIN_REPEAT}
_POSSESSIVE = getattr(_c, "POSSESSIVE_REPEAT", None)
_ATOMIC = getattr(_c, "ATOMIC_GROUP", None)

# Constructs that compile in `re` but mean something else elsewhere (or nothing at all).
_TEXTUAL = [
    (re.compile(r"(?<!\\)\(\?[aiLmsux-]+[:)]"), "inline flags such as (?i); use `ignore_case: true`"),
    (re.compile(r"\[\[:\w+:\]"), "POSIX class such as [[:digit:]] (a plain character set in Python)"),
    (re.compile(r"(?<!\\)\{e\s*[<=]"), "fuzzy matching {e<=n} (literal text outside the `regex` package)"),
    (re.compile(r"(?<!\\)\(\?\|"), "branch reset (?|...)"),
    (re.compile(r"\\[pP]\{"), "Unicode property \\p{...}"),
]


def compile_rule_regex(pattern: str, ignore_case: bool):
    """Compile a rule regex with the dialect's flags (ASCII ``\\d \\w \\s \\b``).

    The ``regex`` package (in its ``re``-compatible VERSION0 mode) runs the confirmations, because
    its searches take a timeout: a line's matching time stays bounded even if a rule slips a
    backtracking pattern past :func:`check_pattern`. Raises ``re.error`` when the pattern does not
    compile.
    """
    import regex

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", FutureWarning)  # check_pattern reports it
        return regex.compile(pattern, regex.ASCII | regex.VERSION0 | (regex.IGNORECASE if ignore_case else 0))


def check_pattern(pattern: str) -> list[str]:
    """Return the dialect violations in ``pattern`` (empty when it is accepted).

    Checks: compiles; no backreferences, lookaround, atomic groups, possessive quantifiers,
    conditionals, inline flags, ``\\A``/``\\Z``, POSIX classes, fuzzy matching; ``^`` only at the
    start and ``$`` only at the end; no quantifier nested in an unbounded quantifier and no
    unbounded repetition of overlapping alternatives (both can backtrack for ever); does not
    match the empty string. Non-ASCII characters are allowed anywhere, in classes too (``[:：]``
    for full-width punctuation): Hyperscan matches in UTF-8 mode, the literal prefilter keeps only
    literal runs (which stay required) and searches its fallback patterns on decoded text.
    """
    problems = [why for rx, why in _TEXTUAL if rx.search(pattern)]
    with warnings.catch_warnings():
        warnings.simplefilter("error", FutureWarning)
        try:
            tree = _p.parse(pattern, re.ASCII)
            compiled = re.compile(pattern, re.ASCII)
        except FutureWarning as exc:
            return problems + [f"ambiguous syntax that will change meaning in later Pythons: {exc}"]
        except re.error as exc:
            return problems + [f"does not compile: {exc}"]
    _walk(list(tree), problems, top=True, in_unbounded=False)
    if compiled.search("") is not None:
        problems.append("matches the empty string (so it would match every line)")
    # keep the order stable and unique
    return list(dict.fromkeys(problems))


def _walk(items: list, problems: list[str], *, top: bool, in_unbounded: bool) -> None:
    last = len(items) - 1
    for index, (op, av) in enumerate(items):
        if op in (_c.GROUPREF, getattr(_c, "GROUPREF_IGNORE", None)):
            problems.append("backreference")
        elif op == _c.GROUPREF_EXISTS:
            problems.append("conditional (?(group)...)")
            _walk(list(av[1]), problems, top=False, in_unbounded=in_unbounded)
            if av[2] is not None:
                _walk(list(av[2]), problems, top=False, in_unbounded=in_unbounded)
        elif op in (_c.ASSERT, _c.ASSERT_NOT):
            problems.append("lookahead or lookbehind")
        elif _ATOMIC is not None and op == _ATOMIC:
            problems.append("atomic group (?>...)")
            _walk(list(av), problems, top=False, in_unbounded=in_unbounded)
        elif _POSSESSIVE is not None and op == _POSSESSIVE:
            problems.append("possessive quantifier")
        elif op == _c.AT:
            if av in (_c.AT_BEGINNING_STRING, _c.AT_END_STRING):
                problems.append("\\A or \\Z anchor (use ^ and $)")
            elif av == _c.AT_BEGINNING and not (top and index == 0):
                problems.append("^ anywhere but at the very start")
            elif av == _c.AT_END and not (top and index == last):
                problems.append("$ anywhere but at the very end")
        elif op in _REPEATS:
            low, high, body = av
            unbounded = high == _UNBOUNDED
            body_items = list(body)
            if unbounded and in_unbounded:
                problems.append("nested quantifier inside an unbounded quantifier, e.g. (a+)+")
            if in_unbounded and _has_unbounded(body_items):
                problems.append("nested quantifier inside an unbounded quantifier, e.g. (a+)+")
            if unbounded and _has_overlapping_branch(body_items):
                problems.append("unbounded repetition of overlapping alternatives, e.g. (a|ab)*")
            _walk(body_items, problems, top=False, in_unbounded=in_unbounded or (unbounded and high != low))
        elif op == _c.SUBPATTERN:
            _walk(list(av[-1]), problems, top=False, in_unbounded=in_unbounded)
        elif op == _c.BRANCH:
            for alternative in av[1]:
                _walk(list(alternative), problems, top=False, in_unbounded=in_unbounded)


def _has_unbounded(items: list) -> bool:
    for op, av in items:
        if op in _REPEATS and av[1] == _UNBOUNDED:
            return True
        if op == _c.SUBPATTERN and _has_unbounded(list(av[-1])):
            return True
        if op == _c.BRANCH and any(_has_unbounded(list(alt)) for alt in av[1]):
            return True
    return False


def _has_overlapping_branch(items: list) -> bool:
    """True when ``items`` is (a group around) an alternation whose branches can start alike."""
    while len(items) == 1 and items[0][0] == _c.SUBPATTERN:
        items = list(items[0][1][-1])
    if len(items) != 1:
        return False
    op, av = items[0]
    if op == _c.IN:  # a character set is one branch per character: never ambiguous
        return False
    if op != _c.BRANCH:
        return False
    firsts = [_first_chars(list(alt)) for alt in av[1]]
    for i, a in enumerate(firsts):
        for b in firsts[i + 1 :]:
            if a is None or b is None or a & b:
                return True
    return False


def _first_chars(items: list) -> set[int] | None:
    """The set of code points (< 128) a sequence can start with; None if unknown or any."""
    if not items:
        return None
    op, av = items[0]
    if op == _c.LITERAL:
        return {av}
    if op == _c.SUBPATTERN:
        return _first_chars(list(av[-1]))
    if op == _c.IN:
        chars: set[int] = set()
        for sub_op, sub_av in av:
            if sub_op == _c.LITERAL:
                chars.add(sub_av)
            elif sub_op == _c.RANGE:
                chars.update(range(sub_av[0], min(sub_av[1], 127) + 1))
            elif sub_op == _c.CATEGORY:
                chars.update(_category_chars(sub_av))
            else:
                return None
        return chars
    if op in _REPEATS and av[0] >= 1:
        return _first_chars(list(av[2]))
    return None


def _category_chars(category) -> set[int]:
    probe = {
        _c.CATEGORY_DIGIT: r"\d",
        _c.CATEGORY_WORD: r"\w",
        _c.CATEGORY_SPACE: r"\s",
    }.get(category)
    if probe is None:  # negated categories: nearly everything
        return set(range(128))
    rx = re.compile(probe, re.ASCII)
    return {i for i in range(128) if rx.match(chr(i))}
