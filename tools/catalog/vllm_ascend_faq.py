"""Catalog of the log messages shown in vllm-ascend's FAQ page (``docs/source/faqs.md``).

A prose FAQ contributes the messages it shows, not its prose. This extractor takes, from the page
at ``HEAD`` of a vllm-ascend snapshot:

- every line of a fenced block that is not Python and looks like log output (an error word, not a
  shell command or a comment);
- every quoted (``"..."``) or back-quoted span of a ``###`` heading that reads like an error text;
- every back-quoted span of the prose that reads like an error text or a ``Label: value`` log line.

A heading or prose fragment already contained in a log line of the same section is dropped, so the
full line stands for it.

Usage: ``python tools/catalog/vllm_ascend_faq.py SNAPSHOT_OF_VLLM_ASCEND``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, read_file, snapshot_arg, write_catalog  # noqa: E402

PAGE = "docs/source/faqs.md"

#: Words that make a fragment read like an error text.
ERRORISH = re.compile(r"(?i)error|fail|cannot|invalid|insufficient|not permitted|no module|denied|"
                      r"exception|not found|undefined|only supports?|not supported|unsupported")
#: First words of shell commands shown in the page's code blocks (not log output).
COMMANDS = re.compile(r"^(?:export|docker|pip|python3?|source|npu-smi|git|cd|TAG=|IMAGE_\w+=|\w+=)")
#: ``Label: value`` log lines quoted in prose (statistics a running server prints).
LOGLIKE = re.compile(r"^[A-Z][^`:]{3,60}: \S*\d")
SPAN = re.compile(r'`([^`]+)`|"([^"]+)"')


def extract(text: str) -> list[dict]:
    entries: list[dict] = []
    section: list[dict] = []
    fence_lang: str | None = None

    def flush() -> None:
        lines = [e["template"] for e in section if e["kind"] == "doc (log block)"]
        for e in section:
            if e["kind"] != "doc (log block)" and any(e["template"] in full for full in lines):
                continue
            entries.append(e)
        section.clear()

    for n, raw in enumerate(text.splitlines(), 1):
        line = raw.strip()
        if line.startswith("```"):
            fence_lang = None if fence_lang is not None else (line[3:].strip() or "text")
            continue
        if fence_lang is not None:
            if fence_lang == "python" or not line or line.startswith("#") or COMMANDS.match(line):
                continue
            if ERRORISH.search(line):
                section.append({"template": line, "path": PAGE, "line": n, "kind": "doc (log block)"})
            continue
        if line.startswith("#"):
            flush()
            if line.startswith("###"):
                for m in SPAN.finditer(line):
                    frag = (m.group(1) or m.group(2)).strip()
                    if ERRORISH.search(frag) or re.fullmatch(r"Invalid\w+|\w+Error", frag):
                        section.append({"template": frag, "path": PAGE, "line": n, "kind": "doc (heading)"})
            continue
        for m in re.finditer(r"`([^`]+)`", line):
            frag = m.group(1).strip()
            if ERRORISH.search(frag) or LOGLIKE.match(frag):
                section.append({"template": frag, "path": PAGE, "line": n, "kind": "doc (prose)"})
    flush()
    return entries


def main(repo: str) -> None:
    entries = extract(read_file(repo, PAGE))
    write_catalog("vllm-ascend-faq", "vllm-ascend FAQ page: the log messages it shows",
                  "vllm-project/vllm-ascend", head_commit(repo), [PAGE],
                  "tools/catalog/vllm_ascend_faq.py", entries)


if __name__ == "__main__":
    main(snapshot_arg(sys.argv))
