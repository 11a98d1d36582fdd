"""Turn source-code references written as ``owner/repo:path[#Lnn] (note)`` in the rules'
``references`` into GitHub URLs pinned to the commit that was read: the commit of the catalog swept
from that repository (catalogs/*.yaml), or the branch the note names (``branch_x``). A fork that only
mirrors a repository is pointed at its upstream. References of other forms (threads, pages, notes
without a path) are left as they are; ``printed_by`` keeps its ``owner/repo:path#Lnn`` form.

Usage: ``python tools/pin_references.py`` (rewrites rules/*.yaml in place, prints what it left).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[1]
#: forks that only mirror another repository's files
UPSTREAM = {"Fengfengst123/hccl-mirror": "hicann/hccl"}
#: repositories without a catalog: the stored snapshot the rules' authors read (the search tool's
#: version of the files they cite)
READ_AT = {"vllm-project/vllm": "1f8758d584e8f599219d75adf658e182ed809a43",
           "huggingface/transformers": "040ba146759afc625c77f49d04982bb54873995f"}
_REF = re.compile(r"""^(?P<indent>\s+- )(?P<q>["']?)(?P<repo>[\w.-]+/[\w.-]+):(?P<path>[^\s"'#()]+)"""
                  r"""(?P<line>#L\d+(?:-L?\d+)?)?(?P<note>\s*\(.*\))?(?P=q)\s*$""")
_BRANCH = re.compile(r"\((?:[^)]*?\b)?(branch_[\w.-]+|v\d[\w.-]*)\b")


def catalog_commits() -> dict[str, str]:
    """repo -> the commit its catalog was swept from (the newest catalog's when several)."""
    out: dict[str, str] = {}
    for path in sorted((ROOT / "catalogs").glob("*.yaml")):
        head = yaml.safe_load("\n".join(path.read_text(encoding="utf-8").splitlines()[:12]).split("entries:")[0])
        if isinstance(head, dict) and head.get("repo") and head.get("commit"):
            out.setdefault(head["repo"], head["commit"])
    return out


def pin(text: str, commits: dict[str, str], left: list[str]) -> str:
    """``text`` (a rule file) with its references' source-code forms turned into pinned URLs."""
    out = []
    key = None
    for line in text.splitlines(keepends=True):
        stripped = line.strip()
        if stripped.endswith(":") and not stripped.startswith("-"):
            key = stripped[:-1]
        m = _REF.match(line.rstrip("\n"))
        if key == "references" and m:
            repo = UPSTREAM.get(m["repo"], m["repo"])
            note = (m["note"] or "").replace("''", "'") if m["q"] == "'" else (m["note"] or "")
            branch = _BRANCH.search(note)
            ref = branch.group(1) if branch else commits.get(repo) or commits.get(m["repo"]) or READ_AT.get(repo)
            if ref is None:
                left.append(f"{m['repo']}:{m['path']}")
                out.append(line)
                continue
            url = f"https://github.com/{repo}/blob/{ref}/{m['path']}{m['line'] or ''}"
            rest = f" {note.strip()}" if note.strip() else ""
            quoted = (url + rest).replace("'", "''")  # YAML single quotes: a quote is doubled
            out.append(f"{m['indent']}'{quoted}'\n" if rest else f"{m['indent']}{url}\n")
            continue
        out.append(line)
    return "".join(out)


def main() -> None:
    commits = catalog_commits()
    left: list[str] = []
    for path in sorted((ROOT / "rules").rglob("*.yaml")):
        text = path.read_text(encoding="utf-8")
        new = pin(text, commits, left)
        if new != text:
            path.write_text(new, encoding="utf-8")
    for ref in sorted(set(left)):
        print(f"left (no commit known): {ref}", file=sys.stderr)


if __name__ == "__main__":
    main()
