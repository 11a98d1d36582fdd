"""The report's language: ``en`` or ``zh``, chosen by ``--lang``, ``TRIAGE_LANG`` or the locale.

Rule texts carry their Chinese in the rule (``zh:``); this module holds the report's own words
(headings, labels, notices) in both languages. Rule ids, layers, severities, captured values,
commands and codes are the same in both.
"""

from __future__ import annotations

import os

LANGS = ("en", "zh")


def resolve_lang(lang: str | None = None) -> str:
    """``lang`` if given, else ``TRIAGE_LANG``, else the locale (``LC_ALL``, ``LC_MESSAGES``,
    ``LANG``: a value beginning with ``zh`` means Chinese), else English. Raises ``ValueError``
    for a language triage does not have."""
    for value in (lang, os.environ.get("TRIAGE_LANG")):
        if value:
            code = value.strip().lower().replace("_", "-")
            if code.startswith("zh"):
                return "zh"
            if code.startswith("en"):
                return "en"
            raise ValueError(f"unknown language `{value}` (choose en or zh)")
    for var in ("LC_ALL", "LC_MESSAGES", "LANG"):
        value = os.environ.get(var)
        if value:  # the first one set decides, as in POSIX
            return "zh" if value.lower().startswith("zh") else "en"
    return "en"


LAYER_ZH = {"hardware": "硬件", "driver": "驱动", "framework": "框架"}

_TEXT: dict[str, dict[str, str]] = {
    "root_cause": {"en": "Root cause", "zh": "根因"},
    "possible_cause": {"en": "Possible cause", "zh": "可能原因"},
    "fix": {"en": "fix", "zh": "处理"},
    "Fix": {"en": "Fix", "zh": "处理建议"},
    "Cause": {"en": "Cause", "zh": "原因"},
    "Evidence": {"en": "Evidence", "zh": "证据"},
    "See": {"en": "See", "zh": "参考"},
    "rule": {"en": "rule", "zh": "规则"},
    "severity": {"en": "severity", "zh": "级别"},
    "seen": {"en": "seen", "zh": "出现"},
    "to": {"en": "to", "zh": "至"},
    "other_findings": {"en": "Other findings", "zh": "其他发现"},
    "symptom_of": {"en": "symptom of", "zh": "由此引起"},
    "environment": {"en": "Environment (read from the log)", "zh": "环境信息（从日志读取）"},
    "also": {"en": "also", "zh": "另有"},
    "unrecognised": {"en": "Unrecognised error lines (no rule explains them)",
                     "zh": "未识别的错误行（没有规则能解释）"},
    "note": {"en": "note", "zh": "注意"},
    "lines_read": {"en": "{n} line read", "zh": "已读 {n} 行"},
    "lines_read_plural": {"en": "{n} lines read", "zh": "已读 {n} 行"},
    "findings_count": {"en": "{n} finding", "zh": "{n} 项发现"},
    "findings_count_plural": {"en": "{n} findings", "zh": "{n} 项发现"},
    "layer_guessed": {"en": "layer guessed from the module that printed it", "zh": "层级由打印该行的模块推断"},
    "legend": {
        "en": "Layers: hardware = the NPU, its memory and links; driver = NPU driver, CANN, HCCL set-up, "
              "container and host set-up; framework = torch_npu, vLLM, MindIE, the model and its launch parameters",
        "zh": "层级：硬件（hardware）= NPU 本身、HBM 与链路；驱动（driver）= NPU 驱动、CANN、HCCL 配置、"
              "容器与主机配置；框架（framework）= torch_npu、vLLM、MindIE、模型及启动参数"},
    "no_known_root": {"en": "No known root cause: {n} unrecognised error line(s); first at {where}",
                      "zh": "未找到已知根因：{n} 条未识别的错误行；第一条在 {where}"},
    "no_error": {"en": "No error found; {n} notice(s) in {lines}", "zh": "未发现错误；{lines} 中有 {n} 条提示"},
    "nothing_read": {"en": "Nothing could be read: see the input errors below",
                     "zh": "没有读到任何内容：见下方输入错误"},
    "empty": {"en": "No problem found in 0 lines: the input was empty", "zh": "0 行中未发现问题：输入为空"},
    "clean": {"en": "No problem found in {lines}", "zh": "{lines}中未发现问题"},
    "incomplete": {"en": "Input incomplete: {what}; {lines} read before it",
                   "zh": "输入不完整：{what}；此前已读 {lines}"},
    "line_word": {"en": "line", "zh": "行"},
    "lines_word": {"en": "lines", "zh": "行"},
    "incidents": {"en": "Incidents", "zh": "独立事件"},
    "incident": {"en": "Incident", "zh": "事件"},
    "cluster": {"en": "Cluster", "zh": "集群"},
    "first_failure": {"en": "failed first", "zh": "最先失败"},
    "symptoms": {"en": "symptoms", "zh": "连带现象"},
    "all_ranks": {"en": "all {n} ranks failed the same way (a common cause: configuration, model or "
                        "software, not one card)",
                  "zh": "全部 {n} 个 rank 以相同方式失败（共性原因：配置、模型或软件，而非单卡故障）"},
    "subset": {"en": "{k} of {n} ranks failed with it (node-local: suspect those cards or nodes)",
               "zh": "{n} 个 rank 中有 {k} 个因此失败（局部故障：重点排查这些卡或节点）"},
    "suspect": {"en": "suspect", "zh": "可疑"},
    "ranks_word": {"en": "ranks", "zh": "rank"},
    "other_incidents": {"en": "Separate incidents", "zh": "其他独立事件"},
}


def t(key: str, lang: str, **values) -> str:
    """The report string ``key`` in ``lang`` with ``{values}`` filled."""
    entry = _TEXT[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text


def lines_phrase(n: int, lang: str) -> str:
    """``1 line`` / ``3 lines`` (``3 行`` in Chinese)."""
    if lang == "zh":
        return f"{n} 行"
    return f"{n} line" if n == 1 else f"{n} lines"


def count_phrase(n: int, singular: str, plural: str | None = None, lang: str = "en") -> str:
    """``1 finding`` / ``2 findings``; Chinese has no plural."""
    if lang == "zh":
        return f"{n} {singular}"
    return f"{n} {singular if n == 1 else (plural or singular + 's')}"


def layer_label(layer: str, lang: str) -> str:
    """The layer name as shown: the English name, or its Chinese name."""
    return LAYER_ZH.get(layer, layer) if lang == "zh" else layer
