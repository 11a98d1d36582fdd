"""Reasoners: findings drawn from facts and the compatibility tables, not from one error line.

Each test reads the facts it needs and returns one :class:`Verdict` per problem, or nothing when
the facts are consistent or unknown (a check never guesses a missing version). The words the user
reads (title, cause, fix) live in ``compat/checks.yaml``; the values computed here fill them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from .schema import ModelRequirement, VllmAscendRelease
from .versions import at_least, is_dev_build, parse_version, release_of, same_minor, same_release


class FactView(Protocol):
    def value(self, name: str) -> str | None: ...

    def fact(self, name: str): ...


@dataclass
class Verdict:
    """One problem found: ``values`` for the texts, ``facts`` whose lines are the evidence, and
    ``values_zh``: the values that are prose, in Chinese (the others are the same in both)."""

    values: dict[str, str]
    facts: list[str] = field(default_factory=list)
    values_zh: dict[str, str] = field(default_factory=dict)

    def values_for(self, lang: str) -> dict[str, str]:
        """The values in ``lang`` (``zh`` overrides the prose values)."""
        return {**self.values, **self.values_zh} if lang == "zh" else self.values


@dataclass(frozen=True)
class Test:
    """A reasoner, the placeholder ``values`` it fills and the ``params`` it accepts."""

    fn: Callable
    values: tuple[str, ...]
    params: tuple[str, ...] = ()


TESTS: dict[str, Test] = {}


def _test(values: tuple[str, ...], params: tuple[str, ...] = ()):
    def register(fn):
        TESTS[fn.__name__] = Test(fn, values, params)
        return fn
    return register


# -- lookups ------------------------------------------------------------------------------------

def vllm_ascend_release(knowledge, version: str | None) -> VllmAscendRelease | None:
    """The table entry of vllm-ascend ``version`` (a tagged release; dev builds have none)."""
    if version is None or knowledge.vllm_ascend is None or is_dev_build(version):
        return None
    v = parse_version(version)
    if v is not None and v.dev is not None and v.pre is None:
        # a development build of X.Y.Z (0.7.3-dev) precedes X.Y.Z's first release candidate
        line = [r for r in knowledge.vllm_ascend.releases
                if (parse_version(r.vllm_ascend) or v).base_version == v.base_version]
        return line[-1] if line else None  # the table is newest first
    for rel in knowledge.vllm_ascend.releases:
        if same_release(version, rel.vllm_ascend) and same_release(rel.vllm_ascend, version):
            return rel
    return None


def soc_family(knowledge, name: str | None) -> str | None:
    """The family (``910B``, ``910_93``, ``310P``, ``910``) of a chip name as logs print it."""
    fam = soc_entry(knowledge, name)
    return fam.family if fam else None


def soc_label(knowledge, family: str) -> str:
    """The report name of a family (``Atlas A2 (Ascend 910B)``); the family itself if unknown."""
    fams = knowledge.socs.families if knowledge.socs else []
    return next((f.label for f in fams if f.family == family), family)


def soc_entry(knowledge, name: str | None):
    """The :class:`~triage.compat.schema.SocFamily` of a chip name, or None."""
    if name is None or knowledge.socs is None:
        return None
    key = name.replace(" ", "").lower()
    keys = {key, key.removeprefix("ascend"), "ascend" + key.removeprefix("ascend")}
    for fam in knowledge.socs.families:
        if any(n.replace(" ", "").lower() in keys for n in fam.names):
            return fam
    return None


def first_release_supporting(knowledge, family: str, since: str) -> str | None:
    """The oldest vllm-ascend release at or after ``since`` whose SoC list has ``family`` (the table
    is sorted newest first by the loader), or None."""
    releases = [r.vllm_ascend for r in knowledge.vllm_ascend.releases
                if family in r.socs and at_least(r.vllm_ascend, since)]
    return releases[-1] if releases else None


def model_requirement(knowledge, facts: FactView) -> ModelRequirement | None:
    """The table entry of the log's model architecture (or, failing that, its ``model_type``)."""
    if knowledge.models is None:
        return None
    arch, mtype = facts.value("architecture"), facts.value("model_type")
    for m in knowledge.models.models:
        if arch is not None and m.architecture == arch:
            return m
    for m in knowledge.models.models:
        if mtype is not None and m.model_type == mtype:
            return m
    return None


# -- version pairings ---------------------------------------------------------------------------

@_test(("vllm_ascend_version", "vllm_version", "expected_vllm", "pairing_release"))
def vllm_pairing(facts: FactView, knowledge, params) -> list[Verdict]:
    """vllm-ascend and vLLM must come from the same release line (the plugin patches vLLM internals)."""
    va, v = facts.value("vllm_ascend_version"), facts.value("vllm_version")
    rel = vllm_ascend_release(knowledge, va)
    if rel is None or v is None or is_dev_build(v):
        return []
    if any(same_release(v, want) for want in rel.vllm):
        return []
    pairing = [r.vllm_ascend for r in knowledge.vllm_ascend.releases if any(same_release(v, w) for w in r.vllm)]
    pairing_text = (f"vllm-ascend {pairing[0]}" if pairing else
                    f"no vllm-ascend release (none is built for vLLM {v})")
    return [Verdict({"vllm_ascend_version": va, "vllm_version": v, "expected_vllm": " or ".join(rel.vllm),
                     "pairing_release": pairing_text}, ["vllm_ascend_version", "vllm_version"])]


@_test(("torch_npu_version", "torch_version", "expected_torch"))
def torch_npu_torch(facts: FactView, knowledge, params) -> list[Verdict]:
    """torch_npu X.Y.Z[.postN] extends PyTorch X.Y.Z and loads only into that release."""
    tn, t = facts.value("torch_npu_version"), facts.value("torch_version")
    if tn is None or t is None:
        return []
    expected = None
    if knowledge.torch_npu is not None:
        for rel in knowledge.torch_npu.releases:
            if same_release(tn, rel.torch_npu):
                expected = rel.torch
                break
    if expected is None:
        v = parse_version(tn)
        if v is None or len(v.release) < 3:
            return []
        expected = ".".join(map(str, v.release[:3]))
    if same_minor(t, expected):
        return []
    return [Verdict({"torch_npu_version": tn, "torch_version": t, "expected_torch": expected},
                    ["torch_npu_version", "torch_version"])]


@_test(("vllm_ascend_version", "package", "found_version", "expected_version"), ("fact", "package"))
def vllm_ascend_requires(facts: FactView, knowledge, params) -> list[Verdict]:
    """A vllm-ascend release is built against one PyTorch / torch_npu release (``params.fact`` is
    ``torch_version`` or ``torch_npu_version``; the table column is the fact name without ``_version``)."""
    fact = params["fact"]
    va, found = facts.value("vllm_ascend_version"), facts.value(fact)
    rel = vllm_ascend_release(knowledge, va)
    if rel is None or found is None:
        return []
    wanted = getattr(rel, fact.removesuffix("_version"))
    if not wanted or any(same_minor(found, w) for w in wanted):
        return []
    return [Verdict({"vllm_ascend_version": va, "package": params.get("package", fact), "found_version": found,
                     "expected_version": " or ".join(wanted)}, ["vllm_ascend_version", fact])]


@_test(("cann_version", "required_cann", "required_by", "are"))
def cann_minimum(facts: FactView, knowledge, params) -> list[Verdict]:
    """CANN older than the one the installed vllm-ascend or torch_npu release is built with."""
    cann = facts.value("cann_version")
    if cann is None:
        return []
    needs: list[tuple[str, str, str]] = []  # (cann, who, fact)
    va = facts.value("vllm_ascend_version")
    rel = vllm_ascend_release(knowledge, va)
    if rel is not None and rel.cann:
        who = f"vllm-ascend {va}" + ("" if same_release(va, rel.vllm_ascend) else f" (a build of {rel.vllm_ascend})")
        needs.append((rel.cann, who, "vllm_ascend_version"))
    tn = facts.value("torch_npu_version")
    tv = parse_version(tn) if tn is not None else None
    # a nightly torch_npu (2.5.1.dev20250308) precedes the release the table describes: not judged;
    # nor is the torch_npu a vllm-ascend release ships with (the release's own CANN is the measure)
    own = rel is not None and any(same_release(tn, t) for t in rel.torch_npu) if tn is not None else False
    if tn is not None and tv is not None and tv.dev is None and not own and knowledge.torch_npu is not None:
        for t in knowledge.torch_npu.releases:
            if t.cann and same_release(tn, t.torch_npu):
                lowest = min(t.cann, key=lambda c: release_of(c) or release_of("0"))
                needs.append((lowest, f"torch_npu {tn}", "torch_npu_version"))
                break
    failing = [(need, who, f) for need, who, f in needs if at_least(cann, need) is False]
    if not failing:
        return []
    need, _, _ = max(failing, key=lambda n: release_of(n[0]))
    return [Verdict({"cann_version": cann, "required_cann": need,
                     "required_by": " and ".join(f"{who} (CANN {n})" for n, who, _ in failing),
                     "are": "are" if len(failing) > 1 else "is"},
                    ["cann_version", *[f for *_, f in failing]],
                    {"required_by": "和".join(f"{who}（CANN {n}）" for n, who, _ in failing), "are": ""})]


@_test(("soc", "soc_family", "vllm_ascend_version", "supported", "advice"))
def soc_supported(facts: FactView, knowledge, params) -> list[Verdict]:
    """The installed vllm-ascend release does not support the NPU generation of this machine."""
    soc = facts.value("soc")
    family = soc_family(knowledge, soc)
    rel = vllm_ascend_release(knowledge, facts.value("vllm_ascend_version"))
    if family is None or rel is None or not rel.socs or family in rel.socs:
        return []
    label = soc_label(knowledge, family)
    newer = first_release_supporting(knowledge, family, rel.vllm_ascend)
    advice = (f"Install vllm-ascend {newer} or later (the first release from yours on that lists {label}) with its "
              "matching vLLM, or its official image variant for this chip" if newer else
              f"No vllm-ascend release supports {label}: run on supported hardware, or use a framework whose "
              "release notes list this chip (for example a MindIE release)")
    advice_zh = (f"安装 vllm-ascend {newer} 或更新版本（从你的版本往后第一个支持 {label} 的版本）及与之匹配的 vLLM，"
                 "或使用该芯片对应的官方镜像" if newer else
                 f"没有任何 vllm-ascend 版本支持 {label}：请换到受支持的硬件，"
                 f"或改用发布说明中列出此芯片的框架（例如某个 MindIE 版本）")
    return [Verdict({"soc": soc, "soc_family": label, "vllm_ascend_version": rel.vllm_ascend,
                     "supported": ", ".join(soc_label(knowledge, f) for f in rel.socs), "advice": advice},
                    ["soc", "vllm_ascend_version"], {"advice": advice_zh})]


@_test(("image", "image_soc", "soc", "soc_family", "advice"))
def image_soc(facts: FactView, knowledge, params) -> list[Verdict]:
    """An official vllm-ascend image built for one NPU generation runs on another."""
    image, soc = facts.value("image"), facts.value("soc")
    family = soc_family(knowledge, soc)
    table = knowledge.vllm_ascend
    if image is None or family is None or table is None or "vllm-ascend:" not in image:
        return []
    tag = image.rsplit(":", 1)[1].lower()
    parts = tag.split("-")[1:]  # v0.9.1-310p-openeuler -> ["310p", "openeuler"]
    variants = {v.suffix.lower(): v.soc for v in table.image_variants}
    neutral = {s.lower() for s in table.image_neutral_suffixes}
    if any(p not in variants and p not in neutral for p in parts):
        return []  # a tag this table does not know: no verdict
    built_for = next((variants[p] for p in parts if p in variants), table.image_default_soc)
    if built_for is None or built_for == family:
        return []
    if family not in variants.values() and family != table.image_default_soc:
        return []  # no image exists for this chip: the release check says so, not this one
    suffix = next((f"-{v.suffix}" for v in table.image_variants if v.soc == family), "")
    rel = vllm_ascend_release(knowledge, facts.value("vllm_ascend_version"))
    release = None
    if rel is not None and family in rel.socs:
        release = rel.vllm_ascend
    elif rel is not None:
        release = first_release_supporting(knowledge, family, rel.vllm_ascend)
    label = soc_label(knowledge, family)
    advice = (f"Use the {label} build of the image: tag `v{release}{suffix}`" if release else
              f"Use the {label} build of an image release that supports it (tag suffix `{suffix}`)" if suffix else
              f"Use the plain tag of an image release that supports {label}")
    advice_zh = (f"使用该镜像的 {label} 版本：tag `v{release}{suffix}`" if release else
                 f"使用支持它的镜像版本中的 {label} 构建（tag 后缀 `{suffix}`）" if suffix else
                 f"使用支持 {label} 的镜像版本的普通 tag")
    return [Verdict({"image": image, "image_soc": soc_label(knowledge, built_for), "soc": soc,
                     "soc_family": label, "advice": advice}, ["image", "soc"], {"advice": advice_zh})]


@_test(("architecture", "family", "package", "found_version", "required_version"), ("package",))
def model_minimum(facts: FactView, knowledge, params) -> list[Verdict]:
    """The model's architecture is newer than the installed vLLM / vllm-ascend / transformers."""
    package = params["package"]  # vllm | vllm_ascend | transformers
    req = model_requirement(knowledge, facts)
    if req is None:
        return []
    minimum = getattr(req, f"{package}_min")
    found = facts.value(f"{package}_version")
    if minimum is None or found is None or is_dev_build(found):
        return []  # a development build's code lies between releases: not judged
    if package == "vllm_ascend" and any(same_release(found, also) for also in req.vllm_ascend_also):
        return []
    if at_least(found, minimum) is not False:
        return []
    names = {"vllm": "vLLM", "vllm_ascend": "vllm-ascend", "transformers": "transformers"}
    evidence = ["architecture" if facts.value("architecture") else "model_type", f"{package}_version"]
    family = re.sub(r"\s*\(.*\)$", "", req.family)  # "Qwen3-Next (Qwen3-Next-80B-A3B)" -> "Qwen3-Next"
    return [Verdict({"architecture": req.architecture, "family": family, "package": names[package],
                     "found_version": found, "required_version": minimum}, evidence)]


# -- memory arithmetic --------------------------------------------------------------------------

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
