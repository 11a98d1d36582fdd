"""Catalog of the CANN runtime's user-facing error messages (hicann/runtime, ``src/runtime``).

Four sources, each a section of the catalog (the entry's ``kind`` says which):

``EE code``
    Every call site that reports a runtime error code (``ErrorCode::EE1xxx`` / ``EZ2001`` /
    ``WE0001``: ``RT_LOG_OUTER_MSG_IMPL``, ``COND_RETURN_AND_MSG_OUTER``...). The message is the
    code's template from ``error_code_meta.h`` with the call's literal arguments filled in (a
    non-literal argument stays a placeholder). The parameter-check codes (EE1001/EE1003/EE1004/
    EE1011/EE1012/EE1017/EE1022) print the same sentence with the function and parameter as values:
    they are one entry per code, not one per call site.
``reason``
    The reason strings of ``errcode_manage.cc``: what ``FuncErrorReason`` prints as
    ``rtXxx execution failed, reason=<reason>`` (and ``ErrCode=<n>, desc=[<reason>]``) when a
    runtime API fails. Reasons that map to the runtime's internal codes (507000 / 507001) are
    marked excluded by the extractor: an internal state of the runtime or the TS firmware that no
    input or configuration produces.
``ts reason``
    The task-scheduler reason strings of ``error_code.cc`` that the runtime prints in brackets after a
    device task fails (``Kernel task happen error, retCode=0x31, [vector core exception].``,
    ``Task exception! ... [...]``); excluded like the ``reason`` section when they map to an internal
    code.
``device``
    Error-level messages (``RT_LOG(RT_LOG_ERROR, ...)``, ``RT_LOG_CALL_MSG``, ``RT_LOG_INNER_MSG``,
    ``*_MSG_INNER`` / ``*_MSG_CALL``) of the files that report device faults, task failures,
    heartbeat loss, memory copy failures and driver resource failures, plus the AI Core
    ``errorStr`` table and the RAS fault descriptions those files print.
``doc``
    The sample log lines of Huawei's CANN troubleshooting pages for runtime resource and memcpy
    errors (``path`` is the page's URL).

Usage: ``python tools/catalog/cann_runtime_errors.py /work/.mirror/hicann+runtime/repo``
"""

# ruff: noqa: E501  (sample log lines and regexes are kept on one line)
from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import git, head_commit, read_file, write_catalog  # noqa: E402

META = "src/runtime/core/inc/common/error_code_meta.h"
ERRMAP = "src/runtime/core/src/common/errcode_manage.cc"
TSMAP = "src/runtime/core/src/common/error_code.cc"
CORE_PROC = "src/runtime/core/src/device/device_error_core_proc.cc"

#: Codes whose message is a parameter check: one entry per code.
PARAM_CODES = {"EE1001", "EE1003", "EE1004", "EE1011", "EE1012", "EE1017", "EE1022"}

#: aclError names that stand for "internal error" (507000 runtime / 507001 TS): reasons mapped to them are
#: internal runtime / TS firmware states.
INTERNAL = {"ACL_ERROR_RT_INTERNAL_ERROR", "ACL_ERROR_RT_TS_ERROR"}
#: Reasons mapped to an internal code that do show up in users' logs with a cause we can name.
INTERNAL_KEEP = {"task exception", "task timeout", "hccl other error", "task trap exception",
                 "the model stream execute failed", "In sentinel mode, tsfw is closed", "TS is closed",
                 "memcpy timeout", "memcpy exception", "pcie dma copy error", "task sqe error", "task bus error",
                 "fftsplus task timeout", "fftsplus task exception", "fftsplus task trap exception"}

#: Files whose error messages report device faults, task failures, copies and resources, with an
#: optional filter on the format string (for the big files, where most lines are internal checks).
DEVICE_FILES: dict[str, str | None] = {
    "src/runtime/core/inc/engine/engine.hpp": None,
    "src/runtime/core/src/device/device_error_proc.cc": None,
    CORE_PROC: None,
    "src/runtime/core/src/engine/stars/stars_engine.cc": None,
    "src/runtime/core/src/engine/hwts/direct_hwts_engine.cc": None,
    "src/runtime/core/src/engine/hwts/hwts_engine.cc": None,
    "src/runtime/core/src/task/task_info/davinci/davinci_kernel_task.cc": None,
    "src/runtime/core/src/task/task_info/memory/memory_memcpy_async_task.cc": None,
    "src/runtime/core/src/task/task_info/memory/memory_task_v100.cc": r"error|fail",
    "src/runtime/core/src/task/task_info/memory/memory_task_v200_base.cc": r"error|fail",
    "src/runtime/core/src/stream/stream.cc": r"[Ss]ynchroni[sz]e|happen error|timeout|[Ee]xception|abort",
    "src/runtime/driver/npu_driver.cc": None,
    "src/runtime/driver/npu_driver_mem.cc": None,
    "src/runtime/driver/npu_driver_res.cc": None,
}

#: Macros that print at error level, and the index of their format argument.
ERROR_MACROS = {
    "RT_LOG": 1,  # only with RT_LOG_ERROR as the level
    "RT_LOG_INNER_MSG": 1,  # only with RT_LOG_ERROR
    "RT_LOG_CALL_MSG": 1,
    "STREAM_REPORT_ERR_MSG": 2,
    "COND_RETURN_ERROR": 2,
    "COND_RETURN_ERROR_MSG_INNER": 2,
    "COND_RETURN_ERROR_MSG_CALL": 3,
    "COND_RETURN_AND_MSG_INNER": 2,
    "COND_RETURN_VOID_AND_MSG_INNER": 1,
    "COND_PROC_RETURN_ERROR": 3,
    "COND_PROC_RETURN_ERROR_MSG_INNER": 3,
    "ERROR_RETURN": 1,
    "ERROR_RETURN_MSG_INNER": 1,
    "ERROR_RETURN_MSG_CALL": 2,
    "ERROR_PROC_RETURN_MSG_INNER": 2,
    "ERROR_GOTO_MSG_INNER": 2,
    "ERROR_GOTO_MSG_CALL": 3,
    "COND_GOTO_ERROR_MSG_AND_ASSIGN_INNER": 4,
    "COND_GOTO_ERROR_MSG_AND_ASSIGN_CALL": 5,
    "COND_LOG_ERROR": 1,
    # messages composed in a buffer and printed with "%s" by one of the macros above
    "snprintf_truncated_s": 2,
    "sprintf_s": 2,
}

#: Huawei CANN troubleshooting pages for runtime memcpy / resource errors and the lines they show.
DOC_PAGES = {
    "https://hiascend.com/doc_center/source/zh/canncommercial/63RC2/troublemanagement/troubleshooting/troubleshooting_0110.html": [
        "ReportExceptProc:Task exception! device_id=0, stream_id=0, task_id=1, type=13, retCode=0x91, [the model stream execute failed].",
        "ProcessSdmaErrorInfo:report error module_type=3, module_name=EE8888",
        "PrintErrorInfo:Memory async copy failed, device_id=0, stream_id=3, task_id=2, flip_num=0, copy_type=10, memcpy_type=0, copy_data_type=0, length=4096.",
        "ReportErrorInfo:model execute error, retCode=0x91, [the model stream execute failed].",
        "PrintErrorInfo:model execute task failed, device_id=0, model stream_id=0, model task_id=1, flip_num=0, model_id=0, first_task_id=65535",
        "Notify:notify [_DEFAULT_MODEL_NAME_] task fail start.notify taskid:2 streamid:3 retcode:507011",
        "GetError:Stream Synchronize failed, stream_id=0, retCode=0x91, [the model stream execute failed].",
        "ProcessStarsSdmaErrorInfo:The error from device(chipId:0, dieId:0), serial number is 1633. there is a sdma error, sdma channel is 11, sdmaBlkFsmState=0x7, dfxSdmaBlkFsmOstCnt=0x0, sdmaChFree=0x0, irqStatus=0x220000, cqeStatus=0x3",
    ],
    "https://www.hiascend.com/document/detail/en/canncommercial/800/maintenref/troubleshooting/troubleshooting_0182.html": [
        "PreCheckTaskErr:[DVPP][DEFAULT]Kernel task happen error, retCode=0x28, [aicpu timeout].",
        "PrintAicpuErrorInfo:[DVPP][DEFAULT]Aicpu kernel execute failed, device_id=0, stream_id=177, task_id=4, fault so_name=libdvpp_kernels.so, fault kernel_name=DvppSendVdecFrame, fault op_name=, extend_info=.",
        "ReportExceptProc:[DVPP][DEFAULT]Task exception! device_id=0, stream_id=107, task_id=8, type=1, retCode=0x28.",
    ],
    "https://www.hiascend.com/doc_center/source/zh/canncommercial/800/developmentguide/maintenref/troubleshooting/troubleshooting_0019.html": [
        "PrintErrorInfoForDavinciTask:Aicore kernel execute failed, device_id=0, stream_id=2, report_stream_id=2, task_id=57783, flip_num=3, fault kernel_name=RealDiv_ee98c6628030785f610b924ab1557b31_high_precision_210000000, fault kernel info ext=none, program id=9, hash=10612039229658031084.",
        "GetArgsInfo:[AIC_INFO] args(0 to 9) after execute:0x4f453840, 0x124201ea7400, 0x12420240cc00, 0x1241c006dc28, 0x124100011000, 0x1, 0x1, 0x1, 0,",
    ],
    "https://hiascend.com/document/caselibrary/detail/topic_0000001308583121": [
        "[ERROR] TSCH(-1,null):2020-06-04-10:51:09.520.395 28 (cpuid:0) ai_core_dispatcher.c:1012 bs_done_exception_proc_timeout: slot_id=1,TS_ctrl=0x4,exception_core_list=0x0,current core usage=0x1,AI_CORES_COUNT=2, fault_task=0",
    ],
}

#: Why a device-file message is not an entry of its own (the extractor's first judgement; a hand
#: annotation in the catalog file overrides it).
R_INTERNAL = ("internal consistency check of the runtime (null pointer, securec helper, id lookup, engine or ring-buffer "
              "state): a runtime bug if it ever prints; no input, configuration or device state produces it")
R_DUMP = ("continuation of the fault report printed just before it (register, argument or context dump): no cause of its "
          "own; the report's first line is its own entry")
R_PROPAGATION = ("propagation line: restates that a deeper call failed and prints its retCode; the deeper line (its own "
                 "entry) or the code (acl_error table) carries the cause")
DEVICE_EXCLUDE: list[tuple[str, str]] = [
    (r"sprintf_s|memcpy_s|memset_s|memmove_s|strcpy_s|strcat_s|snprintf_s|is NULL|is null|is nullptr|cannot be a NULL"
     r"|NULL pointer|Unknown thread type|engine had been started|Invalid chipType|task factory|Failed to find (device )?"
     r"driver|Failed to get (task|stream|StreamSqCqManage)|Failed to query stream|ring ?buffer|ringbuffer"
     r"|element size|not with kernel info|cannot find$|eschedMap|Invalid (abort|recover) param|featureType %d is invalid"
     r"|Invalid handle type|Driver unsupported flag|return type invalid|does not support this type, drvMemGetAttribute"
     r"|Unsupported memory type|Get module id failed|sendSqeNum|Failed to delete task|Failed to allocate logic CQ"
     r"|Failed to initialize shmCq_|Failed to create (monitor|report RAS|recycle) thread|Failed to create semaphore"
     r"|Failed to pass the buffer addr|Failed to write runtime capability|Failed to (create|set fast) ring buffer"
     r"|Failed to alloc fast ringbuffer|PushBackErrInfo|Get fault event error|queue info query failed"
     r"|Failed to release device memory|Failed to get task id by position|Failed to recycle task. Reason: task ID is"
     r"|Failed to submit send task|descAlignBuf is invalid|GetArgsInfo failed|Get isSmmuFault|Cannot get smmu"
     r"|snapshot from dev|Failed to get SQ enable|failed to get op execute timeout|kernel is not null", R_INTERNAL),
    (r"^sqe\[|context-buf|^\[AICPU_INFO\]|^\[AIC_INFO\]|^tilingKey|simt fifo block|dha\(mata\) info|^The extend info"
     r"|stuck notify wait context info|timeout dfx, show|^reportStmId|^add error register|^The device\(%u\), core list"
     r"|^aicpu errcode=|^Get sdma mte error|sdma mte error=", R_DUMP),
    (r"^(MemcpyAsyncTaskCommonInit|ConvertAsyncDma|ConvertAsyncDma2D|ConvertAsyncDmaBatch|invoke rtMemcpy2DAsync"
     r"|MemcpyAsyncD2HTaskInit|HandleUbDmaTask|ShiftBatchArrays|drv create asyncDmaWqeBatch|H2DMemCopyWaitFinish"
     r"|MemCopySync|Memcpy failed|Synchronize failed|Synchronize event failed|Failed to send task|Failed to recycle task, "
     r"|Failed to wait task|Failed to add task|Failed to process task wait|Failed to query (SQ head|task status)"
     r"|Failed to (get|set) SQ (head|tail)|Failed to enable sq|Failed to Memcpy|failed to Memcpy|Failed to memcpy"
     r"|Failed to convert|Convert (D2D|memory)|D2D memcpy async, get channel|Failed to alloc copy memory|Failed to abort"
     r"|Query abort status failed|Failed to get (so|kernel) address|CheckArgsSize|Get extend info about|Malloc host memory"
     r"|Get chipId fail|Get dieId fail|Get topology type failed|device_id=%u, ts_id=%u|\[drv api\] (for head, )?halSqCqQuery"
     r"|\[drv api\] halTsdrvCtl|\[drv api\] halResourceConfig|SetMemSharing failed|Call munmap|munmap failed"
     r"|shm_unlink failed|Find error in ringbuffer)", R_PROPAGATION),
]

_STRING = re.compile(r'"((?:[^"\\]|\\.)*)"')
_PRI = re.compile(r"\bPRI([diouxX])(8|16|32|64|PTR)\b")


def c_literal(arg: str) -> str | None:
    """The text of a C argument made only of string literals (and ``PRIx64``-style macros), else None."""
    rest = _STRING.sub("", arg)
    rest = _PRI.sub("", rest)
    if rest.strip():
        return None
    pieces = []
    for m in re.finditer(r'"((?:[^"\\]|\\.)*)"|\bPRI([diouxX])(?:8|16|32|64|PTR)\b', arg):
        if m.group(1) is not None:
            pieces.append(m.group(1))
        else:
            pieces.append("ll" + m.group(2))
    text = "".join(pieces)
    return text.replace('\\"', '"').replace("\\n", "").replace("\\t", " ").replace("\\\\", "\\")


def macro_calls(text: str, names: set[str]):
    """(name, line, [args]) of every call of a macro in ``names``; args split at top-level commas."""
    pattern = re.compile(r"\b(" + "|".join(sorted(map(re.escape, names), key=len, reverse=True)) + r")\s*\(")
    for m in pattern.finditer(text):
        i, depth, args, cur = m.end(), 1, [], []
        while i < len(text) and depth:
            ch = text[i]
            if ch == '"':
                j = i + 1
                while j < len(text) and text[j] != '"':
                    j += 2 if text[j] == "\\" else 1
                cur.append(text[i : j + 1])
                i = j + 1
                continue
            if ch == "'":
                j = text.index("'", i + 1 + (text[i + 1] == "\\"))
                cur.append(text[i : j + 1])
                i = j + 1
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                depth -= 1
                if depth == 0:
                    break
            if ch == "," and depth == 1:
                args.append("".join(cur).strip())
                cur = []
            else:
                cur.append(ch)
            i += 1
        args.append("".join(cur).strip())
        yield m.group(1), text.count("\n", 0, m.start()) + 1, args


def code_templates(repo: str) -> dict[str, tuple[list[str], str]]:
    """Code -> (parameter names, message template without the trailing newline) from the X-macro table."""
    text = re.sub(r"\\\n", "\n", read_file(repo, META))  # join the macro's continuation lines
    out = {}
    for m in re.finditer(r"X\((\w+),\s*\"\w+\",\s*\(([^)]*)\),\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+),\s*DLOG_\w+\)", text):
        params = re.findall(r'"(\w+)"', m.group(2))
        template = "".join(_STRING.findall(m.group(3))).replace("\\n", "\n").strip()
        out[m.group(1)] = (params, template)
    return out


def fill(template: str, values: list[str | None]) -> str:
    """``template`` with its ``%s`` replaced in order by the literal values (a None stays ``%s``)."""
    parts = template.split("%s")
    out = parts[0]
    for i, part in enumerate(parts[1:]):
        value = values[i] if i < len(values) else None
        out += ("%s" if value is None else value.replace("%", "%%")) + part
    return out


def ee_entries(repo: str) -> list[dict]:
    """One entry per distinct message of the error-code call sites."""
    codes = code_templates(repo)
    entries = [{"template": codes[c][1].replace("\n", " "), "path": META, "line": None, "kind": f"{c} format"}
               for c in sorted(PARAM_CODES) if c in codes]
    files = git(repo, "grep", "-l", "-E", r"ErrorCode::(E[A-Z][0-9]{4}|WE[0-9]{4})", "HEAD", "--", "src").split()
    seen = set()
    for ref in files:
        path = ref.split(":", 1)[1]
        if path == META or path.endswith("base.hpp"):
            continue
        text = read_file(repo, path)
        names = {n for n in re.findall(r"\b([A-Z][A-Z0-9_]*)\s*\(", text) if "MSG" in n}
        for name, line, args in macro_calls(text, names):
            idx = next((i for i, a in enumerate(args) if re.fullmatch(r"ErrorCode::(E[A-Z]\d{4}|WE\d{4})", a)), None)
            if idx is None:
                continue
            code = args[idx].split("::")[1]
            if code in PARAM_CODES or code not in codes:
                continue
            params, template = codes[code]
            rest = args[idx + 1 :]
            if name == "RT_LOG_OUTER_MSG_WITH_FUNC":
                values = ["__func__"] + rest
            else:
                values = rest[-len(params) :] if len(rest) >= len(params) else rest
            literal = [c_literal(v) for v in values]
            message = fill(template, literal).replace("\n", " ")
            key = (code, message)
            if key in seen:
                continue
            seen.add(key)
            entries.append({"template": message, "path": path, "line": line, "kind": f"{code} call"})
    return entries


def reason_entries(repo: str) -> list[dict]:
    """One entry per distinct reason string of errcode_manage.cc."""
    text = read_file(repo, ERRMAP)
    entries, seen = [], set()
    for m in re.finditer(r"rtErrMap_\[(\w+)\]\s*=\s*\{\s*(\w+),\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\}", text):
        acl, reason = m.group(2), "".join(_STRING.findall(m.group(3))).strip()
        if acl == "ACL_RT_SUCCESS" or reason in seen:
            continue
        seen.add(reason)
        entry = {"template": f"%s execution failed, reason={reason}", "path": ERRMAP,
                 "line": text.count("\n", 0, m.start()) + 1, "kind": f"reason ({acl})"}
        if acl in INTERNAL and reason not in INTERNAL_KEEP:
            entry["excluded"] = (f"internal runtime state ({acl}, aclError 507000 / 507001): no input or "
                                 "configuration produces it; the code table entry says what to collect")
        entries.append(entry)
    return entries


def ts_reason_entries(repo: str) -> list[dict]:
    """One entry per distinct task-scheduler reason string of error_code.cc (the bracketed reason)."""
    rtmap = dict(re.findall(r"rtErrMap_\[(\w+)\]\s*=\s*\{\s*(\w+),", read_file(repo, ERRMAP)))
    text = read_file(repo, TSMAP)
    entries, seen = [], set()
    for m in re.finditer(r"\{\s*(TS_\w+),\s*(RT_ERROR_\w+),\s*ERR_MODULE_\w+,\s*((?:\"(?:[^\"\\\\]|\\\\.)*\"\s*)+)\}", text):
        desc = "".join(_STRING.findall(m.group(3))).strip()
        if desc in seen or m.group(1) == "TS_SUCCESS":
            continue
        seen.add(desc)
        acl = rtmap.get(m.group(2), "unmapped")
        # the real line prints the TS code in hex (%#x): a sample with a hex value, not the mechanical "3"
        entry = {"template": f"Kernel task happen error, retCode=%#x, [{desc}].", "path": TSMAP,
                 "line": text.count("\n", 0, m.start()) + 1, "kind": f"ts reason ({acl})",
                 "sample": f"Kernel task happen error, retCode=0x2a, [{desc}]."}
        if acl in INTERNAL and desc not in INTERNAL_KEEP:
            entry["excluded"] = (f"internal task-scheduler state ({acl}, aclError 507000 / 507001): no input or "
                                 "configuration produces it; the code table entry says what to collect")
        entries.append(entry)
    return entries


def device_entries(repo: str) -> list[dict]:
    """Error-level format strings of the device-fault files, the errorStr table and the RAS descriptions."""
    entries = []
    for path, keep in DEVICE_FILES.items():
        text = read_file(repo, path)
        for name, line, args in macro_calls(text, set(ERROR_MACROS)):
            if name in ("RT_LOG", "RT_LOG_INNER_MSG") and args and args[0] != "RT_LOG_ERROR":
                continue
            if name in ("snprintf_truncated_s", "sprintf_s") and not re.search(r"error|fail|exception|[Tt]imeout", "".join(args[2:3])):
                continue
            idx = ERROR_MACROS[name]
            fmt = next((c_literal(a) for a in args[idx:] if c_literal(a)), None)
            if not fmt or len(fmt) < 12 or fmt.strip() in ("%s", "%s."):
                continue
            if keep and not re.search(keep, fmt):
                continue
            entry = {"template": fmt.strip(), "path": path, "line": line, "kind": "device"}
            reason = next((why for pattern, why in DEVICE_EXCLUDE if re.search(pattern, entry["template"])), None)
            if reason:
                entry["excluded"] = reason
            entries.append(entry)
    text = read_file(repo, CORE_PROC)
    for m in re.finditer(r"\{\s*(\w+|0x[0-9A-Fa-f]+U?)\s*,(?:\s*0x[0-9A-Fa-f]+U?\s*,){0,3}\s*((?:\"(?:[^\"\\]|\\.)*\"\s*)+)\}", text):
        desc = "".join(_STRING.findall(m.group(2))).strip()
        line = text.count("\n", 0, m.start()) + 1
        if m.group(1).startswith("0x"):
            template = f"Fault message is: [[{m.group(1).rstrip('U').lower()}]{desc};]."
            kind = "RAS fault"
        else:
            template = f"aic error mask: %#llx, para base: %#llx, errorStr: {desc}"
            kind = "errorStr"
        entries.append({"template": template, "path": CORE_PROC, "line": line, "kind": kind})
    return entries


def doc_entries() -> list[dict]:
    return [{"template": line, "path": url, "line": None, "kind": "doc"}
            for url, lines in DOC_PAGES.items() for line in lines]


def main(repo: str) -> None:
    entries = ee_entries(repo) + reason_entries(repo) + ts_reason_entries(repo) + device_entries(repo) + doc_entries()
    write_catalog(
        "cann-runtime-errors",
        "CANN runtime error messages (hicann/runtime src/runtime: EE/EZ error-code reports, API failure "
        "reasons, device-fault and task-failure lines) and Huawei troubleshooting-page samples",
        "hicann/runtime",
        head_commit(repo),
        ["src/runtime", META, ERRMAP, TSMAP] + sorted(DEVICE_FILES) + sorted(DOC_PAGES),
        "tools/catalog/cann_runtime_errors.py",
        entries,
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+runtime/repo")
