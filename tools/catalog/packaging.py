"""Catalog of what installing the Ascend Python stack prints when it fails (``catalogs/packaging.yaml``).

Usage::

    python tools/catalog/packaging.py --vllm-ascend DIR --torch-npu DIR --triton-ascend DIR --pip DIR

Each ``DIR`` is a git snapshot (bare, as ``fetch`` leaves it, or a work tree) of one repository:
vllm-project/vllm-ascend, Ascend/pytorch (torch_npu), Ascend/triton-ascend and pypa/pip. The messages of
an install come from all four, so the catalog spans them: its ``repo`` / ``commit`` are vllm-ascend's (the
package most installs start from), its ``paths`` name every repository's files as
``owner/repo@commit:path``, and an entry of another repository than vllm-ascend has a ``path`` of the form
``owner/repo:path``. Each entry also records the stripped source line that prints it (``source``) and its
repository (``repo``); see ``common.write_catalog`` for where these go.

What becomes an entry:

- the build scripts (vllm-ascend ``setup.py`` and ``CMakeLists.txt``, torch_npu ``setup.py`` and
  ``torch_npu/__init__.py``'s import-time check, triton-ascend ``setup.py``): every ``raise X(msg)``,
  ``logging`` / ``logger`` error and warning, ``sys.exit(msg)``, a ``print(...)`` whose text reads as a
  failure, and CMake ``message(FATAL_ERROR|SEND_ERROR|WARNING ...)``;
- pip: the messages of the functions that explain a failed resolution or install (``SCOPES['pypa/pip']``):
  the resolver's reports (no matching distribution, conflicting dependencies, Requires-Python, a wheel
  for another platform), the post-install conflict check and ``pip check``. Inside them every
  ``return``-ed exception, every ``msg`` / ``message`` piece and every log call is an entry, except
  ``PIP_SKIP`` (lock files, pip's own crash report). pip's build wrappers (``error:
  subprocess-exited-with-error``, ``metadata-generation-failed``, ``Failed building wheel for``) are left
  out on purpose: they only frame the output of a build script, whose own messages are entries above.

A message of several lines becomes one entry per line for pip's reports (each line is printed on its
own), and its first line elsewhere (the line a rule matches; the rest continues it).

Variable parts become ``{}`` (f-strings, ``.format``) or stay ``%s`` (printf style).
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import head_commit, list_files, read_file, write_catalog  # noqa: E402

EXTRACTOR = "tools/catalog/packaging.py"
MAIN_REPO = "vllm-project/vllm-ascend"

#: repository -> {path: scope}; scope None = the whole file, else the names of the functions / classes
#: whose messages count (pip prints much more than install failures; only these report them).
SCOPES: dict[str, dict[str, list[str] | None]] = {
    "vllm-project/vllm-ascend": {"setup.py": None, "CMakeLists.txt": None},
    "Ascend/pytorch": {"setup.py": None, "torch_npu/__init__.py": ["_check_device_conflict"]},
    "Ascend/triton-ascend": {"setup.py": None},
    "pypa/pip": {
        "src/pip/_internal/resolution/resolvelib/factory.py": [
            "_report_requires_python_error", "_report_single_requirement_conflict", "get_installation_error",
            "_fail_if_link_is_unsupported_wheel"],
        "src/pip/_internal/commands/install.py": ["_warn_about_conflicts", "_determine_conflicts"],
        "src/pip/_internal/commands/check.py": ["run"],
    },
}
#: pip messages inside the scopes above that are not about installing this stack: the pylock-file path
#: (no install of vllm-ascend / torch_npu uses lock files) and pip's own crash reports.
#: The fixed framing of the conflict report ("The conflict is caused by:", "To fix this you could try to:" and
#: its two numbered hints) is left out too: it says nothing of its own, its informative lines are entries.
PIP_SKIP = re.compile(r"lock file|file an issue on pip's issue tracker|No broken requirements found|"
                      r"The conflict is caused by|To fix this you could try|loosen the range|remove package versions")
OPTION = {"vllm-project/vllm-ascend": "vllm_ascend", "Ascend/pytorch": "torch_npu",
          "Ascend/triton-ascend": "triton_ascend", "pypa/pip": "pip"}

ERROR_METHODS = {"error", "exception", "critical", "fatal", "warning", "warn"}
PIP_OUTPUT = {"write_output"}
#: A print() whose text matches this reads as a failure (the rest is progress output).
FAILURE_WORDS = re.compile(
    r"fail|error|cannot|can't|unable|not support|unsupported|invalid|not found|not exist|missing|please run|"
    r"must |required|incompatible", re.IGNORECASE)


def _fstring(node: ast.JoinedStr) -> str:
    out = []
    for part in node.values:
        if isinstance(part, ast.Constant):
            out.append(str(part.value).replace("{", "{{").replace("}", "}}"))
        else:
            out.append("{}")
    return "".join(out)


def template_of(node: ast.AST | None, env: dict[str, ast.AST], depth: int = 0) -> str | None:
    """The text an expression prints, with ``{}`` for what varies; None when it is not a message."""
    if node is None or depth > 6:
        return None
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return _fstring(node)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return template_of(node.left, env, depth + 1)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = template_of(node.left, env, depth + 1), template_of(node.right, env, depth + 1)
        if left is None and right is None:
            return None
        return (left if left is not None else "{}") + (right if right is not None else "{}")
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "format":
        base = template_of(node.func.value, env, depth + 1)
        return re.sub(r"\{[^{}]*\}", "{}", base) if base is not None else None
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "Text" and node.args:
        return template_of(node.args[0], env, depth + 1)  # rich Text("...", style)
    if isinstance(node, ast.Name) and node.id in env:
        return template_of(env[node.id], env, depth + 1)
    return None


def _clean(text: str) -> str:
    text = re.sub(r"\[/?(?:green|red|yellow|blue underline|reset|/)\]", "", text)  # rich markup
    return re.sub(r"\s+", " ", text).strip()


class _Visitor(ast.NodeVisitor):
    def __init__(self, lines: list[str], scope: list[str] | None, report: bool = False):
        self.lines = lines
        self.scope = scope
        self.report = report  # pip: a multi-line report, every line counts
        self.stack: list[str] = []
        self.envs: list[dict[str, ast.AST]] = [{}]
        self.entries: list[dict] = []

    def _in_scope(self) -> bool:
        return self.scope is None or any(name in self.scope for name in self.stack)

    def _scoped(self, node: ast.AST) -> None:
        self.stack.append(node.name)  # type: ignore[attr-defined]
        self.envs.append(dict(self.envs[0]))
        self.generic_visit(node)
        self.envs.pop()
        self.stack.pop()

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scoped

    def visit_Assign(self, node: ast.Assign) -> None:
        for target in node.targets:
            if isinstance(target, ast.Name):
                self._message_assign(target.id, node.value, node)
                self.envs[-1][target.id] = node.value
        self.generic_visit(node)

    def visit_Return(self, node: ast.Return) -> None:
        # pip's factory returns its exceptions (DistributionNotFound, UnsupportedPythonVersion) to the caller
        value = node.value
        if self.report and self._in_scope() and isinstance(value, ast.Call) and value.args:
            name = value.func.id if isinstance(value.func, ast.Name) else ""
            text = template_of(value.args[0], self.envs[-1])
            if text and re.search(r"Error|NotFound|Version|Wheel", name):
                self._add(text, node, f"return {name}", pieces=True, text_node=value.args[0])
        self.generic_visit(node)

    def _message_assign(self, target: str, value: ast.AST, node: ast.AST) -> None:
        """``msg = msg + "..."`` / ``message = "..."`` in a scoped pip function: the new text is printed."""
        if not self.report or not self._in_scope() or target not in ("msg", "message"):
            return
        if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
            # msg = msg + a + b: the pieces after the leading ``msg``
            parts = []
            while isinstance(value, ast.BinOp) and isinstance(value.op, ast.Add):
                parts.append(value.right)
                value = value.left
            if isinstance(value, ast.Name) and value.id == target:
                text = "".join(template_of(p, self.envs[-1]) or "{}" for p in reversed(parts))
                if text.endswith(" "):  # the line goes on with the next piece: "X 1.0 depends on " + req
                    text += "{}"
                # the source line is the first piece that carries words (not a bare "\n\n")
                first = next((p for p in reversed(parts) if (template_of(p, self.envs[-1]) or "x").strip()), parts[-1])
                self._add(text, node, "logger.critical", pieces=True, text_node=first)
                return
        text = template_of(value, self.envs[-1])
        if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute) and value.func.attr == "format":
            text = template_of(value, self.envs[-1])
        if text:
            first = value.left if isinstance(value, ast.BinOp) else value
            while isinstance(first, ast.BinOp):
                first = first.left
            self._add(text, node, "logger.critical", pieces=True,
                      text_node=first.func.value if isinstance(first, ast.Call) else first)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        # msg += "..." pieces of a multi-line report (pip's conflict report) are messages of their own
        if isinstance(node.target, ast.Name) and node.target.id in ("msg", "message") and self._in_scope():
            text = template_of(node.value, self.envs[-1])
            if text and self.report:
                self._add(text, node, "logger.critical", pieces=True)
        self.generic_visit(node)

    def _add(self, template: str, node: ast.AST, kind: str, pieces: bool = False,
             text_node: ast.AST | None = None) -> None:
        """One entry per printed line; ``line`` is the statement's, ``source`` the line where the message's
        text starts (``text_node``: the message expression of a call that spans several lines)."""
        lines = template.split("\n") if pieces or self.report else template.strip().split("\n")[:1]
        at = getattr(text_node, "lineno", node.lineno)
        for piece in lines:
            text = _clean(piece)
            # a line too short to be a message of its own ("Please run:" before a command) is not an entry;
            # pip's report lines are shorter ("X 1.0 depends on Y")
            if len(re.sub(r"\{\}|%s|%d|%r", "", text).strip(" :.,-")) < (10 if self.report else 12) \
                    or PIP_SKIP.search(text):
                continue
            self.entries.append({"template": text, "line": node.lineno, "kind": kind,
                                 "source": self.lines[at - 1].strip()})

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if self._in_scope() and isinstance(exc, ast.Call) and exc.args:
            text = template_of(exc.args[0], self.envs[-1])
            name = exc.func.id if isinstance(exc.func, ast.Name) else getattr(exc.func, "attr", "?")
            if text:
                self._add(text, node, f"raise {name}", text_node=exc.args[0])
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        if self._in_scope():
            self._call(node)
        self.generic_visit(node)

    def _call(self, node: ast.Call) -> None:
        func = node.func
        env = self.envs[-1]
        if isinstance(func, ast.Attribute) and func.attr in ERROR_METHODS and node.args:
            receiver = func.value
            name = receiver.id if isinstance(receiver, ast.Name) else getattr(receiver, "attr", "")
            if name.lower().endswith("logger") or name == "logging":
                text = template_of(node.args[0], env)
                if text:
                    self._add(text, node, f"{name}.{func.attr}", text_node=node.args[0])
            return
        if (self.report and isinstance(func, ast.Attribute) and func.attr == "append" and node.args
                and isinstance(func.value, ast.Name) and func.value.id == "parts"):
            text = template_of(node.args[0], env)  # pip's conflict warning is "\n".join(parts)
            if text:
                self._add(text, node, "logger.critical", text_node=node.args[0])
            return
        if isinstance(func, ast.Name) and func.id in PIP_OUTPUT and node.args:
            text = template_of(node.args[0], env)
            if text:
                self._add(text, node, func.id, text_node=node.args[0])
            return
        if isinstance(func, ast.Name) and func.id == "print" and node.args:
            text = template_of(node.args[0], env)
            if text and FAILURE_WORDS.search(text):
                self._add(text, node, "print", text_node=node.args[0])
            return
        if isinstance(func, ast.Attribute) and func.attr == "exit" and node.args:
            text = template_of(node.args[0], env)
            if text:
                self._add(text, node, "sys.exit")
            return
        # super().__init__(message=..., note_stmt=...) / DiagnosticPipError.__init__(self, message=...)
        if isinstance(func, ast.Attribute) and func.attr == "__init__":
            for kw in node.keywords:
                if kw.arg in ("message", "note_stmt", "context"):
                    text = template_of(kw.value, env)
                    if text:
                        self._add(text, node, f"pip DiagnosticPipError {kw.arg}")


CMAKE_MESSAGE = re.compile(r'message\(\s*(FATAL_ERROR|SEND_ERROR|WARNING)\s+"((?:[^"\\]|\\.)*)"', re.IGNORECASE)


def _cmake_entries(text: str) -> list[dict]:
    out = []
    for no, line in enumerate(text.splitlines(), 1):
        m = CMAKE_MESSAGE.search(line)
        if m:
            template = re.sub(r"\$\{[^}]*\}", "{}", m.group(2))
            out.append({"template": template, "line": no, "kind": f"cmake message {m.group(1)}",
                        "source": line.strip()})
    return out


def extract(repo_name: str, snapshot: str) -> tuple[list[dict], list[str]]:
    """The entries of one repository and the paths read."""
    entries, paths = [], []
    present = set(list_files(snapshot))
    for path, scope in SCOPES[repo_name].items():
        if path not in present:
            print(f"{repo_name}: {path} not in the snapshot", file=sys.stderr)
            continue
        text = read_file(snapshot, path)
        if path.endswith(".py"):
            visitor = _Visitor(text.splitlines(), scope, report=repo_name == "pypa/pip")
            visitor.visit(ast.parse(text))
            found = visitor.entries
        else:
            found = _cmake_entries(text)
        shown = path if repo_name == MAIN_REPO else f"{repo_name}:{path}"
        for e in found:
            entries.append({**e, "path": shown, "repo": repo_name})
        paths.append(path + (f" ({', '.join(scope)})" if scope else ""))
    return entries, paths


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    for repo, option in OPTION.items():
        parser.add_argument(f"--{option.replace('_', '-')}", dest=option, required=True,
                            help=f"git snapshot of {repo}")
    args = parser.parse_args(argv[1:])
    entries: list[dict] = []
    paths: list[str] = []
    commit = ""
    for repo, option in OPTION.items():
        snapshot = getattr(args, option)
        found, read = extract(repo, snapshot)
        sha = head_commit(snapshot)
        if repo == MAIN_REPO:
            commit = sha
            paths += read
        else:
            paths += [f"{repo}@{sha}:{p}" for p in read]
        entries += found
    title = ("Installing vllm-ascend, torch_npu and triton-ascend with pip: build-script failures (vllm-ascend, "
             "Ascend/pytorch, Ascend/triton-ascend) and pip's resolver, conflict and build reports (pypa/pip)")
    write_catalog("packaging", title, MAIN_REPO, commit, paths, EXTRACTOR, entries)


if __name__ == "__main__":
    main(sys.argv)
