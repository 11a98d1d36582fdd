"""Where a log line comes from: its node, global rank, data/tensor-parallel index, device and pid.

Read from the line itself (process tags and headers that torch, vLLM, torch_npu, CANN's plog,
``kubectl logs --prefix`` and ``docker compose`` print) and from the file it is in (``rank-3.log``,
``worker_3.log``, torchrun's ``--log-dir`` layout, ``device-N`` folders, a node's folder in a
bundle). Peer fields (``remote rank: [24]``, ``dstRank``, ``Waiting peer rank: 4``) name the peer,
never the line's own rank; HCCL's ``rankId[R]`` is local to its communicator and is kept with its
group, never taken as the global rank.

All functions are pure; they run only on lines a rule or detector flagged, so their cost is small.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace

#: The keys of an origin, in output order.
ORIGIN_KEYS = ("node", "rank", "dp", "tp", "device", "pid")


@dataclass(frozen=True)
class Origin:
    """Where a line comes from; each field None when unknown. ``rank`` is the global rank;
    ``dp`` / ``tp`` are data- and tensor-parallel indices when only those are known; ``group`` and
    ``group_rank`` are an HCCL communicator and the rank inside it."""

    node: str | None = None
    rank: int | None = None
    dp: int | None = None
    tp: int | None = None
    device: int | None = None
    pid: int | None = None
    group: str | None = None
    group_rank: int | None = None

    def merged(self, other: Origin) -> Origin:
        """This origin with the fields it lacks taken from ``other`` (the line wins over its file)."""
        changes = {}
        for name in _FIELDS:
            if getattr(self, name) is None:
                theirs = getattr(other, name)
                if theirs is not None:
                    changes[name] = theirs
        return replace(self, **changes) if changes else self

    def as_dict(self) -> dict:
        """The JSON form: the six keys always, the group keys only when known."""
        out = {k: getattr(self, k) for k in ORIGIN_KEYS}
        if self.group is not None or self.group_rank is not None:
            out["group"] = self.group
            out["group_rank"] = self.group_rank
        return out

    def label(self) -> str:
        """A short human label: ``node-1 rank 13``, ``rank 3``, ``tp 2``, or empty."""
        parts = []
        if self.node:
            parts.append(self.node)
        if self.rank is not None:
            parts.append(f"rank {self.rank}")
        else:
            if self.dp is not None:
                parts.append(f"dp {self.dp}")
            if self.tp is not None:
                parts.append(f"tp {self.tp}")
            if self.device is not None and not parts:
                parts.append(f"device {self.device}")
        return " ".join(parts)


EMPTY = Origin()
_FIELDS = tuple(f.name for f in fields(Origin))

_INT = r"(\d{1,6})"
# torch.distributed's per-rank prefix: "[rank3]: ..." (possibly after a docker timestamp, a pod tag or
# torchrun's "[default3]:")
_TORCH_RANK = re.compile(r"(?:^|[\s\]|:])\[rank" + _INT + r"\]:")
# Ray / vLLM process tags: (VllmWorker rank=3 pid=12), (RayWorkerWrapper pid=1, ip=10.0.0.2),
# (EngineCore_DP0 pid=626), (Worker_TP3_EP3 pid=9), (VllmWorker TP3 pid=7), (Worker_DP1_TP0 pid=3)
_TAG = re.compile(r"\(([A-Za-z_][\w.:-]{0,60})((?:,? [A-Za-z_]\w{0,20}=[^\s),]{1,100}){1,6})\)")
_TAG_FIELD = re.compile(r"([A-Za-z_]\w*)=([^\s),]+)")
_TAG_NAME_INDEX = re.compile(r"(?:^|_)(DP|TP|EP|PP)(\d{1,5})(?=_|$)")
_TAG_NAME_TP = re.compile(r"^VllmWorker\s*$")
_VLLM_WORKER_TP = re.compile(r"\(VllmWorker TP(\d{1,5}) pid=(\d+)\)")
# torch_npu's header: (PID:1234, Device:3, RankID:3)   RankID -1 means "not in a process group"
_TORCH_NPU = re.compile(r"\(PID:(\d+), Device:(-?\d+), RankID:(-?\d+)\)")
# CANN plog header: [ERROR] HCCL(60570,python3): / [ERROR] RUNTIME(1234,python):
_PLOG = re.compile(r"\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] [A-Za-z_][\w-]*\((\d+),[^)]*\):")
# CANN error-manager block: "EI0002: [PID: 159] 2025-..."
_PID_BRACKET = re.compile(r"\[PID: ?(\d+)\]")
# vLLM's rank assignment line, printed by each worker for itself (the rank is torch.distributed's)
_ASSIGNED = re.compile(r"\brank (\d{1,6}) in world size \d{1,6} is assigned as ")
# kubectl logs --prefix: [pod/vllm-0/vllm]; docker compose: "svc-1  | "
_KUBECTL = re.compile(r"^(?:\d{4}-\d\d-\d\dT\S+ )?\[pod/([^\]/\s]+)(?:/[^\]\s]*)?\] ")
# a compose service name has a digit, '-' or '_' (vllm-1, npu_worker): never a bare log level
_COMPOSE = re.compile(r"^(?!(?:ERROR|WARNING|WARN|INFO|DEBUG|CRITICAL|TRACE|FATAL)\s)"
                      r"([A-Za-z0-9][\w.-]{0,62}?)\s+\| ")
_COMPOSE_NAME = re.compile(r"[\d_-]")
# what may stand before a process tag at the start of a line: a docker/kubectl time, a pod or
# compose prefix, a torch rank prefix, ANSI colour
_TAG_LEAD = re.compile(r"^(?:\x1b\[[0-9;]*m|\d{4}-\d\d-\d\dT\S+ |\[pod/[^\]\s]+\] |[A-Za-z0-9][\w.-]{0,62}\s+\| |"
                       r"\[rank\d{1,6}\]: ?|\[default\d{1,6}\]: ?)*")
# an HCCL communicator and the rank inside it: "group:[hccl_world_group], rankId[3]" / "group[x] ... rank[3]"
_GROUP = re.compile(r"group(?:Name)?\s*[:=]?\s*\[([^\]]{1,200})\]")
_GROUP_RANK = re.compile(r"(?<![A-Za-z])(?:rankId|localRank|userRank)\s*[:=]?\s*\[?(\d{1,6})\]?")
# the line's own host (a peer's `host=` is not: only these names)
_HOST_FIELD = re.compile(r"(?:\bnode_ip|\bhostname)=([\w.:-]{1,100})")
# the peer a line names (not its own rank)
_PEER = re.compile(
    r"(?:remote ?rank(?:Id)?|dst_?[Rr]ank|peer ?rank|remoteUserRank|Waiting peer rank)\s*[:=]?\s*\[?\s*(\d{1,6})\]?",
    re.IGNORECASE)
# "Failed to connect agent[1,3,5,7]": ranks that never joined
_MISSING_AGENTS = re.compile(r"[Ff]ailed to connect agent\[([\d,\s]{1,2000})\]")


def _int(text: str | None) -> int | None:
    if text is None:
        return None
    try:
        value = int(text)
    except ValueError:
        return None
    return value if value >= 0 else None


def origin_of_line(raw: str) -> Origin:
    """The origin fields a line states about itself (an empty :class:`Origin` when none)."""
    node = rank = dp = tp = device = pid = group_rank = None
    group = None
    m = _KUBECTL.match(raw) if "[pod/" in raw[:60] else None
    if m:
        node = m.group(1)
    elif "| " in raw[:70]:
        m = _COMPOSE.match(raw)
        if m and _COMPOSE_NAME.search(m.group(1)):
            node = m.group(1)
    if "[rank" in raw:
        m = _TORCH_RANK.search(raw)
        if m:
            rank = int(m.group(1))
    # a process tag starts the line (after its time/pod/compose/rank prefixes): "(VllmWorker rank=3 pid=1)"
    paren = _lead_paren(raw)
    if paren >= 0 and "=" in raw[paren:paren + 200]:
        m = _TAG.match(raw, paren)
        if m:
            name, rest = m.group(1), m.group(2)
            values = dict(_TAG_FIELD.findall(rest))
            if "rank" in values and rank is None:
                rank = _int(values["rank"])
            if "pid" in values:
                pid = _int(values["pid"])
            if "ip" in values and node is None:
                node = values["ip"]
            for kind, index in _TAG_NAME_INDEX.findall(name):
                if kind == "DP" and dp is None:
                    dp = int(index)
                elif kind == "TP" and tp is None:
                    tp = int(index)
        elif raw.startswith("TP", paren + 12):
            m = _VLLM_WORKER_TP.match(raw, paren)
            if m:
                tp, pid = int(m.group(1)), int(m.group(2))
    if "PID:" in raw:
        m = _TORCH_NPU.search(raw)
        if m:
            pid = int(m.group(1)) if pid is None else pid
            device = _int(m.group(2))
            if rank is None:
                rank = _int(m.group(3))
    if pid is None:
        head = raw[:200]
        if "] " in head and "(" in head:
            m = _PLOG.search(head)
            if m:
                pid = int(m.group(1))
        if pid is None and "[PID:" in head:
            m = _PID_BRACKET.search(head)
            if m:
                pid = int(m.group(1))
    if "group" in raw and "ank" in raw:
        m = _GROUP.search(raw)
        if m:
            group = m.group(1).strip()
            g = _GROUP_RANK.search(raw)
            if g:
                group_rank = int(g.group(1))
    if node is None and ("hostname=" in raw or "node_ip=" in raw):
        m = _HOST_FIELD.search(raw)
        if m:
            node = m.group(1)
    if (node is None and rank is None and dp is None and tp is None and device is None and pid is None
            and group is None and group_rank is None):
        return EMPTY
    return Origin(node, rank, dp, tp, device, pid, group, group_rank)


def _lead_paren(raw: str) -> int:
    """Where the line's own process tag (``(VllmWorker rank=3 pid=1)``) may start: the first
    parenthesis within 160 characters when only time/pod/compose/rank prefixes come before it; -1
    otherwise (a parenthesis later in the message, ``(peer rank=5)``, is not the line's tag)."""
    paren = raw.find("(", 0, 160)
    if paren > 0 and _TAG_LEAD.match(raw).end() != paren:
        return -1
    return paren


def pid_rank_of_line(raw: str) -> tuple[int, int] | None:
    """(pid, global rank) when the line's own process states both: torch_npu's ``(PID:77120,
    Device:5, RankID:5)``; a process tag ``(VllmWorker rank=5 pid=77120)`` leading the line; or a
    leading tag with the pid on vLLM's own rank assignment line, ``(VllmWorkerProcess pid=176981)
    INFO ... rank 1 in world size 2 is assigned as DP rank 0, ...`` (printed by each worker for
    itself: vllm ``distributed/parallel_state.py``, and vllm-ascend's ``vllm-ascend: rank %s in
    world size %s is assigned as``). A pid and a rank from different places (a Ray relay tag's pid
    beside a relayed ``[rank5]:`` or torch_npu header) are no pair: the relay prints for other
    processes; a Ray actor's tag, ``(RayWorkerWrapper pid=1, ip=...)``, is the printing actor's own."""
    if "PID:" in raw:
        m = _TORCH_NPU.search(raw)
        if m and _int(m.group(3)) is not None:
            return int(m.group(1)), int(m.group(3))
    paren = _lead_paren(raw)
    if paren < 0:
        return None
    m = _TAG.match(raw, paren)
    if m:
        values = dict(_TAG_FIELD.findall(m.group(2)))
        pid, rank, end = _int(values.get("pid")), _int(values.get("rank")), m.end()
    else:
        w = _VLLM_WORKER_TP.match(raw, paren)
        if w is None:
            return None
        pid, rank, end = int(w.group(2)), None, w.end()
    if pid is not None and rank is None and "in world size" in raw:
        a = _ASSIGNED.search(raw, end)
        rank = int(a.group(1)) if a else None
    return (pid, rank) if pid is not None and rank is not None else None


def peer_of_line(raw: str) -> int | None:
    """The peer rank a line names (``remote rank: [24]``, ``dstRank[1]``, ``Waiting peer rank: 4``)."""
    low = raw.lower()
    if "remote" not in low and "dst" not in low and "peer" not in low:
        return None  # every form names one of these words; the caseless search costs ~10x this test
    m = _PEER.search(raw)
    return int(m.group(1)) if m else None


def missing_agents(raw: str) -> list[int]:
    """Ranks a line says never connected (``Failed to connect agent[1,3,5,7]``)."""
    m = _MISSING_AGENTS.search(raw)
    if not m:
        return []
    return [int(x) for x in re.findall(r"\d+", m.group(1))][:4096]


# -- from the file's path --------------------------------------------------------------------------

_FILE_RANK = re.compile(
    r"(?:^|[/_.-])(?:rank|worker|proc|process)[_-]?(\d{1,6})(?=[._/-]|$)", re.IGNORECASE)
_DEVICE_DIR = re.compile(r"(?:^|/)device[-_](\d{1,4})(?:/|$)")
# torchrun --log-dir: <dir>/<run_id>/attempt_<n>/<local_rank>/{stdout,stderr}.log
_TORCHRUN = re.compile(r"(?:^|/)attempt_\d+/(\d{1,6})/(?:stdout|stderr|error)\.(?:log|json)$")
#: Folder names inside an Ascend log bundle that are never nodes.
ASCEND_LOG_DIRS = re.compile(
    r"^(?:debug|run|plog|log|logs|device-?\d+|device|slog|operation|security|stackcore|coredump|"
    r"profiling|dump|message|ascend|npu|hccl|environment_check|msnpureport|asys.*|mindie.*|"
    r"attempt_\d+|\d+|rank[-_]?\d+|worker[-_]?\d+|kernel|driver|host|bmc|lcne|dl_log|mindx.*)$",
    re.IGNORECASE)


def origin_of_path(path: str | None) -> Origin:
    """Origin fields a file's path states: the rank (file or folder name) and the device folder."""
    if not path:
        return EMPTY
    p = path.replace("\\", "/")
    rank = device = None
    m = _TORCHRUN.search(p)
    if m:
        rank = int(m.group(1))
    else:
        name = p.rsplit("/", 1)[-1]
        m = _FILE_RANK.search(name) or _FILE_RANK.search(p)
        if m:
            rank = int(m.group(1))
    m = _DEVICE_DIR.search(p)
    if m:
        device = int(m.group(1))
    if rank is None and device is None:
        return EMPTY
    return Origin(rank=rank, device=device)
