"""The report: pydantic models whose JSON is the CLI's ``--format json`` output (schema 1).

Adding a key keeps ``schema_version``; renaming or removing one bumps it.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from triage.knowledge.schema import SEVERITIES, Severity

SCHEMA_VERSION = 1


class Origin(BaseModel):
    """Where a line comes from (each None when unknown): ``node``, global ``rank``, data- and
    tensor-parallel index (``dp``, ``tp``) when only those are known, ``device``, ``pid``; an HCCL
    communicator (``group``) and the rank inside it (``group_rank``) when the line names them."""

    model_config = ConfigDict(frozen=True)

    node: str | None = None
    rank: int | None = None
    dp: int | None = None
    tp: int | None = None
    device: int | None = None
    pid: int | None = None
    group: str | None = None
    group_rank: int | None = None


class Evidence(BaseModel):
    """A raw log line that supports a finding: ``file`` (None for stdin or text), 1-based ``line``,
    and where it comes from (``origin``: all fields None when unknown)."""

    model_config = ConfigDict(frozen=True)

    file: str | None
    line: int
    text: str
    origin: Origin = Field(default_factory=Origin)


class Finding(BaseModel):
    """One rule that fired: what it means, what to do, and where it was seen.

    ``evidence`` holds a few raw lines (the first occurrences and the last), not all of them;
    ``count`` is the number of occurrences; ``captures`` are the named groups of the first one.
    ``suppressed_by`` names the finding this one is a known symptom of.
    """

    rule_id: str
    title: str
    layer: str
    component: str
    severity: str
    priority: int
    generic: bool
    cause: str
    fix: list[str]
    evidence: list[Evidence]
    first_line: int
    last_line: int
    first_file: str | None = None
    last_file: str | None = None
    count: int
    captures: dict[str, str]
    references: list[str]
    suppressed_by: str | None = None
    pack: str = "builtin"
    confidence: str = "confirmed"
    """``confirmed``, ``likely`` or ``hypothesis`` (shown as a possible cause)."""
    ranks: list[int] = Field(default_factory=list)
    """Global ranks the finding's lines come from (when the log states them)."""
    nodes: list[str] = Field(default_factory=list)
    """Nodes the finding's lines come from (a bundle's node folders, hosts named in the lines)."""
    layer_guessed: bool = False
    """True when the layer is inferred (an unexplained line: from the module that printed it)."""


class Fact(BaseModel):
    """A fact about the environment read from one log line (a version, a launch parameter, a
    memory figure), for the report's Environment section and the compatibility checks.

    ``value`` is normalised by the fact's type: versions as printed, sizes in GiB, counts without
    digit separators. ``others`` lists other values seen for the same fact (up to 5, a sample: a
    few matching lines of each 4 MiB block are read), e.g. the KV-cache memory of each worker.
    """

    name: str
    label: str
    value: str
    file: str | None
    line: int
    text: str
    extractor: str
    others: list[str] = Field(default_factory=list)


class Unrecognised(BaseModel):
    """An error line no rule explains: a Python exception, an error code, a plog ``[ERROR]``."""

    file: str | None
    line: int
    text: str
    kind: str
    origin: Origin = Field(default_factory=Origin)
    severity: Severity = "error"
    """``warning`` for a program's warning-level line (a Kubernetes Warning event, an npu-smi health
    Warning): it does not fail the exit code at the default ``--fail-on error``."""


class IncidentOrigin(BaseModel):
    """One origin of an incident: a node and rank, or a file whose lines state no rank."""

    node: str | None = None
    rank: int | None = None
    file: str | None = None


class Incident(BaseModel):
    """Origins whose findings are causally linked: one root cause and its symptoms. Unrelated
    inputs analysed together are separate incidents."""

    origins: list[IncidentOrigin]
    root_cause: str | None
    symptoms: list[str] = Field(default_factory=list)
    findings: list[str] = Field(default_factory=list)
    """Every rule that fired in this incident, in rank order."""


class FirstFailure(BaseModel):
    """Where and how the incident's first failing rank failed."""

    node: str | None = None
    rank: int | None = None
    rule_id: str
    file: str | None = None
    line: int
    time: str | None = None
    """ISO 8601, on the log's local clock where known (see docs/bundles.md)."""


class ClusterSymptom(BaseModel):
    """A symptom rule, the ranks that show it and the finding it follows from."""

    rule_id: str
    ranks: list[int] = Field(default_factory=list)
    nodes: list[str] = Field(default_factory=list)
    caused_by: str | None = None


class Suspect(BaseModel):
    """A rank the evidence points at though it printed no cause: missing from a communicator,
    silent while every other rank timed out, or the peer the others waited for."""

    rank: int
    node: str | None = None
    why: str


class Attempt(BaseModel):
    """An earlier run of the service in one log (before a restart): its lines and what failed.
    The report diagnoses the last attempt; these are listed, not ranked."""

    file: str | None
    first_line: int
    last_line: int
    root_cause: str | None
    findings: list[str] = Field(default_factory=list)


class Cluster(BaseModel):
    """The verdict over several ranks or nodes."""

    origins: int
    world_size: int | None = None
    first_failure: FirstFailure | None = None
    symptoms: list[ClusterSymptom] = Field(default_factory=list)
    common: bool = False
    """True when every rank (the world size, when the log states it) failed with the root cause."""
    waits_only: bool = False
    """True when no rank here shows a cause: the root cause is a wait (an HCCL, store or task
    timeout; a ``peer_symptom`` rule) and no specific error fired, so ``first_failure`` is null and the
    cause is on a rank or node whose log is not here, or one that printed nothing (the suspects)."""
    ranks: list[int] = Field(default_factory=list)
    nodes: list[str] = Field(default_factory=list)
    suspects: list[Suspect] = Field(default_factory=list)


class TruncatedLine(BaseModel):
    """A line longer than the reader's limit: matched on its first ``limit`` bytes only."""

    file: str | None
    line: int
    length: int
    limit: int


class InputProblem(BaseModel):
    """An input that could not be read to its end (missing, corrupt or truncated archive...)."""

    file: str | None
    message: str


class Report(BaseModel):
    """The diagnosis of one or more logs, root cause first."""

    schema_version: int = SCHEMA_VERSION
    triage_version: str
    rules_digest: str
    root_cause: Finding | None
    findings: list[Finding]
    unrecognised: list[Unrecognised]
    lines_read: int
    files: list[str | None] = Field(default_factory=list)
    truncated_lines: list[TruncatedLine] = Field(default_factory=list)
    input_errors: list[InputProblem] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    matcher: str = ""
    facts: list[Fact] = Field(default_factory=list)
    compat_digest: str = ""
    lang: str = "en"
    incidents: list[Incident] = Field(default_factory=list)
    cluster: Cluster | None = None
    earlier_attempts: list[Attempt] = Field(default_factory=list)
    root_cause_earlier_attempt: bool = False
    """Whether ``root_cause`` is the root cause of the latest earlier attempt (``earlier_attempts``):
    the service restarted after it, and the last attempt shows no failure of its own or only a
    generic wrapper."""
    interrupted: Literal["SIGINT", "SIGTERM"] | None = None
    """The signal that stopped reading files or directories before their end: the report is of the
    ``lines_read`` lines read, the rest was not read (exit status 130 or 143)."""
    ended_by: Literal["SIGINT", "SIGTERM"] | None = None
    """The signal that ended reading standard input or a followed file (``--follow``): the
    documented way to end a live session; the report covers everything read."""

    def exit_code(self, fail_on: str = "error") -> int:
        """The CLI's exit code: 2 when an input could not be read to its end; else 130 (SIGINT) or 143
        (SIGTERM) when a signal stopped reading files or directories; else 1 when a finding or an
        unrecognised line at or above ``fail_on`` severity; else 0 (docs/output.md, "Exit status")."""
        if self.input_errors:
            return 2
        if self.interrupted is not None:  # files or directories not read to their end
            return 143 if self.interrupted == "SIGTERM" else 130
        limit = SEVERITIES.index(fail_on)
        failing = any(SEVERITIES.index(f.severity) <= limit for f in self.findings if f.suppressed_by is None)
        # an unexplained error line counts as severity `error`
        unexplained = any(SEVERITIES.index(u.severity) <= limit for u in self.unrecognised)
        return 1 if failing or unexplained else 0
