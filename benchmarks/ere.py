"""Translate the rules' prefilter regexes (Python ``re`` dialect) to POSIX ERE for ``grep -E``.

Works on Python's own parse tree, so escapes mean what Python says they mean: ``\\d`` becomes
``[0-9]``, ``\\w`` ``[[:alnum:]_]``, ``\\s`` ``[[:space:]]``, ``(?:`` and ``(?P<x>`` become ``(``,
lazy quantifiers become greedy (same set of matching lines), ``\\b`` stays ``\\b`` (a GNU
extension; for ripgrep it becomes the ASCII ``(?-u:\\b)``). Case-insensitive patterns are expanded (``a`` -> ``[aA]``) so
that one ``grep -c`` counts each line once. The output is also valid Rust regex for ``rg``.
"""

from __future__ import annotations

import re

try:
    import re._constants as _c  # type: ignore[import-not-found]
    import re._parser as _p  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover
    import sre_constants as _c  # type: ignore[no-redef]
    import sre_parse as _p  # type: ignore[no-redef]

_SPECIAL = set(".[]()*+?{}|^$\\")
_CAT = {
    _c.CATEGORY_DIGIT: ("0-9", False),
    _c.CATEGORY_NOT_DIGIT: ("0-9", True),
    _c.CATEGORY_WORD: ("[:alnum:]_", False),
    _c.CATEGORY_NOT_WORD: ("[:alnum:]_", True),
    _c.CATEGORY_SPACE: ("[:space:]", False),
    _c.CATEGORY_NOT_SPACE: ("[:space:]", True),
}


class Untranslatable(ValueError):
    pass


_FLAVOR = ["posix"]


def to_ere(pattern: str, ignore_case: bool = False, flavor: str = "posix") -> str:
    """``pattern`` as POSIX ERE (``flavor="posix"``, for grep) or Rust regex (``"rust"``, for rg)."""
    tree = _p.parse(pattern, re.ASCII)
    _FLAVOR[0] = flavor
    return _seq(list(tree), ignore_case)


def _lit(code: int, icase: bool) -> str:
    ch = chr(code)
    if code == 10:
        raise Untranslatable("newline literal")
    if icase and ch.isascii() and ch.isalpha():
        return f"[{ch.lower()}{ch.upper()}]"
    if ch in _SPECIAL:
        return "\\" + ch
    return ch


def _seq(items: list, icase: bool) -> str:
    return "".join(_item(op, av, icase) for op, av in items)


def _is_atom(s: str, items: list) -> bool:
    if len(items) != 1:
        return False
    op, av = items[0]
    if op == _c.LITERAL:
        return True
    return op in (_c.ANY, _c.IN, _c.NOT_LITERAL, _c.CATEGORY) or (op == _c.SUBPATTERN)


def _item(op, av, icase: bool) -> str:
    if op == _c.LITERAL:
        return _lit(av, icase)
    if op == _c.NOT_LITERAL:
        return _bracket([(_c.LITERAL, av)], negate=True, icase=icase)
    if op == _c.ANY:
        return "."
    if op == _c.IN:
        items = list(av)
        negate = bool(items) and items[0][0] == _c.NEGATE
        if negate:
            items = items[1:]
        return _bracket(items, negate, icase)
    if op == _c.CATEGORY:
        body, neg = _CAT[av]
        return f"[{'^' if neg else ''}{body}]"
    if op == _c.SUBPATTERN:
        return "(" + _seq(list(av[-1]), icase) + ")"
    if op == _c.BRANCH:
        return "(" + "|".join(_seq(list(alt), icase) for alt in av[1]) + ")"
    if op in (_c.MAX_REPEAT, _c.MIN_REPEAT):
        low, high, body = av
        body_items = list(body)
        inner = _seq(body_items, icase)
        if not _is_atom(inner, body_items):
            inner = "(" + inner + ")"
        if high == _c.MAXREPEAT:
            q = "*" if low == 0 else ("+" if low == 1 else f"{{{low},}}")
        elif low == 0 and high == 1:
            q = "?"
        elif low == high:
            q = f"{{{low}}}"
        else:
            q = f"{{{low},{high}}}"
        return inner + q
    if op == _c.AT:
        # Rust regex's \b is Unicode-aware: its fast DFA gives up at the first non-ASCII byte and
        # a 500 MB log with 10 such lines took rg 49 s instead of 1 s. (?-u:\b) is the ASCII
        # boundary that grep (LC_ALL=C), Hyperscan and triage's rules (re.ASCII) use.
        if av == _c.AT_BOUNDARY:
            return "(?-u:\\b)" if _FLAVOR[0] == "rust" else "\\b"
        if av == _c.AT_NON_BOUNDARY:
            return "(?-u:\\B)" if _FLAVOR[0] == "rust" else "\\B"
        if av in (_c.AT_BEGINNING, _c.AT_BEGINNING_STRING):
            return "^"
        if av in (_c.AT_END, _c.AT_END_STRING):
            return "$"
    raise Untranslatable(f"{op} {av}")


def _bracket(items: list, negate: bool, icase: bool) -> str:
    chars: set[int] = set()
    classes: list[str] = []
    neg_classes: list[str] = []
    for op, av in items:
        if op == _c.LITERAL:
            chars.add(av)
        elif op == _c.RANGE:
            chars.update(range(av[0], av[1] + 1))
        elif op == _c.CATEGORY:
            body, neg = _CAT[av]
            (neg_classes if neg else classes).append(body)
        else:
            raise Untranslatable(f"class item {op}")
    chars.discard(10)  # lines never contain a newline; grep -f cannot carry one either
    if icase:
        chars |= {ord(chr(c).swapcase()) for c in chars if chr(c).isascii() and chr(c).isalpha()}
    if neg_classes:
        if negate or classes or chars:
            if negate:
                raise Untranslatable("negated class with a negated category")
            alts = [_bracket_text(chars, classes, False)] if (chars or classes) else []
            alts += [f"[^{b}]" for b in neg_classes]
            return "(" + "|".join(alts) + ")"
        return "".join(f"[^{b}]" for b in neg_classes[:1])
    if not chars and not classes:
        if negate:
            return "."
        raise Untranslatable("empty class")
    return _bracket_text(chars, classes, negate)


def _bracket_text(chars: set[int], classes: list[str], negate: bool) -> str:
    # POSIX bracket: ']' first, '-' last, '^' not first; backslash is a plain character.
    if _FLAVOR[0] == "rust":
        body = "".join(classes) + "".join(_rch(c) for c in sorted(chars))
        return "[" + ("^" if negate else "") + body + "]"
    close = 93 in chars
    dash = 45 in chars
    caret = 94 in chars
    rest = sorted(c for c in chars if c not in (93, 45, 94))
    parts: list[str] = []
    i = 0
    while i < len(rest):
        j = i
        while j + 1 < len(rest) and rest[j + 1] == rest[j] + 1:
            j += 1
        if j - i >= 2:
            parts.append(_bch(rest[i]) + "-" + _bch(rest[j]))
        else:
            parts.extend(_bch(c) for c in rest[i:j + 1])
        i = j + 1
    body = ("]" if close else "") + "".join(classes) + "".join(parts)
    if caret:
        body += "^"
    if dash:
        body += "-"
    if not body:
        raise Untranslatable("empty class")
    return "[" + ("^" if negate else "") + body + "]"


def _rch(c: int) -> str:
    ch = chr(c)
    if ch in "[]\\-^&~":
        return "\\" + ch
    if c > 127:
        raise Untranslatable("non-ASCII in a bracket")
    return ch


def _bch(c: int) -> str:
    if c > 127:
        raise Untranslatable("non-ASCII in a bracket")
    return chr(c)
