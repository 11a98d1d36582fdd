"""Catalog of torch_npu's own failure messages: Python ``raise`` sites and C++ ``TORCH_CHECK`` /
``ASCEND_LOGE`` sites of Ascend/pytorch, each with the source line that prints it.

Usage::

    python tools/catalog/torch_npu_raises.py SNAPSHOT

``SNAPSHOT`` is a git directory of Ascend/pytorch (bare, as ``fetch`` leaves it, or a work tree). The
files read are :data:`PY_PATHS` and :data:`CPP_PATHS` (folders or files at ``HEAD``): the parts a user
reaches through ``import torch_npu``, device selection (``torch.npu.set_device``, ``npu:N``,
``ASCEND_RT_VISIBLE_DEVICES``), the caching allocators, streams and events, the task queue, the
``_npu_shutdown`` path and the Python bindings of ``torch_npu._C``. Four files of the operator
layer and the option manager are added for what users hit there: internal (private) formats that a
chip does not support, the ``ACL_OP_INIT_MODE`` switch and the checks of torch_npu's environment
variables (``OptionsManager.cpp``). Left out on purpose: the compiler back ends (``_inductor``,
``csrc/inductor``, ``dynamo``), the profiler's analysis package, the distributed package
(``csrc/distributed``, covered by the HCCL rules) and the rest of the operator adapters
(``csrc/aten``, one message per operator argument).

Entries:

- Python ``raise X(msg)``: ``msg`` when it is a string, an f-string, a ``%`` / ``.format`` expression
  or a concatenation of them; the ``pta_error(ErrCode.X)`` / ``ops_error`` ... suffix is not part of
  the template (it prints the ``[ERROR] ... ERRmmccc`` line under the message) but its code goes in
  ``kind`` (``raise RuntimeError ERR00003``);
- C++ ``TORCH_CHECK(cond, pieces...)`` and ``TORCH_CHECK_*``: the message pieces after the condition,
  string literals kept and every other expression a ``{}``; ``PTA_ERROR(ErrCode::X)`` and its
  siblings are dropped from the template and named in ``kind`` as above. ``TORCH_NPU_WARN`` is not
  swept (warnings);
- C++ ``ASCEND_LOGE(fmt, args...)``: ``fmt`` with its ``%s`` / ``%d`` (printed to the CANN plog as
  ``[PTA]:<fmt>``; kind ``ASCEND_LOGE``).

Each entry carries ``source``: the statement that prints it, its lines stripped and joined by one
space.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, read_file, write_catalog  # noqa: E402

REPO_NAME = "Ascend/pytorch"
EXTRACTOR = "tools/catalog/torch_npu_raises.py"
NAME = "torch-npu-raises"

PY_PATHS = [
    "torch_npu/__init__.py",
    "torch_npu/_init/core",
    "torch_npu/npu/__init__.py",
    "torch_npu/npu/utils.py",
    "torch_npu/npu/memory.py",
    "torch_npu/npu/streams.py",
    "torch_npu/npu/npu_config.py",
    "torch_npu/npu/deterministic.py",
    "torch_npu/npu/_stream_check.py",
    "torch_npu/npu/_recovery.py",
    "torch_npu/utils/_module.py",
]
CPP_PATHS = [
    "torch_npu/csrc/InitNpuBindings.cpp",
    "torch_npu/csrc/core/npu/NPUCachingAllocator.cpp",
    "torch_npu/csrc/core/npu/NPUCachingAllocator.h",
    "torch_npu/csrc/core/npu/NPUAllocatorConfig.cpp",
    "torch_npu/csrc/core/npu/NPUWorkspaceAllocator.cpp",
    "torch_npu/csrc/core/npu/CachingHostAllocator.cpp",
    "torch_npu/csrc/core/npu/NPUStream.cpp",
    "torch_npu/csrc/core/npu/NPUEvent.cpp",
    "torch_npu/csrc/core/npu/NPUFunctions.cpp",
    "torch_npu/csrc/core/npu/NPUQueue.cpp",
    "torch_npu/csrc/core/npu/NPUException.cpp",
    "torch_npu/csrc/core/npu/sys_ctrl/npu_sys_ctrl.cpp",
    "torch_npu/csrc/core/npu/DeviceUtils.h",
    "torch_npu/csrc/npu/Module.cpp",
    "torch_npu/csrc/npu/Stream.cpp",
    "torch_npu/csrc/npu/Event.cpp",
    # op support per chip and the ACL op (aclop) switches: internal formats, ACL_OP_INIT_MODE, env checks
    "torch_npu/csrc/aten/common/FormatCastKernelNpu.cpp",
    "torch_npu/csrc/aten/ops/op_api/CopyKernelOpApi.cpp",
    "torch_npu/csrc/framework/interface/EnvVariables.cpp",
    "torch_npu/csrc/framework/LazyInitAclops.cpp",
    # the checks of torch_npu's environment variables (TASK_QUEUE_ENABLE, HCCL_BUFFSIZE, ...)
    "torch_npu/csrc/core/npu/register/OptionsManager.cpp",
]

# ErrCode names -> numbers (torch_npu/utils/_error_code.py and NPUException.h agree)
ERR_CODES = {"SUCCESS": 0, "PARAM": 1, "TYPE": 2, "VALUE": 3, "PTR": 4, "INTERNAL": 5, "MEMORY": 6,
             "NOT_SUPPORT": 7, "NOT_FOUND": 8, "UNAVAIL": 9, "SYSCALL": 10, "TIMEOUT": 11, "PERMISSION": 12,
             "ACL": 100, "HCCL": 200, "GE": 300, "EXCEPT": 999}
SUBMODULES = {"pta": 0, "ops": 1, "dist": 2, "graph": 3, "prof": 4}
_ERR_FN = re.compile(r"^(pta|ops|dist|graph|prof)_error$", re.IGNORECASE)


def _err_code(sub: str, name: str) -> str | None:
    if sub.lower() in SUBMODULES and name in ERR_CODES:
        return f"ERR{SUBMODULES[sub.lower()]:02d}{ERR_CODES[name]:03d}"
    return None


def _clean(template: str) -> str:
    """One line: whitespace runs (implicit concatenation, newlines) collapse to one space."""
    return re.sub(r"\s+", " ", template).strip()


def _statement_source(lines: list[str], first: int, last: int) -> str:
    """The statement's lines (1-based, inclusive), each stripped, joined by one space."""
    return " ".join(s.strip() for s in lines[first - 1:last] if s.strip())


# ---------------------------------------------------------------- Python


def _const_str(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _error_suffix(node: ast.AST) -> str | None:
    """``ERRmmccc`` when ``node`` is ``pta_error(ErrCode.X)`` (or ops_/dist_/graph_/prof_error)."""
    if isinstance(node, ast.Call):
        fn = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", "")
        m = _ERR_FN.match(fn or "")
        if m and node.args and isinstance(node.args[0], ast.Attribute):
            return _err_code(m.group(1), node.args[0].attr) or f"ERR?{node.args[0].attr}"
    return None


def _template(node: ast.AST | None, env: dict[str, ast.AST], codes: list[str], depth: int = 0) -> str | None:
    if node is None or depth > 6:
        return None
    s = _const_str(node)
    if s is not None:
        return s
    code = _error_suffix(node)
    if code is not None:
        codes.append(code)
        return ""
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            if isinstance(part, ast.Constant):
                out.append(str(part.value).replace("{", "{{").replace("}", "}}"))
            else:
                code = _error_suffix(part.value)
                if code is not None:
                    codes.append(code)
                else:
                    out.append("{}")
        return "".join(out)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return _template(node.left, env, codes, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _template(node.left, env, codes, depth + 1)
        right = _template(node.right, env, codes, depth + 1)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = _template(node.func.value, env, codes, depth + 1)
        return re.sub(r"\{[^{}]*\}", "{}", base) if base is not None else None
    if isinstance(node, ast.Name) and node.id in env:
        return _template(env[node.id], env, codes, depth + 1)
    return None


class _PyVisitor(ast.NodeVisitor):
    def __init__(self, path: str, lines: list[str]):
        self.path = path
        self.lines = lines
        self.entries: list[dict] = []
        self.envs: list[dict[str, ast.AST]] = [{}]

    def _scope(self, node: ast.AST) -> None:
        self.envs.append(dict(self.envs[0]))
        self.generic_visit(node)
        self.envs.pop()

    visit_FunctionDef = _scope
    visit_AsyncFunctionDef = _scope

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.envs[-1][target.id] = node.value
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            name = exc.func.id if isinstance(exc.func, ast.Name) else getattr(exc.func, "attr", "?")
            codes: list[str] = []
            template = _template(exc.args[0], self.envs[-1], codes)
            if template is not None:
                template = _clean(template)
                if len(template) >= 3 and re.search(r"[A-Za-z]{2}", template):
                    kind = f"raise {name}" + (f" {codes[0]}" if codes else "")
                    self.entries.append({
                        "template": template, "path": self.path, "line": node.lineno, "kind": kind,
                        "source": _statement_source(self.lines, node.lineno, node.end_lineno or node.lineno)})
        self.generic_visit(node)


def extract_python(repo: str, path: str) -> list[dict]:
    text = read_file(repo, path)
    try:
        tree = ast.parse(text, filename=path)
    except SyntaxError as exc:
        print(f"skipped {path}: {exc}", file=sys.stderr)
        return []
    visitor = _PyVisitor(path, text.splitlines())
    visitor.visit(tree)
    return sorted(visitor.entries, key=lambda e: e["line"])


# ---------------------------------------------------------------- C++

_CPP_CALL = re.compile(r"\b(TORCH_CHECK(?:_[A-Z]+)?|ASCEND_LOGE)\s*\(")
_STRING = re.compile(r'"((?:[^"\\\n]|\\.)*)"')
_CPP_ERR = re.compile(r"^(PTA|OPS|DIST|GRAPH|PROF)_ERROR\s*\(\s*ErrCode::(\w+)\s*\)$")


def _strip_comments(text: str) -> str:
    """``text`` with // and /* */ comments blanked (string literals kept; line numbers kept)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            out.append(" " * (j - i))
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            out.append(re.sub(r"[^\n]", " ", text[i:j]))
            i = j
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _split_args(text: str, start: int) -> tuple[list[str], int] | None:
    """Top-level comma-separated arguments of the call whose ``(`` is at ``start``; and the end index."""
    depth, i, n = 0, start, len(text)
    args, current = [], []
    while i < n:
        c = text[i]
        if c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            current.append(text[i:j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
            if depth > 1:
                current.append(c)
        elif c in ")]}":
            depth -= 1
            if depth == 0:
                args.append("".join(current).strip())
                return args, i
            current.append(c)
        elif c == "," and depth == 1:
            args.append("".join(current).strip())
            current = []
        else:
            current.append(c)
        i += 1
    return None


def _unescape(s: str) -> str:
    return s.replace('\\"', '"').replace("\\n", " ").replace("\\t", " ").replace("\\\\", "\\")


def _piece(arg: str) -> str:
    """A TORCH_CHECK message argument as template text: adjacent literals joined, else ``{}``."""
    literals = _STRING.findall(arg)
    rest = _STRING.sub("", arg).strip()
    if literals and not rest:
        return "".join(_unescape(s) for s in literals)
    return "{}"


def extract_cpp(repo: str, path: str) -> list[dict]:
    raw = read_file(repo, path)
    lines = raw.splitlines()
    text = _strip_comments(raw)
    entries = []
    for m in _CPP_CALL.finditer(text):
        macro = m.group(1)
        if text[max(0, m.start() - 8):m.start()].rstrip().endswith("define"):
            continue
        parsed = _split_args(text, m.end() - 1)
        if parsed is None:
            continue
        args, end = parsed
        line = text.count("\n", 0, m.start()) + 1
        last = text.count("\n", 0, end) + 1
        codes = []
        if macro == "ASCEND_LOGE":
            if not args:
                continue
            template = _piece(args[0])
            if template == "{}":
                continue
        else:
            pieces = []
            for arg in args[1:]:
                em = _CPP_ERR.match(arg)
                if em:
                    code = _err_code(em.group(1), em.group(2))
                    if code:
                        codes.append(code)
                    continue
                pieces.append(_piece(arg))
            template = "".join(pieces)
            # c10's TORCH_CHECK without a message prints "Expected <cond> to be true, but got false."
            if not template.strip("{} "):
                continue
        template = _clean(template)
        if len(template) < 3 or not re.search(r"[A-Za-z]{2}", template):
            continue
        kind = macro + (f" {codes[0]}" if codes else "")
        entries.append({"template": template, "path": path, "line": line, "kind": kind,
                        "source": _statement_source(lines, line, last)})
    return entries


# ---------------------------------------------------------------- main


def _files(repo: str, paths: list[str], suffixes: tuple[str, ...]) -> list[str]:
    out = []
    for p in paths:
        if p.endswith(suffixes):
            out.append(p)
        else:
            out.extend(f for f in sorted(list_files(repo, p.rstrip("/") + "/")) if f.endswith(suffixes))
    return out


def extract(repo: str) -> list[dict]:
    entries: list[dict] = []
    for path in _files(repo, PY_PATHS, (".py",)):
        entries.extend(extract_python(repo, path))
    for path in _files(repo, CPP_PATHS, (".cpp", ".h")):
        entries.extend(extract_cpp(repo, path))
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", help="git directory of Ascend/pytorch")
    args = parser.parse_args(argv)
    entries = extract(args.snapshot)
    title = ("torch_npu raise / TORCH_CHECK / ASCEND_LOGE messages: import, device selection, allocators, "
             "streams and events, task queue, shutdown, torch_npu._C bindings")
    write_catalog(NAME, title, REPO_NAME, head_commit(args.snapshot), PY_PATHS + CPP_PATHS, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
