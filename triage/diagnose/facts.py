"""The facts of a merged summary as the fact checks and the diagnosis read them."""

from __future__ import annotations

from triage.knowledge.compat import Knowledge
from triage.report.models import (
    Fact,
)
from triage.scan.summary import SFact


class MergedFacts:
    """The facts of a summary, as the fact checks read them (``value``, ``fact``, ``position``)."""

    def __init__(self, facts: list[SFact], knowledge: Knowledge, files: list[str | None]):
        self._facts = {f.name: f for f in facts}
        self._labels = {name: spec.label for name, spec in knowledge.facts.items()}
        self._order = {name: i for i, name in enumerate(knowledge.facts)}
        self._files = files

    def value(self, name: str) -> str | None:
        f = self._facts.get(name)
        return f.value if f else None

    def fact(self, name: str) -> Fact | None:
        f = self._facts.get(name)
        if f is None:
            return None
        return Fact(name=name, label=self._labels.get(name, name), value=f.value, file=self._files[f.file],
                    line=f.line, text=f.text, extractor=f.extractor, others=list(f.others))

    def position(self, name: str) -> tuple[int, int] | None:
        f = self._facts.get(name)
        return (f.file, f.line) if f else None

    def facts(self) -> list[Fact]:
        names = sorted(self._facts, key=lambda n: self._order.get(n, len(self._order)))
        return [f for f in (self.fact(n) for n in names) if f is not None]
