"""The confirm step of the map step: each line a prefilter flagged is normalized and tested
against its candidate rules, detectors (error lines no rule may know) and fact extractors; hits are
kept per rule and origin in the read's state (:mod:`triage.scan.state`)."""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator

from triage.inputs.reader import decode_line
from triage.knowledge.compiled import CompiledRule, MatchTimeout
from triage.logformat.detectors import CONFIRM, RAW_KINDS, START
from triage.logformat.frames import frame_in
from triage.logformat.normalize import LineView
from triage.logformat.origin import EMPTY, origin_of_line, peer_of_line, pid_rank_of_line
from triage.logformat.times import time_of_line
from triage.matching.base import DETECTORS
from triage.report.models import Finding
from triage.scan.state import _OriginState, _Read, _State, _stime
from triage.scan.summary import (
    EVIDENCE_FIRST,
    MAX_KEPT,
    MAX_ORIGINS,
    MAX_PID_RANKS,
    MAX_UNRECOGNISED_KEYS,
    SUnrecognised,
    combine_comm,
)
from triage.scan.unexplained import is_frame, says_something

_MASK = re.compile(r"\d+")
#: Lines between a traceback's innermost frame in the stack and its exception line, at most.
FRAME_REACH = 80
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


class Confirm:
    """The per-line confirmation of :class:`~triage.scan.engine.Scanner` (a mixin: it reads the
    scanner's rules, knowledge and memo)."""

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
                k_index = d - len(DETECTORS)
                if k_index >= self._conv_base:
                    c = k_index - self._conv_base
                    if c < len(self._conventions):
                        detectors.append(self._conventions[c].kind)
                    else:  # a traceback frame inside a package of the stack: the latest is kept
                        frame = frame_in(decode_line(raw), self._packages)
                        if frame is not None:
                            read.frame = (line_no, frame)
                    continue
                k, is_after = self._fact_targets[k_index]
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
        :func:`~triage.logformat.origin.pid_rank_of_line`; the node is the line's own, ``[pod/x]`` or
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
        if not START.search(view.line):
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
            from triage.scan.findings import live_finding

            yield live_finding(self, rule, state, file)

    def _detect(self, read: _Read, file: str | None, line_no: int, view: LineView, kinds: list[str],
                wrapped: bool = False) -> None:
        """Record the line as unexplained (its first detector kind). A line a generic rule matched
        (``wrapped``) is kept only when it states a message of its own: a bare wrapper such as
        ``EI9999: Inner Error!`` is shown by its generic finding, never listed, announced or drafted."""
        for kind in sorted(set(kinds), key=self._kind_rank.__getitem__):
            if wrapped and kind == "torch-log-error":
                continue  # the c10 header marks the level, not a message: the rule that matched explains it
            convention = self._conv_confirm.get(kind)
            if wrapped and convention is not None:
                continue  # a program's error line that a generic rule matched: that rule speaks for it
            if convention is None:
                confirmed = CONFIRM[kind].search(view.raw if kind in RAW_KINDS else view.line)
            else:
                patterns, raw = convention
                text = view.raw if raw else view.line
                confirmed = any(p.search(text) for p in patterns)
            if confirmed:
                key = (kind, _MASK.sub("N", view.line)[:300])
                if key not in read.unrecognised and len(read.unrecognised) < MAX_UNRECOGNISED_KEYS:
                    origin = read.origin(view.raw)
                    when = time_of_line(view.raw)
                    if when is not None:
                        read.clock.see(when)
                    frame = None
                    if kind == "python-exception" and read.frame is not None and \
                            0 < line_no - read.frame[0] <= FRAME_REACH:
                        frame = read.frame[1]
                    u = SUnrecognised(file=0, line=line_no, text=view.raw, kind=kind, key=key[1],
                                      origin=origin.as_dict() if origin is not EMPTY else None, time=_stime(when),
                                      frame=frame)
                    if (wrapped or kind == "torch-log-error") and not says_something(u):
                        return  # a c10 error line is kept only with a message (not its follow-up boilerplate)
                    if convention is not None and is_frame(u):
                        return  # a traceback's header or frame under a logger's ERROR prefix states nothing
                    read.unrecognised[key] = u
                    if self.on_unexplained is not None and key not in self._unexplained_seen:
                        self._unexplained_seen.add(key)
                        self.on_unexplained(file, u)
                return
