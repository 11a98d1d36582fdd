"""Many nodes: the map step as Ray tasks, the reduce step on the driver (``pip install 'triage[ray]'``).

One Ray task per input path reads it where it is readable and returns its
:class:`~triage.scan.summary.Summary`; the driver merges the summaries in path order and builds the
report, so the result is the same report as analysing every path at once on one machine. A path
on a shared filesystem runs on any node; ``NODE_IP:PATH`` pins the task to the node whose IP is
``NODE_IP`` (a node-local path such as ``10.0.0.2:/var/log/npu``). Every node needs triage
installed (the same version, for the same rules: a rules-digest mismatch is noted in the report).

The cluster is ``address`` (``--ray-address``), else ``RAY_ADDRESS``, else a local Ray started
for the run. vLLM's multi-node Ascend deployments already run on Ray, so its cluster can be used.
"""

from __future__ import annotations

import os
import re
from collections.abc import Sequence
from pathlib import Path

from triage.errors import UsageError
from triage.report.models import Report
from triage.scan.summary import Summary

_PINNED = re.compile(r"^(\d{1,3}(?:\.\d{1,3}){3}|\[[0-9a-fA-F:]+\]):(/.*)$")


def _ray():
    try:
        import ray
    except ImportError:
        raise UsageError("--ray needs Ray: pip install 'triage[ray]'") from None
    return ray


def split_pinned(path: str) -> tuple[str | None, str]:
    """``("10.0.0.2", "/var/log")`` for ``10.0.0.2:/var/log``; ``(None, path)`` otherwise."""
    m = _PINNED.match(path)
    if m and not Path(path).exists():
        return m.group(1).strip("[]"), m.group(2)
    return None, path


def _summarize_task(path: str, packs: list[str], disable: list[str], node_level: int | None, as_text: bool,
                    node: str | None) -> Summary:
    """The body of a Ray task: the summary of one path on the node that runs it. A path that
    cannot be read is an input error in the summary (as in a local analysis), not a failed task."""
    from triage.errors import InputError
    from triage.knowledge.loader import entry_point_packs, load_rules, user_packs_from_env
    from triage.run.steps import summarize
    from triage.scan.summary import SInputError

    rules = load_rules([*entry_point_packs(), *user_packs_from_env(), *packs], disabled=disable)
    try:
        return summarize(path, rules=rules, jobs=1, node_level=node_level, node=node, as_text=as_text)
    except InputError as exc:
        return Summary(rules_digest=rules.digest, host=node,
                       input_errors=[SInputError(file=path, message=str(exc))])


def ray_summaries(paths: Sequence[str], *, rules: Sequence[str | Path] | None = None,
                  disable: Sequence[str] | None = None, address: str | None = None, node_level: int | None = None,
                  as_text: bool = False) -> list[Summary]:
    """The summaries of ``paths``, one Ray task each, in the order of ``paths``.

    ``rules`` are extra rule packs (paths every node can read); ``disable`` rule ids to silence.
    Connects to ``address`` / ``RAY_ADDRESS`` or starts a local Ray unless Ray is already
    initialised in this process. Raises :class:`~triage.errors.UsageError` when Ray is not
    installed or a pinned node IP is not in the cluster.
    """
    ray = _ray()
    if not ray.is_initialized():
        ray.init(address=address or os.environ.get("RAY_ADDRESS") or None, include_dashboard=False,
                 log_to_driver=False, ignore_reinit_error=True)
    task = ray.remote(_summarize_task)
    nodes = {n["NodeManagerAddress"]: n["NodeID"] for n in ray.nodes() if n.get("Alive")}
    refs = []
    from triage.inputs.bundle import named_nodes

    named = named_nodes([split_pinned(raw)[1] for raw in paths]) if node_level is None else {}
    for raw in paths:
        ip, path = split_pinned(raw)
        options = {}
        if ip is not None:
            if ip not in nodes:
                raise UsageError(f"{raw}: no live Ray node has the address {ip} (nodes: {', '.join(sorted(nodes))})")
            from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

            options["scheduling_strategy"] = NodeAffinitySchedulingStrategy(node_id=nodes[ip], soft=False)
        refs.append(task.options(**options).remote(path, [str(p) for p in rules or []], list(disable or []),
                                                   node_level, as_text, ip or named.get(path)))
    return list(ray.get(refs))


def analyze_on_ray(paths: Sequence[str], *, rules: Sequence[str | Path] | None = None,
                   disable: Sequence[str] | None = None, address: str | None = None, node_level: int | None = None,
                   lang: str | None = None) -> Report:
    """The report of ``paths`` read by Ray tasks (see :func:`ray_summaries`) and merged here: the
    same report as :func:`triage.analyze` of the same paths on one machine."""
    from triage.knowledge.loader import entry_point_packs, load_rules, user_packs_from_env
    from triage.run.steps import merge

    summaries = ray_summaries(paths, rules=rules, disable=disable, address=address, node_level=node_level)
    local = load_rules([*entry_point_packs(), *user_packs_from_env(), *(rules or [])], disabled=list(disable or []))
    return merge(summaries, rules=local, lang=lang)
