"""Catalog of the log lines shown by the CANN runtime FAQ (hicann/runtime ``docs/zh/FAQ``).

Each FAQ page shows what a user sees when the problem happens: screen output (``Resource_Error(EE1023)``
blocks, ``TraceBack`` lines) and plog lines (``[ERROR] RUNTIME(pid,name):date [file:line]tid func:...``).
This extractor keeps every line of the pages' log blocks (fenced blocks marked ``text`` or unmarked), not
the code samples (``c`` / ``cpp`` / ``bash`` / ``json`` blocks) and not the prose.

Usage: ``python tools/catalog/cann_runtime_faq.py /work/.mirror/hicann+runtime/repo``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import git, head_commit, read_file, write_catalog  # noqa: E402

PREFIX = "docs/zh/FAQ/"
#: Fence languages whose blocks are program text, not log output.
CODE_LANGS = {"c", "cpp", "c++", "bash", "shell", "sh", "json", "python", "cmake"}
#: Lines of a log block that are not messages (ellipses, blank, a traceback header).
SKIP = re.compile(r"^(?:\.{3,}|…+|TraceBack \(most recent call last\):)$")
#: Chinese characters (prose, not log output).
CJK = re.compile(r"[\u4e00-\u9fff]")
#: A C/C++ statement that slipped into an unmarked block (the FAQ sometimes leaves a code sample unmarked).
CODE_LINE = re.compile(
    r"^(?://|/\*|#include|aclError |acl\w+\(|\w+\s*=\s*acl\w+\(|[{}]|if \(|return\b|int32_t|uint32_t)")


def log_lines(text: str):
    """(line number, stripped line) of every line inside a log block of a Markdown page.

    A block is a log block when its fence names no programming language and none of its lines is
    Chinese prose (the FAQ uses unmarked blocks for "symptom / diagnosis step" lists too).
    """
    block: list[tuple[int, str]] = []
    in_block, lang = False, ""
    for no, raw in enumerate(text.splitlines(), 1):
        stripped = raw.strip()
        if stripped.startswith("```"):
            if not in_block:
                in_block, lang, block = True, stripped[3:].strip().lower(), []
                continue
            in_block = False
            if lang not in CODE_LANGS and not any(CJK.search(line) for _, line in block):
                yield from block
            continue
        if in_block and stripped and not SKIP.match(stripped) and not CODE_LINE.match(stripped):
            block.append((no, stripped))


def main(repo: str) -> None:
    entries = []
    # core.quotepath=off: the page names are Chinese, which git would otherwise print octal-escaped
    listing = git(repo, "-c", "core.quotepath=off", "ls-tree", "-r", "--name-only", "HEAD", PREFIX).splitlines()
    paths = [p for p in listing if p.endswith(".md") and not p.endswith("README.md")]
    for path in sorted(paths):
        for no, line in log_lines(read_file(repo, path)):
            entries.append({"template": line, "path": path, "line": no, "kind": "doc"})
    write_catalog(
        "cann-runtime-faq",
        "CANN runtime FAQ (hicann/runtime docs/zh/FAQ): the log lines its pages show",
        "hicann/runtime",
        head_commit(repo),
        [PREFIX],
        "tools/catalog/cann_runtime_faq.py",
        entries,
    )


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else "/work/.mirror/hicann+runtime/repo")
