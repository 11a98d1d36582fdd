"""Catalog of the messages MindSpeed, MindSpeed-LLM and MindSpeed-RL print when a run is set up wrong.

Usage::

    python tools/catalog/mindspeed.py MINDSPEED MINDSPEED_LLM MINDSPEED_RL

each a git directory (bare, as ``fetch`` leaves it, or a work tree) of Ascend/MindSpeed,
Ascend/MindSpeed-LLM and Ascend/MindSpeed-RL. The catalog ``catalogs/mindspeed.yaml`` lists, per repository
(each entry's ``repo``), with the source line that prints the message (``source``):

- the argument validation MindSpeed adds on top of Megatron (``mindspeed/arguments.py``: unsupported
  feature combinations on NPU, parallel sizes that do not divide, options that need one another) and its
  Megatron patching (``mindspeed/patch_utils.py``);
- MindSpeed-LLM's checkpoint conversion (``mindspeed_llm/tasks/checkpoint/convert_hf2mg.py``,
  ``convert_mg2hf.py``, ``mindspeed_llm/features_manager/convert_checkpoint``), its ``num_layer_list`` check
  and its checkpoint saving (``mindspeed_llm/training``);
- MindSpeed-RL's configuration validation (``mindspeed_rl/config_cls/validate_config.py``);
- the error lines the FAQ pages of MindSpeed (``docs/zh/FAQ.md``, quoted in code blocks) and
  MindSpeed-LLM (``docs/zh/FAQ.md``, the English message a question names) answer (kind ``doc``).

Python messages: ``raise X(msg)``, ``assert cond, msg`` and ``logger.error`` / failure-worded
``logger.warning`` calls (see ``common.python_messages``). Re-running keeps the hand annotations.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, python_messages, read_file, write_catalog  # noqa: E402

EXTRACTOR = "tools/catalog/mindspeed.py"

#: (repository, Python paths (files or folders), FAQ pages)
SOURCES = [
    ("Ascend/MindSpeed", ["mindspeed/arguments.py", "mindspeed/patch_utils.py"], ["docs/zh/FAQ.md"]),
    ("Ascend/MindSpeed-LLM", [
        "mindspeed_llm/tasks/checkpoint/convert_hf2mg.py",
        "mindspeed_llm/tasks/checkpoint/convert_mg2hf.py",
        "mindspeed_llm/features_manager/convert_checkpoint",
        "mindspeed_llm/training/arguments.py",
        "mindspeed_llm/training/checkpointing.py",
    ], ["docs/zh/FAQ.md"]),
    ("Ascend/MindSpeed-RL", ["mindspeed_rl/config_cls/validate_config.py"], []),
]

#: An error line quoted in a FAQ code block (``RuntimeError: ...``) or the torch-extensions wait line.
_DOC_ERROR = re.compile(
    r"^\s*(?:\w+(?:Error|Exception): .+|Using \S+torch_extensions\S* as PyTorch extensions root\.\.\.)$")


def faq_entries(repo_name: str, text: str, path: str) -> list[dict]:
    """Messages a FAQ page answers: error lines quoted in its code blocks, and the English message a
    question line (``Q：...``) names (the quoted text, else its longest ASCII run of three words or more)."""
    out, fenced = [], False
    for number, line in enumerate(text.splitlines(), 1):
        if line.strip().startswith("```"):
            fenced = not fenced
            continue
        if fenced and _DOC_ERROR.match(line):
            out.append({"repo": repo_name, "template": line.strip(), "path": path, "line": number,
                        "kind": "doc", "source": line.strip()})
        question = re.match(r"\s*Q[:：](.+)", line)
        if question:
            quoted = re.search(r"[\"“]([^\"”]+)[\"”]", question.group(1))
            runs = sorted(re.findall(r"[A-Za-z][\x20-\x7e]+[A-Za-z)]", question.group(1)), key=len)
            message = quoted.group(1) if quoted else (runs[-1] if runs else "")
            if len(message.split()) >= 3:
                out.append({"repo": repo_name, "template": message.strip(), "path": path, "line": number,
                            "kind": "doc", "source": line.strip()})
    return out


def extract(snapshots: list[str]) -> tuple[list[dict], list[str]]:
    """Entries of the three repositories, and the ``paths`` header (``repo@commit:path``)."""
    entries: list[dict] = []
    paths: list[str] = []
    for (repo_name, py_paths, docs), snapshot in zip(SOURCES, snapshots, strict=True):
        commit = head_commit(snapshot)
        for wanted in py_paths + docs:
            paths.append(f"{repo_name}@{commit}:{wanted}")
        for wanted in py_paths:
            files = [wanted] if wanted.endswith(".py") else list_files(snapshot, wanted.rstrip("/") + "/")
            for path in sorted(p for p in files if p.endswith(".py")):
                for e in python_messages(read_file(snapshot, path), path):
                    entries.append({"repo": repo_name, **e})
        for doc in docs:
            entries.extend(faq_entries(repo_name, read_file(snapshot, doc), doc))
    return entries, paths


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] in ("-h", "--help"):
        sys.exit(f"usage: python {argv[0]} MINDSPEED MINDSPEED_LLM MINDSPEED_RL  (git directories)")
    snapshots = argv[1:]
    entries, paths = extract(snapshots)
    write_catalog("mindspeed", "MindSpeed / MindSpeed-LLM / MindSpeed-RL: argument and config validation, "
                  "Megatron patching, checkpoint conversion, FAQ error lines",
                  ", ".join(r for r, _, _ in SOURCES), head_commit(snapshots[0]), paths, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
