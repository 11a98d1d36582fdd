"""Catalog of the log lines shown by torch_npu's troubleshooting guide.

Source: Ascend/pytorch ``docs/zh/user_guide/troubleshooting`` (the fault cases, the error-code
reference and the error-analysis pages). An entry is one distinct message a page shows:

- the message lines of the fenced ``text`` / ``output`` blocks (Python traceback frames, source
  lines, banners and prose continuations of a message are skipped);
- the ``Symptom`` lines of the error-code reference (``[%s] ERRmmccc ...``);
- inline examples of the analysis pages (a backquoted ``EZ3002`` / ``ERR00100`` line, the
  ``E10035`` format), and
- the messages of the screenshots those pages embed (``docs/zh/figures/*.png``), transcribed by
  hand below (:data:`FIGURES`): a figure cannot be parsed, but its lines are what a user sees.

Usage: ``python tools/catalog/torch_npu_troubleshooting.py /work/.mirror/Ascend+pytorch/repo``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, read_file, write_catalog  # noqa: E402

PREFIX = "docs/zh/user_guide/troubleshooting"

# Lines of a fenced block that are not messages: traceback frames and source lines, banners.
_SKIP = re.compile(
    r"^\s*(?:File \"|Traceback \(most recent call last\)|return |work = |result = |self\.|store, |"
    r"sys\.exit|method\(|torch\.|generated_ids|model_kwargs|discontinuous_tensor|dist\.|"
    r"_?torch_npu\._C|untyped_storage|elastic_launch|run\(args\)|Variable\._execution_engine|"
    r"-{5,}|ERROR: test_|torch\.distributed\.run: \[WARNING\] \*+|\*+$|\]$|$)"
)
# Continuation lines that belong to the message above them (CANN's Possible Cause / Solution /
# TraceBack headers, the hint line under an ``[Error]:`` text, a cluster-exception list header).
# The ``[Error]: <description>`` line torch_npu prints under ``error code is N`` is part of that
# message (NPUErrorCodes.h text for code N), as is the ASCEND_LAUNCH_BLOCKING hint under an inner error.
_CONTINUATION = re.compile(
    r"^\s*(?:Possible Cause:|Solution:|TraceBack \(most recent call last\):|"
    r"Rectify the fault based on the error information|there are\(is\) \d+ abnormal device|"
    r"\[Error\]: |Since the operator is called asynchronously|Note: ASCEND_LAUNCH_BLOCKING)"
)

# Messages of the screenshots, transcribed: (figure path, message).
FIGURES: list[tuple[str, str]] = [
    ("docs/zh/figures/socket_timeout.png",
     "RuntimeError: [1] is setting up HCCL communicator and retrieving hcclUniqueId from [0] via c10d key-value "
     "store by key '0', but store->get('0') got error: Socket Timeout"),
    ("docs/zh/figures/example.png",
     "[W OpParamMaker.cpp:342] Warning: EZ3002: 2024-11-05-22:29:32.218.118 Optype [ReduceAny] of Ops kernel "
     "[AIcoreEngine] is unsupported. Reason: [tbe-custom]:op type ReduceAny is not found in this op store."
     "[tbe-custom]:op type ReduceAny is not found in this op store.[Dynamic shape check]: data type DT_FLOAT of "
     "input [x] is not supported."),
    ("docs/zh/figures/example.png",
     "        Optype [ReduceAny] of Ops kernel [aicpu_tf_kernel] is unsupported. Reason: data_type DT_FLOAT of "
     "input[0, x] is unsupported, op type[ReduceAny].."),
    ("docs/zh/figures/example.png",
     "        No supported Ops kernel and engine are found for [ReduceAny14], optype [ReduceAny]."),
    ("docs/zh/figures/example.png",
     "        build graph failed, graph id:13, ret:-1[FUNC:BuildModelWithGraphId][FILE:ge_generator.cc][LINE:1615]"),
    ("docs/zh/figures/example.png",
     "        [Build][SingleOpModel]call ge interface generator.BuildSingleOpModel failed. ge result = 4294967295"
     "[FUNC:ReportCallError][FILE:log_inner.cpp][LINE:161]"),
    ("docs/zh/figures/example.png",
     "        build op model failed, result = 500002[FUNC:ReportInnerError][FILE:log_inner.cpp][LINE:145]"),
    ("docs/zh/figures/python_call_stack.png",
     "RuntimeError: The Inner error is reported as above. The process exits for this inner error, and the "
     "current working operator name is ReduceAny."),
    ("docs/zh/figures/viewing_stack_information_python_applications.png",
     "SystemError: error return without exception set"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] DRV(2789701,python):2024-11-21-16:06:59.416.477 [ascend][curpid: 2789701, 2789701][drv][devmm]"
     "[share_log_read_in_single_module 634]Heap_size is invalid. (heap_size=275951648768; total_ddr=68719476736, "
     "total_hbm=68719476736) Input size error. (op=0x0; heap_type=0xefef0002; heap_sub_type=0x1; heap_idx=2822; "
     "heap_size=275951648768)"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] DRV(2789701,python):2024-11-21-16:06:59.416.511 [ascend][curpid: 2789701, 2789701][drv][devmm]"
     "[devmm_alloc_from_base_heap 168]<errno:22, 8> Alloc physical memory from base heap error. (ret_ptr=0x1; "
     "va=0x12c180000000; alloc_size=274880004096)"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] RUNTIME(2789701,python):2024-11-21-16:06:59.416.823 [npu_driver.cc:1126]2789701 "
     "DevMemAllocHugePageManaged:[INIT][DEFAULT][drv api] halMemAlloc failed:size=274880004096(Byte), type=0, "
     "moduleId=33, drvFlag=237790063261207552, drvRetCode=6, device_id=0!"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] RUNTIME(2789701,python):2024-11-21-16:06:59.417.036 [logger.cc:551]2789701 DevMalloc:[INIT][DEFAULT]"
     "Device malloc failed, size=274880004096(Byte), type=1024."),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] RUNTIME(2789701,python):2024-11-21-16:06:59.417.072 [api_c_memory.cc:28]2789701 rtMalloc:[INIT]"
     "[DEFAULT]ErrCode=207001, desc=[driver error:out of memory], InnerCode=0x7020016"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] RUNTIME(2789701,python):2024-11-21-16:06:59.417.085 [error_message_manage.cc:53]2789701 "
     "FuncErrorReason:[INIT][DEFAULT]rtMalloc execute failed, reason=[driver error:out of memory]"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] ASCENDCL(2789701,python):2024-11-21-16:06:59.417.126 [memory.cpp:129]2789701 aclMallocMemInner: "
     "[INIT][DEFAULT]alloc device memory failed, runtime result = 207001"),
    ("docs/zh/figures/plog_log_OOM.png",
     "[ERROR] APP(2789701,python):2024-11-21-16:06:59.417.151 [log_inner.cpp:76]2789701 build/CMakeFiles/"
     "torch_npu.dir/compiler_depend.ts:malloc:1001: \"[PTA]:\"Get a block from the existing pool failed. Try to "
     "free cached blocks and reallocate. This error log \" \"can be ignored.\""),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] TDT(3035894,python):2024-11-05-21:06:03.662.293 [process_mode_manager.cpp:732][DeviceMsgProcess]"
     "[tid:3035894] [TsdClient] DeviceMsgProc  errcode[EJ0001]"),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] TDT(3035894,python):2024-11-05-21:06:03.662.545 [process_mode_manager.cpp:325][WaitRsp]"
     "[tid:3035894] tsd client wait response fail, hostpid:3035894, device response code[1]. unknown device error."),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] TDT(3035894,python):2024-11-05-21:06:03.662.702 [adapter_tdt.cc:20][3035894][Open][Tsd]Open "
     "TsdClient failed, tdt error code : 31, error deviceLogicId[0], rankSize[2]"),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] HCCL(3035894,python):2024-11-05-21:06:03.662.723 [topoinfo_detect.cc:249][3035894][Setup][Agent]"
     "topo detect agent start network failed! rank[0]"),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] HCCL(3035894,python):2024-11-05-21:06:03.662.843 [op_base.cc:733][3035894][InitCommRootInfo]Init "
     "failed, return[0x0000000005000007], rankNum[2], rank[0], rootInfo identifier[90.90.94.184%enp189s0f0_60000_0_"
     "1730811962221603], server[90.90.94.184%enp189s0f0], logicDevId[-1]"),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] HCCL(3035894,python):2024-11-05-21:06:03.662.909 [op_base.cc:785][3035894][Init][CommRootInfoConfig]"
     "errNo[0x0000000005000007]HcclCommInitRootInfo failed."),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] RUNTIME(3035894,python):2024-11-05-21:06:03.666.381 [stream.cc:641]3035894 Setup:[INIT][DEFAULT]"
     "Fail to get sq reg virtual addr, deviceId=0, sqId=6."),
    ("docs/zh/figures/plog_log_HCCL.png",
     "[ERROR] RUNTIME(3035894,python):2024-11-05-21:06:03.667.129 [api_c_device.cc:440]3035894 rtGetDevMsg:[INIT]"
     "[DEFAULT]ErrCode=507899, desc=[driver error:internal error], InnerCode=0x7020010"),
]


def _block_messages(text: str) -> list[tuple[int, str]]:
    """(line, message) of the lines of fenced text/output blocks that are messages."""
    out, fence, lines = [], None, text.splitlines()
    for no, line in enumerate(lines, 1):
        stripped = line.strip()
        if stripped.startswith("```"):
            fence = None if fence is not None else stripped[3:].strip().lower()
            continue
        if fence not in ("text", "output"):
            continue
        if _SKIP.match(line) or _CONTINUATION.match(line):
            continue
        if re.match(r"^\s*\w[\w.]* ?[=(+]", stripped) and "Error" not in stripped and "error" not in stripped:
            continue  # a source line of the traceback (``x = f(...)``)
        out.append((no, stripped))
    return out


def _symptoms(text: str) -> list[tuple[int, str]]:
    """The ``**Symptom**`` lines of the error-code reference, with Markdown escapes removed."""
    out, lines = [], text.splitlines()
    for i, line in enumerate(lines):
        if line.strip() != "**Symptom**":
            continue
        for j in range(i + 1, min(i + 8, len(lines))):
            s = lines[j].strip()
            if s.startswith("**"):
                break
            if not s:
                continue
            s = re.sub(r"^\d+\.\s*", "", s).replace("\\[", "[").replace("\\]", "]")
            out.append((j + 1, s))
    return out


def _inline(text: str) -> list[tuple[int, str]]:
    """Example lines the analysis pages give outside fenced text blocks (indented ``text`` blocks,
    the E10035 format)."""
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        s = line.strip()
        if re.match(r"^(?:EZ\d{4}:|ERR\d{5} |E10035:|RuntimeError: )", s):
            s = s.replace("\\[", "[").replace("\\]", "]").replace("\\_", "_").replace("_xxxxxx_", "%s")
            s = s.replace("_时间戳_", "%s")
            out.append((no, re.sub(r"\s{2,}", " ", s)))
    return out


def _message_key(template: str) -> str:
    """What makes two shown lines the same message: the torch_npu error code of an ``ERRmmccc``
    line (the reference page shows ``[%s] ERR01002 OPS invalid type.``, a case page the real line),
    else the text without log prefixes, bracketed values, numbers and the free-text ``Reason:``."""
    code = re.search(r"\bERR\d{5}\b", template)
    if code:
        return code.group(0)
    text = re.sub(r"^\s*(?:\[[WE] [^\]]*\]\s*(?:Warning: )?)?", "", template)
    text = re.sub(r"^(?:E[A-Z0-9]\d{4}|RuntimeError):\s*(?:\[PID: [^\]]*\]\s*)?[\d:.\-]*\s*", "", text)
    text = re.sub(r"\[[^\]]*\](?::\d+)?|\?UNKNOWN\?", "[]", text.split(" Reason:")[0])
    return re.sub(r"\d+", "#", text).strip().lower()


def _dedupe(entries: list[dict]) -> list[dict]:
    """One entry per distinct message; a line a case page or figure shows is kept in preference to
    the reference page's ``[%s]`` format of the same message."""
    best: dict[str, dict] = {}
    order: list[str] = []
    for e in entries:
        key = _message_key(e["template"])
        if key not in best:
            best[key] = e
            order.append(key)
        elif best[key]["kind"] == "doc symptom" and e["kind"] != "doc symptom":
            best[key] = e
    return [best[k] for k in order]


def main(repo: str) -> None:
    entries: list[dict] = []
    pages = [p for p in list_files(repo, PREFIX) if p.endswith(".md") and "_menu" not in p]
    for path in sorted(pages):
        text = read_file(repo, path)
        if path.endswith("error_code_information.md"):
            found = _symptoms(text)
            kind = "doc symptom"
        else:
            found = _block_messages(text)
            found += [(n, m) for n, m in _inline(text) if (n, m) not in found]
            kind = "doc"
        for no, msg in found:
            entries.append({"template": msg, "path": path, "line": no, "kind": kind})
    for fig, msg in FIGURES:
        entries.append({"template": msg, "path": fig, "line": None, "kind": "doc figure"})
    entries = _dedupe(entries)
    write_catalog(
        "torch-npu-troubleshooting",
        "torch_npu troubleshooting guide: fault cases, error-code reference and analysis pages (with figures)",
        "Ascend/pytorch", head_commit(repo), [PREFIX, "docs/zh/figures"],
        "tools/catalog/torch_npu_troubleshooting.py", entries)


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/Ascend+pytorch/repo")
