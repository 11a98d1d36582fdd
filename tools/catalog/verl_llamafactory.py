"""Catalog of the NPU code paths of verl and LLaMA-Factory: the messages they print on Ascend NPUs.

Usage::

    python tools/catalog/verl_llamafactory.py VERL LLAMA_FACTORY

each a git directory (bare, as ``fetch`` leaves it, or a work tree) of volcengine/verl and
hiyouga/LLaMA-Factory. ``catalogs/verl-llamafactory.yaml`` records each entry's ``repo`` and the source
that prints it (``source``). Both projects run on CUDA and NPU alike, so only their NPU paths are swept
(``verl/`` and ``src/llamafactory/``, tests left out):

- a message in the body of an ``if`` whose test names the NPU (``is_npu_available``,
  ``is_torch_npu_available()``, ``get_device_name() == "npu"``, ``"Ascend910" not in ...``), or in a
  function or class whose name does (``NPUToolConfig``, ``patch_qwen3_5_forward_npu``);
- a message whose text names the NPU, Ascend, HCCL, MindSpeed or torch_npu;
- every message of a file whose path does (``hccl_checkpoint_engine.py``, ``npu_rms_norm.py`` ...), and
  of LLaMA-Factory's ``model/model_utils/attention.py``, which picks the attention implementation
  (FlashAttention-2 is taken as available on NPU there, through torch_npu's fused attention).

Messages: ``raise X(msg)``, ``assert cond, msg``, ``logger.error`` and every ``logger.warning`` /
``warning_rank0`` / ``warnings.warn`` (see ``common.python_messages``). Re-running keeps the hand
annotations.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, python_messages, read_file, write_catalog  # noqa: E402

EXTRACTOR = "tools/catalog/verl_llamafactory.py"

#: Names the NPU in an ``if`` test, a function or class name, a message or a path ("input" does not).
NPU = re.compile(r"(?:^|\b|_)npus?(?:\b|_|$)|NPU|Npu|[Aa]scend|ASCEND|hccl|HCCL|[Mm]ind[Ss]peed|torch_npu")

#: (repository, folder swept, files kept whole besides those whose path names the NPU)
SOURCES = [
    ("volcengine/verl", "verl", []),
    ("hiyouga/LLaMA-Factory", "src/llamafactory", ["src/llamafactory/model/model_utils/attention.py"]),
]


def _is_test(path: str) -> bool:
    return "/tests/" in path or path.startswith("tests/") or Path(path).name.startswith("test_")


def extract(snapshots: list[str]) -> tuple[list[dict], list[str]]:
    """Entries of both repositories, and the ``paths`` header (``repo@commit:folder``)."""
    entries: list[dict] = []
    paths: list[str] = []
    for (repo_name, folder, whole), snapshot in zip(SOURCES, snapshots, strict=True):
        paths.append(f"{repo_name}@{head_commit(snapshot)}:{folder}")
        for path in sorted(list_files(snapshot, folder + "/")):
            if not path.endswith(".py") or _is_test(path):
                continue
            keep_all = bool(NPU.search(path)) or path in whole
            for e in python_messages(read_file(snapshot, path), path, all_warnings=True, guard=NPU):
                if keep_all or e.pop("guarded") or NPU.search(e["template"]):
                    e.pop("guarded", None)
                    entries.append({"repo": repo_name, **e})
    return entries, paths


def main(argv: list[str]) -> int:
    if len(argv) != 3 or argv[1] in ("-h", "--help"):
        sys.exit(f"usage: python {argv[0]} VERL LLAMA_FACTORY  (git directories)")
    snapshots = argv[1:]
    entries, paths = extract(snapshots)
    write_catalog("verl-llamafactory", "verl and LLaMA-Factory: messages of their NPU code paths",
                  ", ".join(r for r, _, _ in SOURCES), head_commit(snapshots[0]), paths, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
