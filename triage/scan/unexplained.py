"""When no rule knows the line: pick the most telling unexplained error line and let it speak.

When the best finding is a generic wrapper (``EI9999: Inner Error!``, ``ERR00100``, a bare
``RuntimeError``) or there is none, an error line that no rule explains but that states a message
(a plog ``[ERROR]`` with its text, an error-code block with a reason, a Python exception with a
message) leads as a finding of its own, ``unexplained.<kind>``: ranked above the generic wrappers
and below every specific rule, its layer inferred from the module that printed it (and marked as
a guess), its cause quoting the line, its fix telling how to find out more. Such a line also leads
over a peer wait (an HCCL timeout or failed link on another rank) when it is the earlier error of
the rank that wait waited for (see :mod:`triage.diagnose.verdict`); its cause then says so.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from triage.knowledge.compat.schema import Convention, StackPackage
from triage.logformat.normalize import message_of, normalize
from triage.scan.summary import SUnrecognised

# What a plog module name says about the layer: CANN's own modules are the driver layer.
_FRAMEWORK_MODULES = {"ATB", "MINDIE", "MINDIE_LLM", "LLM", "PTA", "TORCH_NPU", "VLLM"}
_PLOG_MODULE = re.compile(r"^\[ERROR\] ([A-Za-z_][\w-]*)\(\d+,")
_PY_EXC = re.compile(r"^((?:[A-Za-z_]\w*\.)*([A-Za-z_]\w*(?:Error|Exception|Failure|Interrupt)))(?:: (.*))?$")
_CODE = re.compile(r"\b(E[A-Z0-9]\d{4}|ERR\d{5})\b")
_REASON = re.compile(r"(?:Reason|reason)\s*[:=]\s*\[?(.+?)\]?\s*$|reason=\[([^\]]+)\]")
# lines that carry no message of their own: call-stack echoes and bare wrappers
_NOISE = re.compile(
    r"^(?:call trace|\[?Error\]?$|Traceback|TraceBack|.{0,6}$)|"
    r"(?:Inner Error!?|see above|Please check the log|call acl api failed|call hccl api failed)\s*\.?$|"
    # torch_npu ProcessGroupHCCL's follow-up lines after any failed collective (the failure is above)
    r"^(?:Some HCCL operations have failed or timed out\.|To avoid data inconsistency, we are taking the entire)",
    re.IGNORECASE)

_KIND_LABEL = {
    "en": {"python-exception": "a Python exception", "error-code": "an error code line",
           "plog-error": "a CANN plog [ERROR] line", "compile-error": "a compiler error",
           "cann-error-stack": "a line of CANN's error stack", "fatal-log": "a vLLM CRITICAL line",
           "torch-log-error": "a torch / torch_npu error log line"},
    "zh": {"python-exception": "Python 异常", "error-code": "错误码行", "plog-error": "CANN plog [ERROR] 行",
           "compile-error": "编译错误", "cann-error-stack": "CANN 错误堆栈行", "fatal-log": "vLLM CRITICAL 级别日志行",
           "torch-log-error": "torch / torch_npu 的错误日志行"},
}


_NOISE_PARTS = re.compile(r"\[PID: ?\d+\]\s*|\s*\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]")
_STAMP = re.compile(r"(?<=: )\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d+)*\s*")
# torch's c10 log header: [E1201 06:31:02.635343200 compiler_depend.ts:444]
_C10_HEADER = re.compile(r"^\[[FEWIV]\d{3,4} \d\d:\d\d:\d\d\.\d+ [^\s\]]+:\d+\] ")


def message(u: SUnrecognised) -> str:
    """The message a line states: the text after a plog / torch_npu / c10 log header and process
    prefixes, without a CANN error block's ``[PID: N]``, its time stamp and ``[FUNC:..][FILE:..][LINE:..]``."""
    return _STAMP.sub("", _NOISE_PARTS.sub("", _C10_HEADER.sub("", message_of(normalize(u.text))))).strip()


_FRAME = re.compile(r'^(?:Traceback \(most recent call last\)|File "|During handling of the above exception|'
                    r'The above exception was the direct cause)')


def is_frame(u: SUnrecognised) -> bool:
    """Whether the line's message is a traceback's header or frame (under a logger's ERROR prefix):
    the exception line that ends the traceback is the telling one."""
    return bool(_FRAME.match(message(u)))


def says_something(u: SUnrecognised) -> bool:
    """Whether the line states a message worth leading with (not a bare wrapper or a stack echo)."""
    text = message(u)
    if u.kind not in _KIND_LABEL["en"]:  # a program's own error line (compat/conventions.yaml): short is fine
        return not _FRAME.match(text) and len(text) >= 4
    if _NOISE.search(text):
        return False
    if u.kind == "python-exception":
        m = _PY_EXC.match(normalize(u.text).strip())
        return bool(m and m.group(3) and len(m.group(3).strip()) >= 8)
    return len(text) >= 12


def _score(u: SUnrecognised, order: Mapping[str, int]) -> int:
    text = message(u)
    if u.kind == "error-code" and _REASON.search(text):
        return 0
    score = {"plog-error": 1, "python-exception": 2, "torch-log-error": 2, "compile-error": 3, "error-code": 4,
             "cann-error-stack": 5, "fatal-log": 6}.get(u.kind)
    return score if score is not None else 7 + order.get(u.kind, len(order))


def pick(lines: list[SUnrecognised], order: Mapping[str, int] | None = None) -> SUnrecognised | None:
    """The most telling unexplained line: one that states a message, by kind (an error code with
    a reason, a plog [ERROR], a Python exception with a message..., then the programs' conventions
    in ``order``: kind -> position in compat/conventions.yaml), then the earliest. Lines of CANN's
    error stack (``...[FUNC:x][FILE:y][LINE:n]``) echo a call chain: they never lead."""
    candidates = [u for u in lines if u.kind != "cann-error-stack" and says_something(u)]
    if not candidates:
        return None
    return min(candidates, key=lambda u: (_score(u, order or {}), u.file, u.line))


def component_and_layer(u: SUnrecognised, conventions: Mapping[str, Convention] | None = None,
                        packages: Mapping[str, StackPackage] | None = None) -> tuple[str, str]:
    """(component, layer) inferred from the module that printed the line; for a line of a program's
    error-line convention (``conventions``: kind -> :class:`Convention`), the convention's; for an
    exception raised inside a package of the stack (``packages``: name -> :class:`StackPackage`,
    the innermost traceback frame in it), that package's."""
    convention = (conventions or {}).get(u.kind)
    if convention is not None:
        return convention.component, convention.layer
    package = (packages or {}).get(u.frame[0]) if u.frame else None
    if package is not None:
        return package.label, package.layer
    line = normalize(u.text)
    m = _PLOG_MODULE.match(line)
    if m:
        module = m.group(1).upper()
        return m.group(1), ("framework" if module in _FRAMEWORK_MODULES else "driver")
    if u.kind == "python-exception":
        em = _PY_EXC.match(line.strip())
        top = em.group(1).split(".")[0] if em and "." in em.group(1) else None
        # an exception class is no component: its package when it names one of the stack, else Python
        if top and top in (packages or {}):
            return packages[top].label, packages[top].layer
        return "Python", "framework"
    if u.kind == "fatal-log":
        return "vLLM", "framework"
    if u.kind == "torch-log-error":
        return "torch_npu", "framework"
    code = _CODE.search(line)
    if code:
        c = code.group(1)
        if c.startswith("ERR"):
            return "torch_npu", "framework"
        return "CANN", "driver"
    if "[ERROR] " in line and "(PID:" in line:
        return "torch_npu", "framework"
    return ("build" if u.kind == "compile-error" else "CANN"), ("framework" if u.kind == "compile-error" else "driver")


#: a leading ``[2026-05-11 11:19:09]`` / ``[2026-05-11 11:19:09.123 TP0]`` (sglang's logger): no search term
_STAMP = re.compile(r"^\[\d{4}-\d\d-\d\d[ T]\d\d:\d\d:\d\d(?:[.,]\d+)?(?: [^\]]{1,80})?\] ")


def core_of(text: str, limit: int = 80) -> str:
    """The stable core of a message for searching: the reason when stated, numbers and paths kept."""
    m = _REASON.search(text)
    core = (m.group(1) or m.group(2)) if m else _STAMP.sub("", text, count=1)
    core = re.sub(r"\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]", "", core).strip()
    return core[:limit].rstrip()


def kind_label(kind: str, lang: str, conventions: Mapping[str, Convention] | None = None) -> str:
    """What a kind of unexplained line is, in ``lang`` ("a Python exception", "a pip error line")."""
    convention = (conventions or {}).get(kind)
    if convention is not None:
        return convention.label_zh if lang == "zh" else convention.label
    return _KIND_LABEL.get(lang, _KIND_LABEL["en"]).get(kind, kind)


def texts(u: SUnrecognised, lang: str, component: str, waited_by: str | None = None,
          conventions: Mapping[str, Convention] | None = None,
          version: str | None = None) -> tuple[str, str, list[str]]:
    """(title, cause, fix steps) of the finding an unexplained line becomes; ``waited_by``: the id of
    the peer wait (an HCCL timeout on another rank) that came after it and waited for it (the line then
    states its rank: :func:`triage.diagnose.peers._waits_for` requires one)."""
    who = f"rank {(u.origin or {}).get('rank')}"
    msg = message(u)
    core = core_of(msg)
    kind = kind_label(u.kind, lang, conventions)
    own = u.kind in (conventions or {})  # a program's own error line (pip, make, kubectl...): no plog to read
    # where it was raised: the innermost frame in the stack's package, and the version the log states
    raised = ""
    if u.frame is not None:
        module, func = u.frame[1], u.frame[2]
        at = f"{module}.{func}" if func != "<module>" else module
        if lang == "zh":
            raised = f"，抛出位置：{at}（{module.replace('.', '/')}.py 第 {u.frame[3]} 行）" + (
                f"，日志中的版本：{version}" if version else "")
        else:
            raised = f", raised in {at} ({module.replace('.', '/')}.py line {u.frame[3]})" + (
                f", version {version} per the log" if version else "")
    short = msg if len(msg) <= 160 else msg[:157] + "..."
    if lang == "zh":
        title = (f"未被规则识别的错误：{short}" if u.kind == "python-exception"
                 else f"未被规则识别的错误（{component}）：{short}")
        if waited_by is not None:
            cause = (f"triage 的规则库里没有规则认识这一行，但它是 {who} 的错误"
                     f"（{kind}，由 {component} 打印{raised}）：“{msg}”，出现在另一个 rank 的 {waited_by} 之前；"
                     "那个 rank 等的很可能正是它（把这个 rank 列为对端，或是同一作业中更晚失败的另一个 rank）。"
                     "请把这一行当作最可能的原因，那次等待、超时或建链失败只是它的后果。层级是根据打印模块推断的。")
        else:
            cause = (f"triage 的规则库里没有规则认识这一行，但它是日志中信息量最大的错误"
                     f"（{kind}，由 {component} 打印{raised}）：“{msg}”。"
                     "请把它当作最可能的原因来看；下面列出的通用错误只是对它的包装。层级是根据打印模块推断的。")
        path = u.frame[1].replace(".", "/") if u.frame is not None else ""
        fix = [(f"在 {component} 的 issue 和源码（`{path}.py` 的 `{u.frame[2]}`）中"
                f"搜索这条消息的关键部分：`{core}`" + (f"，并对照版本 {version} 的代码。" if version else "。")
                if u.frame is not None else
                f"在 {component} 的文档、错误码手册和 issue 中搜索这条消息的关键部分：`{core}`。"),
               ("查看完整日志中它之前的几行：该程序在这一行之前的输出通常写明了原因。" if own else
                f"查看完整日志中它之前的几行，以及 plog（`grep -rn \"{core[:40]}\" ~/ascend/log/debug/plog/`），"
                "找到最早出现的错误。"),
               "用 `triage rules suggest <日志文件>` 生成规则草稿，确认原因后补全原因和处理方法并贡献出来。"]
    else:
        title = (f"An error no rule knows: {short}" if u.kind == "python-exception"
                 else f"An error no rule knows ({component}): {short}")
        if waited_by is not None:
            cause = (f"No rule in triage's knowledge base knows this line, but it is an error of {who} "
                     f"({kind}, printed by {component}{raised}): \"{msg}\", and it came before {waited_by} on another "
                     "rank, which was likely waiting for it (it names this rank as its peer, or is another rank "
                     "of the job that failed later). Read this line as the likely cause and that wait, timeout "
                     "or failed link as its symptom. The layer is inferred from the module that printed it.")
        else:
            cause = (f"No rule in triage's knowledge base knows this line, but it is the most telling error in the log "
                     f"({kind}, printed by {component}{raised}): \"{msg}\". Read it as the likely cause: the generic "
                     "findings listed with it only wrap it. The layer is inferred from the module that printed it.")
        path = u.frame[1].replace(".", "/") if u.frame is not None else ""
        fix = [(f"Search the issue tracker of {component} and its source (`{path}.py`, "
                f"`{u.frame[2]}`) for the stable part of the message: `{core}`"
                + (f"; read the code of release {version}." if version else ".")
                if u.frame is not None else
                f"Search the documentation, error-code reference and issue tracker of {component} for the stable "
                f"part of the message: `{core}`."),
               ("Read the lines just before it in the full log: the program's own output above its error line "
                "usually names the cause." if own else
                f"Read the lines just before it in the full log and in the plog "
                f"(`grep -rn \"{core[:40]}\" ~/ascend/log/debug/plog/`) for the first error."),
               "Draft a rule for it with `triage rules suggest <log>`; once the cause is known, fill in its cause "
               "and fix and contribute it."]
    return title, cause, fix
