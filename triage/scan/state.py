"""The state of one read of one input (or a byte range of one), and how it becomes a
:class:`~triage.scan.summary.Summary`."""

from __future__ import annotations

import socket
from dataclasses import dataclass, field

from triage.knowledge.compiled import CompiledRule
from triage.logformat.origin import EMPTY, Origin, origin_of_line, origin_of_path
from triage.logformat.times import Clock, LineTime, iso
from triage.scan.facts import FactStore
from triage.scan.summary import (
    MAX_KEPT,
    SClock,
    SEvidence,
    SFact,
    SFile,
    SHits,
    SOrigin,
    STime,
    STruncated,
    Summary,
    SUnrecognised,
)


def _stime(t: LineTime | None) -> STime | None:
    if t is None:
        return None
    return STime(family=t.family, when=iso(t.when) or "", local=iso(t.local))


@dataclass
class _OriginState:
    origin: Origin
    count: int
    first_line: int
    last_line: int
    first_text: str
    time: STime | None
    peer: int | None
    mixed_pids: bool = False  # a rank-less entry that counts lines of more than one (or an unknown) pid


@dataclass
class _State:
    """What one read saw of one rule."""

    rule: CompiledRule
    count: int = 0
    first_line: int = 0
    last_line: int = 0
    captures: dict[str, str] = field(default_factory=dict)
    occurrences: list[tuple] = field(default_factory=list)  # (origin, [(line, text)...])
    last_occurrence: tuple | None = None
    origins: dict[tuple, _OriginState] = field(default_factory=dict)


def _evidence(occurrence: tuple) -> list[SEvidence]:
    origin, texts = occurrence
    data = origin.as_dict() if origin is not EMPTY else None
    return [SEvidence(file=0, line=n, text=t, origin=data) for n, t in texts]


class _Read:
    """The state of reading one input (or one byte range of one): becomes a :class:`Summary`."""

    def __init__(self, analysis, name: str | None, node: str | None):
        self.name = name
        self.node = node
        self.file_origin = origin_of_path(name).merged(Origin(node=node)) if (name or node) else EMPTY
        self.states: dict[int, _State] = {}
        self.unrecognised: dict[tuple[str, str], SUnrecognised] = {}
        self.truncated: list[STruncated] = []
        self.notices: list[str] = []
        self.clock = Clock()
        self.lines = 0
        self.restarts: list[int] = []
        self.first_start: int | None = None
        self.started = False  # a start-up line was seen in this read
        self.failed = False  # an error-level finding since the last start-up line (or the start)
        #: [rank, size] of the largest HCCL communicator this file's initialisation lines name (None
        #: when none was seen), and whether two ranks were seen at that size (see summary.combine_comm)
        self.comm_rank: list[int] | None = None
        self.comm_conflict = False
        #: distinct (pid, global rank, node) stated by the file's rank assignment lines
        self.pid_ranks: list[tuple[int, int, str | None]] = []
        #: (first line, times, text) of the repeated waiting line the read ends with, or None
        self.stall: tuple[int, int, str] | None = None
        #: (line, (package, module, function, frame line)) of the latest traceback frame in the stack
        self.frame: tuple[int, tuple[str, str, str, int]] | None = None
        self._origin_of: tuple[str | None, Origin] = (None, EMPTY)
        knowledge = analysis.knowledge
        self.facts = FactStore(analysis._extractors, list(knowledge.facts))

    def origin(self, raw: str) -> Origin:
        """The line's own origin, completed by what its file's path and node say (the last line's
        is remembered: several rules firing on one line ask for it once each)."""
        if raw == self._origin_of[0]:
            return self._origin_of[1]
        own = origin_of_line(raw)
        got = self.file_origin if own is EMPTY else own if self.file_origin is EMPTY else own.merged(self.file_origin)
        self._origin_of = (raw, got)
        return got

    def summary(self, analysis, continues: bool = False) -> Summary:
        hits = []
        for state in sorted(self.states.values(), key=lambda s: (s.first_line, s.rule.index)):
            hits.append(SHits(
                rule=state.rule.id, count=state.count, first=(0, state.first_line), last=(0, state.last_line),
                captures=state.captures, occurrences=[_evidence(o) for o in state.occurrences],
                last_occurrence=_evidence(state.last_occurrence) if state.last_occurrence else None,
                origins=[SOrigin(file=0, origin=o.origin.as_dict(), count=o.count, first_line=o.first_line,
                                 last_line=o.last_line, first_text=o.first_text, time=o.time, peer=o.peer,
                                 mixed_pids=o.mixed_pids)
                         for o in state.origins.values()]))
        facts = []
        for name, best in self.facts._best.items():
            spec = analysis.knowledge.facts[name]
            facts.append(SFact(name=name, value=best.value, file=0, line=best.line, text=best.text,
                               extractor=best.extractor, priority=best.priority, prefer=spec.prefer,
                               others=list(best.others)))
        return Summary(
            triage_version=_triage_version(), rules_digest=analysis.rules.digest,
            compat_digest=analysis.knowledge.digest, host=analysis.host,
            files=[SFile(name=self.name, lines=self.lines, node=self.node, continues=continues,
                         comm_rank=self.comm_rank, comm_conflict=self.comm_conflict, pid_ranks=self.pid_ranks,
                         stall=self.stall,
                         restarts=self.restarts[-MAX_KEPT:], first_start=self.first_start, failed_tail=self.failed)],
            hits=hits, unrecognised=list(self.unrecognised.values()), facts=facts, truncated=self.truncated,
            notices=self.notices, matcher=getattr(analysis._matcher, "name", ""),
            clock=SClock(offsets=self.clock.offsets, years=self.clock.years, families=sorted(self.clock.families)),
        )


def _hostname() -> str | None:
    try:
        return socket.gethostname() or None
    except OSError:
        return None


def _triage_version() -> str:
    from triage.version import __version__

    return __version__
