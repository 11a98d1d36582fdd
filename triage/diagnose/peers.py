"""A peer wait tied to the earlier error of the rank it waited for: when the leading finding is a
wait (a ``peer_symptom`` rule) and an unexplained error line of the rank it names as its peer (or of
another rank) came a whole second or more before every occurrence of it, at most an hour before and
earlier in the file, that line leads and the waits become its symptoms."""

from __future__ import annotations

from datetime import datetime

from triage.diagnose.attempts import _before_restart
from triage.diagnose.links import Item, line_time
from triage.diagnose.ranks import _pid_key
from triage.logformat.times import Clock
from triage.scan.summary import SOrigin, STime, Summary, SUnrecognised
from triage.scan.unexplained import pick

_PEER_FAILURE_KINDS = frozenset({"python-exception", "plog-error", "error-code", "compile-error", "torch-log-error"})
#: How long before a wait its peer's failure may be (s): the longest default HCCL wait
#: (``HCCL_EXEC_TIMEOUT`` 1836 s; torch's process-group timeout 1800 s) with margin. An older error
#: belongs to another attempt or to nothing the wait saw.
PEER_WAIT_WINDOW = 3600


def _second(t: STime | None, clock: Clock) -> datetime | None:
    """``t`` on the local clock to the whole second (vLLM prints whole seconds, a plog fractions,
    c10 none that count), or None when it cannot be compared."""
    when = clock.comparable(line_time(t))
    return when.replace(microsecond=0) if when is not None else None


def _soon_after(later: STime | None, earlier: STime | None, clock: Clock) -> bool:
    """Whether ``later`` is at least a whole second and at most :data:`PEER_WAIT_WINDOW` after
    ``earlier`` (both known and comparable)."""
    a, b = _second(later, clock), _second(earlier, clock)
    return a is not None and b is not None and 1 <= (a - b).total_seconds() <= PEER_WAIT_WINDOW


def _waits_for(o: SOrigin, u: SUnrecognised, clock: Clock) -> bool:
    """Whether the wait occurrence ``o`` (a peer-symptom rule's) may have waited for the unexplained
    line ``u``: ``u`` states a rank (its own, or its pid's) and ``o`` names that rank as its peer or
    states another one; ``u`` came at least a whole second earlier (vLLM prints whole seconds, a plog
    fractions) and at most :data:`PEER_WAIT_WINDOW` earlier, and earlier in the file when both are in
    one file (a wait's time may come from a later occurrence); and both are in one file, or both on
    known nodes (rank 1 of two unrelated logs read together is two ranks)."""
    uo = u.origin or {}
    u_rank, o_rank = uo.get("rank"), o.origin.get("rank")
    if u_rank is None or not (o.peer == u_rank or (o_rank is not None and o_rank != u_rank)):
        return False
    if o.file == u.file:
        if not u.line < o.first_line:
            return False
    elif o.origin.get("node") is None or uo.get("node") is None:
        return False
    return _soon_after(o.time, u.time, clock)


def _waited_for(wait: Item, summary: Summary, clock: Clock, pid_rank: dict[tuple, int]) -> SUnrecognised | None:
    """The error a peer wait waited for, when no rule knows it: an unexplained error line that may
    have been waited for by every occurrence of ``wait`` (an HCCL timeout or failed link, a store or
    broadcast wait: a ``peer_symptom`` rule; see :func:`_waits_for`), the rank the wait names as its
    peer first, then the earliest (vllm-ascend#1565: rank 1's ``_pickle.UnpicklingError`` two minutes
    before rank 0's ``Transport init error ... dst_rank[1]``). A line whose rank came from its pid is
    passed over when several pids held that rank (a restart gave the rank to a new process). None
    when the wait has no occurrence or no line qualifies."""
    if not wait.origins:
        return None
    holders: dict[tuple, set[int]] = {}
    for k, r in pid_rank.items():
        holders.setdefault((k[0], k[1], r), set()).add(k[2])
    peers = {o.peer for o in wait.origins if o.peer is not None}

    def stale(u: SUnrecognised) -> bool:
        origin = u.origin or {}
        if origin.get("pid") is None:
            return False
        k = _pid_key(u.file, origin)
        return k in pid_rank and len(holders.get((k[0], k[1], pid_rank[k]), ())) > 1

    found = [u for u in summary.unrecognised
             if u.kind in _PEER_FAILURE_KINDS and not _before_restart(summary, u.file, u.line)
             and all(_waits_for(o, u, clock) for o in wait.origins) and not stale(u) and pick([u]) is not None]
    if not found:
        return None
    named = [u for u in found if (u.origin or {}).get("rank") in peers]
    found = named or found
    first = min(_second(u.time, clock) for u in found)
    return pick([u for u in found if _second(u.time, clock) == first])


def _explain_waits(items: list[Item], lead: Item, u: SUnrecognised, clock: Clock, wait: Item) -> None:
    """Mark the occurrences of the peer waits that followed ``u`` as explained by ``lead``: those of
    ``wait`` (the leading wait, which :func:`_waits_for` tied to ``u``) and, once that tie holds, those
    of the other waits that came after ``u`` in another process (:func:`_later_elsewhere`: EI0006 with
    only its pid beside the failed link that names the peer). A wait whose every occurrence is
    explained becomes its symptom."""
    for it in items:
        if not it.peer_symptom or it.suppressed_by is not None:
            continue
        for o in it.origins:
            if o.key() not in it.explained and (_waits_for(o, u, clock) if it is wait else
                                                _later_elsewhere(o, u, clock)):
                it.explained[o.key()] = lead.id
        if it.origins and all(o.key() in it.explained for o in it.origins):
            it.suppressed_by = lead.id


def _later_elsewhere(o: SOrigin, u: SUnrecognised, clock: Clock) -> bool:
    """Whether the wait occurrence ``o`` came after ``u`` (as :func:`_waits_for` times it) in the same
    file from another process: it states no rank or another one, and no pid or another one."""
    uo = u.origin or {}
    if o.file != u.file or not u.line < o.first_line:
        return False
    if o.origin.get("rank") == uo.get("rank") or (o.origin.get("pid") is not None
                                                  and o.origin.get("pid") == uo.get("pid")):
        return False
    return _soon_after(o.time, u.time, clock)
