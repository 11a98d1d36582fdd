"""Catalog of the messages triton-ascend's NPU driver and compiler path print.

Usage::

    python tools/catalog/triton_ascend.py SNAPSHOT [--ref REF] [--layout v3.2|main] [--name NAME]
    # the two catalogs in catalogs/:
    python tools/catalog/triton_ascend.py SNAPSHOT                                             # triton-ascend
    python tools/catalog/triton_ascend.py SNAPSHOT --ref main --layout main --name triton-ascend-main

``SNAPSHOT`` is a git directory of Ascend/triton-ascend (bare, as ``fetch`` leaves it, or a work tree);
``REF`` the tag or commit to read (default ``v3.2.0``, the release that PyPI serves as
``triton-ascend==3.2.0`` and that vllm-ascend pins). At that release the NPU backend lives in
``ascend/backend`` (installed as ``triton/backends/ascend``) and the patched compiler / JIT front end in
``triton_patch/python/triton_patch`` (installed over ``triton/compiler`` and ``triton/runtime``); later
releases moved the backend to ``third_party/ascend/backend`` and the front end to ``python/triton`` (``--layout main``,
whose migration guide is ``docs/en/migration_guide/migrate_from_gpu.md``).

What becomes an entry:

- Python files (``ascend/backend/{driver,compiler,utils}.py``, the patched ``compiler/compiler.py`` and
  the launch path of ``runtime/jit.py``, i.e. ``JITFunction.run``): ``raise X(msg)``, ``print(msg)`` and
  ``warnings.warn(msg)`` with a literal, f-string, ``%`` or ``.format`` message (kind ``raise X``,
  ``print``, ``warnings.warn``);
- the ``MLIRCompilationError`` text of ``compiler/errors.py`` (its f-string lines, kind
  ``raise MLIRCompilationError``);
- C/C++ text: ``printf`` / ``fprintf(stderr, ...)`` / ``PyErr_SetString`` / ``PyErr_Format`` calls with
  a string literal, in ``ascend/backend/npu_utils.cpp`` (the ``npu_utils`` extension built at first use)
  and in the C++ launcher source that ``driver.py`` generates as Python strings (kind ``printf`` ...);
- the messages of ``bishengir-compile`` (closed source, ships with CANN) that the migration guide quotes as
  typical errors (kind ``doc``).

Each entry also carries ``source``: the stripped source line that prints (or quotes) the message.
Variable parts become ``{}`` (f-string fields) or stay ``%s`` / ``%d`` / ``%x`` (printf style).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import git, write_catalog  # noqa: E402

REPO_NAME = "Ascend/triton-ascend"
EXTRACTOR = "tools/catalog/triton_ascend.py"
NAME = "triton-ascend"
TITLE = ("triton-ascend's NPU driver, launcher and compiler path (ascend/backend driver.py, compiler.py, utils.py, "
         "npu_utils.cpp, the generated launcher; the patched compiler and JIT launch path) and the bishengir-compile "
         "errors its migration guide quotes")

#: The files swept per source layout: ``v3.2`` (tag v3.2.0 and the 3.2.x branch, what PyPI serves) and ``main``
#: (the backend under third_party/ascend, the compiler and JIT front end in python/triton).
LAYOUTS = {
    "v3.2": {
        "py": {
            "ascend/backend/driver.py": None,
            "ascend/backend/compiler.py": None,
            "ascend/backend/utils.py": None,
            "triton_patch/python/triton_patch/compiler/compiler.py": None,
            "triton_patch/python/triton_patch/runtime/jit.py": {"run"},  # only the launch path
        },
        "errors": "triton_patch/python/triton_patch/compiler/errors.py",
        "c": ["ascend/backend/npu_utils.cpp", "ascend/backend/driver.py"],
        "doc": "docs/sources/programming-guide/migration.md",
    },
    "main": {
        "py": {
            "third_party/ascend/backend/driver.py": None,
            "third_party/ascend/backend/compiler.py": None,
            "third_party/ascend/backend/utils.py": None,
            "python/triton/compiler/compiler.py": None,
            "python/triton/runtime/jit.py": {"run"},
        },
        "errors": "python/triton/compiler/errors.py",
        "c": ["third_party/ascend/backend/npu_utils.cpp", "third_party/ascend/backend/driver.py"],
        "doc": "docs/en/migration_guide/migrate_from_gpu.md",
    },
}
PY_FILES = LAYOUTS["v3.2"]["py"]
ERRORS_FILE = LAYOUTS["v3.2"]["errors"]
C_FILES = LAYOUTS["v3.2"]["c"]
DOC_FILE = LAYOUTS["v3.2"]["doc"]


def _show(repo: str, ref: str, path: str) -> str:
    return git(repo, "show", f"{ref}:{path}")


def _clean(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def _fstring(node: ast.JoinedStr) -> str:
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(str(part.value).replace("{", "{{").replace("}", "}}"))
        else:
            out.append("{}")
    return "".join(out)


def template_of(node: ast.AST | None) -> str | None:
    """The message an expression prints, ``{}`` for its variable parts; None when it is no string."""
    if node is None:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return _fstring(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return template_of(node.left)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template_of(node.left), template_of(node.right)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = template_of(node.func.value)
        return re.sub(r"\{[^{}]*\}", "{}", base) if base is not None else None
    return None


class _Visitor(ast.NodeVisitor):
    def __init__(self, path: str, lines: list[str], only: set[str] | None):
        self.path, self.lines, self.only = path, lines, only
        self.funcs: list[str] = []
        self.entries: list[dict] = []

    def _wanted(self) -> bool:
        return self.only is None or any(f in self.only for f in self.funcs)

    def _add(self, node: ast.AST, template: str | None, kind: str, message: ast.AST | None = None) -> None:
        if template is None or not self._wanted():
            return
        template = _clean(template)
        if len(template) < 3 or not re.search(r"[A-Za-z]{2}|\x1b", template):
            return
        # source: the call's line, or the message's own line when the call spans several lines
        at = node.lineno if message is None or message.lineno == node.lineno else message.lineno
        self.entries.append({"template": template, "path": self.path, "line": node.lineno, "kind": kind,
                             "source": self.lines[at - 1].strip()})

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self.funcs.append(node.name)
        self.generic_visit(node)
        self.funcs.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            name = exc.func.id if isinstance(exc.func, ast.Name) else getattr(exc.func, "attr", "?")
            self._add(node, template_of(exc.args[0]), f"raise {name}", exc.args[0])
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Name) and func.id == "print" and node.args:
            self._add(node, template_of(node.args[0]), "print", node.args[0])
        elif isinstance(func, ast.Attribute) and func.attr == "warn" and node.args:
            text = template_of(node.args[0])
            if text is not None:
                self._add(node, text, "warnings.warn", node.args[0])
            elif isinstance(node.args[0], ast.BinOp):  # red + str(e) + reset: the exception text in ANSI red
                self._add(node, "\x1b[31;20m{}\x1b[0m", "warnings.warn", node.args[0])
        self.generic_visit(node)


def python_entries(repo: str, ref: str) -> list[dict]:
    out = []
    for path, only in PY_FILES.items():
        text = _show(repo, ref, path)
        visitor = _Visitor(path, text.splitlines(), only)
        visitor.visit(ast.parse(text))
        out.extend(visitor.entries)
    return out


def errors_entries(repo: str, ref: str) -> list[dict]:
    """MLIRCompilationError's message: the frame lines and the ``[stage] encounters error:`` head."""
    text = _show(repo, ref, ERRORS_FILE)
    lines = text.splitlines()
    out = []
    for i, line in enumerate(lines, 1):
        if "encounters error" in line:
            template = "[{}] encounters error:"
        elif "format_line_delim('[ERROR]" in line:
            keyword = re.search(r"'(\[ERROR\][^']*)'", line).group(1)
            template = f"///------------------{keyword}------------------"
        else:
            continue
        out.append({"template": template, "path": ERRORS_FILE, "line": i, "kind": "raise MLIRCompilationError",
                    "source": line.strip()})
    return out


_C_CALL = re.compile(r'\b(?P<fn>printf\(|fprintf\(\s*stderr\s*,|PyErr_SetString\(\s*\w+\s*,|PyErr_Format\(\s*\w+\s*,)'
                     r'\s*(?P<lits>(?:"(?:[^"\\]|\\.)*"\s*)+)')
_LIT = re.compile(r'"((?:[^"\\]|\\.)*)"')


def c_entries(repo: str, ref: str) -> list[dict]:
    out = []
    for path in C_FILES:
        text = _show(repo, ref, path)
        lines = text.splitlines()
        python = path.endswith(".py")
        for m in _C_CALL.finditer(text):
            lits = _LIT.findall(m.group("lits"))
            template = "".join(lits)
            if python:  # C text inside a Python string: '\\n' is a C escape, f-string braces are fields
                template = template.replace("\\\\n", "").replace("\\\\", "\\")
                template = re.sub(r"(?<!\{)\{(?!\{)[^{}]*\}(?!\})", "{}", template)
            template = _clean(template.replace("\\n", " ").replace('\\"', '"'))
            if not python:
                template = template.replace("{", "{{").replace("}", "}}")
            lineno = text.count("\n", 0, m.start()) + 1
            fn = m.group("fn").split("(")[0]
            if len(template) < 3 or not re.search(r"[A-Za-z]{2}", template):
                continue
            out.append({"template": template, "path": path, "line": lineno, "kind": fn,
                        "source": lines[lineno - 1].strip()})
    return out


def doc_entries(repo: str, ref: str) -> list[dict]:
    """The bishengir-compile messages the migration guide quotes as typical errors."""
    text = _show(repo, ref, DOC_FILE)
    out = []
    for i, line in enumerate(text.splitlines(), 1):
        m = re.search(r"(?:典型错误信息[:：]|Typical error message:)\s*`([^`]+)`", line)
        if not m:
            continue
        template = re.sub(r"\bx{3,}\b|\b\d{4,}\b", "%d", m.group(1))
        out.append({"template": template, "path": DOC_FILE, "line": i, "kind": "doc (bishengir-compile)",
                    "source": line.strip()})
    return out


def main(argv: list[str]) -> None:
    global PY_FILES, ERRORS_FILE, C_FILES, DOC_FILE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("snapshot")
    parser.add_argument("--ref", default="v3.2.0", help="tag, branch or commit to read (default v3.2.0)")
    parser.add_argument("--layout", choices=sorted(LAYOUTS), default="v3.2",
                        help="source layout of REF: v3.2 (ascend/backend, triton_patch) or main (third_party/ascend)")
    parser.add_argument("--name", default=NAME, help="catalog name (default triton-ascend)")
    args = parser.parse_args(argv[1:])
    layout = LAYOUTS[args.layout]
    PY_FILES, ERRORS_FILE, C_FILES, DOC_FILE = layout["py"], layout["errors"], layout["c"], layout["doc"]
    commit = git(args.snapshot, "rev-parse", f"{args.ref}^{{commit}}").strip()
    entries = (python_entries(args.snapshot, args.ref) + errors_entries(args.snapshot, args.ref)
               + c_entries(args.snapshot, args.ref) + doc_entries(args.snapshot, args.ref))
    paths = sorted({*PY_FILES, ERRORS_FILE, *C_FILES, DOC_FILE})
    title = TITLE if args.layout == "v3.2" else TITLE.replace("(ascend/backend", "at main (third_party/ascend/backend")
    write_catalog(args.name, title, REPO_NAME, commit, paths, EXTRACTOR, entries)


if __name__ == "__main__":
    main(sys.argv)
