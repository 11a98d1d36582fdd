"""The report's language: ``en`` or ``zh``, chosen by ``--lang``, ``TRIAGE_LANG`` or the locale.

Rule texts carry their Chinese in the rule (``zh:``); this module holds the report's own words
(headings, labels, notices) in both languages. Rule ids, layers, severities, captured values,
commands and codes are the same in both.
"""

from __future__ import annotations

import os
import re

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
    "possible_cause_note": {"en": " (possible cause)", "zh": "（可能原因）"},
    "fix": {"en": "fix", "zh": "处理"},
    "Fix": {"en": "Fix", "zh": "处理建议"},
    "Cause": {"en": "Cause", "zh": "原因"},
    "Evidence": {"en": "Evidence", "zh": "证据"},
    "See": {"en": "See", "zh": "参考"},
    "rule": {"en": "rule", "zh": "规则"},
    "severity": {"en": "severity", "zh": "级别"},
    "seen": {"en": "seen", "zh": "出现"},
    "times": {"en": "{n}x", "zh": "{n} 次"},
    "to": {"en": "to", "zh": "至"},
    "ranks": {"en": "ranks {ranks}", "zh": "rank {ranks}"},
    "nodes": {"en": "nodes {nodes}", "zh": "节点 {nodes}"},
    "other_findings": {"en": "Other findings", "zh": "其他发现"},
    "symptom_of": {"en": "symptom of {rule}", "zh": "由 {rule} 引起"},
    "environment": {"en": "Environment (read from the log)", "zh": "环境信息（从日志读取）"},
    "also": {"en": "also", "zh": "另有"},
    "unrecognised": {"en": "Unrecognised error lines (no rule explains them)",
                     "zh": "未识别的错误行（没有规则能解释）"},
    "unexplained": {"en": "unexplained", "zh": "未识别"},
    "note": {"en": "note", "zh": "提示"},
    "truncated_line": {"en": "{where} is {length} bytes long; matched on its first {limit} bytes",
                       "zh": "{where} 长 {length} 字节，只匹配了前 {limit} 字节"},
    "layer_guessed": {"en": "layer guessed from the module that printed it", "zh": "层级由打印该行的模块推断"},
    "legend": {
        "en": "Layers: hardware = the NPU, its memory and links; driver = NPU driver, CANN, HCCL set-up, "
              "container and host set-up; framework = torch_npu, vLLM, MindIE, the model and its launch parameters",
        "zh": "层级：硬件（hardware）= NPU 本身、HBM 与链路；驱动（driver）= NPU 驱动、CANN、HCCL 配置、"
              "容器与主机配置；框架（framework）= torch_npu、vLLM、MindIE、模型及启动参数"},
    "no_known_root": {"en": "No known root cause: {n} unrecognised error line(s); first at {where}",
                      "zh": "未找到已知根因：{n} 条未识别的错误行，第一条在 {where}"},
    "no_error": {"en": "No error found; {n} notice(s) in {lines}", "zh": "未发现错误：{lines}中只有 {n} 条提示"},
    "nothing_read": {"en": "Nothing could be read: see the input errors below",
                     "zh": "没有读到任何内容：见下方的输入错误"},
    "empty": {"en": "No problem found in 0 lines: {what} was empty", "zh": "未发现问题：{what} 为空（0 行）"},
    "clean": {"en": "No problem found in {lines}", "zh": "未发现问题（共 {lines}）"},
    "interrupted": {"en": "Interrupted by {signal} after {lines}, the rest was not read. ",
                    "zh": "读取被 {signal} 中断，只读了 {lines}，其余部分未读。"},
    "restarted_after": {"en": " (in an earlier attempt: the service restarted after it)",
                        "zh": "（发生在较早的一次运行中：服务之后重启了）"},
    "stall_title": {"en": "The log ends waiting: one line repeated {n} times, then nothing",
                    "zh": "日志停在等待上：同一行重复了 {n} 次，之后再无输出"},
    "stall_component": {"en": "the waiting process", "zh": "处于等待的进程"},
    "stall_cause": {"en": "The log ends with this line repeated {n} times and nothing after it: \"{line}\". The "
                          "process may be hung waiting on what it names (a lock, a peer that never arrived, a "
                          "download, a connection) rather than failing.",
                    "zh": "日志以这一行重复 {n} 次结尾，之后再无输出：“{line}”。进程可能卡在它所等待的东西上"
                          "（锁、始终没有到达的对端、下载、连接），而不是报错退出。"},
    "stall_fix_1": {"en": "Check what the line waits for: a stale lock file left by a killed process (remove it once "
                          "no process holds it), a download or a model path that never completes.",
                    "zh": "检查这一行在等什么：被杀进程留下的过期锁文件（确认没有进程持有后删除）、"
                          "一直没有完成的下载或模型路径。"},
    "stall_fix_2": {"en": "In a multi-rank job, check that every rank started and reached the same step: read the "
                          "logs of the ranks that did not print this line (a peer that never arrived).",
                    "zh": "多 rank 任务中，确认每个 rank 都已启动并到达同一步：查看没有打印这一行的 rank 的日志"
                          "（从未到达的对端）。"},
    "stall_fix_3": {"en": "If the process is still running, take its stacks (`py-spy dump --pid <pid>`) to see where "
                          "it waits.",
                    "zh": "如果进程仍在运行，抓取它的调用栈（`py-spy dump --pid <pid>`）查看它卡在哪里。"},
    "stall_headline": {"en": "Possible stall: {title}", "zh": "可能卡住：{title}"},
    "ended_by": {"en": "Reading ended by {signal} after {lines}. ", "zh": "读取在 {lines}后由 {signal} 结束。"},
    "other_incidents": {"en": "Separate incidents", "zh": "独立事件"},
    "no_error_finding": {"en": "no error-level finding", "zh": "没有 error 级别的发现"},
    "cluster": {"en": "Cluster", "zh": "集群"},
    "first_failure": {"en": "First failure", "zh": "最先失败"},
    "symptom": {"en": "Symptom", "zh": "连带现象"},
    "some_inputs": {"en": "some inputs", "zh": "部分输入"},
    "symptom_line": {"en": "{who}: {rule}, caused by {cause}", "zh": "{who}出现 {rule}，由 {cause} 引起"},
    "world_size": {"en": "world size {n}", "zh": "world size 为 {n}"},
    "all_ranks": {"en": "all {n} ranks failed the same way (a common cause: configuration, model or "
                        "software, not one card)",
                  "zh": "全部 {n} 个 rank 以相同方式失败（共性原因：配置、模型或软件，而非单卡故障）"},
    "subset": {"en": "{k} of {n} ranks failed with it (node-local: suspect those cards or nodes)",
               "zh": "{n} 个 rank 中有 {k} 个因此失败（局部故障：重点排查这些卡或节点）"},
    "suspect": {"en": "Suspect", "zh": "可疑"},
    "waits_only": {"en": "No rank here shows a cause: every rank that reported only waited or timed out; the "
                         "cause is in a log not read here or on a rank that printed nothing (the suspects)",
                   "zh": "这里没有任何 rank 报出原因：报错的 rank 都只是在等待或超时；原因在未读入的日志里，"
                         "或在什么都没打印的 rank 上（见可疑 rank）"},
    "rules_digest": {"en": "rules {digest}", "zh": "规则库 {digest}"},
    "compat_digest": {"en": "compat {digest}", "zh": "配套表 {digest}"},
    # Markdown
    "md_layer_line": {"en": "Layer `{layer}`, component {component}, severity {severity} (`{rule}`, seen {count}x)",
                      "zh": "层级 `{layer}`，组件 {component}，级别 {severity}（`{rule}`，出现 {count} 次）"},
    "md_findings_header": {"en": "| severity | finding | layer / component | rule | first seen | count |",
                           "zh": "| 级别 | 发现 | 层级 / 组件 | 规则 | 首次出现 | 次数 |"},
    "md_environment_header": {"en": "| environment | value | line |", "zh": "| 环境 | 值 | 位置 |"},
    "md_also": {"en": " (also {values})", "zh": "（另有 {values}）"},
    "md_symptom_of": {"en": " (symptom of `{rule}`)", "zh": "（由 `{rule}` 引起）"},
    "md_unrecognised": {"en": "**Unrecognised error lines** (no rule explains them):",
                        "zh": "**未识别的错误行**（没有规则能解释）："},
    "md_input_errors": {"en": "**Input not read in full** ({inputs}):", "zh": "**未能读完的输入**（{n} 个）："},
    "md_notes": {"en": "**Notes**:", "zh": "**提示**："},
    "md_other_evidence": {"en": "Evidence of the other findings", "zh": "其他发现的证据"},
    "md_references": {"en": "References: ", "zh": "参考："},
    # HTML (render/html.py, render/timeline.py)
    "html_title": {"en": "triage report", "zh": "triage 诊断报告"},
    "html_root": {"en": "Root cause", "zh": "根因"},
    "html_findings": {"en": "Findings", "zh": "发现"},
    "html_compat": {"en": "Compatibility checks", "zh": "配套检查"},
    "html_timeline": {"en": "Timeline", "zh": "时间线"},
    "html_where": {"en": "layer {layer} · component {component} · severity {severity} · rule {rule} · seen {n}x",
                   "zh": "层级 {layer} · 组件 {component} · 级别 {severity} · 规则 {rule} · 出现 {n} 次"},
    "tl_title": {"en": "Timeline of the ranks", "zh": "各 rank 的时间线"},
    "tl_rank": {"en": "rank {ranks}", "zh": "rank {ranks}"},
    "tl_ranks_n": {"en": "ranks {ranks} (x{n})", "zh": "rank {ranks}（{n} 个）"},
    "tl_no_node": {"en": "(node unknown)", "zh": "（节点未知）"},
    "tl_several_nodes": {"en": "several nodes", "zh": "多个节点"},
    "tl_caption": {"en": "One row per rank ({n}), grouped by node; time runs left to right.",
                   "zh": "每个 rank 一行（共 {n} 个），按节点分组；时间从左到右。"},
    "tl_causal": {"en": "{ranks} without comparable times drawn in causal order (cause, errors, timeouts, "
                        "waits, restarts) on a dashed lane, not by time.",
                  "zh": "{ranks} 没有可比较的时间，按因果顺序绘制在虚线上（原因、错误、超时、等待、重启），不按时间。"},
    "tl_collapsed": {"en": "Ranks with identical marks are collapsed into one row with their count ({rows} rows).",
                     "zh": "标记相同的 rank 合并为一行并注明数量（共 {rows} 行）。"},
    "tl_first": {"en": "first failure", "zh": "最先失败"},
    "tl_error": {"en": "error", "zh": "错误"},
    "tl_timeout": {"en": "timeout", "zh": "超时"},
    "tl_wait": {"en": "wait", "zh": "等待"},
    "tl_restart": {"en": "restart", "zh": "重启"},
    "md_footer": {"en": "{lines} read · triage {version} · rules {digest}",
                  "zh": "已读 {n} 行 · triage {version} · 规则库 {digest}"},
}

_CONFIDENCE_ZH = {"confirmed": "已证实", "likely": "很可能", "hypothesis": "推测"}

# The report's own notices and the cluster's reasons are built in English (they are data, the same in
# every output); a Chinese report shows them through these patterns. A notice no pattern knows is
# shown as it is.
_NOTICES_ZH: list[tuple[re.Pattern[str], str]] = [
    (re.compile(r"^(?P<label>.+): skipped: binary file, not a log \(--text reads it anyway\)$"),
     "{label}：已跳过：二进制文件，不是日志（加 --text 可强制按文本读取）"),
    (re.compile(r"^(?P<label>.+) was (?P<why>re-created|truncated) after line (?P<n>\d+) \(rotated\): the lines "
                r"after that are numbered from 1 in the new text$"),
     "{label} 在第 {n} 行之后被{why}（日志轮转）：此后的行按新文件从 1 重新编号"),
    (re.compile(r"^(?P<where>.+?): rule (?P<rule>\S+) gave up after (?P<s>[\d.]+) s on regex (?P<regex>.+) "
                r"\(the line is treated as not matching\)$"),
     "{where}：规则 {rule} 的正则 {regex} 运行超过 {s} 秒后放弃（该行按未匹配处理）"),
    (re.compile(r"^(?P<where>.+?): vllm-ascend (?P<version>\S+) is a development build: the release tables were "
                r"not applied to it$"),
     "{where}：vllm-ascend {version} 是开发版本，没有套用版本配套表"),
    (re.compile(r"^the summaries were made with different rules \(rules digests (?P<digests>.+)\): findings of "
                r"rules that differ may be missing$"),
     "这些 summary 由不同的规则库生成（规则库摘要 {digests}）：规则有差异的发现可能缺失"),
    (re.compile(r"^the summaries were made with rules (?P<theirs>\S+), these are (?P<ours>\S+): findings of "
                r"rules that differ may be missing$"),
     "这些 summary 由规则库 {theirs} 生成，当前为 {ours}：规则有差异的发现可能缺失"),
    # the cluster's suspects
    (re.compile(r"^printed nothing while every other rank timed out waiting$"),
     "没有打印任何内容，而其他 rank 都在等待中超时"),
    (re.compile(r"^never joined the communicator \((?P<rule>[^)]+)\)$"), "一直没有加入通信域（{rule}）"),
    (re.compile(r"^the peer rank (?P<rank>\S+) waited for \((?P<rule>[^)]+)\)$"), "rank {rank} 在等待它（{rule}）"),
]
_ROTATED_ZH = {"re-created": "重新创建", "truncated": "截断"}

# Chinese labels of the environment facts (compat/facts.yaml names them in English); a fact not
# listed keeps its label.
FACT_LABEL_ZH = {
    "cann_version": "CANN toolkit 版本", "driver_version": "NPU 驱动版本", "soc": "NPU 芯片",
    "image": "容器镜像", "model": "模型", "architecture": "模型架构", "quantization": "量化方式",
    "max_model_len": "max_model_len（token）", "tensor_parallel_size": "张量并行数（TP）",
    "pipeline_parallel_size": "流水线并行数（PP）", "data_parallel_size": "数据并行数（DP）",
    "world_size": "world size（rank 数）",
    "block_size": "KV cache block 大小（token）", "total_memory_gib": "NPU 显存总量（GiB）",
    "model_weights_gib": "模型权重（GiB）", "non_torch_memory_gib": "非 torch 显存（GiB）",
    "activation_peak_gib": "激活峰值（GiB）", "kv_cache_available_gib": "可用 KV cache（GiB）",
    "kv_cache_needed_gib": "一个 max_model_len 请求所需的 KV cache（GiB）",
    "kv_cache_tokens": "KV cache 容量（token）", "kv_cache_blocks": "KV cache block 数",
    "max_model_len_estimate": "vLLM 估算的能放下的最大 max_model_len",
}


def t(key: str, lang: str, **values) -> str:
    """The report string ``key`` in ``lang`` with ``{values}`` filled."""
    entry = _TEXT[key]
    text = entry.get(lang) or entry["en"]
    return text.format(**values) if values else text


def layer_label(layer: str, lang: str) -> str:
    """The layer name as shown: the English name, or its Chinese name."""
    return LAYER_ZH.get(layer, layer) if lang == "zh" else layer


def times(n: int, lang: str) -> str:
    """``3x`` (``3 次`` in Chinese): how often a finding was seen."""
    return t("times", lang, n=n)


def confidence_label(confidence: str, lang: str) -> str:
    """A rule's confidence as shown (``confirmed``, ``likely``, ``hypothesis``; in Chinese 已确认 ...)."""
    return _CONFIDENCE_ZH.get(confidence, confidence) if lang == "zh" else confidence


def localise(text: str, lang: str) -> str:
    """A notice or a suspect's reason (built in English) in ``lang``; unknown text is kept as it is."""
    if lang != "zh":
        return text
    for pattern, template in _NOTICES_ZH:
        m = pattern.match(text)
        if m:
            values = m.groupdict()
            if "why" in values:
                values["why"] = _ROTATED_ZH.get(values["why"], values["why"])
            return template.format(**values)
    return text


def fact_label(name: str, label: str, lang: str) -> str:
    """An environment fact's label as shown: its English label, or the Chinese one when known."""
    return FACT_LABEL_ZH.get(name, label) if lang == "zh" else label
