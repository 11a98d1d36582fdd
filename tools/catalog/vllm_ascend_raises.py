"""Catalog of vllm-ascend's user-visible failure messages, read from the source with ``ast``.

Usage::

    python tools/catalog/vllm_ascend_raises.py SNAPSHOT NAME SUBTREE... [--title T] [--all-warnings] [--asserts]

``SNAPSHOT`` is a git directory of vllm-project/vllm-ascend (bare, as ``fetch`` leaves it, or a work
tree); ``NAME`` the catalog name (``catalogs/NAME.yaml``); each ``SUBTREE`` a folder of the repository
(``vllm_ascend/distributed``, ``vllm_ascend/ops`` ...). Every ``.py`` file under the subtrees at ``HEAD``
is parsed and these become entries:

- ``raise X(msg, ...)``: the first argument ``msg`` when it is a string literal, an f-string, a
  ``"..." % args`` / ``"...".format(...)`` expression, a concatenation of those, or a local name bound
  to one of them earlier in the same function (kind ``raise X``);
- ``logger.error / exception / critical / error_once`` calls (any receiver whose name ends in
  ``logger``, or ``logging.``): the first argument (kind ``logger.error`` ...);
- ``logger.warning / warning_once``: only when the text reads as a failure (failed, error, cannot,
  not supported, invalid, timeout, mismatch, missing ...), unless ``--all-warnings``;
- with ``--asserts``: ``assert cond, msg`` statements that carry a message (kind ``assert``).

Variable parts become ``{}`` (f-string fields, ``.format`` fields, non-literal pieces of a
concatenation) or stay ``%s`` / ``%d`` (printf style), so ``triage.kbtools.coverage.instantiate`` can fill them.
A ``raise`` without a literal message (``raise e``, ``raise ValueError(msg)`` with ``msg`` unresolved)
is skipped. Re-running keeps the hand annotations (``rule`` / ``sample`` / ``excluded``) of entries
whose (path, template) did not change (see ``common.write_catalog``).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, read_file, write_catalog  # noqa: E402

REPO_NAME = "vllm-project/vllm-ascend"
EXTRACTOR = "tools/catalog/vllm_ascend_raises.py"

ERROR_METHODS = {"error", "exception", "critical", "fatal", "error_once"}
WARNING_METHODS = {"warning", "warning_once", "warn"}
#: A warning whose text matches this reads as a failure (kept without ``--all-warnings``).
FAILURE_WORDS = re.compile(
    r"fail|error|cannot|can't|can not|unable|not support|unsupported|invalid|time ?out|timed out|exceed|"
    r"mismatch|missing|not found|not exist|does not match|doesn't match|refus|abort|exception|crash|"
    r"not available|unavailable|incompatible|insufficient|too (?:small|large|many|few)|must |should not|"
    r"illegal|corrupt|lost|broken|unexpected|not enough|out of",
    re.IGNORECASE,
)


def _const_str(node: ast.AST) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    return None


def _fstring(node: ast.JoinedStr, env: dict[str, ast.AST]) -> str:
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(str(part.value).replace("{", "{{").replace("}", "}}"))
            continue
        # FormattedValue: an UPPER_CASE name bound to a string constant (a module-level option name such as
        # ``_NUM_SHARED_BUFFERS = "layerwise_num_shared_buffers"``) is inlined, the rest is ``{}``
        value = part.value
        constant = isinstance(value, ast.Name) and value.id.lstrip("_").isupper()  # CONSTANT naming only
        bound = env.get(value.id) if constant else None
        text = _const_str(bound) if bound is not None else None
        if text is not None and part.format_spec is None and part.conversion in (-1, ord("s"), ord("r")):
            text = repr(text) if part.conversion == ord("r") else text
            out.append(text.replace("{", "{{").replace("}", "}}"))
        else:
            out.append("{}")
    return "".join(out)


def template_of(node: ast.AST | None, env: dict[str, ast.AST], depth: int = 0) -> str | None:
    """The message template an expression evaluates to, or None when it is not a string message.

    Literal braces of a plain string stay single (they are what the log shows); f-string fields
    become ``{}`` and literal braces in f-strings are escaped ``{{ }}`` as ``instantiate`` expects.
    """
    if node is None or depth > 6:
        return None
    s = _const_str(node)
    if s is not None:
        return s
    if isinstance(node, ast.JoinedStr):
        return _fstring(node, env)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return template_of(node.left, env, depth + 1)  # "..." % args keeps its %s
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = template_of(node.left, env, depth + 1)
        right = template_of(node.right, env, depth + 1)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = template_of(node.func.value, env, depth + 1)
        if base is not None:
            return re.sub(r"\{[^{}]*\}", "{}", base)
        return None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "join":
        # "sep".join([...]) of strings: join the literal pieces
        if node.args and isinstance(node.args[0], (ast.List, ast.Tuple)):
            sep = _const_str(node.func.value) or ""
            parts = [template_of(e, env, depth + 1) or "{}" for e in node.args[0].elts]
            return sep.join(parts)
        return None
    if isinstance(node, ast.Name) and node.id in env:
        return template_of(env[node.id], env, depth + 1)
    return None


def _callee(func: ast.AST) -> str | None:
    if isinstance(func, ast.Name):
        return func.id
    if isinstance(func, ast.Attribute):
        return func.attr
    return None


def _is_logger(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id.lower().endswith("logger") or node.id == "logging"
    if isinstance(node, ast.Attribute):
        return node.attr.lower().endswith("logger")
    return False


def _clean(template: str) -> str:
    """One line of text: whitespace runs (from implicit concatenation or newlines) collapse to one space."""
    return re.sub(r"\s+", " ", template).strip()


class _Visitor(ast.NodeVisitor):
    def __init__(self, path: str, all_warnings: bool, asserts: bool):
        self.path = path
        self.all_warnings = all_warnings
        self.asserts = asserts
        self.entries: list[dict] = []
        self.envs: list[dict[str, ast.AST]] = [{}]

    # name -> last assigned expression, per function (module level for top-level code)
    def _visit_scope(self, node: ast.AST) -> None:
        self.envs.append(dict(self.envs[0]))  # module-level names stay visible
        self.generic_visit(node)
        self.envs.pop()

    visit_FunctionDef = _visit_scope
    visit_AsyncFunctionDef = _visit_scope

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self.envs[-1][target.id] = node.value
        self.generic_visit(node)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if isinstance(node.target, ast.Name) and node.value is not None:
            self.envs[-1][node.target.id] = node.value
        self.generic_visit(node)

    def _add(self, template: str | None, line: int, kind: str) -> None:
        if template is None:
            return
        template = _clean(template)
        if len(template) < 3 or not re.search(r"[A-Za-z]{2}", template):
            return
        self.entries.append({"template": template, "path": self.path, "line": line, "kind": kind})

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            name = _callee(exc.func) or "?"
            self._add(template_of(exc.args[0], self.envs[-1]), node.lineno, f"raise {name}")
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if self.asserts and node.msg is not None:
            self._add(template_of(node.msg, self.envs[-1]), node.lineno, "assert")
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        if isinstance(func, ast.Attribute) and _is_logger(func.value) and node.args:
            method = func.attr
            if method in ERROR_METHODS or method in WARNING_METHODS:
                template = template_of(node.args[0], self.envs[-1])
                is_warning = method in WARNING_METHODS
                if template is not None and (not is_warning or self.all_warnings or FAILURE_WORDS.search(template)):
                    kind = "logger.warning" if is_warning else f"logger.{method.removesuffix('_once')}"
                    self._add(template, node.lineno, kind)
        self.generic_visit(node)


def extract(repo: str, subtrees: list[str], all_warnings: bool = False, asserts: bool = False) -> list[dict]:
    """Entries of every ``.py`` file under ``subtrees`` at ``HEAD`` of ``repo``, in path and line order."""
    entries: list[dict] = []
    for subtree in subtrees:
        for path in sorted(list_files(repo, subtree if subtree.endswith(".py") else subtree.rstrip("/") + "/")):
            if not path.endswith(".py"):
                continue
            try:
                tree = ast.parse(read_file(repo, path), filename=path)
            except SyntaxError as exc:
                print(f"skipped {path}: {exc}", file=sys.stderr)
                continue
            visitor = _Visitor(path, all_warnings, asserts)
            visitor.visit(tree)
            entries.extend(sorted(visitor.entries, key=lambda e: e["line"]))
    return entries


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("snapshot", help="git directory of vllm-project/vllm-ascend")
    parser.add_argument("name", help="catalog name: catalogs/NAME.yaml")
    parser.add_argument("subtrees", nargs="+", help="folders of the repository, e.g. vllm_ascend/distributed")
    parser.add_argument("--title", help="catalog title (default: derived from the subtrees)")
    parser.add_argument("--all-warnings", action="store_true", help="keep every logger.warning, not only failures")
    parser.add_argument("--asserts", action="store_true", help="also list `assert cond, msg` messages")
    args = parser.parse_args(argv)
    subtrees = [s.rstrip("/") for s in args.subtrees]
    entries = extract(args.snapshot, subtrees, args.all_warnings, args.asserts)
    title = args.title or ("vllm-ascend raise / logger.error / failure warnings under " + ", ".join(subtrees))
    write_catalog(args.name, title, REPO_NAME, head_commit(args.snapshot), subtrees, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
