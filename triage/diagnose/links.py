"""Which occurrences explain which, across origins, and the incidents that follow.

A finding is a symptom (``suppressed_by``) only when *every* occurrence of it is explained:

* by a cause that lists it in ``suppresses`` and fired on a compatible origin: the same rank (on
  the same node, when both are known), or the same file when either line states no rank; a fact
  check (no origin) explains everywhere;
* or, for a rule marked ``peer_symptom`` (HCCL waits, timeouts and failed connections that every
  healthy rank prints when one peer is gone), by a specific error on *another* rank that did not
  happen after it (times compared as :mod:`triage.logformat.times` allows; without comparable
  times, causes come before symptoms), or by a wait of the very rank it names as its peer that did
  not happen after it (the chain of waits leads to where the cause must be);
* or, for a generic finding (a wrapper such as ``ERR00100`` or ``EZ9999``, or a code-dictionary
  lookup), by a specific error (a wait included) whose lines are in the same error block: the same file, from
  :data:`BLOCK_BEFORE` lines before the cause's first line to :data:`BLOCK_AFTER` lines after its
  last one (the codes CANN and torch_npu print around one failure are parts of it).

Origins are then joined into incidents: origins seen in one file, one rank seen in several files,
a symptom and the cause on another rank that explains it, a waiting rank and the peer it names,
and the ranks that all timed out with no cause found. Unrelated inputs stay separate incidents.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from triage.knowledge.rank import SPECIFIC
from triage.knowledge.schema import SEVERITIES
from triage.logformat.times import Clock, LineTime, parse_iso
from triage.scan.summary import SOrigin, STime

#: An error block around a specific cause: lines before its first line, and after its last one.
BLOCK_BEFORE = 10
BLOCK_AFTER = 40


@dataclass
class Item:
    """A finding before it is rendered: a rule's (or check's, or unexplained line's) occurrences."""

    id: str
    rule: object
    pack: str
    tier: int
    position: tuple[int, int]
    origins: list[SOrigin]
    suppresses: frozenset[str] = frozenset()
    peer_symptom: bool = False
    explained: dict[tuple, str] = field(default_factory=dict)
    suppressed_by: str | None = None
    #: the severity of the error-level finding this warning-level cause explains (see raise_causes)
    raised_to: str | None = None

    @property
    def error_level(self) -> bool:
        """Whether the rule itself is error-level (a raised cause is not: see :attr:`leads_as_error`)."""
        return self.rule.severity in SEVERITIES[:2]

    @property
    def leads_as_error(self) -> bool:
        """Error-level, or a warning-level cause raised by the error it explains."""
        return self.error_level or self.raised_to is not None

    @property
    def is_global(self) -> bool:
        return not self.origins


def line_time(t: STime | None) -> LineTime | None:
    """The :class:`LineTime` of a summary's time record."""
    if t is None:
        return None
    when = parse_iso(t.when)
    if when is None:
        return None
    return LineTime(when, t.family, parse_iso(t.local))


def compatible(cause: SOrigin, symptom: SOrigin) -> bool:
    """Whether ``cause`` and ``symptom`` are the same origin for suppression: the same rank on the
    same node (in another file only where a node is known: rank 0 of two unrelated services read
    together is two ranks), or the same file when either states no rank."""
    cr, sr = cause.origin.get("rank"), symptom.origin.get("rank")
    if cr is not None and sr is not None:
        cn, sn = cause.origin.get("node"), symptom.origin.get("node")
        if cn is None and sn is None:
            return cr == sr and cause.file == symptom.file
        return cr == sr and (cn is None or sn is None or cn == sn)
    return cause.file == symptom.file


def _not_after(clock: Clock, cause: SOrigin, symptom: SOrigin) -> bool:
    a = clock.comparable(line_time(cause.time))
    b = clock.comparable(line_time(symptom.time))
    if a is None or b is None:
        return True  # no comparable times: causes come before symptoms
    return a <= b


def in_block(cause: SOrigin, symptom: SOrigin) -> bool:
    """Whether every occurrence of ``symptom`` lies in the error block of ``cause`` (same file)."""
    return (cause.file == symptom.file and symptom.first_line >= cause.first_line - BLOCK_BEFORE
            and symptom.last_line <= cause.last_line + BLOCK_AFTER)


def explain(items: list[Item], clock: Clock) -> None:
    """Fill each item's ``explained`` ({origin key: cause id}) and ``suppressed_by``.

    ``items`` must be in rank order (as if nothing were suppressed); a cause acts only while it
    is not itself fully suppressed, so a cycle cannot hide both of its rules.
    """
    by_id = {it.id: it for it in items}
    for cause in items:
        if cause.suppressed_by is not None:
            continue
        targets = [by_id[t] for t in cause.suppresses if t in by_id and t != cause.id]
        # a specific error explains waits on other ranks; any specific error (a wait too) explains the
        # generic wrappers printed in its error block
        block_cause = cause.tier == 0 and cause.error_level and not cause.is_global
        peer_cause = block_cause and not cause.peer_symptom
        # a wait that names as its peer a rank that itself waited (rank 1's notify wait for rank 0, whose
        # task timed out first) is that wait's symptom: the chain leads to where the cause must be
        wait_cause = block_cause and cause.peer_symptom
        cause_ranks = {c.origin.get("rank") for c in cause.origins} - {None}
        if block_cause:
            targets += [it for it in items if (((peer_cause or wait_cause) and it.peer_symptom) or it.tier == 2)
                        and it is not cause and it.id not in cause.suppresses]
        for target in targets:
            if target.suppressed_by is not None:
                continue
            listed = target.id in cause.suppresses
            for o in target.origins:
                k = o.key()
                if k in target.explained:
                    continue
                if listed and (cause.is_global or any(compatible(c, o) for c in cause.origins)):
                    target.explained[k] = cause.id
                elif (target.peer_symptom and peer_cause and o.origin.get("rank") is not None
                      and any(c.origin.get("rank") not in (None, o.origin["rank"]) and _not_after(clock, c, o)
                              for c in cause.origins)):
                    target.explained[k] = cause.id
                elif (target.peer_symptom and wait_cause and o.peer is not None and o.peer in cause_ranks
                      and o.origin.get("rank") not in cause_ranks
                      and any(c.origin.get("rank") == o.peer and _not_after(clock, c, o) for c in cause.origins)):
                    target.explained[k] = cause.id
                elif target.tier == 2 and block_cause and any(in_block(c, o) for c in cause.origins):
                    target.explained[k] = cause.id
            if target.origins and all(o.key() in target.explained for o in target.origins):
                target.suppressed_by = Counter(target.explained.values()).most_common(1)[0][0]
            elif not target.origins and listed:  # a check's finding: explained as a whole
                target.suppressed_by = cause.id


class _Union:
    def __init__(self) -> None:
        self.parent: dict[tuple, tuple] = {}

    def find(self, k: tuple) -> tuple:
        self.parent.setdefault(k, k)
        while self.parent[k] != k:
            self.parent[k] = self.parent[self.parent[k]]
            k = self.parent[k]
        return k

    def join(self, a: tuple, b: tuple) -> None:
        ra, rb = self.find(a), self.find(b)
        if ra != rb:
            self.parent[max(ra, rb, key=repr)] = min(ra, rb, key=repr)


def incidents(items: list[Item], context_files: set[int] | frozenset[int] = frozenset()
              ) -> list[tuple[list[SOrigin], list[Item]]]:
    """Group origins into incidents: (the origins, the items with occurrences there), in the order
    of the best-ranked item of each (``items`` in final rank order).

    Joined: the origins of one file; one rank on one named node across files; a symptom and the cause on
    another rank that explains it; a waiting rank and the peer it names; the ranks that all timed
    out with no cause found; and the ranks that failed with the same specific error (one cause on
    every rank is one incident, not one per rank). Origins whose lines state no rank are never
    joined across files by a shared rule: unrelated logs stay apart. The origins in
    ``context_files`` (file indexes of environment files read beside the logs) join the incident of
    the best-ranked item seen elsewhere: they describe where that failure ran.
    """
    u = _Union()
    first: dict[tuple, SOrigin] = {}
    by_file: dict[int, tuple] = {}
    by_rank: dict[tuple, tuple] = {}
    ranks: dict[int, list[tuple]] = {}
    for it in items:
        for o in it.origins:
            k = o.key()
            u.find(k)
            first.setdefault(k, o)
            if o.file in by_file:
                u.join(by_file[o.file], k)
            else:
                by_file[o.file] = k
            rk = o.rank_key()
            # one rank across files only on a known node: rank 0 of two unrelated services is two ranks
            if rk is not None and rk[0] is not None:
                if rk in by_rank:
                    u.join(by_rank[rk], k)
                else:
                    by_rank[rk] = k
            if rk is not None:
                ranks.setdefault(rk[1], []).append(k)
    by_id = {it.id: it for it in items}
    waiting: list[tuple] = []
    for it in items:
        same_failure = [o.key() for o in it.origins if o.rank_key() is not None] if (
            it.tier == 0 and it.error_level and not it.peer_symptom) else []
        for a, b in zip(same_failure, same_failure[1:], strict=False):
            u.join(a, b)
        for o in it.origins:
            k = o.key()
            cause = it.explained.get(k)
            if cause is not None and cause in by_id:
                c = by_id[cause]
                same = [co for co in c.origins if compatible(co, o)]
                for co in same or c.origins:
                    u.join(k, co.key())
            if it.peer_symptom and o.peer is not None:  # a wait joins the rank it waited for
                for pk in ranks.get(o.peer, []):
                    u.join(k, pk)
            if it.peer_symptom and cause is None and o.origin.get("rank") is not None:
                waiting.append(k)
    for a, b in zip(waiting, waiting[1:], strict=False):
        u.join(a, b)
    if context_files:
        head = next((o.key() for it in items for o in it.origins if o.file not in context_files), None)
        if head is not None:
            for k in first:
                if first[k].file in context_files:
                    u.join(head, k)
    groups: dict[tuple, list[tuple]] = {}
    for k in first:
        groups.setdefault(u.find(k), []).append(k)
    root_of = {k: u.find(k) for k in first}
    members: dict[tuple, list[Item]] = {}
    for it in items:  # each item once per group, in rank order
        for g in dict.fromkeys(root_of[o.key()] for o in it.origins):
            members.setdefault(g, []).append(it)
    out = [([first[k] for k in sorted(keys, key=repr)], members.get(g, [])) for g, keys in groups.items()]
    order = {it.id: i for i, it in enumerate(items)}
    out.sort(key=lambda grp: min((order[it.id] for it in grp[1]), default=len(order)))
    return out


def raise_causes(items: list[Item]) -> None:
    """Give a warning- or info-level cause the severity of the most severe error it explains.

    A line logged as a warning can be the reason for a later error (triton-ascend's UserWarning that
    the BiSheng compiler is missing, then ``0 active drivers``): the rule stays severity warning, as its
    line alone is no failure, but once :func:`explain` has made a *specific* error its symptom, the cause
    leads as an error, so the report never says "no error found" over a suppressed error. A generic
    wrapper it explains does not raise it (the wrapper may belong to another failure, which then leads
    in its own words). Only the finding's severity and the headline change: incidents and the cluster
    view count the cause as an error only where it explains one (see ``verdict``).
    """
    by_id = {it.id: it for it in items}
    for symptom in items:
        cause = by_id.get(symptom.suppressed_by) if symptom.suppressed_by else None
        if (cause is None or not symptom.error_level or symptom.tier != SPECIFIC
                or cause.error_level):
            continue
        if cause.raised_to is None or SEVERITIES.index(symptom.rule.severity) < SEVERITIES.index(cause.raised_to):
            cause.raised_to = symptom.rule.severity
