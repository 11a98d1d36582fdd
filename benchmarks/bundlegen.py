"""Deterministic, realistic multi-node log bundles for the tests and the benchmark.

A bundle is what gets collected after a failed multi-node vLLM / vllm-ascend deployment: N nodes x M
ranks (global rank = node * M + local rank, device = local rank) of vLLM worker, torch_npu and CANN
output, in one of the folder layouts real bundles have:

* ``ranks``: ``node-K/rank-R.log``, one file per rank (the worker's stdout and stderr, CANN's plog
  lines printed to stdout as with ``ASCEND_SLOG_PRINT_TO_STDOUT=1``);
* ``plog``: ``node-K/worker-R.log`` (the Python side) and ``node-K/plog/device-D/plog-PID.log``
  (CANN's plog of that rank's process, ``[LEVEL] MODULE(PID,python3):YYYY-MM-DD-HH:MM:SS.mmm.uuu``);
* ``interleaved``: one file in which all ranks' lines are mixed in time order, each with its
  ``(VllmWorker rank=R pid=P)`` prefix (torch's c10 lines with ``[rankR]:``), as ``docker logs`` of a
  single-container multi-rank job shows them.

Every rank prints a healthy start-up (plugin and version lines, ``rank R in world size W is assigned
as ...``, weight loading and memory profiling figures), then serving noise whose timestamps advance
to the failure time T0. One chosen rank (by default not the first file: rank 13 of 2 x 8) fails at
T0 with REAL lines: the ``examples.match`` excerpts of the cause's rule from the rule base, their own
headers stripped and re-wrapped with this rank's header, pid, device and time. The other ranks show
what real incidents show afterwards, at T0 + 30..1800 s: the EI0002 notify-wait timeout of
``hccl.notify-wait-timeout`` naming the failed rank as the remote rank (as in an all-to-all), the
torch_npu HCCL watchdog of ``hccl.watchdog-exception``; the API server on rank 0 relays an
``EngineDeadError`` a few seconds after T0.

Variants: ``common=True`` (every rank fails with the same cause within seconds: an OOM from a
config), ``silent=[ranks]`` (those ranks print nothing after their start-up and serving lines; the
others time out waiting for them; there is no cause), and :func:`make_unrelated` (two unrelated
logs with different causes and no ranks). :func:`crashloop_log` and :func:`serving_log` write a
single log that restarts every few thousand lines and a serving log of the same size (benchmark).

Everything is a pure function of the arguments and ``seed``; :class:`Truth` says what was planted.

    python benchmarks/bundlegen.py /tmp/b --nodes 2 --ranks 8 --first-rank 13 --cause hw.hbm-multi-bit-ecc
"""

from __future__ import annotations

import argparse
import heapq
import json
import random
import re
import sys
from collections.abc import Iterator, Sequence
from dataclasses import asdict, dataclass, field
from datetime import datetime, timedelta
from pathlib import Path

GEN_VERSION = "1"
START = datetime(2025, 6, 1, 10, 0, 0)
#: Causes known to have log-line examples (any rule id works: its examples are used as they are).
CAUSES = ("hw.hbm-multi-bit-ecc", "memory.npu-oom-caching-allocator", "hw.network-port-down",
          "op.vector-core-exception")
#: Examples of a rule that are not log lines (a title in prose): left out.
_SKIP_EXAMPLE = re.compile(r"^[A-Z][\w.-]+ [a-z].* fails at |quay\.io/")
SYMPTOMS = ("hccl.notify-wait-timeout", "hccl.watchdog-exception")
WRAPPERS = ("generic.engine-dead-error",)
VERSIONS = {"vllm": "0.10.1.1", "vllm_ascend": "0.10.1rc1", "torch": "2.7.1", "torch_npu": "2.7.1.dev20250724",
            "transformers": "4.55.2", "cann": "8.2.RC1"}
MODEL = "/models/Qwen3-235B-A22B"


@dataclass
class Truth:
    """What a generated bundle holds: the answer the report should give."""

    root: str
    layout: str
    nodes: int
    ranks_per_node: int
    world_size: int | None
    first_rank: int | None
    first_node: str | None
    cause: str | None
    t0: str | None
    symptoms: list[str] = field(default_factory=list)
    symptom_ranks: list[int] = field(default_factory=list)
    wrappers: list[str] = field(default_factory=list)
    common: bool = False
    silent: list[int] = field(default_factory=list)
    causes: dict[str, str] = field(default_factory=dict)  # file -> cause, for unrelated logs
    files: list[str] = field(default_factory=list)
    nodes_files: dict[str, list[str]] = field(default_factory=dict)  # node -> its files
    bytes: int = 0
    lines: int = 0

    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=1)


# ----------------------------------------------------------------------------------------- time
class _Stamp:
    """Timestamp texts of one instant, cached by the second (a line costs a dict lookup)."""

    def __init__(self) -> None:
        self._sec: int | None = None
        self._parts: tuple[str, str, str] = ("", "", "")

    def parts(self, t: float) -> tuple[str, str, str, int]:
        """(vLLM ``MM-DD HH:MM:SS``, plog ``YYYY-MM-DD-HH:MM:SS``, torch c10 ``MDD HH:MM:SS``, micros)."""
        sec = int(t)
        if sec != self._sec:
            d = START + timedelta(seconds=sec)
            hms = f"{d.hour:02d}:{d.minute:02d}:{d.second:02d}"
            # torch's c10 logger prints the month unpadded: [E601 ...] is June 1, [E1014 ...] October 14
            self._parts = (f"{d.month:02d}-{d.day:02d} {hms}", f"{d.year}-{d.month:02d}-{d.day:02d}-{hms}",
                           f"{d.month}{d.day:02d} {hms}")
            self._sec = sec
        return (*self._parts, int((t - sec) * 1_000_000))


def _plog_time(stamp: _Stamp, t: float) -> str:
    _, plog, _, us = stamp.parts(t)
    return f"{plog}.{us // 1000:03d}.{us % 1000:03d}"


def iso_of(t: float) -> str:
    d = START + timedelta(seconds=t)
    return d.isoformat(timespec="microseconds" if d.microsecond else "seconds")


# ------------------------------------------------------------------------------------ one rank
@dataclass
class Rank:
    """One worker process: global ``rank``, its ``node`` index, ``device`` (local rank), ``pid``."""

    rank: int
    node: int
    device: int
    pid: int
    world: int

    def prefix(self) -> str:
        return f"(VllmWorker rank={self.rank} pid={self.pid}) "


_PLOG_MODULES = ["RUNTIME", "HCCL", "GE", "ASCENDCL", "DRV", "TBE", "AICPU", "FE", "HCCP"]
_PLOG_FILES = ["stream.cc", "engine.cc", "task_info.cc", "device.cc", "op_base.cc", "hccl_comm.cc",
               "graph_manager.cc", "acl_rt.cc", "npu_driver.cc", "model_builder.cc", "memory.cc"]
_PLOG_MSGS = [
    "StreamCreate: stream_id={a}, priority=0, flags=0x{h}",
    "DevMalloc: Succ, size={b}, type=2, ptr=0x{h}{h}",
    "LaunchKernel: kernel={k}, blockDim={a}, stream_id={a}, task_id={b}",
    "Synchronize stream success, stream_id={a}, task_id={b}",
    "ProcessTaskReport: report type=0, stream_id={a}, task_id={b}, sq_id={a}, retCode=0",
    "Event id=0x{h}, event type=notify, status ok",
    "Load op info success, op type={k}, core type=AiCore, ret=0",
    "Set device success, device id={d}, ctx=0x{h}{h}",
    "Free memory success, ptr=0x{h}{h}, size={b}, device_id={d}",
    "[Transport] link established, local rank {r}, remote rank {a}, socket fd {b}",
    "aclrtMemcpy: kind=1, size={b}, result=0",
]
_KERNELS = ["MatMulV2", "FlashAttentionScore", "RmsNorm", "AddRmsNorm", "RotaryMul", "Cast", "SwiGlu",
            "GroupedMatmul", "PagedAttention", "ReshapeAndCache", "ArgMaxWithValue", "TopKV2", "Softmax"]
_WORKER_DEBUG = [
    "[model_runner_v1.py:1520] Execute model: num_reqs={a}, num_scheduled_tokens={b}, attn_state=DecodeOnly",
    "[model_runner_v1.py:1602] Sampled {a} tokens, spec decode accepted 0",
    "[worker_v1.py:230] Worker step finished in {f} ms",
    "[shm_broadcast.py:466] No available shared memory broadcast block found in {a} ms",
    "[block_pool.py:301] Cached {a} blocks, free blocks {b}",
]
_TORCH_WARN = [
    "compiler_depend.ts:133] Warning: Device do not support double dtype now, dtype cast repalce with float. "
    "(function operator())",
    "compiler_depend.ts:56] Warning: The oprator of MoeInitRouting will be removed from Pytorch and switch to "
    "AscendSpeed after 630. (function operator())",
]


class _RankWriter:
    """The lines of one rank, each ``(t, stream, text)``: stream ``w`` (the worker's log) or ``p`` (plog)."""

    def __init__(self, r: Rank, rng: random.Random, interleaved: bool, plog_inline: bool):
        self.r = r
        self.rng = rng
        self.stamp = _Stamp()
        self.interleaved = interleaved
        self.plog_inline = plog_inline  # plog lines go to the worker log (stdout) instead of a plog file
        self.hexs = [f"{rng.randrange(1 << 32):08x}" for _ in range(64)]
        self.dead_lines = ["vllm.v1.engine.exceptions.EngineDeadError: EngineCore encountered an issue. See stack "
                           "trace (above) for the root cause."]

    # -- line forms ------------------------------------------------------------------------------
    def vllm(self, t: float, level: str, src: str, msg: str) -> str:
        v, _, _, _ = self.stamp.parts(t)
        return f"{self.r.prefix()}{level} {v} [{src}] {msg}"

    def c10(self, t: float, level: str, where: str, msg: str) -> str:
        _, _, c, us = self.stamp.parts(t)
        return f"[rank{self.r.rank}]:[{level}{c}.{us:06d}{self.rng.randrange(1000):03d} {where}] {msg}"

    def plog(self, t: float, level: str, module: str, where: str, msg: str) -> str:
        line = f"[{level}] {module}({self.r.pid},python3):{_plog_time(self.stamp, t)} [{where}]{self.r.pid} {msg}"
        return self.r.prefix() + line if self.interleaved else line

    def bare(self, text: str) -> str:
        """A line the C++ side prints to stderr (CANN's error manager): vLLM prefixes it only in a
        combined log (the worker's stderr is redirected through the executor)."""
        return self.r.prefix() + text if self.interleaved else text

    def _plog_stream(self) -> str:
        return "w" if self.plog_inline else "p"

    # -- phases ----------------------------------------------------------------------------------
    def startup(self, t: float, driver: bool) -> Iterator[tuple[float, str, str]]:
        """vLLM start-up on this rank (the API server's lines too on the driver rank)."""
        r = self.r
        v = VERSIONS
        step = 0.37
        if driver:
            # what entrypoint scripts print before `vllm serve`: the package versions
            for name, ver in (("torch", v["torch"] + "+cpu"), ("torch-npu", v["torch_npu"]),
                              ("transformers", v["transformers"]), ("vllm", v["vllm"] + "+empty"),
                              ("vllm_ascend", v["vllm_ascend"])):
                yield t, "w", f"{name:<34}{ver}"
                t += 0.01
        for src, msg in (("__init__.py:36", "Available plugins for group vllm.platform_plugins:"),
                         ("__init__.py:38", "- ascend -> vllm_ascend:register"),
                         ("__init__.py:41", "All plugins in this group will be loaded. Set `VLLM_PLUGINS` to control "
                                            "which plugins to load."),
                         ("__init__.py:207", "Platform plugin ascend is activated")):
            line = self.vllm(t, "INFO", src, msg)
            yield t, "w", line[len(r.prefix()):] if driver else line  # the API server's own process
            t += step
        if driver:
            pre = f"(APIServer pid={r.pid - 7}) "
            vv, _, _, _ = self.stamp.parts(t)
            yield t, "w", f"{pre}INFO {vv} [api_server.py:1805] vLLM API server version {v['vllm']}"
            yield t, "w", (f"{pre}INFO {vv} [utils.py:326] non-default args: {{'model_tag': '{MODEL}', "
                           f"'model': '{MODEL}', 'tensor_parallel_size': {r.world}, 'max_model_len': 32768, "
                           "'gpu_memory_utilization': 0.9, 'enable_expert_parallel': True}")
            t += 4.2
            vv, _, _, _ = self.stamp.parts(t)
            yield t, "w", f"{pre}INFO {vv} [config.py:1604] Using max model len 32768"
            yield t, "w", (f"{pre}INFO {vv} [__init__.py:742] Resolved architecture: Qwen3MoeForCausalLM")
            t += 1.1
            vv, _, _, _ = self.stamp.parts(t)
            yield t, "w", (f"(EngineCore_0 pid={r.pid - 5}) INFO {vv} [core.py:74] Initializing a V1 LLM engine "
                           f"(v{v['vllm']}) with config: model='{MODEL}', speculative_config=None, "
                           f"tokenizer='{MODEL}', skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, "
                           "trust_remote_code=False, dtype=torch.bfloat16, max_seq_len=32768, download_dir=None, "
                           f"load_format=auto, tensor_parallel_size={r.world}, pipeline_parallel_size=1, "
                           "disable_custom_all_reduce=True, quantization=None, enforce_eager=False, "
                           "kv_cache_dtype=auto, device_config=npu, seed=0, served_model_name=qwen3, "
                           "enable_prefix_caching=True, chunked_prefill_enabled=True")
        t += 2.0
        yield t, "w", self.vllm(t, "DEBUG", "parallel_state.py:918",
                                f"world_size={r.world} rank={r.rank} local_rank={r.device} "
                                "distributed_init_method=tcp://10.0.0.1:41233 backend=hccl")
        t += 0.4
        yield t, "w", self.vllm(t, "INFO", "parallel_state.py:1134",
                                f"rank {r.rank} in world size {r.world} is assigned as DP rank 0, PP rank 0, "
                                f"TP rank {r.rank}, EP rank {r.rank}")
        yield t, self._plog_stream(), self.plog(
            t + 0.2, "INFO", "HCCL", "op_base.cc:312",
            f"[HcclCommInitRootInfo] rank[{r.rank}] rankSize[{r.world}] deviceLogicId[{r.device}] init success, "
            f"take time [{self.rng.randrange(100000, 900000)}]us")
        t += 1.5
        yield t, "w", self.vllm(t, "INFO", "model_runner_v1.py:2114", f"Starting to load model {MODEL}...")
        t += 44.0 + self.rng.random() * 3
        yield t, "w", self.vllm(t, "INFO", "default_loader.py:262",
                                f"Loading weights took {40 + self.rng.random() * 5:.2f} seconds")
        yield t, "w", self.vllm(t, "INFO", "model_runner_v1.py:2135",
                                f"Loading model weights took {27.4 + self.rng.random() * 0.1:.4f} GB")
        t += 12.0
        yield t, "w", self.vllm(t, "INFO", "worker_v1.py:186",
                                f"Available KV cache memory: {21.3 + self.rng.random() * 0.2:.2f} GiB")
        if driver:
            t += 0.5
            vv, _, _, _ = self.stamp.parts(t)
            yield t, "w", f"(EngineCore_0 pid={r.pid - 5}) INFO {vv} [kv_cache_utils.py:849] GPU KV cache size: 1,120,640 tokens"
            yield t, "w", (f"(EngineCore_0 pid={r.pid - 5}) INFO {vv} [kv_cache_utils.py:853] Maximum concurrency "
                           "for 32,768 tokens per request: 34.20x")
            t += 20.0
            vv, _, _, _ = self.stamp.parts(t)
            yield t, "w", (f"(EngineCore_0 pid={r.pid - 5}) INFO {vv} [core.py:215] init engine (profile, create kv "
                           "cache, warmup model) took 61.47 seconds")
            yield t, "w", f"(APIServer pid={r.pid - 7}) INFO {vv} [api_server.py:1880] Starting vLLM API server 0 on http://0.0.0.0:8000"

    def serving(self, t_from: float, t_to: float, n: int, driver: bool) -> Iterator[tuple[float, str, str]]:
        """``n`` healthy lines spread evenly over [t_from, t_to)."""
        if n <= 0:
            return
        rng = self.rng
        rr, ri = rng.random, rng.randrange
        r = self.r
        hexs = self.hexs
        span = (t_to - t_from) / n
        pl = self._plog_stream()
        stamp = self.stamp
        prefix = r.prefix()
        api = f"(APIServer pid={r.pid - 7}) "
        for i in range(n):
            t = t_from + span * (i + rr() * 0.9)
            x = rr()
            if x < 0.58:
                level = "INFO" if x < 0.50 else "DEBUG"
                msg = _PLOG_MSGS[ri(len(_PLOG_MSGS))].format(
                    n=ri(1, 65536), a=ri(64), b=ri(1 << 24), h=hexs[ri(64)], k=_KERNELS[ri(len(_KERNELS))],
                    d=r.device, r=r.rank)
                yield t, pl, self.plog(t, level, _PLOG_MODULES[ri(len(_PLOG_MODULES))],
                                       f"{_PLOG_FILES[ri(len(_PLOG_FILES))]}:{ri(20, 3000)}", msg)
            elif x < 0.80 or not driver:
                if x < 0.97:
                    v, _, _, _ = stamp.parts(t)
                    msg = _WORKER_DEBUG[ri(len(_WORKER_DEBUG))].format(a=ri(1, 256), b=ri(1, 20000),
                                                                       f=f"{rr() * 80:.2f}")
                    yield t, "w", f"{prefix}DEBUG {v} {msg}"
                else:
                    _, _, c, us = stamp.parts(t)
                    yield t, "w", f"{prefix}[W{c}.{us:06d}{ri(1000):03d} {_TORCH_WARN[ri(2)]}"
            elif x < 0.90:
                v, _, _, _ = stamp.parts(t)
                yield t, "w", (f"{api}INFO {v} [loggers.py:123] Engine 000: Avg prompt throughput: {rr() * 5000:.1f} "
                               f"tokens/s, Avg generation throughput: {rr() * 900:.1f} tokens/s, Running: {ri(64)} "
                               f"reqs, Waiting: {ri(8)} reqs, GPU KV cache usage: {rr() * 100:.1f}%, Prefix cache "
                               f"hit rate: {rr() * 100:.1f}%")
            else:
                yield t, "w", (f"{api}INFO:     10.{ri(256)}.{ri(256)}.{ri(256)}:{ri(1024, 65535)} - "
                               "\"POST /v1/chat/completions HTTP/1.1\" 200 OK")

    # -- failure and symptoms --------------------------------------------------------------------
    def traceback_head(self, t: float) -> Iterator[tuple[float, str, str]]:
        src = "multiproc_executor.py:596"
        for msg in ("WorkerProc hit an exception.", "Traceback (most recent call last):",
                    '  File "/vllm-workspace/vllm/vllm/v1/executor/multiproc_executor.py", line 591, in worker_busy_loop',
                    "    output = func(*args, **kwargs)",
                    '  File "/vllm-workspace/vllm-ascend/vllm_ascend/worker/model_runner_v1.py", line 1641, in execute_model',
                    "    torch.npu.synchronize()"):
            yield t, "w", self.vllm(t, "ERROR", src, msg)

    def cause(self, t: float, examples: list[list[str]], peer: int | None) -> Iterator[tuple[float, str, str]]:
        """The cause's example lines, re-wrapped for this rank at ``t`` (plog lines 50 ms before the
        Python error they lead to, as the runtime logs before the exception reaches Python)."""
        yield from self.traceback_head(t)
        for ex in examples:
            for line in ex:
                kind, text = rewrap(line, self, t, peer)
                if kind == "plog":
                    yield t - 0.05, self._plog_stream(), text
                else:
                    yield t, "w", text
            t += 0.001

    def timeout(self, t: float, peer: int, symptoms: list[list[str]]) -> Iterator[tuple[float, str, str]]:
        """What a healthy rank prints when a collective times out waiting for ``peer``: the symptom
        rules' example lines (EI0002, then the watchdog 2.5 s later), re-wrapped for this rank."""
        for ex in symptoms:
            for line in ex:
                kind, text = rewrap(line, self, t, peer)
                yield (t - 0.05 if kind == "plog" else t), (self._plog_stream() if kind == "plog" else "w"), text
            t += 2.5

    def engine_dead(self, t: float) -> Iterator[tuple[float, str, str]]:
        v, _, _, _ = self.stamp.parts(t)
        r = self.r
        yield t, "w", f"(EngineCore_0 pid={r.pid - 5}) ERROR {v} [core.py:702] EngineCore encountered a fatal error."
        pre = f"(APIServer pid={r.pid - 7}) ERROR {v} [async_llm.py:420] "
        for msg in ("AsyncLLM output_handler failed.", "Traceback (most recent call last):",
                    '  File "/vllm-workspace/vllm/vllm/v1/engine/async_llm.py", line 379, in output_handler',
                    "    outputs = await engine_core.get_output_async()",
                    *self.dead_lines):
            yield t, "w", pre + msg


# ------------------------------------------------------------------------ re-wrapping examples
_DOCKER = re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:?\d\d)? ")
_TAG = re.compile(r"^\([A-Za-z_][\w.:-]*(?:[ ,][^)]*)?\) ")
_TORCH_RANK = re.compile(r"^\[rank\d+\]: ?")
_VLLM_HEAD = re.compile(r"^(?:DEBUG|INFO|WARNING|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? \[?[\w.]+:\d+\] ")
_C10_HEAD = re.compile(r"^\[([IWEF])\d{3,4} \d\d:\d\d:\d\d\.\d+ (?:\d+ )?([\w.]+:\d+)\] ")
_PLOG_HEAD = re.compile(r"^\[(ERROR|WARNING|WARN|INFO|DEBUG|EVENT)\] ([A-Za-z_][\w-]*)\(\d+,[^)]*\):"
                        r"\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d{3}\.\d{3})? \[([\w.]+:\d+)\](?:\d+ )?")
_PLOG_TIME = re.compile(r"(?<!\d)20\d\d-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d{3}\.\d{3}|\.\d{3}|\.\d{6})?")
_TORCH_NPU_HEAD = re.compile(r"\(PID:\d+, Device:-?\d+, RankID:-?\d+\)")
_PID_BRACKET = re.compile(r"\[PID: ?\d+\]")
_RANK_WORD = re.compile(r"\[Rank \d+\]")
_REMOTE = re.compile(r"(remote rank: ?\[)\d+(\])|(Waiting peer rank: )\d+")
_NPU_N = re.compile(r"\(NPU \d+;")
_REPEATED = re.compile(r" \[repeated \d+x across cluster\]$")


def rewrap(line: str, w: _RankWriter, t: float, peer: int | None) -> tuple[str, str]:
    """``line`` (a rule example's line) as this rank prints it at ``t``: (kind, text), kind ``plog``
    for a plog line, else ``worker``. The example's own headers (docker time, process tag,
    ``[rankN]:``, vLLM or c10 header, plog header) are stripped; embedded times, pids, ranks and
    devices are this rank's."""
    r = w.r
    text = _DOCKER.sub("", line.rstrip())
    text = _TAG.sub("", text)
    text = _TORCH_RANK.sub("", text)
    text = _VLLM_HEAD.sub("", text)
    text = _REPEATED.sub("", text)
    plog_t = _plog_time(w.stamp, t)
    m = _PLOG_HEAD.match(text)
    c10 = _C10_HEAD.match(text)
    if m:
        body = text[m.end():]
    elif c10:
        body = text[c10.end():]
    else:
        body = text
    body = _PLOG_TIME.sub(plog_t, body)
    body = _TORCH_NPU_HEAD.sub(f"(PID:{r.pid}, Device:{r.device}, RankID:{r.rank})", body)
    body = _PID_BRACKET.sub(f"[PID: {r.pid}]", body)
    body = _RANK_WORD.sub(f"[Rank {r.rank}]", body)
    body = _NPU_N.sub(f"(NPU {r.device};", body)
    if peer is not None:
        body = _REMOTE.sub(lambda x: (f"{x.group(1)}{peer}{x.group(2)}" if x.group(1) else f"{x.group(3)}{peer}"), body)
    if m:
        level, module, where = m.group(1), m.group(2), m.group(3)
        return "plog", w.plog(t - 0.05, level, module, where, body)
    if c10:
        return "worker", w.c10(t, c10.group(1), c10.group(2), body)
    if re.match(r"^E[A-Z0-9]\d{4}: \[PID|^E[A-Z0-9]\d{4}: 20\d\d-", body):
        return "worker", w.bare(body)  # CANN's error manager writes these itself
    return "worker", w.vllm(t, "ERROR", "multiproc_executor.py:596", body)


#: The example of each symptom rule that the other ranks print (EI0002 naming the remote rank, the watchdog).
SYMPTOM_EXAMPLE = {"hccl.notify-wait-timeout": "EI0002: [PID:", "hccl.watchdog-exception": "HCCL watchdog thread"}


def symptom_examples(rules) -> list[list[str]]:
    """The symptom rules' examples the waiting ranks print, in the order they print them."""
    out = []
    for rule_id in SYMPTOMS:
        found = [ex for ex in cause_examples(rules, rule_id) if SYMPTOM_EXAMPLE[rule_id] in ex[0]]
        if not found:
            raise ValueError(f"{rule_id}: its example with {SYMPTOM_EXAMPLE[rule_id]!r} is gone")
        out.append(found[0])
    return out


def cause_examples(rules, rule_id: str) -> list[list[str]]:
    """The example excerpts of ``rule_id`` (each a list of lines) that are log lines."""
    rule = rules.by_id[rule_id].rule
    out = []
    for ex in rule.examples.match_texts():
        lines = [ln for ln in ex.strip("\n").split("\n") if ln.strip()]
        if lines and not _SKIP_EXAMPLE.search(lines[0]):
            out.append(lines)
    if not out:
        raise ValueError(f"{rule_id}: no example of it is a log line")
    return out


# ------------------------------------------------------------------------------------ bundles
def _ranks(nodes: int, per_node: int, seed: int) -> list[Rank]:
    rng = random.Random(seed * 7919 + 1)
    world = nodes * per_node
    return [Rank(rank=k * per_node + d, node=k, device=d, pid=rng.randrange(10000, 4000000), world=world)
            for k in range(nodes) for d in range(per_node)]


def _rank_events(w: _RankWriter, *, lines: int, t0: float, driver: bool, fail_at: float | None,
                 examples: list[list[str]] | None, peer: int | None, timeout_at: float | None,
                 dead_at: float | None, symptoms: list[list[str]] | None = None) -> list[tuple[float, str, str]]:
    out = list(w.startup(0.0, driver))
    t_serve = out[-1][0] + 1.0
    out.extend(w.serving(t_serve, t0, max(0, lines - len(out)), driver))
    if fail_at is not None and examples is not None:
        out.extend(w.cause(fail_at, examples, peer))
    if timeout_at is not None and peer is not None:
        out.extend(w.timeout(timeout_at, peer, symptoms or []))
    if dead_at is not None:
        out.extend(w.engine_dead(dead_at))
    out.sort(key=lambda e: e[0])
    return out


def _write(path: Path, lines: Iterator[str]) -> tuple[int, int]:
    path.parent.mkdir(parents=True, exist_ok=True)
    n = size = 0
    buf: list[str] = []
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for line in lines:
            buf.append(line)
            n += 1
            if len(buf) >= 8192:
                chunk = "\n".join(buf) + "\n"
                f.write(chunk)
                size += len(chunk.encode())
                buf = []
        if buf:
            chunk = "\n".join(buf) + "\n"
            f.write(chunk)
            size += len(chunk.encode())
    return n, size


def make_bundle(root: str | Path, *, nodes: int = 2, ranks_per_node: int = 8, layout: str = "ranks",
                cause: str = "hw.hbm-multi-bit-ecc", first_rank: int | None = None, common: bool = False,
                silent: Sequence[int] = (), lines_per_rank: int = 300, seed: int = 1, rules=None,
                peers: str = "stuck") -> Truth:
    """Write a bundle below ``root`` (see the module docstring) and return its :class:`Truth`.

    ``first_rank`` fails first (default: local rank 5 of the second node, or the last rank); with
    ``common`` every rank fails the same way within 5 s; ranks in ``silent`` print nothing after
    T0, and then nobody prints a cause (the others time out waiting for the first silent rank).
    ``lines_per_rank`` sizes the bundle (about 180 bytes a line). ``peers`` is the remote rank the
    waiting ranks' EI0002 names: ``stuck`` (the failed or first silent rank, as in an all-to-all) or
    ``ring`` (rank R names R - 1, as in a ring all-reduce, where only the failed rank's neighbour
    names it).
    """
    if layout not in ("ranks", "plog", "interleaved"):
        raise ValueError(f"unknown layout {layout!r}")
    if peers not in ("stuck", "ring"):
        raise ValueError(f"unknown peers {peers!r}")
    if rules is None:
        from triage.knowledge.loader import load_rules

        rules = load_rules()
    root = Path(root)
    world = nodes * ranks_per_node
    if first_rank is None:
        first_rank = min(world - 1, ranks_per_node + 5) if nodes > 1 else min(world - 1, 5)
    silent = sorted(set(silent))
    if not 0 <= first_rank < world or any(not 0 <= s < world for s in silent):
        raise ValueError("ranks out of range")
    examples = cause_examples(rules, cause)
    symptoms = symptom_examples(rules)
    rng = random.Random(seed)
    ranks = _ranks(nodes, ranks_per_node, seed)
    # T0: after the start-up (~90 s) and the serving lines (~0.05 s a line, at least 10 minutes)
    t0 = float(int(130 + max(600, lines_per_rank * 0.05)))
    no_cause = bool(silent)
    stuck = silent[0] if silent else first_rank
    events: dict[int, list] = {}
    timeouts: list[int] = []
    for r in ranks:
        w = _RankWriter(r, random.Random(seed * 100003 + r.rank), layout == "interleaved", layout != "plog")
        fail_at = timeout_at = None
        if r.rank in silent:
            pass
        elif not no_cause and (common or r.rank == first_rank):
            fail_at = t0 if r.rank == first_rank else t0 + 1 + rng.randrange(5)
        else:
            timeout_at = t0 + 30 + rng.random() * 1770
            timeouts.append(r.rank)
        dead_at = t0 + 3.0 if r.rank == 0 else None
        events[r.rank] = _rank_events(w, lines=lines_per_rank, t0=t0, driver=r.rank == 0, fail_at=fail_at,
                                      examples=examples, peer=stuck if peers == "stuck" else (r.rank - 1) % world,
                                      timeout_at=timeout_at, dead_at=dead_at,
                                      symptoms=symptoms)
    root.mkdir(parents=True, exist_ok=True)
    files: list[Path] = []
    node_files: dict[str, list[str]] = {}
    total_lines = total_bytes = 0
    if layout == "interleaved":
        path = root / "vllm-ranks.log"
        merged = heapq.merge(*(events[r.rank] for r in ranks), key=lambda e: e[0])
        n, size = _write(path, (text for _, _, text in merged))
        files.append(path)
        total_lines, total_bytes = n, size
    else:
        for r in ranks:
            node = f"node-{r.node}"
            if layout == "ranks":
                targets = {"w": root / node / f"rank-{r.rank}.log"}
            else:
                targets = {"w": root / node / f"worker-{r.rank}.log",
                           "p": root / node / "plog" / f"device-{r.device}" / f"plog-{r.pid}.log"}
            for stream, path in targets.items():
                n, size = _write(path, (text for _, s, text in events[r.rank] if s == stream))
                files.append(path)
                node_files.setdefault(node, []).append(str(path))
                total_lines += n
                total_bytes += size
    truth = Truth(
        root=str(root), layout=layout, nodes=nodes, ranks_per_node=ranks_per_node, world_size=world,
        first_rank=None if no_cause else first_rank,
        first_node=None if no_cause or layout == "interleaved" else f"node-{first_rank // ranks_per_node}",
        cause=None if no_cause else cause, t0=None if no_cause else iso_of(t0),
        symptoms=[] if (common and not no_cause) else list(SYMPTOMS), symptom_ranks=sorted(timeouts),
        wrappers=list(WRAPPERS), common=common and not no_cause, silent=silent,
        files=[str(p) for p in files], nodes_files=node_files, bytes=total_bytes, lines=total_lines)
    (root.parent / (root.name + ".truth.json")).write_text(truth.to_json())
    return truth


def make_unrelated(root: str | Path, *, causes: tuple[str, str] = ("memory.npu-oom-caching-allocator",
                                                                    "op.vector-core-exception"),
                   lines: int = 300, seed: int = 1, rules=None) -> Truth:
    """Two unrelated single-process logs (``serve-a.log``, ``serve-b.log``) below ``root``, each
    failing with its own cause; their lines state no rank."""
    if rules is None:
        from triage.knowledge.loader import load_rules

        rules = load_rules()
    root = Path(root)
    root.mkdir(parents=True, exist_ok=True)
    files, by_file = [], {}
    total_lines = total_bytes = 0
    for i, cause in enumerate(causes):
        r = Rank(rank=0, node=0, device=0, pid=random.Random(seed + i).randrange(10000, 4000000), world=1)
        w = _RankWriter(r, random.Random(seed * 31 + i), False, True)
        w.r = r
        events = _rank_events(w, lines=lines, t0=float(int(130 + max(600, lines * 0.05))) + 3600 * 24 * i,
                              driver=True, fail_at=None, examples=None, peer=None, timeout_at=None, dead_at=None)
        fail = float(int(130 + max(600, lines * 0.05))) + 3600 * 24 * i
        events += list(w.cause(fail, cause_examples(rules, cause), None)) + list(w.engine_dead(fail + 1))
        # a single-process server: the worker is the engine core (no rank in its tag)
        text = [_strip_rank_tag(e[2], r) for e in sorted(events, key=lambda e: e[0])]
        path = root / f"serve-{'ab'[i]}.log"
        n, size = _write(path, iter(text))
        files.append(str(path))
        by_file[str(path)] = cause
        total_lines += n
        total_bytes += size
    truth = Truth(root=str(root), layout="unrelated", nodes=0, ranks_per_node=0, world_size=None, first_rank=None,
                  first_node=None, cause=None, t0=None, causes=by_file, files=files, bytes=total_bytes,
                  lines=total_lines)
    (root.parent / (root.name + ".truth.json")).write_text(truth.to_json())
    return truth


def _strip_rank_tag(text: str, r: Rank) -> str:
    text = text.replace(r.prefix(), f"(EngineCore_0 pid={r.pid}) ")
    return re.sub(r"^\[rank\d+\]:", "", text)


# ------------------------------------------------------------------- single logs (benchmark)
def _single_log(path: Path, size: int, restart_every: int | None, seed: int, rules, cause: str | None) -> dict:
    """A one-process log of about ``size`` bytes; with ``restart_every`` lines, a crash-looping pod:
    start-up, serving lines, the cause's traceback (none when ``cause`` is None), start-up again..."""
    r = Rank(rank=0, node=0, device=0, pid=random.Random(seed).randrange(10000, 4000000), world=8)
    w = _RankWriter(r, random.Random(seed), False, True)
    examples = cause_examples(rules, cause) if restart_every and cause else None
    t = 0.0
    written = lines = restarts = 0
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    with open(tmp, "w", encoding="utf-8", newline="\n") as f:
        first = True
        while written < size:
            # a serving log starts once; a crash-looping pod starts again after every crash
            block = list(w.startup(t, True)) if (first or restart_every) else [(t, "w", "")]
            first = False
            n = (restart_every or 100_000) - len(block)
            t_end = block[-1][0] + max(60.0, n * 0.05)
            block += list(w.serving(block[-1][0] + 1, t_end, n, True))
            if examples is not None:
                block += list(w.cause(t_end, examples, None)) + list(w.engine_dead(t_end + 1))
            restarts += 1 if restart_every else 0
            block.sort(key=lambda e: e[0])
            text = "\n".join(e[2] for e in block if e[2]) + "\n"
            data = text.encode()
            if written + len(data) > size:
                cut = data.rfind(b"\n", 0, size - written)
                data = data[:cut + 1] if cut >= 0 else b""
                if not data:
                    break
            f.write(data.decode())
            written += len(data)
            lines += data.count(b"\n")
            t = t_end + 30.0
    tmp.replace(path)
    return {"bytes": written, "lines": lines, "restarts": restarts}


def crashloop_log(path: str | Path, size: int, *, every: int = 3000, seed: int = 1, rules=None,
                  cause: str | None = "memory.npu-oom-caching-allocator") -> dict:
    """A crash-looping pod's log of about ``size`` bytes: the vLLM start-up block (which the fact
    extractors read) every ``every`` lines, each run ending in ``cause``'s traceback (None: the
    restarts only, no error printed)."""
    if rules is None:
        from triage.knowledge.loader import load_rules

        rules = load_rules()
    return _single_log(Path(path), size, every, seed, rules, cause)


def serving_log(path: str | Path, size: int, *, seed: int = 1) -> dict:
    """A serving log of about ``size`` bytes: one start-up, then serving lines (no restart, no error)."""
    return _single_log(Path(path), size, None, seed, None, "")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("root", type=Path)
    ap.add_argument("--nodes", type=int, default=2)
    ap.add_argument("--ranks", type=int, default=8, help="ranks per node")
    ap.add_argument("--layout", choices=["ranks", "plog", "interleaved", "unrelated"], default="ranks")
    ap.add_argument("--cause", default="hw.hbm-multi-bit-ecc")
    ap.add_argument("--first-rank", type=int)
    ap.add_argument("--common", action="store_true")
    ap.add_argument("--silent", type=lambda s: [int(x) for x in s.split(",") if x], default=[])
    ap.add_argument("--lines", type=int, default=300, help="lines per rank")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--peers", choices=["stuck", "ring"], default="stuck")
    a = ap.parse_args(argv)
    if a.layout == "unrelated":
        truth = make_unrelated(a.root, lines=a.lines, seed=a.seed)
    else:
        truth = make_bundle(a.root, nodes=a.nodes, ranks_per_node=a.ranks, layout=a.layout, cause=a.cause,
                            first_rank=a.first_rank, common=a.common, silent=a.silent, lines_per_rank=a.lines,
                            seed=a.seed, peers=a.peers)
    print(truth.to_json())
    return 0


if __name__ == "__main__":
    sys.exit(main())
