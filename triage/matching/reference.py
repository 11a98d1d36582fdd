"""The plain matcher: every line is a candidate for every rule. Slow, obviously right."""

from __future__ import annotations

from collections.abc import Iterator

from triage.inputs.reader import Block
from triage.matching.base import Candidate


class ReferenceMatcher:
    """Offers every line to every rule and detector; the reference for differential tests."""

    name = "reference"

    def __init__(self, target_count: int):
        self._all = range(target_count)

    def candidates(self, block: Block) -> Iterator[Candidate]:
        for number, line in block.lines():
            yield number, line, self._all
