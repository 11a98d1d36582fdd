"""The map step: read one input, prefilter, confirm each flagged line with the rules, and keep
what the report needs as a :class:`~triage.scan.summary.Summary`.

:class:`Analysis` reads any number of inputs (each into a summary of its own), yields each
finding the moment its rule first fires (for streaming), and builds the ranked report from the
merged summaries (:mod:`triage.diagnose.verdict`).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterator
from typing import BinaryIO

from triage.inputs.reader import BLOCK_SIZE, MAX_LINE, BlockReader
from triage.knowledge.compat import Knowledge, load_compat
from triage.knowledge.dialect import compile_rule_regex
from triage.knowledge.loader import RuleSet
from triage.logformat.detectors import KIND_RANK
from triage.logformat.frames import frame_prefilter
from triage.matching import Matcher, choose_matcher
from triage.matching.base import DETECTORS, exact_prefilter
from triage.report.models import Finding
from triage.scan.confirm import COMM_RANK_EXTRACTOR, PID_RANK_EXTRACTOR, Confirm
from triage.scan.facts import MAX_READ_PER_BLOCK, CompiledExtractor
from triage.scan.merge import merge
from triage.scan.stall import StallCheck, Tail
from triage.scan.state import _hostname, _Read, _triage_version
from triage.scan.summary import (
    MAX_KEPT,
    SInputError,
    STruncated,
    Summary,
)


class Scanner(Confirm):
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
        # the error-line conventions of the stack's programs (compat/conventions.yaml) follow the
        # extractors: a flagged line is confirmed like a detector's and kept as an unexplained line
        self._conventions = list(self.knowledge.conventions)
        self._conv_base = len(self._fact_targets)
        self._fact_patterns.extend((c.prefilter, c.ignore_case) for c in self._conventions)
        # then traceback frames inside the stack's packages: the innermost names a raised exception's package
        self._packages = frozenset(p.name for p in self.knowledge.packages)
        if self._packages:
            self._fact_patterns.append((frame_prefilter(sorted(self._packages)), False))
        self._conv_confirm = {c.kind: ([compile_rule_regex(p, c.ignore_case) for p in c.confirm], c.scope == "raw")
                              for c in self._conventions}
        self._stall = StallCheck(self.knowledge.stall) if self.knowledge.stall is not None else None
        self._kind_rank = {**KIND_RANK, **{c.kind: len(KIND_RANK) + i for i, c in enumerate(self._conventions)}}

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
        tail = Tail()
        try:
            for block in reader:
                tail.see(block.buf, block.end)
                for line_no, raw, targets in matcher.candidates(block):
                    new = list(self._confirm(read, file, line_no, raw, targets, nrules, pending))
                    if len(new) > 1:  # announce the most specific finding of a line first
                        new.sort(key=lambda f: (f.generic, -f.priority))
                    yield from new
                read.facts.flush()
                if self.on_block is not None:  # once the block is read: the bar moves at the reading's speed
                    self.on_block(block.end)
        finally:
            read.facts.flush()
            read.lines = reader.lines_read
            if self._stall is not None:
                read.stall = self._stall.of(tail, reader.lines_read, sep or b"\n")
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
        from triage.report.i18n import resolve_lang
        from triage.scan.findings import finding_of

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
