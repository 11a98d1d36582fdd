"""The map step's output: what one input (or one piece of a large input) showed, and its exact merge.

A :class:`Summary` is compact and language-neutral: for each rule that fired, its count, first and
last line, captures, a few evidence lines and the origins (node, rank...) it fired on; the
unexplained error lines; the environment facts with their lines; what could not be read. It holds
no titles, causes or fixes: those are filled when the report is built, in the chosen language.

:func:`merge` combines summaries in input order into the summary of all of them. The serial run,
``--jobs N``, ``triage merge`` of per-node summaries and the Ray fan-out all build their report
from merged summaries, so they give the same report. ``triage analyze --format summary`` writes
one (JSON, ``summary_version`` 1).
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator, model_validator

SUMMARY_VERSION = 1
#: Occurrences kept with their evidence lines per rule: the first ones (and the last, separately).
EVIDENCE_FIRST = 3
#: Origins kept per rule (a rule firing on more distinct origins keeps counting, not listing).
MAX_ORIGINS = 4096
MAX_UNRECOGNISED_KEYS = 1000
MAX_KEPT = 100
MAX_OTHERS = 5
#: Distinct (pid, rank, node) kept per file (:attr:`SFile.pid_ranks`).
MAX_PID_RANKS = 4096


class _M(BaseModel):
    model_config = ConfigDict(extra="forbid")


_ORIGIN_TYPES = {"node": str, "rank": int, "dp": int, "tp": int, "device": int, "pid": int, "group": str,
                 "group_rank": int}


def _check_origin(value: dict | None) -> dict | None:
    """An origin's fields (see :class:`triage.report.models.Origin`) with their types; raises ValueError."""
    if value is None:
        return None
    for key, v in value.items():
        want = _ORIGIN_TYPES.get(key)
        if want is None:
            raise ValueError(f"unknown origin field `{key}`")
        if v is not None and (not isinstance(v, want) or isinstance(v, bool)):
            raise ValueError(f"origin field `{key}` must be {want.__name__} or null")
    return value


class SEvidence(_M):
    """An evidence line: ``file`` is an index into :attr:`Summary.files`, ``line`` 1-based."""

    file: int = Field(ge=0)
    line: int = Field(ge=0)
    text: str
    origin: dict | None = None

    _origin = field_validator("origin")(classmethod(lambda cls, v: _check_origin(v)))


class STime(_M):
    """A line's time: ``when`` (ISO 8601, naive) in ``family``'s clock, and the ``local`` reading
    of a line that carries a UTC prefix and a local time."""

    family: Literal["local", "yearless", "utc"]
    when: str
    local: str | None = None

    @field_validator("when", "local")
    @classmethod
    def _iso(cls, v: str | None) -> str | None:
        if v is not None:
            datetime.fromisoformat(f"1900-{v[2:]}" if v.startswith("--") else v)  # ValueError unless ISO 8601
        return v


class SOrigin(_M):
    """The occurrences of one rule on one origin in one file: a global rank (``rank`` set, with
    its ``node``) or, when the rank is unknown, the file itself. One rank seen in several files
    has one entry per file, so line numbers always refer to ``file``."""

    file: int = Field(ge=0)
    origin: dict
    count: int = Field(ge=1)
    first_line: int = Field(ge=0)
    last_line: int = Field(ge=0)
    first_text: str
    time: STime | None = None
    peer: int | None = None
    #: the entry counts lines of more than one process, or of one whose pid is unknown (a rank-less
    #: entry then cannot take a rank from its pid; see triage.diagnose.ranks._pid_ranks)
    mixed_pids: bool = False

    _origin = field_validator("origin")(classmethod(lambda cls, v: _check_origin(v)))

    def key(self) -> tuple:
        """(``rank``, node, rank, file index) for a known rank, else (``file``, file index)."""
        rank = self.origin.get("rank")
        if rank is not None:
            return ("rank", self.origin.get("node"), rank, self.file)
        return ("file", self.file)

    def joined(self, other: SOrigin) -> SOrigin:
        """This entry and ``other`` (the same :meth:`key`) as one: counts added, the earlier first
        line with its text, the later last line, the first time and peer known; ``mixed_pids`` when
        either is mixed or their pids differ."""
        first, later = (self, other) if self.first_line <= other.first_line else (other, self)
        return first.model_copy(update={
            "count": self.count + other.count, "last_line": max(self.last_line, other.last_line),
            "time": first.time if first.time is not None else later.time,
            "peer": first.peer if first.peer is not None else later.peer,
            "mixed_pids": self.mixed_pids or other.mixed_pids or self.origin.get("pid") != other.origin.get("pid")})

    def rank_key(self) -> tuple | None:
        """(node, rank) when the rank is known: the same rank across files."""
        rank = self.origin.get("rank")
        return (self.origin.get("node"), rank) if rank is not None else None


class SHits(_M):
    """Everything one rule's occurrences left: count, first and last (file, line), the first
    occurrence's captures, the first occurrences' evidence and the last one's, and per origin."""

    rule: str
    count: int
    first: tuple[int, int]
    last: tuple[int, int]
    captures: dict[str, str]
    occurrences: list[list[SEvidence]]
    last_occurrence: list[SEvidence] | None = None
    origins: list[SOrigin] = Field(default_factory=list)


class SUnrecognised(_M):
    """An error line no rule explains (the first of its shape: digits masked in ``key``)."""

    file: int = Field(ge=0)
    line: int = Field(ge=0)
    text: str
    kind: str
    key: str
    origin: dict | None = None
    time: STime | None = None
    frame: tuple[str, str, str, int] | None = None
    """For a Python exception: (package, module, function, line) of the innermost traceback frame
    inside a package of the stack (``compat/conventions.yaml``, ``packages``) above it, if any."""

    _origin = field_validator("origin")(classmethod(lambda cls, v: _check_origin(v)))


class SFact(_M):
    """The best value of one fact, with the extractor's priority to compare it in a merge."""

    name: str
    value: str
    file: int = Field(ge=0)
    line: int = Field(ge=0)
    text: str
    extractor: str
    priority: int
    prefer: str
    others: list[str] = Field(default_factory=list)


class SFile(_M):
    """One input: its name (None for stdin), lines read, the node its path names, and whether it
    continues the previous piece of the same file (a byte range of a large file)."""

    name: str | None
    lines: int = 0
    node: str | None = None
    continues: bool = False
    restarts: list[int] = Field(default_factory=list)
    """Lines where the service started again after an error-level finding (a new attempt)."""
    first_start: int | None = None
    """The first start-up line of this piece when it did not count as a restart here (no failure
    seen before it in this piece): the merge decides with the previous piece of the file."""
    failed_tail: bool = False
    """Whether an error-level finding came after this piece's last start-up line (or anywhere in it
    when it has none): a start-up at the head of the next piece is then a restart."""
    comm_rank: list[int] | None = None
    """[rank, size] of the largest HCCL communicator whose initialisation lines in this file state the
    process's rank (a plog file is one process), from lines that carry no global rank of their own:
    the diagnosis takes the rank as the global rank of the file's lines when the size is the world
    size (see :func:`combine_comm`)."""
    comm_conflict: bool = False
    """Whether lines of this file state two ranks in communicators of that largest size (several
    processes in one file): the file then has no rank."""
    stall: tuple[int, int, str] | None = None
    """``[first line, times, text]`` when the file ends by repeating one line that says it waits
    (see :mod:`triage.scan.stall`); a later piece of the same file decides instead."""
    pid_ranks: list[tuple[int, int, str | None]] = Field(default_factory=list)
    """Distinct ``[pid, global rank, node]`` stated by vLLM's rank assignment lines under a worker's
    process tag (``(VllmWorkerProcess pid=176981) ... rank 1 in world size 2 is assigned as``; the node
    is the line's own or its file's, else null): the diagnosis gives that rank to the pid's other
    lines. A pid with two ranks (reused after a restart) gets none."""


def combine_comm(a: list[int] | None, a_conflict: bool, b: list[int] | None,
                 b_conflict: bool) -> tuple[list[int] | None, bool]:
    """Two observations ``[rank, size]`` (with their conflict flags) of one file's communicator rank
    as one: the larger communicator wins with its flag; in one of the same size a different rank is
    a conflict. Used line by line while reading and piece by piece in :func:`merge`, so a file read
    whole or in byte ranges gets the same answer."""
    if b is None:
        return a, a_conflict
    if a is None or b[1] > a[1]:
        return b, b_conflict
    if b[1] < a[1]:
        return a, a_conflict
    return a, a_conflict or b_conflict or a[0] != b[0]


class STruncated(_M):
    """A line longer than the reader's limit, matched on its first ``limit`` bytes."""

    file: int = Field(ge=0)
    line: int = Field(ge=0)
    length: int
    limit: int


class SInputError(_M):
    """An input that could not be read to its end (``file`` is its name)."""

    file: str | None
    message: str


class SClock(_M):
    """What the time correlator learned: (local - utc) offsets in minutes and the years of local
    times, each with its count of lines; the families seen."""

    offsets: dict[int, int] = Field(default_factory=dict)
    years: dict[int, int] = Field(default_factory=dict)
    families: list[str] = Field(default_factory=list)


class Summary(_M):
    """The language-neutral result of reading some inputs (see the module docstring)."""

    summary_version: int = SUMMARY_VERSION
    triage_version: str = ""
    rules_digest: str = ""
    compat_digest: str = ""
    host: str | None = None
    files: list[SFile] = Field(default_factory=list)
    hits: list[SHits] = Field(default_factory=list)
    unrecognised: list[SUnrecognised] = Field(default_factory=list)
    facts: list[SFact] = Field(default_factory=list)
    truncated: list[STruncated] = Field(default_factory=list)
    input_errors: list[SInputError] = Field(default_factory=list)
    notices: list[str] = Field(default_factory=list)
    clock: SClock = Field(default_factory=SClock)
    matcher: str = ""

    @property
    def lines_read(self) -> int:
        """Lines read over all inputs."""
        return sum(f.lines for f in self.files)

    @model_validator(mode="after")
    def _consistent(self) -> Summary:
        """A summary read from a file (``triage merge``) refers only to its own inputs."""
        if self.summary_version != SUMMARY_VERSION:
            raise ValueError(f"summary_version {self.summary_version} (this triage reads {SUMMARY_VERSION})")
        n = len(self.files)
        refs = [h.first[0] for h in self.hits] + [h.last[0] for h in self.hits]
        refs += [o.file for h in self.hits for o in h.origins]
        refs += [e.file for h in self.hits for occ in h.occurrences for e in occ]
        refs += [e.file for h in self.hits for e in h.last_occurrence or []]
        refs += [u.file for u in self.unrecognised] + [f.file for f in self.facts] + [t.file for t in self.truncated]
        bad = [r for r in refs if not 0 <= r < n]
        if bad:
            raise ValueError(f"refers to input {bad[0]}, but the summary has {n} input(s)")
        return self
