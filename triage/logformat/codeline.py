"""The log's own words around an error code: what the line says, the reason it gives, the call
that failed. A code finding quotes them, so it never reads as less than the line it was found on.

Read from the evidence line of a rule with a code-table ``lookup``; each may be absent. They fill
the placeholders ``{said}``, ``{reason}`` and ``{call}`` (use them inside ``{? ... ?}`` so a
sentence is dropped when its value is missing).
"""

from __future__ import annotations

import re

from triage.logformat.normalize import message_of, normalize

_HEADER = re.compile(r"^(?:\s*\[PID: ?\d+\])?\s*(?:\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d+)*)?\s*")
_STACK = re.compile(r"\s*\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]\s*")
_REASON = re.compile(r"[Rr]eason\s*[:=]\s*(\[[^\]\n]{2,300}\]|[^\n]{2,300})")
_CALLS = [
    re.compile(r"(?:NPU|HCCL|OPS|ACL) function error: ([A-Za-z_]\w{2,80})\("),
    re.compile(r"\b((?:aclrt|aclnn|acl|rt|Hccl|hccl|aclop|halMem|drv)[A-Z]\w{2,80}) "
               r"(?:execute|execution|call)? ?failed"),
    re.compile(r"call (acl\w{3,80}|Hccl\w{3,80}) (?:api )?failed"),
    re.compile(r"\b(aclnn\w{3,80}|aclrt\w{3,80})\b"),
]
_LIMIT = 300


def _clean(text: str) -> str:
    text = _STACK.sub(" ", text).strip(" .:;,-")
    return text if len(text) <= _LIMIT else text[: _LIMIT - 3] + "..."


def own_words(line: str, code: str | None) -> dict[str, str]:
    """``said`` (the message beside the code), ``reason`` and ``call`` of ``line``, where present."""
    text = message_of(normalize(line)).strip()
    out: dict[str, str] = {}
    said = ""
    if code:
        i = text.find(code)
        if i >= 0:
            after = text[i + len(code):].lstrip(")")
            after = after[1:] if after.startswith(":") else after
            after = _HEADER.sub("", after, count=1)
            before = text[:i]
            before = re.sub(r"(?:,?\s*(?:error code(?: is)?|ErrCode=|errno:|result =|ret(?:Code)?[:=])\s*:?\s*)$", "",
                            before)
            # "E30006: 2025-... Failed to verify the OPP" -> after; "ACL ... failed, error code:507035" -> before
            said = after if len(_clean(after)) >= 4 else before
            said = re.sub(r"^(?:\[rank\d+\]:\s*)?(?:[\w.]*(?:Error|Exception): |\[?ERROR\]? )?", "", said.strip())
            # torch_npu's "func:path/file.cpp:123 " location
            said = re.sub(r"^\w+:[\w./-]+\.(?:cpp|cc|c|h|hpp|ts|py):\d+ ", "", said)
            said = re.split(r"\.?\s*[Rr]eason\s*[:=]", said, maxsplit=1)[0]
    if said and len(_clean(said)) >= 4:
        out["said"] = _clean(said)
    m = _REASON.search(text)
    if m:
        reason = m.group(1).rstrip(" .")
        if reason.startswith("[") and reason.endswith("]"):
            reason = reason[1:-1]
        if len(reason) >= 2:
            out["reason"] = _clean(reason)
    for rx in _CALLS:
        m = rx.search(text)
        if m:
            out["call"] = m.group(1)
            break
    return out
