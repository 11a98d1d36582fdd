"""The report: its models (:mod:`.models`, the JSON of schema 1) and the texts of each language
(:mod:`.i18n`). Renderers are in :mod:`triage.render`. The models are re-exported here, their
import path before the packages (``from triage.report import Report``)."""

from triage.report.models import (
    SCHEMA_VERSION,
    Attempt,
    Cluster,
    ClusterSymptom,
    Evidence,
    Fact,
    Finding,
    FirstFailure,
    Incident,
    IncidentOrigin,
    InputProblem,
    Origin,
    Report,
    Suspect,
    TruncatedLine,
    Unrecognised,
)

__all__ = ["SCHEMA_VERSION", "Attempt", "Cluster", "ClusterSymptom", "Evidence", "Fact", "Finding", "FirstFailure",
           "Incident", "IncidentOrigin", "InputProblem", "Origin", "Report", "Suspect", "TruncatedLine",
           "Unrecognised"]
