"""Runtime form of rules: compiled regexes and predicates, separate from the on-disk models."""

from __future__ import annotations

import re
import warnings
from dataclasses import dataclass
from typing import Any

from triage.knowledge.dialect import compile_rule_regex
from triage.knowledge.schema import CodeEntry, Condition, LineMatch, Rule
from triage.logformat.normalize import LineView

# `${VAR}` is shell syntax in fix text, not a placeholder.
#: Seconds one condition may spend on one line before it counts as not matching (and is reported).
MATCH_TIMEOUT = 0.5


class MatchTimeout(Exception):
    """A rule regex exceeded :data:`MATCH_TIMEOUT` on a line."""


_PLACEHOLDER = re.compile(r"(?<!\$)\{([A-Za-z_]\w*)\}")


class CompiledCondition:
    """A :class:`~triage.knowledge.schema.Condition` ready to test a :class:`LineView`.

    The regex is compiled on its first search: most rules never see a candidate line, so a run
    pays only for the rules its input exercises.
    """

    __slots__ = ("spec", "needle", "_pattern")

    def __init__(self, spec: Condition, needle: str | None):
        self.spec = spec
        self.needle = needle
        self._pattern: Any = None

    @classmethod
    def build(cls, spec: Condition) -> CompiledCondition:
        if spec.regex is not None:
            return cls(spec, None)
        needle = spec.contains or ""
        return cls(spec, needle.lower() if spec.ignore_case else needle)

    @property
    def pattern(self) -> Any:
        """The compiled regex (``regex`` package), or None for a ``contains`` condition."""
        if self._pattern is None and self.spec.regex is not None:
            self._pattern = compile_rule_regex(self.spec.regex, self.spec.ignore_case)
        return self._pattern

    @property
    def group_names(self) -> set[str]:
        """Named groups of the regex (none for ``contains``)."""
        if self.spec.regex is None:
            return set()
        with warnings.catch_warnings():  # the loader's dialect check reports ambiguous syntax
            warnings.simplefilter("ignore", FutureWarning)
            return set(re.compile(self.spec.regex, re.ASCII).groupindex)

    def search(self, view: LineView) -> dict[str, str] | None:
        """The named captures (possibly empty) if the condition holds on ``view``, else None."""
        text = view.scope(self.spec.scope)
        if self.spec.regex is not None:
            try:
                m = self.pattern.search(text, timeout=MATCH_TIMEOUT)
            except TimeoutError:
                raise MatchTimeout(f"gave up after {MATCH_TIMEOUT} s on regex {self.spec.regex}") from None
            if m is None:
                return None
            return {k: v for k, v in m.groupdict().items() if v is not None}
        hay = text.lower() if self.spec.ignore_case else text
        return {} if self.needle in hay else None


@dataclass(frozen=True)
class Predicate:
    """``any`` / ``all`` / ``none`` of conditions, all tested on the same line."""

    any: tuple[CompiledCondition, ...]
    all: tuple[CompiledCondition, ...]
    none: tuple[CompiledCondition, ...]

    @classmethod
    def build(cls, spec: LineMatch) -> Predicate:
        return cls(
            tuple(CompiledCondition.build(c) for c in spec.any),
            tuple(CompiledCondition.build(c) for c in spec.all),
            tuple(CompiledCondition.build(c) for c in spec.none),
        )

    def test(self, view: LineView) -> dict[str, str] | None:
        """Captures (possibly empty) when the line satisfies the predicate, else None."""
        captures: dict[str, str] = {}
        for cond in self.all:
            got = cond.search(view)
            if got is None:
                return None
            captures.update(got)
        if self.any:
            for cond in self.any:
                got = cond.search(view)
                if got is not None:
                    captures.update(got)
                    break
            else:
                return None
        for cond in self.none:
            if cond.search(view) is not None:
                return None
        return captures

    def prefilter_conditions(self) -> tuple[CompiledCondition, ...]:
        """Conditions of which at least one holds on every line the predicate accepts.

        ``any`` when present (one of them must hold), else ``all`` (each must hold).
        """
        return self.any if self.any else self.all


@dataclass
class CompiledRule:
    """A rule ready to run: its predicates, code table, and where it was loaded from."""

    rule: Rule
    index: int
    anchor: Predicate
    follower: Predicate | None
    within: int
    table: dict[str, CodeEntry] | None
    file: str
    line: int
    pack: str

    @property
    def id(self) -> str:
        return self.rule.id

    @property
    def group_names(self) -> frozenset[str]:
        """Named capture groups of the rule's positive conditions (computed on demand)."""
        names: set[str] = set()
        for pred in (self.anchor, self.follower):
            if pred is not None:
                for cond in pred.any + pred.all:
                    names.update(cond.group_names)
        return frozenset(names)

    def placeholders(self, captures: dict[str, str], lang: str = "en") -> dict[str, str]:
        """Captures plus the values a code-table lookup adds: ``code_name``, ``code_meaning``,
        ``code_causes`` and ``code_actions`` (in ``lang`` where the table has it)."""
        values = dict(captures)
        if self.rule.lookup is not None and self.table is not None:
            code = captures.get(self.rule.lookup.capture, "")
            entry = self.table.get(code) or self.table.get(code.upper()) or self.table.get(code.lstrip("0"))
            values.update(code_values(entry, lang))
        return values


def code_values(entry: CodeEntry | None, lang: str = "en") -> dict[str, str]:
    """The placeholders a code-table entry gives (``code_name``, ``code_meaning``, ``code_causes``,
    ``code_actions``), in ``lang`` where the entry has it."""
    zh = lang == "zh"
    if entry is None:
        return {"code_name": "unknown",
                "code_meaning": "此错误码不在 triage 的码表中" if zh else "this code is not in triage's table",
                "code_causes": "码表中没有记录" if zh else "not recorded in triage's table",
                "code_actions": "收集 plog（`asys collect`）并查阅对应版本的错误码手册" if zh else
                "Collect the plog (`asys collect`) and look the code up in your release's error-code reference"}
    text = entry.zh if (zh and entry.zh is not None) else None
    meaning = text.meaning if text else entry.meaning
    causes = (text.causes if text and text.causes else None) or entry.causes
    actions = (text.actions if text and text.actions else None) or entry.actions
    if not entry.documented or not causes:
        causes = "来源未记录原因" if zh else "the source documents no cause"
    return {"code_name": entry.name, "code_meaning": meaning, "code_causes": causes,
            "code_actions": ("；" if zh else "; ").join(actions) if actions else (
                "收集 plog（`asys collect`）" if zh else "Collect the plog (`asys collect`)")}


_OPTIONAL = re.compile(r"\{\?(.*?)\?\}", re.S)


def fill(template: str, values: dict[str, str]) -> str:
    """Replace each ``{name}`` in ``template`` by ``values[name]`` (``?`` when not captured).

    An optional part ``{? ... ?}`` is kept (without its markers) only when every placeholder in
    it has a value, and dropped otherwise: ``{? The log says: {said}.?}``. Braces that do not
    enclose an identifier, and shell ``${VAR}``, are left as they are.
    """
    def optional(m: re.Match) -> str:
        inner = m.group(1)
        return inner if all(values.get(n) for n in _PLACEHOLDER.findall(inner)) else ""

    if "{?" in template:
        template = _OPTIONAL.sub(optional, template)
    return _PLACEHOLDER.sub(lambda m: values.get(m.group(1), "?"), template)


def placeholders_in(template: str) -> set[str]:
    """The ``{name}`` placeholders used in ``template``."""
    return set(_PLACEHOLDER.findall(template))


def build(rule: Rule, index: int, tables: dict[str, dict[str, CodeEntry]], file: str, line: int,
          pack: str) -> CompiledRule:
    """Compile ``rule``; raises ``re.error`` if a regex does not compile."""
    anchor = Predicate.build(rule.match)
    follower = Predicate.build(rule.followed_by.match) if rule.followed_by else None
    table = tables.get(rule.lookup.table) if rule.lookup else None
    return CompiledRule(rule, index, anchor, follower, rule.followed_by.within if rule.followed_by else 0,
                        table, file, line, pack)
