"""The analysis of a run: the map step's :class:`~triage.scan.engine.Scanner` with the diagnosis
of everything it read."""

from __future__ import annotations

from triage.diagnose.verdict import diagnose
from triage.report.models import Report
from triage.scan.engine import Scanner


class Analysis(Scanner):
    """Diagnose one or more logs with ``rules`` (arguments as :class:`~triage.scan.engine.Scanner`):
    :meth:`feed` reads inputs, :meth:`report` diagnoses what was read."""

    def report(self) -> Report:
        """The ranked report of everything read so far."""
        return diagnose(self.summary(), self.rules, self.knowledge, lang=self.lang)
