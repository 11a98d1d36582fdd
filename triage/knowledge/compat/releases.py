"""Release checks: vLLM and vllm-ascend paired, torch_npu and torch, the packages vllm-ascend
requires, the CANN minimum, SoC support, the image's SoC, the model's minimum releases."""

from __future__ import annotations

import re

from .verdicts import (
    FactView,
    Verdict,
    _test,
    first_release_supporting,
    model_requirement,
    soc_family,
    soc_label,
    vllm_ascend_release,
)
from .versions import at_least, is_dev_build, parse_version, release_of, same_minor, same_release


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
    built_from: dict[str, str] = {}  # who -> the release a development build is a build of
    va = facts.value("vllm_ascend_version")
    rel = vllm_ascend_release(knowledge, va)
    if rel is not None and rel.cann:
        who = f"vllm-ascend {va}" + ("" if same_release(va, rel.vllm_ascend) else f" (a build of {rel.vllm_ascend})")
        if not same_release(va, rel.vllm_ascend):
            built_from[who] = f"vllm-ascend {va}（{rel.vllm_ascend} 的构建，"
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
                    {"required_by": "和".join(f"{built_from[who]}需要 CANN {n}）" if who in built_from
                                             else f"{who}（需要 CANN {n}）" for n, who, _ in failing), "are": ""})]


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
