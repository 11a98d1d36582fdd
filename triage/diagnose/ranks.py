"""The rank of a line: stated on it, paired with its pid by another line of its process, or the
rank of its file (its HCCL communicator, or a tensor parallel index when the job is one group)."""

from __future__ import annotations

from triage.diagnose.facts import MergedFacts
from triage.logformat.origin import pid_rank_of_line
from triage.scan.summary import SHits, SOrigin, Summary


def _file_ranks(summary: Summary, world: str | None) -> dict[int, int]:
    """{file index: global rank} of the files whose process stated its rank in a communicator of the
    world's size (``[HcclCommInitRootInfo] rank[13] rankSize[16]`` in a plog file). The world size is
    the fact when the input states it, else the largest communicator seen; a communicator larger than
    the fact says the fact came from a smaller group (a plog's first ``rankSize``), and wins."""
    sizes = [f.comm_rank[1] for f in summary.files if f.comm_rank]
    if not sizes:
        return {}
    n = max(sizes)
    if world and world.isdigit() and len(world) <= 7:
        n = max(n, int(world))
    return {i: f.comm_rank[0] for i, f in enumerate(summary.files)
            if f.comm_rank and f.comm_rank[1] == n and not f.comm_conflict}


def _pid_key(file: int, origin: dict) -> tuple:
    """Where a pid names one process: on its node when the node is known (a bundle's plog and stdout
    files of one host share pids), else only in its own file (two hosts' files may reuse a pid)."""
    node = origin.get("node")
    return ("node", node, origin["pid"]) if node is not None else ("file", file, origin["pid"])


def _pid_ranks(summary: Summary) -> dict[tuple, int]:
    """{:func:`_pid_key`: global rank} learned from the kept lines where one construct states both a
    pid and a rank (:func:`~triage.logformat.origin.pid_rank_of_line`: torch_npu's ``(PID:77120,
    Device:5, RankID:5)``, ``(VllmWorker rank=5 pid=77120)``), so a line of the same process that
    states only its pid (a CANN plog line ``RUNTIME(77120,python)``, ``EE9999: [PID: 77120]``) gets
    that rank. Kept lines: each rule's first line per origin, its evidence lines, the unexplained
    lines; and the pairs each file's vLLM rank assignment lines stated (:attr:`SFile.pid_ranks`). A pid
    seen with two ranks (reused after a restart) maps to none."""
    seen: dict[tuple, int | None] = {}

    def note(file: int, origin: dict | None, text: str) -> None:
        got = pid_rank_of_line(text) if "pid" in text.lower() else None
        if got is None:
            return
        pair(file, origin, *got)

    def pair(file: int, origin: dict | None, pid: int, rank: int) -> None:
        k = _pid_key(file, {**(origin or {}), "pid": pid})
        if k in seen and seen[k] != rank:
            seen[k] = None
        else:
            seen.setdefault(k, rank)

    for h in summary.hits:
        for o in h.origins:
            note(o.file, o.origin, o.first_text)
        for e in [e for occ in h.occurrences for e in occ] + list(h.last_occurrence or []):
            note(e.file, e.origin, e.text)
    for u in summary.unrecognised:
        note(u.file, u.origin, u.text)
    for i, f in enumerate(summary.files):
        for pid, rank, node in f.pid_ranks:
            pair(i, {"node": node}, pid, rank)
    return {k: r for k, r in seen.items() if r is not None}


def _tp_is_world(summary: Summary, facts: MergedFacts) -> bool:
    """Whether a worker's tensor parallel index is its global rank: the input is one log of a job
    that is one tensor parallel group. The log states a tensor parallel size above 1, no data
    parallel size above 1, and either a world size equal to it, or no world size, no pipeline parallel
    size above 1 and no data parallel index but 0; and no kept line states a rank and a tp index that
    differ. vLLM then tags workers by tp index only (``(VllmWorker TP1 pid=21355)``, ``Worker_TP2_EP2``).
    Several inputs never qualify: two services' logs read together each have a TP1."""
    if len(summary.files) != 1:
        return False
    tp, world, pp, dp = (facts.value(n) for n in ("tensor_parallel_size", "world_size", "pipeline_parallel_size",
                                                  "data_parallel_size"))
    if not (tp and tp.isdigit() and int(tp) > 1) or (dp and (not dp.isdigit() or int(dp) > 1)):
        return False
    if world:
        if not (world.isdigit() and int(world) == int(tp)):
            return False
    elif pp and pp.isdigit() and int(pp) > 1:
        return False
    origins = [o.origin for h in summary.hits for o in h.origins] + [u.origin or {} for u in summary.unrecognised]
    for o in origins:
        if (not world and o.get("dp") not in (None, 0)) or (
                o.get("rank") is not None and o.get("tp") is not None and o["rank"] != o["tp"]):
            return False
    return True


def _rank_of(file: int, origin: dict | None, file_rank: dict[int, int], pid_rank: dict[tuple, int],
             tp_world: bool = False) -> int | None:
    """The rank a line that states none gets: its file's (:func:`_file_ranks`), else its pid's
    (:func:`_pid_ranks`), else its tp index when the job is one tensor parallel group
    (:func:`_tp_is_world`); None when it states one or none is known."""
    origin = origin or {}
    if origin.get("rank") is not None:
        return None
    if file in file_rank:
        return file_rank[file]
    if origin.get("pid") is not None and (r := pid_rank.get(_pid_key(file, origin))) is not None:
        return r
    return origin.get("tp") if tp_world else None


def _hits_with_file_rank(h: SHits, file_rank: dict[int, int], pid_rank: dict[tuple, int] | None = None,
                         tp_world: bool = False) -> SHits:
    """``h`` with a rank on the origins and evidence lines that state none (:func:`_rank_of`), so the
    finding's ``ranks``, its evidence and the cluster verdict agree.

    A rank-less origin entry stands for all of a file's rank-less occurrences; it takes its pid's rank
    or tp index only when all of them came from that one pid (``mixed_pids`` is false). Entries that
    come to share a rank are joined (:meth:`~triage.scan.summary.SOrigin.joined`)."""
    pid_rank = pid_rank or {}
    if not file_rank and not pid_rank and not tp_world:
        return h

    def with_rank(o, rank: int | None):
        return o if rank is None else o.model_copy(update={"origin": {**(o.origin or {}), "rank": rank}})

    def entry_rank(o: SOrigin) -> int | None:
        if o.file not in file_rank and o.mixed_pids:
            return None  # the entry counts several processes' lines: no one tp or pid speaks for them
        return _rank_of(o.file, o.origin, file_rank, pid_rank, tp_world)

    merged: dict[tuple, SOrigin] = {}
    for o in (with_rank(o, entry_rank(o)) for o in h.origins):
        have = merged.get(o.key())
        merged[o.key()] = o if have is None else have.joined(o)

    def line(e):
        return with_rank(e, _rank_of(e.file, e.origin, file_rank, pid_rank, tp_world))

    return h.model_copy(update={
        "origins": list(merged.values()),
        "occurrences": [[line(e) for e in occ] for occ in h.occurrences],
        "last_occurrence": [line(e) for e in h.last_occurrence] if h.last_occurrence else h.last_occurrence})
