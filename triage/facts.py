"""Read environment facts (versions, launch parameters, memory figures) from log lines.

The extractors come from ``compat/facts.yaml``; their patterns join the rules' prefilter, so a
fact costs nothing on lines that cannot hold it. :class:`FactStore` keeps the best value of each
fact with the line it came from.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from triage.compat.schema import UNITS, Extractor, FactSpec
from triage.compat.versions import parse_version
from triage.dialect import compile_rule_regex
from triage.normalize import LineView
from triage.report import Fact

MAX_OTHERS = 5
_TRAILING = re.compile(r"[,;.)\]'\"]+$")


@dataclass
class CompiledExtractor:
    """An :class:`~triage.compat.schema.Extractor` with its regexes compiled on first use."""

    spec: Extractor
    fact: FactSpec
    _value: Any = None
    _after: Any = None

    def value_match(self, text: str):
        if self._value is None:
            self._value = compile_rule_regex(self.spec.regex, self.spec.ignore_case)
        return self._value.search(text)

    def after_match(self, text: str) -> bool:
        if self._after is None:
            self._after = compile_rule_regex(self.spec.after, self.spec.ignore_case)
        return self._after.search(text) is not None


def normalise_value(fact: FactSpec, value: str, unit: str | None) -> str | None:
    """``value`` as the fact's type stores it, or None when it is not one (the line is then no fact).

    ``gib`` values are converted from ``unit`` (GiB when None) and kept to 4 decimals.
    """
    value = value.strip()
    if fact.type == "version":
        value = _TRAILING.sub("", value)
        return value if parse_version(value) is not None else None
    if fact.type == "int":
        value = value.replace(",", "").replace("_", "")
        return str(int(value)) if value.isdigit() else None
    if fact.type in ("float", "gib"):
        try:
            number = float(value.rstrip("."))
        except ValueError:
            return None
        if fact.type == "float":
            return repr(number)
        gib = number * UNITS[unit or "GiB"]
        return f"{gib:.4f}".rstrip("0").rstrip(".") if gib else "0"
    value = value.strip("'\"")
    return value or None


@dataclass
class _Best:
    fact: Fact
    priority: int
    position: tuple[int, int]
    others: list[str] = field(default_factory=list)


class FactStore:
    """The facts read so far: per fact, the value of the strongest extractor; between equals, the
    first line (or the last, for facts declared ``prefer: last``)."""

    def __init__(self, extractors: list[CompiledExtractor], order: list[str]):
        self.extractors = extractors
        self._order = {name: i for i, name in enumerate(order)}
        self._best: dict[str, _Best] = {}
        self._context: dict[int, tuple[int, int]] = {}  # extractor index -> (file index, line) of `after`

    def see_context(self, k: int, file_index: int, line_no: int, view: LineView) -> None:
        """Line ``line_no`` may be the ``after`` line of extractor ``k``: remember it if so."""
        if self.extractors[k].after_match(view.line):
            self._context[k] = (file_index, line_no)

    def offer(self, k: int, file_index: int, file: str | None, line_no: int, view: LineView) -> bool:
        """Test extractor ``k`` on a line; keep the value if it beats what is known. True if read."""
        ex = self.extractors[k]
        spec = ex.spec
        if spec.after is not None:
            seen = self._context.get(k)
            if seen is None or seen[0] != file_index or not 0 < line_no - seen[1] <= spec.within:
                return False
        m = ex.value_match(view.line)
        if m is None:
            return False
        groups = m.groupdict()
        value = normalise_value(ex.fact, groups["value"] or "", groups.get("unit") or spec.unit)
        if value is None:
            return False
        name = ex.fact.name
        best = self._best.get(name)
        new = Fact(name=name, label=ex.fact.label, value=value, file=file, line=line_no, text=view.raw,
                   extractor=spec.id)
        position = (file_index, line_no)
        if best is None:
            self._best[name] = _Best(new, spec.priority, position)
        elif spec.priority > best.priority or (spec.priority == best.priority and ex.fact.prefer == "last"
                                               and position > best.position and value != best.fact.value):
            others = [best.fact.value, *best.others]
            self._best[name] = _Best(new, spec.priority, position, [v for v in dict.fromkeys(others) if v != value])
        elif value != best.fact.value and value not in best.others and len(best.others) < MAX_OTHERS:
            best.others.append(value)
        return True

    def value(self, name: str) -> str | None:
        """The value of fact ``name``, or None when no line gave it."""
        best = self._best.get(name)
        return best.fact.value if best else None

    def fact(self, name: str) -> Fact | None:
        """The fact ``name`` with its line, or None."""
        best = self._best.get(name)
        return best.fact.model_copy(update={"others": list(best.others)}) if best else None

    def position(self, name: str) -> tuple[int, int] | None:
        """(file index, line) of fact ``name``."""
        best = self._best.get(name)
        return best.position if best else None

    def facts(self) -> list[Fact]:
        """Every fact read, in the order ``compat/facts.yaml`` declares them."""
        names = sorted(self._best, key=lambda n: self._order.get(n, len(self._order)))
        return [f for f in (self.fact(n) for n in names) if f is not None]
