"""Deterministic synthetic logs for the benchmark: vLLM / vllm-ascend / torch_npu / CANN plog.

The stream is a pure function of the seed and of the rules' examples, so a smaller log is a
prefix of a bigger one (same seed). About 1 line in 10,000 is a real error excerpt taken from a
rule's ``examples.match``; about 1 in 2,000 is a healthy near miss that shares keywords with the
rules ("hccl timeout=1800", "error code is 0", a rule's own ``examples.no_match``).
"""

from __future__ import annotations

import os
import random
import shutil
from collections.abc import Iterator
from pathlib import Path

GEN_VERSION = "3"
ERROR_EVERY = 10_000
NEAR_MISS_EVERY = 2_000
CONFIG_DUMP_EVERY = 5_000

_MODULES = ["RUNTIME", "HCCL", "GE", "ASCENDCL", "DRV", "TBE", "PROFILING", "AICPU", "FE", "HCCP"]
_PLOG_FILES = ["stream.cc", "engine.cc", "task_info.cc", "device.cc", "op_base.cc", "hccl_comm.cc",
               "graph_manager.cc", "acl_rt.cc", "npu_driver.cc", "model_builder.cc", "memory.cc"]
_PLOG_MSGS = [
    "{n} StreamCreate: stream_id={a}, priority=0, flags=0x{h}",
    "{n} DevMalloc: Succ, size={b}, type=2, ptr=0x{h}{h}",
    "{n} LaunchKernel: kernel={k}, blockDim={a}, stream_id={a}, task_id={b}",
    "{n} Synchronize stream success, stream_id={a}, task_id={b}, timeout=1800s",
    "[{n}][HcclCommInitRootInfo] rank[{a}] rankSize[16] deviceLogicId[{a}] init success, take time [{b}]us",
    "{n} ProcessTaskReport: report type=0, stream_id={a}, task_id={b}, sq_id={a}, retCode=0",
    "Event id=0x{h}, event type=notify, status ok",
    "Load op info success, op type={k}, core type=AiCore, ret=0",
    "Build graph success, graph id:{a}, session id:{b}, ret:0",
    "Set device success, device id={a}, ctx=0x{h}{h}",
    "ModelLoad: model_id={a}, stream count={a}, event count={b}, label count=0",
    "Free memory success, ptr=0x{h}{h}, size={b}, device_id={a}",
    "[Transport] link established, local rank {a}, remote rank {a}, socket fd {b}",
    "aclrtMemcpy: kind=1, size={b}, result=0",
]
_KERNELS = ["MatMulV2", "FlashAttentionScore", "RmsNorm", "AddRmsNorm", "RotaryMul", "Cast", "SwiGlu",
            "GroupedMatmul", "PagedAttention", "ReshapeAndCache", "ArgMaxWithValue", "TopKV2", "Softmax"]
_VLLM_SRC = ["loggers.py:123", "core.py:634", "gpu_model_runner.py:1802", "model_runner_v1.py:2345",
             "worker_v1.py:210", "scheduler.py:456", "async_llm.py:255", "api_server.py:1818",
             "platform.py:150", "utils.py:2550", "kv_cache_utils.py:716", "parallel_state.py:1160"]
_WORKER_MSGS = [
    "Loading weights took {f} seconds",
    "Model loading took {f} GiB and {f} seconds",
    "Available KV cache memory: {f} GiB",
    "Graph capturing finished in {a} secs, took {f} GiB",
    "Capturing cudagraphs for decoding. Total batch sizes: {a}",
    "Compiled the model with torchair in {f} s",
    "Using HCCL backend with timeout=1800s, world_size=16, rank={a}",
    "Reserved memory for the graph pool: {f} GiB, free memory {f} GiB",
    "Memory profiling takes {f} seconds; total_gpu_memory ({f}GiB) x gpu_memory_utilization (0.90)",
]
_WARN_MSGS = [
    "Current vLLM config is not set.",
    "Casting torch.bfloat16 to torch.float16.",
    "The tokenizer's vocabulary size {b} does not match the model's vocab size.",
    "Token indices sequence length is longer than the specified maximum sequence length",
    "Default sampling parameters have been overridden by the model's Hugging Face generation config",
    "To see benefits of async output processing, enable CUDA graph.",
    "Regarding multimodal models, vLLM currently only supports adding LoRA to language model",
]
_W601 = [
    "Warning: Device do not support double dtype now, dtype cast repalce with float. (function operator())",
    "Warning: The oprator of MoeInitRouting will be removed from Pytorch and switch to AscendSpeed after 630. (function operator())",
    "Warning: CAUTION: The operator 'aten::isin.Tensor_Tensor_out' is not currently supported. (function operator())",
]
_NEAR_MISSES = [
    "(VllmWorker rank={a} pid={p}) INFO {d} [parallel_state.py:1160] hccl timeout=1800, HCCL_CONNECT_TIMEOUT=7200",
    "[INFO] RUNTIME({p},python):{pd} [stream.cc:812] {n} Synchronize success, error code is 0",
    "(EngineCore_DP0 pid={p}) INFO {d} [worker_v1.py:210] no out of memory risk: free memory {f} GiB after profiling",
    "[INFO] HCCL({p},python):{pd} [op_base.cc:100] [{n}]HcclCommInitRootInfo success, ret 0 ms 12",
    "INFO {d} [api_server.py:100] E2E latency {b} ms, error count 0, timeout count 0",
    "(VllmWorker rank={a} pid={p}) INFO {d} [utils.py:2550] NPU memory allocation succeeded: {f} GiB",
    "[INFO] ASCENDCL({p},python):{pd} [acl_rt.cc:77] {n} aclrtSetDevice success, runtime result = 0",
]


def _ts(t: int) -> tuple[str, str, str]:
    """docker RFC 3339, vLLM 'MM-DD HH:MM:SS' and plog timestamps for second ``t`` of a run."""
    day, rest = divmod(t, 86400)
    hh, rest = divmod(rest, 3600)
    mm, ss = divmod(rest, 60)
    dd = 1 + day % 28
    docker = f"2025-06-{dd:02d}T{hh:02d}:{mm:02d}:{ss:02d}"
    vllm = f"06-{dd:02d} {hh:02d}:{mm:02d}:{ss:02d}"
    plog = f"2025-06-{dd:02d}-{hh:02d}:{mm:02d}:{ss:02d}"
    return docker, vllm, plog


class LogStream:
    """Iterates the lines (bytes, with ``\\n``) of the synthetic log for ``seed``."""

    def __init__(self, errors: list[list[str]], near_misses: list[str], seed: int = 1):
        self.rng = random.Random(seed)
        self.errors = errors
        self.near = near_misses
        self.planted = 0
        self.planted_near = 0

    def lines(self) -> Iterator[bytes]:
        rng = self.rng
        rr = rng.random
        ri = rng.randrange
        t = 3600 * 10
        n = 0
        docker = vllm = plog = ""
        hexs = [f"{i:08x}" for i in range(0, 1 << 32, (1 << 32) // 4096)]
        pids = [ri(100, 400000) for _ in range(8)]
        while True:
            if n % 512 == 0:
                t += 1
                docker, vllm, plog = _ts(t)
            n += 1
            frac = f".{ri(1000000000):09d}Z "
            r = rr()
            if n % ERROR_EVERY == 7:
                ex = self.errors[ri(len(self.errors))]
                self.planted += 1
                for line in ex:
                    yield (docker + frac + line + "\n").encode()
                continue
            if n % NEAR_MISS_EVERY == 11:
                self.planted_near += 1
                tmpl = self.near[ri(len(self.near))]
                yield (tmpl.format(a=ri(16), p=pids[ri(8)], d=vllm, pd=plog + f".{ri(1000):03d}.{ri(1000):03d}",
                                   n=ri(100000), f=f"{rr() * 60:.2f}", b=ri(100000)) + "\n").encode()
                continue
            if n % CONFIG_DUMP_EVERY == 23:
                yield (docker + frac + f"(EngineCore_DP0 pid={pids[0]}) INFO {vllm} [core.py:75] " + _config_dump(rng) + "\n").encode()
                continue
            if r < 0.34:  # CANN plog line (no docker prefix: plog files are merged in)
                level = "INFO" if r < 0.28 else ("DEBUG" if r < 0.32 else ("WARNING" if r < 0.335 else "EVENT"))
                mod = _MODULES[ri(len(_MODULES))]
                msg = _PLOG_MSGS[ri(len(_PLOG_MSGS))].format(
                    n=ri(1, 65536), a=ri(64), b=ri(1 << 24), h=hexs[ri(4096)], k=_KERNELS[ri(len(_KERNELS))])
                yield (f"[{level}] {mod}({pids[ri(8)]},python):{plog}.{ri(1000):03d}.{ri(1000):03d} "
                       f"[{_PLOG_FILES[ri(len(_PLOG_FILES))]}:{ri(20, 3000)}] {msg}\n").encode()
            elif r < 0.52:  # engine stats
                yield (f"{docker}{frac}(APIServer pid={pids[1]}) INFO {vllm} [loggers.py:123] Engine 000: "
                       f"Avg prompt throughput: {rr() * 5000:.1f} tokens/s, Avg generation throughput: "
                       f"{rr() * 900:.1f} tokens/s, Running: {ri(64)} reqs, Waiting: {ri(8)} reqs, "
                       f"GPU KV cache usage: {rr() * 100:.1f}%, Prefix cache hit rate: {rr() * 100:.1f}%\n").encode()
            elif r < 0.70:  # uvicorn access log
                yield (f"{docker}{frac}(APIServer pid={pids[1]}) INFO:     10.{ri(256)}.{ri(256)}.{ri(256)}:{ri(1024, 65535)}"
                       f" - \"POST /v1/chat/completions HTTP/1.1\" 200 OK\n").encode()
            elif r < 0.78:
                yield (f"{docker}{frac}(APIServer pid={pids[1]}) INFO {vllm} [async_llm.py:255] Added request "
                       f"chatcmpl-{hexs[ri(4096)]}{hexs[ri(4096)]}{hexs[ri(4096)]}.\n").encode()
            elif r < 0.88:
                msg = _WORKER_MSGS[ri(len(_WORKER_MSGS))].format(f=f"{rr() * 60:.2f}", a=ri(512))
                yield (f"{docker}{frac}(VllmWorker rank={ri(16)} pid={pids[2 + ri(6)]}) INFO {vllm} "
                       f"[{_VLLM_SRC[ri(len(_VLLM_SRC))]}] {msg}\n").encode()
            elif r < 0.93:
                msg = _WARN_MSGS[ri(len(_WARN_MSGS))].format(b=ri(200000))
                who = f"(EngineCore_DP0 pid={pids[0]})" if r < 0.905 else f"(VllmWorker rank={ri(16)} pid={pids[2 + ri(6)]})"
                yield f"{docker}{frac}{who} WARNING {vllm} [{_VLLM_SRC[ri(len(_VLLM_SRC))]}] {msg}\n".encode()
            elif r < 0.97:  # torch_npu warning
                yield (f"{docker}{frac}(VllmWorker rank={ri(16)} pid={pids[2 + ri(6)]}) [W{vllm[:2]}{vllm[3:5]} "
                       f"{vllm[6:]}.{ri(1000000000):09d} compiler_depend.ts:{ri(20, 400)}] "
                       f"{_W601[ri(len(_W601))]}\n").encode()
            elif r < 0.99:
                yield (f"{docker}{frac}(EngineCore_DP0 pid={pids[0]}) DEBUG {vllm} [scheduler.py:456] "
                       f"scheduled {ri(64)} reqs, {ri(8192)} tokens, kv blocks free={ri(100000)}\n").encode()
            else:
                pct = ri(101)
                yield (f"{docker}{frac}Loading safetensors checkpoint shards: {pct:3d}% Completed | "
                       f"{pct * 20 // 100}/20 [00:{ri(60):02d}<00:{ri(60):02d},  {rr() * 3:.2f}s/it]\n").encode()


def _config_dump(rng: random.Random) -> str:
    parts = [f"Initializing a V1 LLM engine (v0.10.1rc2.dev{rng.randrange(999)}+g{rng.randrange(1 << 28):07x}) with config: "
             "model='/models/Qwen3-235B-A22B', speculative_config=None, tokenizer='/models/Qwen3-235B-A22B', "
             "skip_tokenizer_init=False, tokenizer_mode=auto, revision=None, override_neuron_config={}, "
             "tokenizer_revision=None, trust_remote_code=True, dtype=torch.bfloat16, max_seq_len=32768, "
             "download_dir=None, load_format=auto, tensor_parallel_size=16, pipeline_parallel_size=1, "
             "disable_custom_all_reduce=True, quantization=None, enforce_eager=False, kv_cache_dtype=auto, "
             "device_config=npu, decoding_config=DecodingConfig(backend='auto', disable_fallback=False), "
             "observability_config=ObservabilityConfig(show_hidden_metrics=False), seed=0, "
             "served_model_name=qwen3, num_scheduler_steps=1, enable_prefix_caching=True, "
             "chunked_prefill_enabled=True, use_async_output_proc=True, pooler_config=None, "
             'compilation_config={"level":3,"custom_ops":["all"],"splitting_ops":["vllm.unified_ascend_attention_with_output"],'
             '"use_inductor":false,"compile_sizes":[],"cudagraph_capture_sizes":[']
    parts.append(",".join(str(512 - 8 * i) for i in range(64)))
    parts.append('],"max_capture_size":512}, additional_config={"ascend_scheduler_config":{"enabled":false},'
                 '"torchair_graph_config":{"enabled":true,"graph_batch_sizes":[1,2,4,8]}}')
    return "".join(parts)


def rule_material(ruleset) -> tuple[list[list[str]], list[str]]:
    """(error excerpts as lists of lines, near-miss line templates) from the rules' examples."""
    errors: list[list[str]] = []
    near: list[str] = list(_NEAR_MISSES)
    for rule in ruleset.rules:
        for ex in rule.rule.examples.match_texts():
            lines = [ln for ln in ex.strip("\n").split("\n") if ln.strip()]
            if lines:
                errors.append(lines)
        for ex in rule.rule.examples.no_match:
            for ln in ex.strip("\n").split("\n"):
                if ln.strip():
                    near.append(ln.replace("{", "{{").replace("}", "}}"))
    return errors, near


def write_log(path: Path, size: int, ruleset, seed: int = 1) -> dict:
    """Write the first ``size`` bytes (rounded down to a whole line) of the stream to ``path``."""
    errors, near = rule_material(ruleset)
    stream = LogStream(errors, near, seed)
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    written = 0
    lines = 0
    buf: list[bytes] = []
    buffered = 0
    with open(tmp, "wb") as f:
        for line in stream.lines():
            if written + buffered + len(line) > size:
                break
            buf.append(line)
            buffered += len(line)
            lines += 1
            if buffered > (8 << 20):
                f.write(b"".join(buf))
                written += buffered
                buf, buffered = [], 0
        f.write(b"".join(buf))
        written += buffered
    tmp.replace(path)
    return {"bytes": written, "lines": lines, "planted_errors": stream.planted, "near_misses": stream.planted_near}


def copy_prefix(src: Path, dst: Path, size: int) -> None:
    """Copy the first ``size`` bytes of ``src``, cut back to the last whole line."""
    tmp = dst.with_suffix(f".{os.getpid()}.tmp")
    with open(src, "rb") as fi, open(tmp, "wb") as fo:
        left = size
        while left > 0:
            chunk = fi.read(min(left, 16 << 20))
            if not chunk:
                break
            left -= len(chunk)
            if left <= 0:
                cut = chunk.rfind(b"\n")
                chunk = chunk[: cut + 1]
            fo.write(chunk)
    tmp.replace(dst)


def write_plog_dir(path: Path, files: int, ruleset, seed: int = 2, lines_per_file: tuple[int, int] = (20, 200)) -> dict:
    """A plog directory: ``files`` small files of plog-style lines (with the same rare errors)."""
    errors, near = rule_material(ruleset)
    stream = LogStream(errors, near, seed).lines()
    rng = random.Random(seed)
    tmp = path.with_name(path.name + f".{os.getpid()}.tmp")
    if tmp.exists():
        shutil.rmtree(tmp)
    tmp.mkdir(parents=True)
    total = 0
    for i in range(files):
        sub = tmp / f"device-{i % 16}"
        sub.mkdir(exist_ok=True)
        want = rng.randrange(*lines_per_file)
        data = b"".join(next(stream) for _ in range(want))
        (sub / f"plog-{100000 + i}_20250601{i:06d}.log").write_bytes(data)
        total += len(data)
    if path.exists():
        shutil.rmtree(path)
    tmp.rename(path)
    return {"files": files, "bytes": total}


def write_one_line(path: Path, size: int, *, newline_first: bool) -> None:
    """A file that is one ``size``-byte line (optionally after one short normal line)."""
    tmp = path.with_suffix(f".{os.getpid()}.tmp")
    unit = (b"0123456789abcdef " * 4096)[: 1 << 16]
    with open(tmp, "wb") as f:
        if newline_first:
            f.write(b"INFO 06-01 10:00:00 [api_server.py:100] starting\n")
        left = size
        while left > 0:
            part = unit[: min(left, len(unit))]
            f.write(part)
            left -= len(part)
        f.write(b"\nRuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity)\n")
    tmp.replace(path)
