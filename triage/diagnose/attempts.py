"""Restarts: the findings of earlier attempts of a service (before its last start-up line) apart
from those of the last attempt."""

from __future__ import annotations

from triage.diagnose.links import Item
from triage.knowledge.rank import rank_key
from triage.scan.summary import Summary


def _before_restart(summary: Summary, file: int, line: int) -> bool:
    """Whether ``line`` of input ``file`` belongs to an attempt before the file's last restart."""
    restarts = summary.files[file].restarts if file < len(summary.files) else []
    return bool(restarts) and line < max(restarts)


def _split_attempts(items: list[Item], summary: Summary, files: list[str | None]
                    ) -> tuple[list[Item], list, list[Item]]:
    """Keep the findings of each log's last attempt; list the earlier attempts (a log in which the
    service restarted after a failure: ``kubectl logs --previous``, a crash-looping pod).

    A rule whose every occurrence lies before its file's last restart belongs to an earlier attempt:
    it is left out of the ranking and listed with that attempt (by the segment of its first line).
    Returns the items kept, the attempts, and the items of the earlier attempts.
    """
    from triage.report.models import Attempt

    if not any(f.restarts for f in summary.files):
        return items, [], []
    keep, earlier = [], []
    for it in items:
        if it.origins and it.pack != "compat" and all(_before_restart(summary, o.file, o.last_line)
                                                       for o in it.origins):
            earlier.append(it)
        else:
            keep.append(it)
    segments: dict[tuple[int, int], list[Item]] = {}
    for it in earlier:
        for o in it.origins:
            starts = [1, *sorted(summary.files[o.file].restarts)]
            # every attempt whose lines overlap this origin's first..last occurrence
            for k, start in enumerate(starts[:-1]):
                end = starts[k + 1] - 1
                if o.first_line <= end and o.last_line >= start:
                    members = segments.setdefault((o.file, start), [])
                    if it not in members:
                        members.append(it)
    attempts = []
    for (file, start), members in sorted(segments.items()):
        restarts = sorted(summary.files[file].restarts)
        end = next((r - 1 for r in restarts if r > start), summary.files[file].lines)
        members.sort(key=lambda it: rank_key(it.rule, it.position, False, it.tier))
        root = next((it.id for it in members if it.error_level), None)
        attempts.append(Attempt(file=files[file], first_line=start, last_line=end, root_cause=root,
                                findings=[it.id for it in members]))
    return keep, attempts, earlier


def latest_root(attempts: list, earlier: list[Item]) -> Item | None:
    """The root cause of the latest earlier attempt that has one (the last one in the last file
    that restarted), as the item to rank when the last attempt shows no failure of its own."""
    for attempt in reversed(attempts):
        if attempt.root_cause is not None:
            return next((it for it in earlier if it.id == attempt.root_cause), None)
    return None
