"""Conditions on facts and captures, for fix steps that depend on what the log showed.

A fix step may be ``{text: ..., lead_when: EXPR}`` (moved to the front when EXPR holds) or
``{text: ..., only_when: EXPR}`` (left out when EXPR does not hold). EXPR is a small arithmetic
comparison over the rule's captures and the environment facts (``compat/facts.yaml`` names), e.g.
``model_weights_gib < 0.35 * total``. A value with a size unit (``60.97 GiB``, ``30.00 MiB``)
counts in GiB; a plain number as itself; anything else, or a name with no value, makes the
condition false (unknown is never true).

Only names, numbers, ``+ - * /``, comparisons, ``and``, ``or``, ``not`` and parentheses are
allowed: the expression is parsed with :mod:`ast` and checked, never ``eval``-ed.
"""

from __future__ import annotations

import ast
import operator
import re

_UNITS = {"bytes": 1 / 2**30, "b": 1 / 2**30, "kib": 1 / 2**20, "kb": 1e3 / 2**30, "mib": 1 / 2**10,
          "mb": 1e6 / 2**30, "gib": 1.0, "gb": 1e9 / 2**30, "tib": 2**10, "tb": 1e12 / 2**30}
_NUMBER = re.compile(r"^\s*(-?\d+(?:\.\d+)?)\s*([A-Za-z]+)?\s*$")
_BIN = {ast.Add: operator.add, ast.Sub: operator.sub, ast.Mult: operator.mul, ast.Div: operator.truediv}
_CMP = {ast.Lt: operator.lt, ast.LtE: operator.le, ast.Gt: operator.gt, ast.GtE: operator.ge,
        ast.Eq: operator.eq, ast.NotEq: operator.ne}


class ConditionError(ValueError):
    """An expression that is not a condition triage evaluates (the message says why)."""


def parse(expr: str) -> ast.Expression:
    """The checked syntax tree of ``expr``. Raises :class:`ConditionError`."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as exc:
        raise ConditionError(f"not an expression: {exc.msg}") from None
    for node in ast.walk(tree):
        ok = isinstance(node, (ast.Expression, ast.BoolOp, ast.And, ast.Or, ast.UnaryOp, ast.Not, ast.USub,
                               ast.BinOp, ast.Compare, ast.Name, ast.Load, *_BIN, *_CMP))
        if isinstance(node, ast.Constant):
            ok = isinstance(node.value, (int, float)) and not isinstance(node.value, bool)
        if not ok:
            raise ConditionError(f"`{ast.unparse(node) if hasattr(node, 'lineno') else type(node).__name__}` is "
                                 "not allowed (names, numbers, + - * /, comparisons, and, or, not)")
    return tree


def names(expr: str) -> set[str]:
    """The names ``expr`` reads. Raises :class:`ConditionError`."""
    return {n.id for n in ast.walk(parse(expr)) if isinstance(n, ast.Name)}


def number(value: str | None) -> float | None:
    """``value`` as a number: sizes in GiB, plain numbers as they are, else None."""
    if value is None:
        return None
    m = _NUMBER.match(str(value).replace(",", ""))
    if not m:
        return None
    x = float(m.group(1))
    unit = (m.group(2) or "").lower()
    if not unit:
        return x
    factor = _UNITS.get(unit)
    return x * factor if factor is not None else None


class _Unknown(Exception):
    pass


def holds(expr: str, values: dict[str, str]) -> bool:
    """Whether ``expr`` is true for ``values`` (captures and facts as text). False when a name has
    no numeric value or the arithmetic fails. Raises :class:`ConditionError` for a bad expression."""
    tree = parse(expr)

    def ev(node):
        if isinstance(node, ast.Expression):
            return ev(node.body)
        if isinstance(node, ast.Constant):
            return node.value
        if isinstance(node, ast.Name):
            x = number(values.get(node.id))
            if x is None:
                raise _Unknown
            return x
        if isinstance(node, ast.UnaryOp):
            v = ev(node.operand)
            return (not v) if isinstance(node.op, ast.Not) else -v
        if isinstance(node, ast.BinOp):
            try:
                return _BIN[type(node.op)](ev(node.left), ev(node.right))
            except ZeroDivisionError:
                raise _Unknown from None
        if isinstance(node, ast.BoolOp):
            results = [ev(v) for v in node.values]
            return all(results) if isinstance(node.op, ast.And) else any(results)
        if isinstance(node, ast.Compare):
            left = ev(node.left)
            for op, right_node in zip(node.ops, node.comparators, strict=True):
                right = ev(right_node)
                if not _CMP[type(op)](left, right):
                    return False
                left = right
            return True
        raise _Unknown

    try:
        return bool(ev(tree))
    except _Unknown:
        return False
