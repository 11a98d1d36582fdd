"""Catalog of sglang's NPU (Ascend) backend and of sgl-kernel-npu: the failure messages a user can see.

Usage::

    python tools/catalog/sglang_npu.py SGLANG_TREE SGLANG_RELEASE KERNEL_NPU_SNAPSHOT

``SGLANG_TREE`` is a folder holding sglang's ``sglang/`` package as released (the unpacked PyPI
wheel: ``pip download --no-deps sglang==0.5.23 && unzip``; the GitHub repository is too large to
snapshot here, its ``python/`` folder is what the wheel is built from), ``SGLANG_RELEASE`` its
version (``0.5.23``, recorded as the tag ``v0.5.23``); ``KERNEL_NPU_SNAPSHOT`` a git directory of
sgl-project/sgl-kernel-npu (bare, as ``fetch`` leaves it). Two repositories feed one catalog: the
header's ``repo`` / ``commit`` are sgl-kernel-npu's (the one snapshot with a commit), and every entry
names its own ``repo`` (``sgl-project/sglang`` entries carry paths of that repository, ``python/...``,
at the release tag named in ``paths``).

What becomes an entry (each with the stripped ``source`` statement that prints it):

- sglang: every ``raise X(msg)``, ``logger.error / exception / critical`` call, failure-reading
  ``logger.warning`` and ``assert cond, msg`` under ``python/sglang/srt/hardware_backend/npu`` and
  ``python/sglang/srt/disaggregation/ascend``; elsewhere under ``python/sglang/srt`` only those that sit
  in an NPU branch (an ``if`` whose test names npu / ascend, e.g. ``if _is_npu:``,
  ``if self.device == "npu":``; a function or class whose name says npu / ascend) or whose message
  names NPU / Ascend / torch_npu / sgl_kernel_npu;
- sgl-kernel-npu: the same Python statements under ``python/`` (``sgl_kernel_npu``, ``deep_ep``,
  ``attentions``) and ``contrib/torch_memory_saver/python``; the build scripts' (``build.sh``,
  ``csrc/**/*.sh``) ``echo`` lines that precede an ``exit 1`` and ``die "..."`` calls (kind ``build.sh``);
  CMake ``message(FATAL_ERROR ...)`` / ``message(SEND_ERROR ...)`` (kind ``cmake``).

Templates: f-string fields and ``.format`` fields become ``{}``, printf ``%s`` / ``%d`` stay, shell
``$VAR`` / ``${VAR}`` and CMake ``${VAR}`` become ``{}``. Hand annotations survive a re-run
(``common.write_catalog``).
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import _callee, _is_logger, head_commit, list_files, message_template, read_file, write_catalog  # noqa: E402

NAME = "sglang-npu"
EXTRACTOR = "tools/catalog/sglang_npu.py"
SGLANG = "sgl-project/sglang"
KERNEL = "sgl-project/sgl-kernel-npu"

#: sglang folders (repository paths) read whole; the rest of ``python/sglang/srt`` only in NPU branches
SGLANG_WHOLE = ("python/sglang/srt/hardware_backend/npu/", "python/sglang/srt/disaggregation/ascend/")
SGLANG_SCOPE = "python/sglang/srt/"
#: sgl-kernel-npu's Python packages
KERNEL_PY = ("python/", "contrib/torch_memory_saver/python/")

ERROR_METHODS = {"error", "exception", "critical", "fatal", "error_once"}
WARNING_METHODS = {"warning", "warning_once", "warn"}
FAILURE_WORDS = re.compile(
    r"fail|error|cannot|can't|can not|unable|not support|unsupported|invalid|time ?out|timed out|exceed|"
    r"mismatch|missing|not found|not exist|does not match|doesn't match|refus|abort|exception|crash|"
    r"not available|unavailable|incompatible|insufficient|too (?:small|large|many|few)|must |should not|"
    r"illegal|corrupt|lost|broken|unexpected|not enough|out of|only support|not implemented|please",
    re.IGNORECASE,
)
#: npu as a word or an identifier part (``_is_npu``, ``torch.npu``, ``npu_graph``), never inside ``input``
NPU_WORDS = re.compile(r"(?<![a-z])npu|ascend|\bcann\b|hccl|mindie|\batb\b", re.IGNORECASE)


def template_of(node: ast.AST | None, env: dict[str, ast.AST]) -> str | None:
    """The message template of an expression, f-string fields left ``{}`` even for named constants."""
    return message_template(node, env, constants=False)


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


class _Visitor(ast.NodeVisitor):
    """Collects messages; ``whole`` takes every one, else only NPU-branch or NPU-worded ones."""

    def __init__(self, path: str, text: str, whole: bool):
        self.path = path
        self.lines = text.splitlines()
        self.whole = whole
        self.entries: list[dict] = []
        self.envs: list[dict[str, ast.AST]] = [{}]
        self.npu_depth = 0

    def _source(self, node: ast.AST) -> str:
        first, last = node.lineno, getattr(node, "end_lineno", node.lineno) or node.lineno
        last = min(last, first + 12)
        return _clean(" ".join(line.strip() for line in self.lines[first - 1:last]))

    def _scoped(self, node: ast.AST, npu: bool) -> None:
        self.envs.append(dict(self.envs[0]))
        self.npu_depth += npu
        self.generic_visit(node)
        self.npu_depth -= npu
        self.envs.pop()

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._scoped(node, bool(NPU_WORDS.search(node.name)))

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        npu = bool(NPU_WORDS.search(node.name))
        self.npu_depth += npu
        self.generic_visit(node)
        self.npu_depth -= npu

    def visit_If(self, node: ast.If) -> None:
        test = ast.unparse(node.test)
        npu = bool(NPU_WORDS.search(test)) and not test.lstrip().startswith("not ")
        self.visit(node.test)
        self.npu_depth += npu
        for stmt in node.body:
            self.visit(stmt)
        self.npu_depth -= npu
        for stmt in node.orelse:
            self.visit(stmt)

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.envs[-1][target.id] = node.value
        self.generic_visit(node)

    def _add(self, template: str | None, node: ast.AST, kind: str) -> None:
        if template is None:
            return
        template = _clean(template)
        if len(template) < 3 or not re.search(r"[A-Za-z]{2}", template):
            return
        if not (self.whole or self.npu_depth or NPU_WORDS.search(template)):
            return
        self.entries.append({"template": template, "path": self.path, "line": node.lineno, "kind": kind,
                             "source": self._source(node)})

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            self._add(template_of(exc.args[0], self.envs[-1]), node, f"raise {_callee(exc.func) or '?'}")
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if node.msg is not None:
            self._add(template_of(node.msg, self.envs[-1]), node, "assert")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and _is_logger(func.value) and node.args:
            method = func.attr
            if method in ERROR_METHODS or method in WARNING_METHODS:
                template = template_of(node.args[0], self.envs[-1])
                warning = method in WARNING_METHODS
                if template is not None and (not warning or FAILURE_WORDS.search(template)):
                    kind = "logger.warning" if warning else f"logger.{method.removesuffix('_once')}"
                    self._add(template, node, kind)
        self.generic_visit(node)


def python_entries(path: str, text: str, whole: bool, repo: str) -> list[dict]:
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        print(f"skipped {path}: {exc}", file=sys.stderr)
        return []
    visitor = _Visitor(path, text, whole)
    visitor.visit(tree)
    out = sorted(visitor.entries, key=lambda e: e["line"])
    for e in out:
        e["repo"] = repo
    return out


def _shell_template(text: str) -> str:
    return _clean(re.sub(r"\$\{?[A-Za-z_][A-Za-z0-9_]*\}?|\$\([^)]*\)", "{}", text))


def build_sh_entries(path: str, text: str) -> list[dict]:
    """``echo "..."`` lines of a shell script that an ``exit 1`` follows within three lines, and calls of a
    ``die`` helper that prints ``Error: <message>`` and exits (sgl-kernel-npu's build.sh)."""
    lines = text.splitlines()
    out = []
    die_prefix = "Error: " if re.search(r'function die\(\)\s*\{\s*echo "Error: \$\*"', text) else ""
    for i, raw in enumerate(lines):
        d = re.match(r'\s*die\s+(["\'])(.*?)\1', raw)
        if d:
            template = _shell_template(die_prefix + d.group(2))
            out.append({"template": template, "path": path, "line": i + 1, "kind": "build.sh",
                        "source": raw.strip(), "repo": KERNEL})
            continue
        m = re.match(r'\s*echo\s+(?:-e\s+)?(["\'])(.*)\1\s*(?:>&2)?\s*$', raw)
        if not m:
            continue
        follow = " ".join(lines[i + 1:i + 4])
        if not re.search(r"\bexit\s+[1-9]", follow) and not re.search(r"\bexit\s+[1-9]", raw):
            continue
        template = _shell_template(m.group(2))
        if len(template) >= 3 and re.search(r"[A-Za-z]{2}", template):
            out.append({"template": template, "path": path, "line": i + 1, "kind": "build.sh",
                        "source": raw.strip(), "repo": KERNEL})
    return out


def cmake_entries(path: str, text: str) -> list[dict]:
    out = []
    for m in re.finditer(r'message\s*\(\s*(FATAL_ERROR|SEND_ERROR)\s+"((?:[^"\\]|\\.)*)"', text):
        line = text.count("\n", 0, m.start()) + 1
        template = _clean(re.sub(r"\$\{[^}]*\}", "{}", m.group(2)))
        if len(template) >= 3:
            out.append({"template": template, "path": path, "line": line, "kind": "cmake",
                        "source": _clean(m.group(0)) + ")", "repo": KERNEL})
    return out


def sglang_entries(tree: Path) -> list[dict]:
    """Entries of the sglang package in ``tree`` (``tree/sglang/srt/...``), under repository paths."""
    out = []
    for file in sorted((tree / "sglang" / "srt").rglob("*.py")):
        rel = "python/" + file.relative_to(tree).as_posix()
        if "/hardware_backend/" in rel and not rel.startswith(SGLANG_WHOLE[0]):
            continue  # other devices' backends
        whole = rel.startswith(SGLANG_WHOLE)
        out.extend(python_entries(rel, file.read_text(encoding="utf-8", errors="replace"), whole, SGLANG))
    return out


def kernel_entries(snapshot: str) -> list[dict]:
    out = []
    files = list_files(snapshot)
    for path in sorted(files):
        if path.endswith(".py") and path.startswith(KERNEL_PY) and "/tests/" not in path and "/test/" not in path:
            out.extend(python_entries(path, read_file(snapshot, path), True, KERNEL))
        elif path == "build.sh" or (path.endswith(".sh") and path.startswith("csrc/")):
            out.extend(build_sh_entries(path, read_file(snapshot, path)))
        elif path == "CMakeLists.txt" or (path.startswith("cmake/") and path.endswith(".cmake")):
            out.extend(cmake_entries(path, read_file(snapshot, path)))
    return out


def main(argv: list[str]) -> int:
    if len(argv) != 4 or argv[1] in ("-h", "--help"):
        sys.exit(f"usage: python {argv[0]} SGLANG_TREE SGLANG_RELEASE KERNEL_NPU_SNAPSHOT")
    tree, release, snapshot = Path(argv[1]), argv[2], argv[3]
    entries = sglang_entries(tree) + kernel_entries(snapshot)
    tag = f"v{release.lstrip('v')}"
    paths = [f"{SGLANG}@{tag}:{p.rstrip('/')}" for p in SGLANG_WHOLE]
    paths.append(f"{SGLANG}@{tag}:{SGLANG_SCOPE.rstrip('/')} (NPU branches and NPU-worded messages only)")
    paths += [f"{KERNEL}:{p.rstrip('/')}" for p in KERNEL_PY] + [f"{KERNEL}:build.sh", f"{KERNEL}:CMakeLists.txt",
                                                                    f"{KERNEL}:cmake",
                                                                    f"{KERNEL}:csrc (build scripts, *.sh)"]
    title = (f"sglang {tag} NPU backend (hardware_backend/npu, disaggregation/ascend, NPU branches of srt) and "
             f"sgl-kernel-npu (python packages, build.sh, CMake): raise / assert / logger.error / failure "
             f"warnings; header repo and commit are sgl-kernel-npu's, sglang entries are from the {tag} release "
             f"(PyPI wheel sglang-{release.lstrip('v')})")
    write_catalog(NAME, title, KERNEL, head_commit(snapshot), paths, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
