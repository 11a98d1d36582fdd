"""Memory checks: whether the KV cache of ``max_model_len`` fits, and the KV cache budget left by
``gpu_memory_utilization`` (with the utilization that would make it fit)."""

from __future__ import annotations

import math

from .verdicts import (
    FactView,
    Verdict,
    _test,
)

#: The largest gpu_memory_utilization worth recommending: the runtime needs the rest of the card.
MAX_UTILIZATION = 0.95


def _num(facts: FactView, name: str) -> float | None:
    value = facts.value(name)
    try:
        number = float(value) if value is not None else None
    except ValueError:
        return None
    return number if number is None or math.isfinite(number) else None


def _util_needed(facts: FactView, extra_gib: float, zh: bool = False) -> tuple[str, float | None]:
    """The ``gpu_memory_utilization`` that adds ``extra_gib`` of KV cache, with its arithmetic
    (in Chinese with ``zh``)."""
    total, util = _num(facts, "total_memory_gib"), _num(facts, "gpu_memory_utilization")
    if total is None or util is None or total <= 0:
        missing = [n for n, v in (("total NPU memory", total), ("gpu_memory_utilization", util)) if v is None]
        if zh:
            names = "和".join("NPU 总内存" if n == "total NPU memory" else n for n in missing)
            return (f"日志里没有 {names}（vLLM 在显存 profiling 行 `total_gpu_memory "
                    f"(X GiB) x gpu_memory_utilization (Y)` "
                    "里同时打印两者；vllm-ascend V1 以字节打印 `Available "
                    "memory: N, total memory: M`），所以算不出需要的 "
                    "utilization。", None)
        verb = "are" if len(missing) > 1 else "is"
        return (f"The {' and '.join(missing)} {verb} not in the log (vLLM prints both in its memory-profiling "
                "line `total_gpu_memory (X GiB) x gpu_memory_utilization (Y)`; vllm-ascend V1 prints `Available "
                "memory: N, total memory: M` in bytes), so the utilization needed cannot be computed.", None)
    needed = util + extra_gib / total
    if zh:
        text = f"需要的 gpu_memory_utilization = {util:g} + {extra_gib:.2f} GiB / {total:.2f} GiB = {needed:.3f}"
        if needed > MAX_UTILIZATION:
            text += ("，超过了一张卡能给出的上限（要给 runtime 留约 5%）："
                     "在这些卡上任何 utilization 设置都放不下这个长度")
        return text + "。", needed
    text = (f"gpu_memory_utilization needed = {util:g} + {extra_gib:.2f} GiB / {total:.2f} GiB = {needed:.3f}")
    if needed > MAX_UTILIZATION:
        text += (", more than a card can give (keep ~5% for the runtime): no utilization setting fits this "
                 "length on these cards")
    return text + ".", needed


def utilization_fix(needed: float | None, zh: bool = False) -> str:
    """The fix step that follows from the utilization computed (or not) in the cause."""
    if needed is None:
        if zh:
            return ("或者给 KV cache 腾出空间：用 `--tensor-parallel-size` 增加 NPU，在后端支持时量化 KV cache 或权重，"
                    "卡不与他人共享时也可以调高 `--gpu-memory-utilization`")
        return ("Or make room for the KV cache: add NPUs with `--tensor-parallel-size`, quantize the KV cache or "
                "the weights where the backend supports it, or raise `--gpu-memory-utilization` if the card is "
                "not shared")
    if needed > MAX_UTILIZATION:
        if zh:
            return ("或者在更多卡上给 KV cache 腾空间：增大 "
                    "`--tensor-parallel-size`（或流水线并行），或在后端支持时量化 KV cache 或权重")
        return ("Or make room for the KV cache on more cards: raise `--tensor-parallel-size` (or pipeline "
                "parallelism), or quantize the KV cache or the weights where the backend supports it")
    value = f"{math.ceil(needed * 100) / 100:.2f}"
    if zh:
        return (f"或者在卡不共享时设置 `--gpu-memory-utilization "
                f"{value}`（上面算出），或用 `--tensor-parallel-size` 增加 NPU")
    return (f"Or set `--gpu-memory-utilization {value}` (computed above) if the "
            "card is not shared, or add NPUs with `--tensor-parallel-size`")


@_test(("max_model_len", "fit_len", "arithmetic", "utilization", "utilization_fix"))
def kv_cache_fit(facts: FactView, knowledge, params) -> list[Verdict]:
    """The KV cache the memory budget leaves cannot hold one ``max_model_len`` request: compute the
    longest length that fits and the ``gpu_memory_utilization`` the requested one needs."""
    max_len = _num(facts, "max_model_len")
    if max_len is None or max_len <= 0:
        return []
    tokens = _num(facts, "kv_cache_tokens")
    tokens_fact = facts.fact("kv_cache_tokens")
    if tokens_fact is not None and tokens_fact.extractor != "vllm.kv-error-tokens":
        # V1's "GPU KV cache size" is printed once max_model_len was accepted (and undercounts
        # sliding-window models): only V0's error says the length does not fit
        tokens = None
    available, needed = _num(facts, "kv_cache_available_gib"), _num(facts, "kv_cache_needed_gib")
    block = _num(facts, "block_size")
    estimate = facts.value("max_model_len_estimate")
    evidence = ["max_model_len"]
    if needed is not None and available is not None and needed > available > 0:
        # vLLM V1: needed GiB for one max_model_len request versus the available GiB
        fit_f = max_len * available / needed
        step = int(block) if block else 128  # vllm-ascend's default block size
        fit = int(fit_f) // step * step
        lines = [f"one request of {int(max_len):,} tokens needs {needed:.2f} GiB of KV cache and {available:.2f} GiB "
                 "is available"]
        lines_zh = [f"一个 {int(max_len):,} token 的请求需要 {needed:.2f} GiB KV cache，可用的只有 {available:.2f} GiB"]
        if estimate is not None and abs(int(estimate) - fit_f) <= 0.01 * fit_f + step:
            # vLLM computed it from the unrounded byte counts: the same arithmetic, more precise; the
            # text gives that one figure only
            fit = int(estimate)
            lines.append(f"{int(max_len):,} x {available:.2f} / {needed:.2f} = about {fit_f:,.0f} tokens; vLLM's own "
                         f"estimate from the unrounded byte counts is {fit:,} tokens")
            lines_zh.append(f"{int(max_len):,} x {available:.2f} / "
                            f"{needed:.2f} ≈ {fit_f:,.0f} token；vLLM 按未取整的字节数"
                            f"给出的估计是 {fit:,} token")
            evidence.append("max_model_len_estimate")
        else:
            lines.append(f"{int(max_len):,} x {available:.2f} / {needed:.2f} = {fit_f:,.0f} tokens, rounded down to "
                         f"whole {step}-token blocks: {fit:,}")
            lines_zh.append(f"{int(max_len):,} x {available:.2f} / {needed:.2f} = {fit_f:,.0f} token，按 {step} token "
                            f"的整块向下取整：{fit:,}")
        evidence += ["kv_cache_needed_gib", "kv_cache_available_gib"]
        util_text, util_value = _util_needed(facts, needed - available)
        util_text_zh, _ = _util_needed(facts, needed - available, zh=True)
    elif tokens is not None and tokens < max_len:
        fit = int(tokens)
        lines = [f"the KV cache holds {fit:,} tokens", f"max_model_len is {int(max_len):,}",
                 f"so the longest max_model_len that fits is {fit:,}"]
        lines_zh = [f"KV cache 能放 {fit:,} token", f"max_model_len 是 {int(max_len):,}",
                    f"所以能放下的最大 max_model_len 是 {fit:,}"]
        evidence.append("kv_cache_tokens")
        if available is not None and available > 0:
            per_token = available / tokens
            need_gib = per_token * max_len
            lines.append(f"at {available:.2f} GiB / {fit:,} tokens = {per_token * 1024:.4f} MiB per token, "
                         f"{int(max_len):,} tokens need {need_gib:.2f} GiB of KV cache, {need_gib - available:.2f} GiB "
                         "more than there is")
            lines_zh.append(f"按 {available:.2f} GiB / {fit:,} token = 每 token {per_token * 1024:.4f} MiB 计算，"
                            f"{int(max_len):,} token 需要 {need_gib:.2f} GiB "
                            f"KV cache，比现有的多 {need_gib - available:.2f} GiB")
            evidence.append("kv_cache_available_gib")
            util_text, util_value = _util_needed(facts, need_gib - available)
            util_text_zh, _ = _util_needed(facts, need_gib - available, zh=True)
        else:
            util_value = None
            util_text = ("The KV-cache memory is not in the log (vLLM prints it at INFO level: V1 as `Available KV "
                         "cache memory: N GiB`, V0 in its memory-profiling line as `the rest of the memory reserved "
                         "for KV Cache is N GiB` or `kv_cache_size=N GiB`), so the gpu_memory_utilization needed "
                         "cannot be computed.")
            util_text_zh = ("日志里没有 KV cache 的内存数（vLLM 在 INFO 级别打印："
                            "V1 为 `Available KV cache memory: N GiB`，"
                            "V0 在显存 profiling 行里为 `the rest of the memory reserved for KV Cache is N GiB` 或 "
                            "`kv_cache_size=N GiB`），所以算不出需要的 gpu_memory_utilization。")
    else:
        return []
    for name in ("total_memory_gib", "gpu_memory_utilization"):
        if facts.value(name) is not None and name not in evidence:
            evidence.append(name)
    return [Verdict({"max_model_len": str(int(max_len)), "fit_len": str(fit), "arithmetic": "; ".join(lines) + ".",
                     "utilization": util_text, "utilization_fix": utilization_fix(util_value)}, evidence,
                    {"arithmetic": "；".join(lines_zh) + "。", "utilization": util_text_zh,
                     "utilization_fix": utilization_fix(util_value, zh=True)})]


@_test(("available", "arithmetic", "utilization", "utilization_fix"))
def kv_budget(facts: FactView, knowledge, params) -> list[Verdict]:
    """Memory profiling left no memory (zero or negative) for the KV cache: show where the
    ``gpu_memory_utilization`` budget went and the utilization that would leave some."""
    available = _num(facts, "kv_cache_available_gib")
    if available is None or available > 0:
        return []
    total, util = _num(facts, "total_memory_gib"), _num(facts, "gpu_memory_utilization")
    parts = [(label, _num(facts, name)) for label, name in (
        ("model weights", "model_weights_gib"), ("non-torch memory", "non_torch_memory_gib"),
        ("activation peak", "activation_peak_gib"))]
    known = [(label, v) for label, v in parts if v is not None]
    evidence = ["kv_cache_available_gib"] + [n for n in ("total_memory_gib", "gpu_memory_utilization",
                                                          "model_weights_gib", "non_torch_memory_gib",
                                                          "activation_peak_gib") if facts.value(n) is not None]
    lines, lines_zh = [], []
    names_zh = {"model weights": "模型权重", "non-torch memory": "非 torch 内存", "activation peak": "激活峰值"}
    budget = total * util if total is not None and util is not None else None
    if budget is not None:
        lines.append(f"the budget is {total:.2f} GiB x {util:g} = {budget:.2f} GiB")
        lines_zh.append(f"预算是 {total:.2f} GiB x {util:g} = {budget:.2f} GiB")
    used = sum(v for _, v in known)
    if known:
        listed = " + ".join(f"{label} {v:.2f} GiB" for label, v in known)
        listed_zh = " + ".join(f"{names_zh[label]} {v:.2f} GiB" for label, v in known)
        if budget is not None and abs(budget - used - available) > 0.05:
            # what vLLM counts but the log does not itemise (activations, non-torch memory, other processes)
            listed += f" + other use {budget - used - available:.2f} GiB"
            listed_zh += f" + 其他占用 {budget - used - available:.2f} GiB"
            used = budget - available
        several = len(listed.split(" + ")) > 1
        lines.append(listed + (f" = {used:.2f} GiB" if several else ""))
        lines_zh.append(listed_zh + (f" = {used:.2f} GiB" if several else ""))
    lines.append(f"which leaves {available:.2f} GiB for the KV cache")
    lines_zh.append(f"留给 KV cache 的是 {available:.2f} GiB")
    need: float | None = None
    if budget is not None:
        need = util + (-available) / total  # the utilization at which the KV cache reaches zero
        utilization = (f"The KV cache gets memory only above gpu_memory_utilization {util:g} + {-available:.2f} GiB / "
                       f"{total:.2f} GiB = {need:.3f}, plus what your max_model_len needs.")
        utilization_zh = (f"只有 gpu_memory_utilization 高于 {util:g} + "
                          f"{-available:.2f} GiB / {total:.2f} GiB = {need:.3f}，"
                          "KV cache 才能分到内存，还要再加上 max_model_len 需要的部分。")
    elif total is not None and known:
        need = used / total
        utilization = (f"The KV cache gets memory only above gpu_memory_utilization {used:.2f} / {total:.2f} = "
                       f"{need:.3f} (the weights and activations alone), plus what your max_model_len needs.")
        utilization_zh = (f"只有 gpu_memory_utilization 高于 {used:.2f} / {total:.2f} = {need:.3f}（仅权重和激活），"
                          "KV cache 才能分到内存，还要再加上 max_model_len 需要的部分。")
    else:
        utilization = ("The total NPU memory or the weights are not in the log (vLLM prints `Loading model weights "
                       "took N GiB` and, in its memory-profiling line, `total_gpu_memory (X GiB) x "
                       "gpu_memory_utilization (Y)`), so the utilization needed cannot be computed.")
        utilization_zh = ("日志里没有 NPU 总内存或权重大小（vLLM 会打印 `Loading model weights took N GiB`，并在显存 "
                          "profiling 行打印 `total_gpu_memory (X GiB) "
                          "x gpu_memory_utilization (Y)`），所以算不出需要的 "
                          "utilization。")
    if need is not None and need > MAX_UTILIZATION:
        utilization += " That is more than a card can give: the model does not fit these cards."
        utilization_zh += "这超过了一张卡能给出的上限：模型放不进这些卡。"
        fix = ("Shrink what each card holds: more NPUs with `--tensor-parallel-size`, a quantized checkpoint, or a "
               "lower `--max-num-batched-tokens` / `--max-num-seqs` (the activation peak grows with them)")
        fix_zh = ("减少每张卡上的占用：用 `--tensor-parallel-size` 增加 "
                  "NPU、换量化权重，或调低 `--max-num-batched-tokens` / "
                  "`--max-num-seqs`（激活峰值随它们增长）")
    elif need is not None:
        value = f"{min(math.ceil((need + 0.05) * 100) / 100, MAX_UTILIZATION):.2f}"
        fix = (f"Raise `--gpu-memory-utilization` above {need:.2f} (computed above; e.g. {value}) if no other process "
               "shares the card (check `npu-smi info`)")
        fix_zh = (f"如果没有其他进程共享这张卡（用 `npu-smi info` 确认），把 "
                  f"`--gpu-memory-utilization` 调到 {need:.2f} 以上"
                  f"（上面算出；例如 {value}）")
    else:
        fix = ("If no other process shares the card (check `npu-smi info`), raise `--gpu-memory-utilization`; "
               "otherwise shrink what each card holds (more NPUs, a quantized checkpoint)")
        fix_zh = ("如果没有其他进程共享这张卡（用 `npu-smi info` 确认），调高 "
                  "`--gpu-memory-utilization`；否则减少每张卡上的占用"
                  "（更多 NPU、量化权重）")
    return [Verdict({"available": f"{available:.2f}", "arithmetic": "; ".join(lines) + ".",
                     "utilization": utilization, "utilization_fix": fix}, evidence,
                    {"arithmetic": "；".join(lines_zh) + "。", "utilization": utilization_zh,
                     "utilization_fix": fix_zh})]
