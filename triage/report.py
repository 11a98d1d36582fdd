"""The report: pydantic models whose JSON is the CLI's ``--format json`` output (schema 1).

Adding a key keeps ``schema_version``; renaming or removing one bumps it.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

from triage.schema import SEVERITIES

SCHEMA_VERSION = 1


class Evidence(BaseModel):
    """A raw log line that supports a finding: ``file`` (None for stdin or text), 1-based ``line``."""

    model_config = ConfigDict(frozen=True)

    file: str | None
    line: int
    text: str


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

    def exit_code(self, fail_on: str = "error") -> int:
        """The CLI's exit code: 2 when an input could not be read to its end; else 1 when a finding
        at or above ``fail_on`` severity fired or an error line went unrecognised; else 0."""
        if self.input_errors:
            return 2
        limit = SEVERITIES.index(fail_on)
        failing = any(SEVERITIES.index(f.severity) <= limit for f in self.findings if f.suppressed_by is None)
        return 1 if failing or self.unrecognised else 0
