"""The map step: read one input, prefilter, confirm each flagged line with the rules, and keep
what the report needs as a :class:`~triage.summary.Summary`.

:class:`Analysis` reads any number of inputs (each into a summary of its own), yields each
finding the moment its rule first fires (for streaming), and builds the ranked report from the
merged summaries (:mod:`triage.diagnose`).
"""

from __future__ import annotations

import re
import socket
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from triage.compat import Knowledge, load_compat
from triage.compiled import CompiledRule, MatchTimeout
from triage.correlate.origin import EMPTY, Origin, origin_of_line, origin_of_path, peer_of_line, pid_rank_of_line
from triage.correlate.times import Clock, LineTime, iso, time_of_line
from triage.facts import MAX_READ_PER_BLOCK, CompiledExtractor, FactStore
from triage.loader import RuleSet
from triage.matching import Matcher, choose_matcher
from triage.matching.base import DETECTORS, exact_prefilter
from triage.normalize import LineView
from triage.reader import BLOCK_SIZE, MAX_LINE, BlockReader, decode_line
from triage.report import Finding, Report
from triage.summary import (
    EVIDENCE_FIRST,
    MAX_KEPT,
    MAX_ORIGINS,
    MAX_PID_RANKS,
    MAX_UNRECOGNISED_KEYS,
    SClock,
    SEvidence,
    SFact,
    SFile,
    SHits,
    SInputError,
    SOrigin,
    STime,
    STruncated,
    Summary,
    SUnrecognised,
    combine_comm,
    merge,
)
from triage.unexplained import says_something

# Confirmation of the detectors (on the normalized line), in order of how telling they are.
_DETECTOR_CONFIRM = {
    "python-exception": re.compile(
        r"^(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure|Interrupt)(?:: .*)?$", re.ASCII),
    "error-code": re.compile(r"error code is -?\d+|\bERR\d{5}\b|\bE[A-Z0-9]\d{4}\b", re.ASCII),
    "plog-error": re.compile(r"^\[ERROR\] [A-Za-z_][\w-]*\(\d+,", re.ASCII),
    "compile-error": re.compile(r"^\s*\S+:\d+:\d+: (?:fatal )?error: ", re.ASCII),
    # a line of CANN's error stack (printed only on failure): ... failed.[FUNC:x][FILE:y.cc][LINE:n]
    "cann-error-stack": re.compile(r"\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]", re.ASCII),
    # torch's c10 logger at ERROR / FATAL, at the start of the line once a [rankN]: prefix is stripped
    "torch-log-error": re.compile(r"^\[[EF]\d{3,4} \d\d:\d\d:\d\d\.\d{6,9} [^\s\]]+:\d+\] \S", re.ASCII),
    # on the raw line: normalization drops the vLLM logger prefix that holds the level
    "fatal-log": re.compile(r"(?:^|\) )CRITICAL \d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? "
                            r"(?:\[[\w./<>-]+:\d+\]|[\w./<>-]+:\d+\])", re.ASCII),
}
#: Detector kinds confirmed on the raw line rather than the normalized one.
_RAW_KINDS = frozenset({"fatal-log"})
KIND_RANK = {"python-exception": 0, "error-code": 1, "compile-error": 2, "cann-error-stack": 3, "plog-error": 4,
             "torch-log-error": 5, "fatal-log": 6}
# the start of a service run (confirmed on the normalized line): vLLM's API server and engine banners
# ("Starting vLLM API server ... on http" is printed once the engine is up, after start-up errors
# it survived: not the start of a run)
_START = re.compile(r"^(?:vLLM API server version \S+|Initializing an? (?:V1 )?LLM engine \(v)", re.ASCII)
_MASK = re.compile(r"\d+")
#: The compat extractor of ``rankSize`` (the world size) whose lines also state the process's rank in
#: that communicator: HCCL's ``[HcclCommInitRootInfo] rank[3] rankSize[16]``, MindIE's ``rank:1, rankSize:4``.
COMM_RANK_EXTRACTOR = "hccl.rank-size"
_COMM_RANK_BYTES = re.compile(rb"\brank\s*[\[:=]\s*(\d{1,6})\]?\s*,?\s*rankSize\s*[\[:=]\s*(\d{1,6})")
#: The compat extractor of vLLM's ``rank N in world size M is assigned as`` (the world size), whose
#: lines, under a worker's process tag, pair that worker's pid with its global rank.
PID_RANK_EXTRACTOR = "vllm.rank-in-world-size"
#: Confirmations remembered per analysis (the memo is emptied when full), and the longest line
#: remembered (characters).
MEMO_SIZE = 8192
MEMO_LINE = 2000
_UNSEEN = object()
#: Occurrences of a rule on one origin whose time is looked for when the first one had none.
TIME_TRIES = 8


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

    def __init__(self, analysis: Analysis, name: str | None, node: str | None):
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

    def summary(self, analysis: Analysis, continues: bool = False) -> Summary:
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
                         restarts=self.restarts[-MAX_KEPT:], first_start=self.first_start, failed_tail=self.failed)],
            hits=hits, unrecognised=list(self.unrecognised.values()), facts=facts, truncated=self.truncated,
            notices=self.notices, matcher=getattr(analysis._matcher, "name", ""),
            clock=SClock(offsets=self.clock.offsets, years=self.clock.years, families=sorted(self.clock.families)),
        )


class Analysis:
    """Diagnose one or more logs with ``rules``.

    ``matcher`` is a :class:`~triage.matching.Matcher`, a matcher name (``auto``, ``small``,
    ``hyperscan``, ``literal``, ``reference``) or None for the default (``TRIAGE_MATCHER`` or
    ``auto``). ``max_line`` and ``block_size`` are in bytes. ``knowledge`` holds the fact
    extractors, fact checks and compatibility tables (default: the built-in ``compat/``).
    ``lang`` is the language of the report's texts (``en`` or ``zh``; None: the locale decides).
    """

    def __init__(self, rules: RuleSet, matcher: str | Matcher | None = None, *, max_line: int = MAX_LINE,
                 block_size: int = BLOCK_SIZE, knowledge: Knowledge | None = None, lang: str | None = None):
        self.rules = rules
        self._rules = rules.rules
        self._matcher_spec = matcher
        self._matcher: Matcher | None = matcher if (matcher is not None and not isinstance(matcher, str)) else None
        self.max_line = max_line
        self.block_size = block_size
        self.lang = lang
        self.summaries: list[Summary] = []
        self.input_errors: list[SInputError] = []
        self.notices: list[str] = []
        self._announced: set[int] = set()
        self.host = _hostname()
        #: Called with the byte size of each block read (a progress bar), or None.
        self.on_block = None
        #: Called with each unexplained error line when first seen (live announcements), or None.
        self.on_unexplained = None
        self.knowledge = knowledge if knowledge is not None else load_compat()
        self._extractors = [CompiledExtractor(ex, self.knowledge.facts[ex.fact]) for ex in self.knowledge.extractors]
        # the extractors' patterns join the prefilter after the detectors: (extractor, is its `after`)
        self._fact_targets: list[tuple[int, bool]] = []
        self._fact_has_after = [ex.after is not None for ex in self.knowledge.extractors]
        self._fact_patterns: list[tuple[str, bool]] = []
        self._fact_limits: dict[int, int] = {}
        self._unexplained_seen: set[tuple[str, str]] = set()
        #: (rule index, anchor 0 / follower 1, normalized line) -> captures or None (see _test)
        self._memo: dict[tuple[int, int, str], dict[str, str] | None] = {}
        self._raw_scoped = [any(c.spec.scope == "raw" for pred in (r.anchor, r.follower) if pred is not None
                                for c in pred.any + pred.all + pred.none) for r in self._rules]
        #: the extractor whose lines state a process's rank in its HCCL communicator (``rank[3] rankSize[16]``)
        self._comm_extractor = next((k for k, ex in enumerate(self.knowledge.extractors)
                                     if ex.id == COMM_RANK_EXTRACTOR), None)
        #: the extractor whose lines pair a worker's pid with its rank (``rank 1 in world size 2 ...``)
        self._pid_rank_extractor = next((k for k, ex in enumerate(self.knowledge.extractors)
                                         if ex.id == PID_RANK_EXTRACTOR), None)
        base = len(self._rules) + len(DETECTORS)
        for k, ex in enumerate(self.knowledge.extractors):
            for pattern, is_after in ((ex.regex, False), (ex.after, True)):
                if pattern is not None:
                    if (not is_after and ex.after is None and self.knowledge.facts[ex.fact].prefer == "last"
                            and exact_prefilter(pattern)):
                        # the engine reads at most the last this many matching lines a block: a
                        # matcher whose candidates are exactly the matching lines may offer no more
                        self._fact_limits[base + len(self._fact_targets)] = MAX_READ_PER_BLOCK
                    self._fact_targets.append((k, is_after))
                    self._fact_patterns.append((pattern, ex.ignore_case))

    @property
    def matcher(self) -> Matcher:
        """The prefilter, built on first use (raises ``ValueError`` for an unknown name)."""
        if self._matcher is None:
            name = self._matcher_spec if isinstance(self._matcher_spec, str) else None
            self._matcher = self.build_matcher(name)
        return self._matcher

    def build_matcher(self, name: str | None = None, *, use_cache: bool = True) -> Matcher:
        """A prefilter for these rules and fact extractors (``name`` as for ``matcher``); one may
        be shared by analyses of the same rules and knowledge. Raises ``ValueError`` for an unknown name."""
        return choose_matcher(self._rules, name, use_cache=use_cache, extra=self._fact_patterns,
                              limits=self._fact_limits)

    @property
    def lines_read(self) -> int:
        """Lines read so far, over all inputs."""
        return sum(s.lines_read for s in self.summaries)

    def note(self, message: str) -> None:
        """Add a notice to the report (at most ``MAX_KEPT`` are kept; a repeated one once)."""
        if len(self.notices) < MAX_KEPT and message not in self.notices:
            self.notices.append(message)

    # -- input -------------------------------------------------------------------------------------
    def feed(self, stream: BinaryIO, file: str | None = None, *, node: str | None = None,
             continues: bool = False, sep: bytes | None = None) -> Iterator[Finding]:
        """Read ``stream`` (binary, with ``read1`` or ``read``) to its end; yield each finding when
        its rule fires for the first time in this analysis. ``file`` names the input in evidence
        (None for stdin); ``node`` is the node its path names (a bundle's folder), if any.
        ``continues`` marks a byte range that continues the previous input of the same ``file``
        (its line numbers continue), read with line separator ``sep``.

        Raises :class:`~triage.errors.InputError` when a compressed stream turns out truncated or
        corrupt; what was read before it is kept.
        """
        read = _Read(self, file, node)
        reader = BlockReader(stream, block_size=self.block_size, max_line=self.max_line, sep=sep or b"\n",
                             fixed_sep=sep is not None)
        pending: dict[int, deque] = {}
        nrules = len(self._rules)
        matcher = self.matcher
        try:
            for block in reader:
                if self.on_block is not None:
                    self.on_block(block.end)
                for line_no, raw, targets in matcher.candidates(block):
                    new = list(self._confirm(read, file, line_no, raw, targets, nrules, pending))
                    if len(new) > 1:  # announce the most specific finding of a line first
                        new.sort(key=lambda f: (f.generic, -f.priority))
                    yield from new
                read.facts.flush()
        finally:
            read.facts.flush()
            read.lines = reader.lines_read
            for line, length in reader.truncated[:MAX_KEPT]:
                read.truncated.append(STruncated(file=0, line=line, length=length, limit=self.max_line))
            self.summaries.append(read.summary(self, continues))

    def add_summary(self, summary: Summary) -> None:
        """Add the summary of inputs read elsewhere (another process, node or Ray task)."""
        self.summaries.append(summary)

    def announce_unexplained(self, summary: Summary) -> None:
        """Call :attr:`on_unexplained` for the unexplained lines of ``summary`` (read elsewhere)
        not announced before, once each."""
        if self.on_unexplained is None:
            return
        name = summary.files[0].name if summary.files else None
        for u in summary.unrecognised:
            key = (u.kind, u.key)
            if key not in self._unexplained_seen:
                self._unexplained_seen.add(key)
                self.on_unexplained(summary.files[u.file].name if u.file < len(summary.files) else name, u)

    def announce(self, summary: Summary) -> list[Finding]:
        """The findings of ``summary`` (read elsewhere) whose rules had not fired before, each with
        its first occurrence, marked as announced."""
        from triage.diagnose import finding_of
        from triage.i18n import resolve_lang

        out = []
        files = [f.name for f in summary.files]
        for h in summary.hits:
            rule = self.rules.by_id.get(h.rule)
            if rule is None or rule.index in self._announced:
                continue
            self._announced.add(rule.index)
            first = h.model_copy(update={"occurrences": h.occurrences[:1], "last_occurrence": None, "origins": []})
            out.append(finding_of(rule, first, files, resolve_lang(self.lang)))
        out.sort(key=lambda f: (f.generic, -f.priority))
        return out

    def _confirm(self, read: _Read, file: str | None, line_no: int, raw: bytes, targets,
                 nrules: int, pending: dict[int, deque]) -> Iterator[Finding]:
        view: LineView | None = None
        detectors = []
        hits: list[tuple] = []  # (rule, line, captures, evidence texts, last_line) confirmed on this line
        for t in targets:
            if t >= nrules:
                d = t - nrules
                if d < len(DETECTORS):
                    if DETECTORS[d][0] == "restart":
                        if view is None:
                            view = LineView(decode_line(raw))
                        self._start(read, line_no, view)
                    else:
                        detectors.append(DETECTORS[d][0])
                    continue
                k, is_after = self._fact_targets[d - len(DETECTORS)]
                if k == self._comm_extractor:
                    self._comm_rank(read, raw)
                elif k == self._pid_rank_extractor:
                    self._pid_rank(read, raw)
                if not self._fact_has_after[k]:
                    read.facts.queue(k, 0, file, line_no, raw)
                    continue
                # an extractor with `after` reads its lines now, in order with their context lines
                if view is None:
                    view = LineView(decode_line(raw))
                if is_after:
                    read.facts.see_context(k, 0, line_no, view)
                else:
                    read.facts.offer(k, 0, file, line_no, view)
                continue
            if view is None:
                view = LineView(decode_line(raw))
            rule = self._rules[t]
            window = pending.get(t) if rule.follower is not None else None
            try:
                caps = self._test(t, 0, rule.anchor, view)
                # the follower is tested only while an anchor waits for it (hot path)
                fcaps = self._test(t, 1, rule.follower, view) if window else None
            except MatchTimeout as exc:
                if len(read.notices) < MAX_KEPT:
                    read.notices.append(f"{file or '-'}:{line_no}: rule {rule.id} {exc} (the line is treated "
                                        "as not matching)")
                continue
            if rule.follower is None:
                if caps is not None:
                    hits.append((rule, line_no, caps, [(line_no, view.raw)], None))
                continue
            if window and fcaps is not None:
                while window and window[0][0] < line_no - rule.within:
                    window.popleft()
                if window:
                    # pair with the nearest anchor, and consume it: one anchor makes one occurrence
                    a_line, a_caps, a_raw = window.pop()
                    hits.append((rule, a_line, {**a_caps, **fcaps}, [(a_line, a_raw), (line_no, view.raw)], line_no))
            if caps is not None:
                window = pending.setdefault(t, deque())
                window.append((line_no, caps, view.raw))
                while window and window[0][0] < line_no - rule.within:
                    window.popleft()
        if hits:
            # A generic rule (a bare RuntimeError, a code lookup) on a line that a specific rule
            # explains adds nothing: that occurrence is not counted, so the generic finding is left
            # only with lines nobody explains.
            if any(not h[0].rule.generic for h in hits):
                hits = [h for h in hits if not h[0].rule.generic]
            for rule, line, caps, texts, last in hits:
                yield from self._hit(read, rule, file, line, caps, texts, last_line=last)
        # a line only generic wrappers matched is still a candidate telling line (an
        # `EZ9999: [PID: 1] <reason>` line, a RuntimeError with a real message)
        if detectors and all(h[0].rule.generic for h in hits):
            if view is None:
                view = LineView(decode_line(raw))
            self._detect(read, file, line_no, view, detectors, wrapped=bool(hits))

    def _test(self, t: int, part: int, predicate, view: LineView) -> dict[str, str] | None:
        """``predicate.test(view)``, remembered for the normalized line: a crash-looping pod prints
        the same traceback after every restart, behind new vLLM/Ray/docker prefixes (times, pids)
        that normalization drops (a plog or torch_npu header stays in the normalized line, so those
        lines repeat less). Rules whose conditions read the raw line (``scope: raw``) are always
        tested."""
        line = view.line
        if len(line) > MEMO_LINE or self._raw_scoped[t]:
            return predicate.test(view)
        key = (t, part, line)
        got = self._memo.get(key, _UNSEEN)
        if got is _UNSEEN:
            got = predicate.test(view)  # MatchTimeout propagates and is not remembered
            if len(self._memo) >= MEMO_SIZE:
                self._memo.clear()
            self._memo[key] = got
        return None if got is None else dict(got)

    @staticmethod
    def _comm_rank(read: _Read, raw: bytes) -> None:
        """Note the rank a communicator initialisation line states for this file's process."""
        m = _COMM_RANK_BYTES.search(raw)  # HCCL and MindIE print this in ASCII: read the bytes undecoded
        if m is None:
            return
        now = (read.comm_rank, read.comm_conflict)
        new = combine_comm(*now, [int(m.group(1)), int(m.group(2))], False)
        # a line that changes nothing (a plog repeats its rank for every communicator) is not decoded
        if new != now and origin_of_line(decode_line(raw)).rank is None:
            read.comm_rank, read.comm_conflict = new

    @staticmethod
    def _pid_rank(read: _Read, raw: bytes) -> None:
        """Note the (pid, rank, node) a worker's rank assignment line states (see
        :func:`~triage.correlate.origin.pid_rank_of_line`; the node is the line's own, ``[pod/x]`` or
        Ray's ``ip=``, else its file's)."""
        text = decode_line(raw)
        pair = pid_rank_of_line(text)
        if pair is None:
            return
        got = (*pair, read.origin(text).node)
        if got not in read.pid_ranks and len(read.pid_ranks) < MAX_PID_RANKS:
            read.pid_ranks.append(got)

    def _start(self, read: _Read, line_no: int, view: LineView) -> None:
        """A service start-up line: after an error-level finding it starts a new attempt."""
        if not _START.search(view.line):
            return
        if read.failed:
            read.restarts.append(line_no)
        elif not read.started and read.first_start is None:
            read.first_start = line_no  # the merge decides with the previous piece of the file
        read.started = True
        read.failed = False

    def _hit(self, read: _Read, rule: CompiledRule, file: str | None, line: int, captures: dict[str, str],
             texts: list[tuple[int, str]], last_line: int | None = None) -> Iterator[Finding]:
        if rule.rule.severity in ("critical", "error"):
            read.failed = True
        state = read.states.get(rule.index)
        if state is None:
            state = read.states[rule.index] = _State(rule, first_line=line, captures=captures)
        state.count += 1
        state.last_line = last_line or line
        origin = read.origin(texts[0][1])
        if len(state.occurrences) < EVIDENCE_FIRST:
            state.occurrences.append((origin, texts))
        else:
            state.last_occurrence = (origin, texts)
        key = ("rank", origin.node, origin.rank) if origin.rank is not None else ("file",)
        ostate = state.origins.get(key)
        text = texts[0][1]
        if ostate is None:
            if len(state.origins) < MAX_ORIGINS:
                when = time_of_line(text)
                if when is not None:
                    read.clock.see(when)
                state.origins[key] = _OriginState(origin, 1, line, state.last_line, text, _stime(when),
                                                  peer_of_line(text) if "ank" in text else None)
        else:
            ostate.count += 1
            ostate.last_line = state.last_line
            if origin.pid != ostate.origin.pid or origin.pid is None:
                ostate.mixed_pids = True
            if ostate.peer is None and "ank" in text:
                ostate.peer = peer_of_line(text)
            if ostate.time is None and ostate.count <= TIME_TRIES:
                # the first occurrence had no time (a bare traceback line): a later one may
                when = time_of_line(text)
                if when is not None:
                    read.clock.see(when)
                    ostate.time = _stime(when)
        if rule.index not in self._announced:
            self._announced.add(rule.index)
            from triage.diagnose import live_finding

            yield live_finding(self, rule, state, file)

    def _detect(self, read: _Read, file: str | None, line_no: int, view: LineView, kinds: list[str],
                wrapped: bool = False) -> None:
        """Record the line as unexplained (its first detector kind). A line a generic rule matched
        (``wrapped``) is kept only when it states a message of its own: a bare wrapper such as
        ``EI9999: Inner Error!`` is shown by its generic finding, never listed, announced or drafted."""
        for kind in sorted(kinds, key=KIND_RANK.__getitem__):
            if wrapped and kind == "torch-log-error":
                continue  # the c10 header marks the level, not a message: the rule that matched explains it
            if _DETECTOR_CONFIRM[kind].search(view.raw if kind in _RAW_KINDS else view.line):
                key = (kind, _MASK.sub("N", view.line)[:300])
                if key not in read.unrecognised and len(read.unrecognised) < MAX_UNRECOGNISED_KEYS:
                    origin = read.origin(view.raw)
                    when = time_of_line(view.raw)
                    if when is not None:
                        read.clock.see(when)
                    u = SUnrecognised(file=0, line=line_no, text=view.raw, kind=kind, key=key[1],
                                      origin=origin.as_dict() if origin is not EMPTY else None, time=_stime(when))
                    if (wrapped or kind == "torch-log-error") and not says_something(u):
                        return  # a c10 error line is kept only with a message (not its follow-up boilerplate)
                    read.unrecognised[key] = u
                    if self.on_unexplained is not None and key not in self._unexplained_seen:
                        self._unexplained_seen.add(key)
                        self.on_unexplained(file, u)
                return

    # -- output ------------------------------------------------------------------------------------
    def summary(self) -> Summary:
        """The merged summary of everything read so far (input errors and notices included)."""
        merged = merge(self.summaries) if self.summaries else Summary(
            triage_version=_triage_version(), rules_digest=self.rules.digest, compat_digest=self.knowledge.digest,
            host=self.host, matcher=getattr(self._matcher, "name", ""))
        if self.input_errors or self.notices:
            merged = merged.model_copy(update={
                "input_errors": [*merged.input_errors, *self.input_errors],
                "notices": [*merged.notices, *[n for n in self.notices if n not in merged.notices]]})
        return merged

    def report(self) -> Report:
        """The ranked report of everything read so far."""
        from triage.diagnose import diagnose

        return diagnose(self.summary(), self.rules, self.knowledge, lang=self.lang)


def _hostname() -> str | None:
    try:
        return socket.gethostname() or None
    except OSError:
        return None


def _triage_version() -> str:
    from triage.version import __version__

    return __version__
