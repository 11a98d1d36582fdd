"""The analysis: read blocks, prefilter, confirm each flagged line with the rules, correlate.

:class:`Analysis` accumulates findings over any number of inputs and yields each finding the
moment its rule first fires (for streaming); :meth:`Analysis.report` ranks them.
"""

from __future__ import annotations

import re
from collections import deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import BinaryIO

from triage.compat import Knowledge, load_compat
from triage.compat.checks import TESTS
from triage.compat.versions import is_dev_build
from triage.compiled import CompiledRule, MatchTimeout, fill
from triage.facts import MAX_READ_PER_BLOCK, CompiledExtractor, FactStore
from triage.loader import RuleSet
from triage.matching import Matcher, choose_matcher
from triage.matching.base import DETECTORS, exact_prefilter
from triage.normalize import LineView
from triage.rank import apply_suppression, rank_key
from triage.reader import BLOCK_SIZE, MAX_LINE, BlockReader, decode_line
from triage.report import Evidence, Finding, InputProblem, Report, TruncatedLine, Unrecognised
from triage.schema import SEVERITIES

EVIDENCE_FIRST = 3
MAX_UNRECOGNISED_KEYS = 1000
MAX_UNRECOGNISED_SHOWN = 10
MAX_KEPT = 100  # truncated-line records and notices kept per analysis: memory stays flat

# Confirmation of the detectors (on the normalized line), in order of how telling they are.
_DETECTOR_CONFIRM = {
    "python-exception": re.compile(
        r"^(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure|Interrupt)(?:: .*)?$", re.ASCII),
    "error-code": re.compile(r"error code is -?\d+|\bERR\d{5}\b|\bE[A-Z0-9]\d{4}\b", re.ASCII),
    "plog-error": re.compile(r"^\[ERROR\] [A-Za-z_][\w-]*\(\d+,", re.ASCII),
    "compile-error": re.compile(r"^\s*\S+:\d+:\d+: (?:fatal )?error: ", re.ASCII),
    # a line of CANN's error stack (printed only on failure): ... failed.[FUNC:x][FILE:y.cc][LINE:n]
    "cann-error-stack": re.compile(r"\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]", re.ASCII),
}
_KIND_RANK = {"python-exception": 0, "error-code": 1, "compile-error": 2, "cann-error-stack": 3, "plog-error": 4}
_MASK = re.compile(r"\d+")


@dataclass
class _State:
    """What is known about one fired rule."""

    rule: CompiledRule
    count: int = 0
    first: tuple[int, int] = (0, 0)  # (file index, line)
    first_file: str | None = None
    last_line: int = 0
    last_file: str | None = None
    captures: dict[str, str] = field(default_factory=dict)
    evidence: list[Evidence] = field(default_factory=list)
    last_evidence: list[Evidence] = field(default_factory=list)


class Analysis:
    """Diagnose one or more logs with ``rules``.

    ``matcher`` is a :class:`~triage.matching.Matcher`, a matcher name (``auto``, ``small``,
    ``hyperscan``, ``literal``, ``reference``) or None for the default (``TRIAGE_MATCHER`` or
    ``auto``). ``max_line`` and ``block_size`` are in bytes. ``knowledge`` holds the fact
    extractors, fact checks and compatibility tables (default: the built-in ``compat/``).
    """

    def __init__(self, rules: RuleSet, matcher: str | Matcher | None = None, *, max_line: int = MAX_LINE,
                 block_size: int = BLOCK_SIZE, knowledge: Knowledge | None = None):
        self.rules = rules
        self._rules = rules.rules
        self._matcher_spec = matcher
        self._matcher: Matcher | None = matcher if (matcher is not None and not isinstance(matcher, str)) else None
        self.max_line = max_line
        self.block_size = block_size
        self._states: dict[int, _State] = {}
        self._files: list[str | None] = []
        self._unrecognised: dict[tuple[str, str], Unrecognised] = {}
        self._truncated: list[TruncatedLine] = []
        self.input_errors: list[InputProblem] = []
        self.notices: list[str] = []
        self.lines_read = 0
        #: Called with the byte size of each block read (a progress bar), or None.
        self.on_block = None
        self.knowledge = knowledge if knowledge is not None else load_compat()
        extractors = [CompiledExtractor(ex, self.knowledge.facts[ex.fact]) for ex in self.knowledge.extractors]
        self.facts = FactStore(extractors, list(self.knowledge.facts))
        # the extractors' patterns join the prefilter after the detectors: (extractor, is its `after`)
        self._fact_targets: list[tuple[int, bool]] = []
        self._fact_has_after = [ex.after is not None for ex in self.knowledge.extractors]
        self._fact_patterns: list[tuple[str, bool]] = []
        self._fact_limits: dict[int, int] = {}
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

    def note(self, message: str) -> None:
        """Add a notice to the report (at most ``MAX_KEPT`` are kept; a repeated one once)."""
        if len(self.notices) < MAX_KEPT and message not in self.notices:
            self.notices.append(message)

    # -- input -------------------------------------------------------------------------------------
    def feed(self, stream: BinaryIO, file: str | None = None) -> Iterator[Finding]:
        """Read ``stream`` (binary, with ``read1`` or ``read``) to its end; yield each finding when
        its rule fires for the first time. ``file`` names the input in evidence (None for stdin).

        Raises :class:`~triage.errors.InputError` when a compressed stream turns out truncated or
        corrupt; the lines read before it stay counted.
        """
        file_index = len(self._files)
        self._files.append(file)
        reader = BlockReader(stream, block_size=self.block_size, max_line=self.max_line)
        pending: dict[int, deque] = {}
        nrules = len(self._rules)
        matcher = self.matcher
        try:
            for block in reader:
                if self.on_block is not None:
                    self.on_block(block.end)
                for line_no, raw, targets in matcher.candidates(block):
                    new = list(self._confirm(file_index, file, line_no, raw, targets, nrules, pending))
                    if len(new) > 1:  # announce the most specific finding of a line first
                        new.sort(key=lambda f: (f.generic, -f.priority))
                    yield from new
                self.facts.flush()
        finally:
            self.facts.flush()
            self.lines_read += reader.lines_read
            for line, length in reader.truncated[: MAX_KEPT - len(self._truncated)]:
                self._truncated.append(TruncatedLine(file=file, line=line, length=length, limit=self.max_line))

    def _confirm(self, file_index: int, file: str | None, line_no: int, raw: bytes, targets,
                 nrules: int, pending: dict[int, deque]) -> Iterator[Finding]:
        view: LineView | None = None
        detectors = []
        hits: list[tuple] = []  # (rule, line, captures, evidence, last_line) confirmed on this line
        for t in targets:
            if t >= nrules:
                d = t - nrules
                if d < len(DETECTORS):
                    detectors.append(DETECTORS[d][0])
                    continue
                k, is_after = self._fact_targets[d - len(DETECTORS)]
                if not self._fact_has_after[k]:
                    self.facts.queue(k, file_index, file, line_no, raw)
                    continue
                # an extractor with `after` reads its lines now, in order with their context lines
                if view is None:
                    view = LineView(decode_line(raw))
                if is_after:
                    self.facts.see_context(k, file_index, line_no, view)
                else:
                    self.facts.offer(k, file_index, file, line_no, view)
                continue
            if view is None:
                view = LineView(decode_line(raw))
            rule = self._rules[t]
            window = pending.get(t) if rule.follower is not None else None
            try:
                caps = rule.anchor.test(view)
                # the follower is tested only while an anchor waits for it (hot path)
                fcaps = rule.follower.test(view) if window else None
            except MatchTimeout as exc:
                if len(self.notices) < MAX_KEPT:
                    self.notices.append(f"{file or '-'}:{line_no}: rule {rule.id} {exc} (the line is treated "
                                        "as not matching)")
                continue
            if rule.follower is None:
                if caps is not None:
                    hits.append((rule, line_no, caps, [Evidence(file=file, line=line_no, text=view.raw)], None))
                continue
            if window and fcaps is not None:
                while window and window[0][0] < line_no - rule.within:
                    window.popleft()
                if window:
                    # pair with the nearest anchor, and consume it: one anchor makes one occurrence
                    a_line, a_caps, a_raw = window.pop()
                    ev = [Evidence(file=file, line=a_line, text=a_raw),
                          Evidence(file=file, line=line_no, text=view.raw)]
                    hits.append((rule, a_line, {**a_caps, **fcaps}, ev, line_no))
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
            for rule, line, caps, ev, last in hits:
                yield from self._hit(rule, file_index, file, line, caps, ev, last_line=last)
        if detectors and not hits:
            if view is None:
                view = LineView(decode_line(raw))
            self._detect(file, line_no, view, detectors)

    def _hit(self, rule: CompiledRule, file_index: int, file: str | None, line: int,
             captures: dict[str, str], evidence: list[Evidence], last_line: int | None = None) -> Iterator[Finding]:
        state = self._states.get(rule.index)
        is_new = state is None
        if state is None:
            state = self._states[rule.index] = _State(rule, first=(file_index, line), first_file=file,
                                                      captures=captures)
        state.count += 1
        state.last_line = last_line or line
        state.last_file = file
        if len(state.evidence) < EVIDENCE_FIRST * len(evidence):
            state.evidence.extend(evidence)
        else:
            state.last_evidence = evidence
        if is_new:
            yield self._finding(state, None)

    def _detect(self, file: str | None, line_no: int, view: LineView, kinds: list[str]) -> None:
        for kind in sorted(kinds, key=_KIND_RANK.__getitem__):
            if _DETECTOR_CONFIRM[kind].search(view.line):
                key = (kind, _MASK.sub("N", view.line)[:300])
                if key not in self._unrecognised and len(self._unrecognised) < MAX_UNRECOGNISED_KEYS:
                    self._unrecognised[key] = Unrecognised(file=file, line=line_no, text=view.raw, kind=kind)
                return

    # -- output ------------------------------------------------------------------------------------
    def _finding(self, state: _State, suppressed_by: str | None) -> Finding:
        rule = state.rule
        r = rule.rule
        values = rule.placeholders(state.captures)
        evidence = list(state.evidence)
        for ev in state.last_evidence:
            if ev not in evidence:
                evidence.append(ev)
        return Finding(
            rule_id=r.id, title=r.title, layer=r.layer, component=r.component, severity=r.severity,
            priority=r.priority, generic=r.generic, cause=fill(r.cause.strip(), values),
            fix=[fill(step, values) for step in r.fix], evidence=evidence, first_line=state.first[1],
            last_line=state.last_line, first_file=state.first_file, last_file=state.last_file,
            count=state.count, captures=dict(state.captures), references=list(r.references),
            suppressed_by=suppressed_by, pack=rule.pack,
        )

    def _check_states(self) -> list[_State]:
        """Findings reasoned from the facts (``compat/checks.yaml``), as states ranked with the rest."""
        out = []
        # only specific findings count: the generic wrappers (engine init failed, a bare
        # RuntimeError) fire in nearly every failed log and explain nothing
        fired = {s.rule.id for s in self._states.values() if not s.rule.rule.generic}
        specific = {s.rule.id for s in self._states.values()
                    if not s.rule.rule.generic and s.rule.rule.severity in SEVERITIES[:2]}
        dev = self.facts.fact("vllm_ascend_version")
        if dev is not None and is_dev_build(dev.value) and len(self.notices) < MAX_KEPT:
            note = (f"{dev.file or '-'}:{dev.line}: vllm-ascend {dev.value} is a development build: the release "
                    "tables were not applied to it")
            if note not in self.notices:
                self.notices.append(note)
        for k, check in enumerate(self.knowledge.checks):
            for verdict in TESTS[check.test].fn(self.facts, self.knowledge, check.params):
                facts = [f for f in (self.facts.fact(n) for n in verdict.facts) if f is not None]
                if not facts:
                    continue
                where = [self.facts.position(f.name) for f in facts]
                first = min(where)
                last = max(zip(where, facts, strict=True), key=lambda p: p[0])
                evidence = sorted({Evidence(file=f.file, line=f.line, text=f.text) for f in facts},
                                  key=lambda e: (self._files.index(e.file) if e.file in self._files else 0, e.line))
                if not fired & set(check.suppresses) and specific - set(check.suppresses):
                    # it explains none of the findings, and a specific error it does not explain
                    # fired: context for that error, not the root cause. (Error lines no rule
                    # explains do not demote it: an undefined symbol is what a mismatch looks like.)
                    check = check.model_copy(update={"priority": 1})
                rule = _CheckRule(check, -1 - k)
                out.append(_State(rule, count=1, first=first, first_file=self._files[first[0]], last_line=last[0][1],
                                  last_file=last[1].file, captures=dict(verdict.values), evidence=evidence))
        return out

    def report(self) -> Report:
        """The ranked report of everything fed so far."""
        states = list(self._states.values()) + self._check_states()
        base = sorted(states, key=lambda s: rank_key(s.rule, s.first, False))
        suppressed = apply_suppression([s.rule for s in base])
        ranked = sorted(states, key=lambda s: rank_key(s.rule, s.first, s.rule.id in suppressed))
        findings = [self._finding(s, suppressed.get(s.rule.id)) for s in ranked]
        root = next((f for f in findings if f.severity in SEVERITIES[:2] and f.suppressed_by is None), None)
        unrecognised: list[Unrecognised] = []
        if root is None:
            order = {f: i for i, f in enumerate(self._files)}
            picked = sorted(self._unrecognised.values(),
                            key=lambda u: (_KIND_RANK[u.kind], order.get(u.file, 0), u.line))[:MAX_UNRECOGNISED_SHOWN]
            unrecognised = sorted(picked, key=lambda u: (order.get(u.file, 0), u.line))
        return Report(
            triage_version=_triage_version(), rules_digest=self.rules.digest, root_cause=root, findings=findings,
            unrecognised=unrecognised, lines_read=self.lines_read, files=list(self._files),
            truncated_lines=list(self._truncated), input_errors=list(self.input_errors), notices=list(self.notices),
            matcher=getattr(self._matcher, "name", ""), facts=self.facts.facts(), compat_digest=self.knowledge.digest,
        )


class _CheckRule:
    """A fact check in the shape ranking and :meth:`Analysis._finding` expect of a compiled rule;
    its findings say ``pack: compat``."""

    pack = "compat"

    def __init__(self, check, index: int):
        self.rule = check
        self.id = check.id
        self.index = index

    @staticmethod
    def placeholders(captures: dict[str, str]) -> dict[str, str]:
        return captures


def _triage_version() -> str:
    from triage.version import __version__

    return __version__
