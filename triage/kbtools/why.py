"""``triage rules why RULE LOG``: why did this rule fire, or not, on this log?

Each line is normalized as the engine does, and every condition of the rule is tested on it
separately. The answer names the lines where the rule fired, or else the condition that failed
on the *nearest* line: the one satisfying the most conditions, ties broken by how many words of
the failing pattern's literal text the line contains.
"""

from __future__ import annotations

import re

from triage.inputs.reader import BlockReader, decode_line
from triage.inputs.sources import expand, open_source
from triage.knowledge.compiled import CompiledCondition, CompiledRule, Predicate
from triage.logformat.normalize import LineView
from triage.matching.literal import required_literals
from triage.util.plural import count

_WORD = re.compile(r"[A-Za-z0-9_]{3,}")


def _describe(kind: str, i: int, cond: CompiledCondition) -> str:
    spec = cond.spec
    what = f"regex '{spec.regex}'" if spec.regex is not None else f"contains '{spec.contains}'"
    extra = (" (ignore_case)" if spec.ignore_case else "") + (" on the message" if spec.scope == "message" else "")
    return f"{kind}[{i}] {what}{extra}"


def _words(cond: CompiledCondition) -> set[str]:
    text = cond.spec.contains or " ".join(required_literals(cond.spec.regex or "") or [cond.spec.regex or ""])
    return {w.lower() for w in _WORD.findall(text)}


def _evaluate(pred: Predicate, view: LineView) -> tuple[int, int, list[str]]:
    """(conditions that hold, word overlap with failing ones, descriptions of failing ones)."""
    held, overlap, failed = 0, 0, []
    low = view.line.lower()
    for kind, conds in (("all", pred.all), ("any", pred.any)):
        any_held = False
        for i, cond in enumerate(conds):
            if cond.search(view) is not None:
                held += 1
                any_held = True
            elif kind == "all":
                failed.append(_describe(kind, i, cond))
                overlap += sum(w in low for w in _words(cond))
        if kind == "any" and conds and not any_held:
            failed.append("none of " + "; ".join(_describe("any", i, c) for i, c in enumerate(conds)))
            overlap += max(sum(w in low for w in _words(c)) for c in conds)
    for i, cond in enumerate(pred.none):
        if cond.search(view) is not None:
            failed.append(_describe("none", i, cond) + " holds, which excludes the line")
    return held, overlap, failed


def _longest_matching_prefix(pattern: str, text: str) -> str | None:
    """The longest prefix of ``pattern`` that compiles and matches somewhere in ``text``."""
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        for cut in range(len(pattern) - 1, 0, -1):
            try:
                rx = re.compile(pattern[:cut], re.ASCII)
            except re.error:
                continue
            if rx.search(text):
                return pattern[:cut]
    return None


def _prefix_hints(pred: Predicate, view: LineView) -> list[str]:
    hints = []
    for kind in ("all", "any"):
        for i, cond in enumerate(getattr(pred, kind)):
            regex = cond.spec.regex
            if regex is None or cond.spec.ignore_case or cond.search(view) is not None:
                continue
            prefix = _longest_matching_prefix(regex, view.scope(cond.spec.scope))
            if prefix:
                rest = regex[len(prefix):]
                hints.append(f"  {kind}[{i}] matches up to `{prefix}`, then the line does not continue with "
                             f"`{rest[:40]}`")
    return hints


def explain_rule(rule: CompiledRule, log: str) -> list[str]:
    """Lines of explanation of whether ``rule`` fires on ``log`` (a path or ``-``), and why not.

    Raises :class:`~triage.errors.InputError` when the log cannot be read.
    """
    fired: list[int] = []
    best: tuple[int, int, int, str, list[str]] | None = None  # held, overlap, line, text, failed
    anchors: list[int] = []
    follower_best: tuple[int, int, int, str, list[str]] | None = None
    for source in expand([log]):
        anchors = []  # a follower must be in the same file as its anchor, as in the engine
        with open_source(source) as stream:
            for block in BlockReader(stream):
                for number, raw in block.lines():
                    view = LineView(decode_line(raw))
                    held, overlap, failed = _evaluate(rule.anchor, view)
                    if not failed:
                        anchors.append(number)
                        if rule.follower is None:
                            fired.append(number)
                    elif best is None or (held, overlap) > best[:2]:
                        best = (held, overlap, number, view.line, failed)
                    if rule.follower is not None:
                        fheld, foverlap, ffailed = _evaluate(rule.follower, view)
                        if not ffailed:
                            if any(0 < number - a <= rule.within for a in anchors):
                                fired.append(number)
                        elif follower_best is None or (fheld, foverlap) > follower_best[:2]:
                            follower_best = (fheld, foverlap, number, view.line, ffailed)
    out = []
    if fired:
        shown = ", ".join(map(str, fired[:10])) + (" ..." if len(fired) > 10 else "")
        out.append(f"{rule.id} fires on {count(len(fired), 'line')}: {shown}")
        return out
    if rule.follower is not None and anchors:
        out.append(f"{rule.id} does not fire: its first line matches on {'line' if len(anchors) == 1 else 'lines'} "
                   f"{', '.join(map(str, anchors[:10]))}, but no line within {rule.within} lines after "
                   "satisfies `followed_by`.")
        if follower_best is not None:
            out.append(f"nearest follower candidate: line {follower_best[2]}: {follower_best[3]}")
            out += [f"  failed: {f}" for f in follower_best[4]]
        return out
    out.append(f"{rule.id} does not fire: no line satisfies its `match`.")
    if best is None:
        out.append("the log is empty.")
        return out
    verb = "holds" if best[0] == 1 else "hold"
    out.append(f"nearest line {best[2]} ({count(best[0], 'condition')} {verb}): {best[3]}")
    out += [f"  failed: {f}" for f in best[4]]
    out += _prefix_hints(rule.anchor, LineView(best[3]))
    out.append("  (conditions test the normalized line shown above: container, vLLM and Ray prefixes removed)")
    return out
