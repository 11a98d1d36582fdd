"""The cluster verdict: which rank and node failed first and how, which ranks show which symptom,
whether every rank failed the same way, and the ranks the evidence points at though they printed
no cause (missing from a communicator, silent while the others timed out, the peer they waited
for). Follows the reasoning of the HCCL fault-diagnosis guide (hicann/hccl
``docs/zh/user_guide/fault_diagnosis``).
"""

from __future__ import annotations

from collections import Counter

from triage.diagnose.links import Item, line_time
from triage.logformat.origin import missing_agents
from triage.logformat.times import Clock, iso
from triage.report.models import Cluster, ClusterSymptom, FirstFailure, Suspect

#: Suspect ranks listed at most (a world of thousands of silent ranks is summarised by the first).
MAX_SUSPECTS = 64


def _rank_origins(items: list[Item]) -> dict[tuple, dict]:
    out: dict[tuple, dict] = {}
    for it in items:
        for o in it.origins:
            r = o.origin.get("rank")
            if r is not None:
                out.setdefault((o.origin.get("node"), r), o.origin)
    return out


def verdict(items: list[Item], root: Item | None, files: list[str | None], clock: Clock,
            world_size: int | None, seen: list[dict] | None = None) -> Cluster | None:
    """The verdict over the ranks and nodes of ``items`` (in final rank order) and of the other
    origins ``seen`` (unexplained lines, the inputs' nodes), or None when the input shows fewer
    than two ranks and fewer than two nodes."""
    ranked = _rank_origins(items)
    for o in seen or []:
        if o.get("rank") is not None:
            ranked.setdefault((o.get("node"), o["rank"]), o)
    # a rank seen without a node and on exactly one node is that one rank (the node came from the
    # path or a prefix some of its lines carry), not two
    for node, rank in [k for k in ranked if k[0] is None]:
        if sum(1 for n, r in ranked if r == rank and n is not None) == 1:
            del ranked[(node, rank)]
    nodes = sorted({o.origin["node"] for it in items for o in it.origins if o.origin.get("node")}
                   | {o["node"] for o in seen or [] if o.get("node")})
    if len(ranked) < 2 and len(nodes) < 2:
        return None
    all_ranks = sorted({r for _, r in ranked})
    pairs = set(ranked)  # (node, rank): rank 0 of node-1 and rank 0 of node-2 are two ranks
    # the first failure: the earliest occurrence of a cause (specific, error-level, not a wait)
    causes = [it for it in items if it.tier == 0 and it.error_level and not it.peer_symptom and it.origins]
    first = None
    best_time = None
    for it in causes:
        for o in it.origins:
            when = clock.comparable(line_time(o.time))
            if when is not None and (best_time is None or when < best_time):
                first, best_time = (it, o), when
    # when every finding is a wait (no cause on any rank here), no wait is named the first failure
    waits_only = not causes and root is not None and root.peer_symptom
    if first is None and root is not None and root.origins and not waits_only:
        first = (root, min(root.origins, key=lambda o: (o.file, o.first_line)))
    first_failure = None
    if first is not None:
        it, o = first
        first_failure = FirstFailure(node=o.origin.get("node"), rank=o.origin.get("rank"), rule_id=it.id,
                                     file=files[o.file] if o.file < len(files) else None, line=o.first_line,
                                     time=iso(clock.comparable(line_time(o.time))))
    symptoms = []
    for it in items:
        if not it.explained:
            continue
        ranks = sorted({o.origin["rank"] for o in it.origins
                        if o.origin.get("rank") is not None and o.key() in it.explained})
        snodes = sorted({o.origin["node"] for o in it.origins if o.origin.get("node") and o.key() in it.explained})
        cause = Counter(it.explained.values()).most_common(1)[0][0]
        symptoms.append(ClusterSymptom(rule_id=it.id, ranks=ranks, nodes=snodes, caused_by=cause))
    common = False
    if root is not None:
        root_pairs = {o.rank_key() for o in root.origins if o.rank_key() is not None}
        expected = world_size if world_size else len(pairs)
        common = bool(root_pairs) and len(root_pairs) >= expected
    suspects: dict[int, Suspect] = {}
    reporting = set(all_ranks)
    only_waits = not causes and any(it.peer_symptom for it in items)
    if only_waits and world_size and world_size > len(reporting):
        for r in range(world_size):
            if len(suspects) >= MAX_SUSPECTS:
                break
            if r not in reporting:
                suspects[r] = Suspect(rank=r, why="printed nothing while every other rank timed out waiting")
    for it in items:
        for o in it.origins:
            for r in missing_agents(o.first_text):
                if r not in suspects and len(suspects) < MAX_SUSPECTS:
                    suspects[r] = Suspect(rank=r, why=f"never joined the communicator ({it.id})")
            # a wait already explained by a failure elsewhere (the first failure) names no suspect: in a
            # ring every rank waits for its neighbour, healthy or not
            if (it.peer_symptom and o.peer is not None and o.peer not in suspects and len(suspects) < MAX_SUSPECTS
                    and o.key() not in it.explained):
                peer_failed = any(c.origins and any(co.origin.get("rank") == o.peer for co in c.origins)
                                  for c in causes)
                if not peer_failed:
                    suspects[o.peer] = Suspect(rank=o.peer, why=f"the peer rank {o.origin.get('rank')} waited for "
                                                                f"({it.id})")
    return Cluster(origins=len(pairs) or len(nodes), world_size=world_size, first_failure=first_failure,
                   symptoms=symptoms, common=common, waits_only=waits_only, ranks=all_ranks, nodes=nodes,
                   suspects=sorted(suspects.values(), key=lambda s: s.rank))
