"""Catalog of the log messages shown in HCCL's fault-diagnosis guide (``hccl-guide``).

The guide is ``docs/zh/user_guide/fault_diagnosis/*.md`` of hicann/hccl (the Chinese pages are a
superset of ``docs/en``). A prose guide contributes the messages it shows, not its prose. From every
page at ``HEAD`` this extractor takes:

- every line of a fenced block that is not a shell command: CANN plog lines (``[ERROR] HCCL(...)``,
  ``RUNTIME``, ``HCCP``, ``ROCE``, ``[INFO]`` run-log lines), screen lines of error codes
  (``EI0005: ...``, ``Communication_Error_...(EI0019): ...``), their TraceBack detail lines, and the
  output of ``hccn_tool`` shown under a command (``grep`` output prefixes such as
  ``run/plog/plog-1_2.log:`` are removed);
- every quoted keyword of the prose (after "关键字") that no shown line contains: a message the guide
  names without showing it (``DETECT EVENT LIST``...).

Lines that only continue an error-code block (``Possible Cause:``, ``Solution:``, ``TraceBack``),
markers (``rank0:``, ``... ...``) and graph-node dumps are dropped. Two lines are one message when
they differ only in numbers, hex values and the contents of ``[...]`` fields, so the guide's
repeated examples of one message give one entry.

Usage: ``python tools/catalog/hccl_guide.py SNAPSHOT_OF_HCCL``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[2]))  # triage itself, for `instantiate`

from common import head_commit, list_files, read_file, snapshot_arg, write_catalog  # noqa: E402

from triage.kbtools.coverage import instantiate  # noqa: E402

GUIDE = "docs/zh/user_guide/fault_diagnosis"

#: A CANN plog header: level, module(pid,process), timestamp, [file:line] and the thread id.
PLOG_HEADER = re.compile(
    r"^\[(?P<level>ERROR|INFO|WARNING|DEBUG|EVENT)\]\s*(?P<module>[A-Z_]+)\(\d+,[^)]*\):"
    r"\d{4}-\d\d-\d\d[- ]\d\d:\d\d:\d\d\.\d+\.\d+\s*\[[^\]]*\]\s*(?:\[\d+\]|tid:\d+,|\d+)?\s*")
#: ``grep -r`` output prefix: the file name (and line number) the match came from.
GREP_PREFIX = re.compile(r"^(?:\S*/)?(?:plog|device)-[\w.-]+\.log:(?:\d+:)?")
#: Lines of a shell block that are commands, prompts or comments, not output.
COMMAND = re.compile(r"^(?:\$|#|grep\b|for\b|hccn_tool\b|npu-smi\b|export\b|cd\b|ls\b|cat\b)")
#: Lines that only continue an error-code message, or are markers of the guide itself.
CONTINUATION = re.compile(r"^(?:Possible Cause|Solution)\b|^TraceBack \(most recent call last\)|"
                          r"^rank\d+:$|^\.\.\.|^\[\[\{\[node ")
#: A quoted span of the prose: “...”, "..." or `...`.
QUOTED = re.compile(r"“(?P<a>[^”]+)”|\"(?P<b>[^\"]+)\"|`(?P<c>[^`]+)`")
#: A quoted span that names a message: two English words at least, not a command or a path.
MESSAGE_LIKE = re.compile(r"[A-Za-z]{2,}[\w\\\[\]*.()!:-]* +[\w\\\[\]*.()!:-]*[A-Za-z]{2,}")
NOT_A_MESSAGE = re.compile(r"^(?:grep|for|hccn_tool|npu-smi|export|seq)\b|[\u4e00-\u9fff]")


def message_of(line: str) -> str:
    """The text after a plog header (the whole line when it has none)."""
    return PLOG_HEADER.sub("", line, count=1)


def key_of(line: str) -> str:
    """What two lines of one message share: the message with values blanked."""
    text = message_of(line).lower()
    text = re.sub(r"\[[^\[\]]*\]", "[]", text)
    text = re.sub(r"0x[0-9a-f]+", "H", text)
    text = re.sub(r"\d+", "N", text)
    return re.sub(r"\s+", " ", text).strip()


def unescape(fragment: str) -> str:
    """A keyword as the markdown source writes it, without its backslash escapes."""
    return re.sub(r"\\(.)", r"\1", fragment).strip()


def kind_of(line: str, lang: str) -> str:
    m = PLOG_HEADER.match(line)
    if m:
        return f"doc (plog {m.group('level')} {m.group('module')})"
    if lang in ("bash", "shell", "sh"):
        return "doc (tool output)"
    if re.search(r"\b(?:E[A-Z]\d{4})\b", line):
        return "doc (screen, error code)"
    return "doc (screen)"


def extract(path: str, text: str) -> tuple[list[dict], list[dict]]:
    """(block lines, prose keywords) of one page."""
    lines: list[dict] = []
    keywords: list[dict] = []
    lang: str | None = None
    for n, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            lang = None if lang is not None else (stripped[3:].strip().lower() or "text")
            continue
        if lang is None:
            if stripped.startswith("<!--"):
                continue
            for m in QUOTED.finditer(stripped):
                frag = (m.group("a") or m.group("b") or m.group("c")).strip("*")
                if MESSAGE_LIKE.search(frag) and not NOT_A_MESSAGE.search(frag):
                    for alt in re.split(r"\\\|", frag):
                        keywords.append({"template": unescape(alt).strip("*"), "path": path, "line": n,
                                         "kind": "doc (keyword)"})
            continue
        line = GREP_PREFIX.sub("", stripped)
        if not line or CONTINUATION.search(line):
            continue
        if lang in ("bash", "shell", "sh") and COMMAND.match(line):
            continue
        # Two plog lines the guide glued together: keep each.
        for part in re.split(r"(?<=\S)(?=\[(?:ERROR|INFO|WARNING)\] ?[A-Z]+\(\d)", line):
            lines.append({"template": part.strip(), "path": path, "line": n, "kind": kind_of(part, lang)})
    return lines, keywords


def main(repo: str) -> None:
    pages = sorted(p for p in list_files(repo, GUIDE) if p.endswith(".md"))
    shown: list[dict] = []
    named: list[dict] = []
    for path in pages:
        lines, keywords = extract(path, read_file(repo, path))
        shown += lines
        named += keywords
    entries: list[dict] = []
    seen: set[str] = set()
    for e in shown:
        key = key_of(e["template"])
        if key in seen:
            continue
        seen.add(key)
        if instantiate(e["template"]) != e["template"]:
            e["sample"] = e["template"]  # a shown line is literal: `%enp` or `{...}` are not placeholders
        entries.append(e)
    shown_text = [message_of(e["template"]).lower() for e in shown]
    for e in named:
        frag = e["template"]
        probe = re.split(r"\*{3}|\[\*+\]|\.\*|\[\(0\|1\)\]|\[\d\]", frag.lower())
        if any(all(p.strip() in text for p in probe if p.strip()) for text in shown_text):
            continue
        key = key_of(frag)
        if key in seen:
            continue
        seen.add(key)
        entries.append(e)
    write_catalog("hccl-guide", "HCCL fault-diagnosis guide (log lines and keywords it shows)",
                  "hicann/hccl", head_commit(repo), [GUIDE], "tools/catalog/hccl_guide.py", entries)


if __name__ == "__main__":
    main(snapshot_arg(sys.argv))
