"""Read environment facts (versions, launch parameters, memory figures) from log lines.

The extractors come from ``compat/facts.yaml``; their patterns join the rules' prefilter, so a
fact costs nothing on lines that cannot hold it. :class:`FactStore` keeps the best value of each
fact with the line it came from.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import Any

from triage.inputs.reader import decode_line
from triage.knowledge.compat.schema import UNITS, Extractor, FactSpec
from triage.knowledge.compat.versions import parse_version
from triage.knowledge.compiled import MATCH_TIMEOUT
from triage.knowledge.dialect import compile_rule_regex
from triage.logformat.normalize import LineView
from triage.report.models import Fact

MAX_OTHERS = 5
#: Lines read per extractor and block: the last ones for ``prefer: last`` facts (Hyperscan passes
#: on no more of them), the first values for ``prefer: first`` (1 once the value is known). A big
#: log repeats a start-up line thousands of times, and reading each costs a regex search.
MAX_READ_PER_BLOCK = 3
NO_MATCH, MATCHED, READ = 0, 1, 2
_TRAILING = re.compile(r"[,;.)\]'\"]+$")


@dataclass
class CompiledExtractor:
    """An :class:`~triage.knowledge.compat.schema.Extractor` with its regexes compiled on first use."""

    spec: Extractor
    fact: FactSpec
    _value: Any = None
    _after: Any = None

    def value_match(self, text: str):
        """The match of ``regex`` on ``text``, or None (also when it runs out of time on a hostile line)."""
        if self._value is None:
            self._value = compile_rule_regex(self.spec.regex, self.spec.ignore_case)
        try:
            return self._value.search(text, timeout=MATCH_TIMEOUT)
        except TimeoutError:
            return None

    def after_match(self, text: str) -> bool:
        """True when ``after`` matches ``text`` (False when it runs out of time)."""
        if self._after is None:
            self._after = compile_rule_regex(self.spec.after, self.spec.ignore_case)
        try:
            return self._after.search(text, timeout=MATCH_TIMEOUT) is not None
        except TimeoutError:
            return False


def normalise_value(fact: FactSpec, value: str, unit: str | None) -> str | None:
    """``value`` as the fact's type stores it, or None when it is not one (the line is then no fact).

    ``gib`` values are converted from ``unit`` (GiB when None) and kept to 4 decimals.
    """
    value = value.strip()
    if fact.type == "version":
        value = _TRAILING.sub("", value)
        return value if parse_version(value) is not None else None
    if len(value) > (512 if fact.type == "text" else 64):  # a hostile or garbled line
        return None
    if fact.type == "int":
        value = value.replace(",", "").replace("_", "")
        return str(int(value)) if value.isdigit() and len(value) <= 15 else None
    if fact.type in ("float", "gib"):
        try:
            number = float(value.rstrip("."))
        except ValueError:
            return None
        if not math.isfinite(number) or abs(number) > 1e15:
            return None
        if fact.type == "float":
            return repr(number)
        gib = number * UNITS[unit or "GiB"]
        return f"{gib:.4f}".rstrip("0").rstrip(".") if gib else "0"
    value = value.strip("'\"")
    # vLLM prints unset options as None (quantization=None): not a fact
    return value if value and value not in ("None", "null") else None


class _Best:
    """The value kept for one fact, as plain fields (a line offers a fact thousands of times in a
    big log; the pydantic :class:`Fact` is built once, for the report)."""

    __slots__ = ("value", "file", "line", "text", "extractor", "priority", "position", "others")

    def __init__(self, value: str, file: str | None, line: int, text: str, extractor: str, priority: int,
                 position: tuple[int, int]):
        self.value, self.file, self.line, self.text = value, file, line, text
        self.extractor, self.priority, self.position = extractor, priority, position
        self.others: list[str] = []

    def note_other(self, value: str) -> None:
        if value != self.value and value not in self.others and len(self.others) < MAX_OTHERS:
            self.others.append(value)


def prefers(prefer: str, a_priority: int, a_pos: tuple[int, int], b_priority: int, b_pos: tuple[int, int]) -> bool:
    """Whether a value read at ``a_pos`` by an extractor of ``a_priority`` replaces one read at
    ``b_pos`` with ``b_priority`` (see :func:`_beats`)."""
    if prefer == "last":
        return a_pos > b_pos or (a_pos == b_pos and a_priority > b_priority)
    return a_priority > b_priority or (a_priority == b_priority and a_pos < b_pos)


def _beats(prefer: str, priority: int, position: tuple[int, int], best: _Best) -> bool:
    """Whether a value read at ``position`` by an extractor of ``priority`` replaces ``best``.

    ``prefer: last`` facts (launch parameters, memory figures) take the latest line, the stronger
    extractor only breaking a tie on the same line: a log with several start-ups failed in the last.
    ``prefer: first`` facts (versions) take the stronger extractor, then the earliest line.
    """
    return prefers(prefer, priority, position, best.priority, best.position)


class FactStore:
    """The facts read so far: per fact, the value of the strongest extractor; between equals, the
    first line (or the last, for facts declared ``prefer: last``)."""

    def __init__(self, extractors: list[CompiledExtractor], order: list[str]):
        self.extractors = extractors
        self._order = {name: i for i, name in enumerate(order)}
        self._best: dict[str, _Best] = {}
        self._context: dict[int, tuple[int, int]] = {}  # extractor index -> (file index, line) of `after`
        self._labels = {ex.fact.name: ex.fact.label for ex in extractors}
        self._queued: dict[int, list[tuple[int, str | None, int, bytes]]] = {}

    def queue(self, k: int, file_index: int, file: str | None, line_no: int, raw: bytes) -> None:
        """Remember a candidate line of extractor ``k`` (one without ``after``) until :meth:`flush`.

        Lines are read only at the end of the block, from the end backwards for ``prefer: last``
        facts, so a start-up line repeated throughout a big log costs a list append, not a search;
        a fact whose value can no longer change is not even queued.
        """
        ex = self.extractors[k]
        best = self._best.get(ex.fact.name)
        if (best is not None and ex.fact.prefer == "first" and len(best.others) >= MAX_OTHERS
                and best.priority >= ex.spec.priority and best.position < (file_index, line_no)):
            return  # nothing this line could change
        self._queued.setdefault(k, []).append((file_index, file, line_no, raw))

    def flush(self) -> None:
        """Read the queued lines: per extractor, in line order (``prefer: first``) or backwards
        (``prefer: last``), until its value is read and at most :data:`MAX_READ_PER_BLOCK` lines matched."""
        queued, self._queued = self._queued, {}
        for k in sorted(queued):
            ex, lines = self.extractors[k], queued[k]
            most = MAX_READ_PER_BLOCK
            if ex.fact.prefer == "last":
                lines.reverse()
                enough = MATCHED  # the count Hyperscan thins to: lines the regex matched
            else:
                enough = READ
                best = self._best.get(ex.fact.name)
                if best is not None and best.priority >= ex.spec.priority:
                    most = 1  # the value is known and earlier: a later line only adds to the `others` sample
            read = 0
            for file_index, file, line_no, raw in lines:
                if self.offer(k, file_index, file, line_no, LineView(decode_line(raw))) >= enough:
                    read += 1
                    if read >= most:
                        break

    def see_context(self, k: int, file_index: int, line_no: int, view: LineView) -> None:
        """Line ``line_no`` may be the ``after`` line of extractor ``k``: remember it if so."""
        if self.extractors[k].after_match(view.line):
            self._context[k] = (file_index, line_no)

    def offer(self, k: int, file_index: int, file: str | None, line_no: int, view: LineView) -> int:
        """Test extractor ``k`` on a line; keep the value if it beats what is known.

        Returns :data:`NO_MATCH`, :data:`MATCHED` (the regex matched but the value is no value of the
        fact's type, e.g. ``(vdev)`` for a version) or :data:`READ`. A block's reading of a
        ``prefer: last`` extractor stops after k matched lines, the count Hyperscan thins to;
        ``prefer: first`` extractors are not thinned and stop after k values read (1 once known).
        """
        ex = self.extractors[k]
        spec = ex.spec
        name = ex.fact.name
        best = self._best.get(name)
        position = (file_index, line_no)
        if spec.after is not None:
            seen = self._context.get(k)
            if seen is None or seen[0] != file_index or not 0 < line_no - seen[1] <= spec.within:
                return NO_MATCH
        m = ex.value_match(view.line)
        if m is None:
            return NO_MATCH
        groups = m.groupdict()
        value = normalise_value(ex.fact, groups["value"] or "", groups.get("unit") or spec.unit)
        if value is None:
            return MATCHED
        if best is None:
            self._best[name] = _Best(value, file, line_no, view.raw, spec.id, spec.priority, position)
        elif _beats(ex.fact.prefer, spec.priority, position, best):
            new = _Best(value, file, line_no, view.raw, spec.id, spec.priority, position)
            for other in (best.value, *best.others):
                new.note_other(other)
            self._best[name] = new
        else:
            best.note_other(value)
        return READ

    def value(self, name: str) -> str | None:
        """The value of fact ``name``, or None when no line gave it."""
        best = self._best.get(name)
        return best.value if best else None

    def fact(self, name: str) -> Fact | None:
        """The fact ``name`` with its line, or None."""
        b = self._best.get(name)
        if b is None:
            return None
        return Fact(name=name, label=self._labels.get(name, name), value=b.value, file=b.file, line=b.line,
                    text=b.text, extractor=b.extractor, others=list(b.others))

    def position(self, name: str) -> tuple[int, int] | None:
        """(file index, line) of fact ``name``."""
        best = self._best.get(name)
        return best.position if best else None

    def facts(self) -> list[Fact]:
        """Every fact read, in the order ``compat/facts.yaml`` declares them."""
        names = sorted(self._best, key=lambda n: self._order.get(n, len(self._order)))
        return [f for f in (self.fact(n) for n in names) if f is not None]
