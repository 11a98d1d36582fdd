"""Catalog of the NPU paths of transformers and accelerate, and of vLLM's multimodal and graph-capture checks.

Swept from four repositories into one catalog (``catalogs/transformers-vllm-npu.yaml``); each entry
names its ``repo`` and carries the ``source`` line that prints it:

- huggingface/transformers: the Ascend flash-attention integration
  (``integrations/npu_flash_attention.py``), FlexAttention and SDPA integrations, the flash-attention
  dispatch (``modeling_flash_attention_utils.py``), the attention-implementation checks of
  ``modeling_utils.py``, the NPU branches of ``training_args.py`` / ``trainer.py`` and the tokenizer
  loading errors (``tokenization_utils_base.py``, ``models/auto/tokenization_auto.py``);
- huggingface/accelerate: device selection, ``ASCEND_RT_VISIBLE_DEVICES`` and mixed precision on NPU
  (``state.py``, ``accelerator.py``, ``utils/``, ``commands/launch.py``; only messages that name the NPU,
  a visible-devices variable or mixed precision);
- vllm-project/vllm: ``vllm/multimodal`` and the checks of ``vllm/config/compilation.py`` and
  ``vllm/config/multimodal.py`` (cudagraph capture sizes, compilation mode, multimodal limits);
- vllm-project/vllm-ascend: ACL graph code (``vllm_ascend/compilation``, ``worker/encoder_acl_graph.py``,
  ``patch/worker/patch_cudagraph.py``, the graph-capture messages of ``worker/model_runner_v1.py``).

Usage::

    python tools/catalog/transformers_vllm_npu.py --transformers DIR --transformers-ref v5.17.0 \\
        --accelerate DIR --vllm DIR --vllm-ref v0.34.0 --vllm-ascend DIR

Each ``DIR`` is a git directory (bare, as ``fetch`` leaves it, or a work tree; read at ``HEAD``) or a
plain folder holding the package (an unpacked release wheel: ``transformers/...``, ``vllm/...``), for a
repository too large to fetch whole; ``--*-ref`` names the release such a folder comes from (a git
directory names its own commit). The header's ``commit`` is vllm-ascend's; ``paths`` name each
repository with its commit or release.

What becomes an entry (``ast``): ``raise X(msg)`` with a literal / f-string / ``%`` / ``.format``
message; ``logger.error|exception|critical`` calls; ``logger.warning*`` (and ``warnings.warn``) calls
whose text reads as a failure; ``assert cond, msg``. Variable parts become ``{}`` (f-string and format
fields) or stay ``%s`` / ``%d``. Re-running keeps the hand annotations (``rule`` / ``sample`` /
``excluded``) of entries whose (repo, path, template) did not change.
"""

from __future__ import annotations

import argparse
import ast
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from common import git, head_commit, write_catalog  # noqa: E402

NAME = "transformers-vllm-npu"
EXTRACTOR = "tools/catalog/transformers_vllm_npu.py"
TITLE = ("transformers and accelerate NPU paths (flash / flex / SDPA attention, device selection, mixed "
         "precision, tokenizer loading) and vLLM / vllm-ascend multimodal and graph-capture checks")

#: Messages that name the NPU, attention implementations, devices or mixed precision (the filter of the
#: large general-purpose files, where most raises have nothing to do with NPU paths).
NPU_WORDS = re.compile(r"(?i)\bnpu|ascend|flash|sdpa|flex|attn_implementation|attention implementation|"
                       r"visible_devices|mixed.precision|bf16|fp16|fp8")
TOKENIZER_WORDS = re.compile(r"(?i)tokeni[sz]er|vocab|sentencepiece|tiktoken|protobuf|chat.template")
GRAPH_WORDS = re.compile(r"(?i)graph|captur|cudagraph|aclgraph|compil")
ANY = re.compile(r"")

#: (repo, repository path, message filter) for each file swept; a folder takes every ``.py`` under it.
SOURCES: dict[str, list[tuple[str, re.Pattern]]] = {
    "huggingface/transformers": [
        ("src/transformers/integrations/npu_flash_attention.py", ANY),
        ("src/transformers/integrations/flex_attention.py", ANY),
        ("src/transformers/integrations/sdpa_attention.py", ANY),
        ("src/transformers/modeling_flash_attention_utils.py", ANY),
        ("src/transformers/modeling_utils.py", NPU_WORDS),
        ("src/transformers/utils/import_utils.py", re.compile(r"(?i)\bnpu|flash|flex")),
        ("src/transformers/training_args.py", re.compile(NPU_WORDS.pattern + r"|(?i:device)")),
        ("src/transformers/trainer.py", re.compile(r"(?i)\bnpu|ascend")),
        ("src/transformers/tokenization_utils_base.py", TOKENIZER_WORDS),
        ("src/transformers/models/auto/tokenization_auto.py", ANY),
    ],
    "huggingface/accelerate": [
        ("src/accelerate/state.py", NPU_WORDS),
        ("src/accelerate/accelerator.py", re.compile(r"(?i)\bnpu|ascend|visible_devices|mixed.precision|bf16|fp16")),
        ("src/accelerate/utils/imports.py", re.compile(r"(?i)\bnpu|ascend")),
        ("src/accelerate/utils/environment.py", re.compile(r"(?i)\bnpu|ascend|visible_devices")),
        ("src/accelerate/utils/launch.py", re.compile(r"(?i)\bnpu|ascend|visible_devices|mixed.precision")),
        ("src/accelerate/utils/dataclasses.py", re.compile(r"(?i)\bnpu|ascend|mixed.precision")),
        ("src/accelerate/commands/launch.py", re.compile(r"(?i)\bnpu|ascend|visible_devices|mixed.precision")),
    ],
    "vllm-project/vllm": [
        ("vllm/multimodal", ANY),
        ("vllm/config/compilation.py", ANY),
        ("vllm/config/multimodal.py", ANY),
    ],
    "vllm-project/vllm-ascend": [
        ("vllm_ascend/compilation", ANY),
        ("vllm_ascend/worker/encoder_acl_graph.py", ANY),
        ("vllm_ascend/patch/worker/patch_cudagraph.py", ANY),
        ("vllm_ascend/worker/model_runner_v1.py", GRAPH_WORDS),
    ],
}
#: Where a repository's files sit in a release wheel (the wheel has no ``src/``).
WHEEL_PREFIX = {"huggingface/transformers": "src/", "huggingface/accelerate": "src/"}

ERROR_METHODS = {"error", "exception", "critical", "fatal", "error_once"}
WARNING_METHODS = {"warning", "warning_once", "warn", "warning_advice"}
FAILURE_WORDS = re.compile(
    r"fail|error|cannot|can't|can not|unable|not support|unsupported|invalid|time ?out|timed out|exceed|"
    r"mismatch|missing|not found|not exist|does not match|doesn't match|refus|abort|exception|crash|"
    r"not available|unavailable|incompatible|insufficient|too (?:small|large|many|few)|must |should not|"
    r"illegal|corrupt|unexpected|not enough|out of|only support|requires?",
    re.IGNORECASE,
)


class Source:
    """A repository snapshot: a git directory (read at HEAD) or a folder with the package's files."""

    def __init__(self, repo: str, where: str, ref: str | None):
        self.repo, self.where = repo, Path(where)
        self.is_git = (self.where / "HEAD").exists() or (self.where / ".git").exists()
        self.ref = head_commit(where) if self.is_git else (ref or "unknown release")
        self.prefix = "" if self.is_git else WHEEL_PREFIX.get(repo, "")

    def files(self, path: str) -> list[str]:
        if self.is_git:
            out = git(self.where, "ls-tree", "-r", "--name-only", "HEAD", path).splitlines()
            return sorted(p for p in out if p.endswith(".py"))
        local = self.where / path.removeprefix(self.prefix)
        if local.is_file():
            return [path]
        return sorted(self.prefix + str(p.relative_to(self.where)) for p in local.rglob("*.py"))

    def read(self, path: str) -> str:
        if self.is_git:
            return git(self.where, "show", f"HEAD:{path}")
        return (self.where / path.removeprefix(self.prefix)).read_text(encoding="utf-8")


def _const_str(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def template_of(node: ast.AST | None, env: dict[str, ast.AST], depth: int = 0) -> str | None:
    """The message template an expression evaluates to (``{}`` for variable parts), or None."""
    if node is None or depth > 6:
        return None
    s = _const_str(node)
    if s is not None:
        return s
    if isinstance(node, ast.JoinedStr):
        out = []
        for part in node.values:
            text = _const_str(part)
            out.append(text.replace("{", "{{").replace("}", "}}") if text is not None else "{}")
        return "".join(out)
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
    if isinstance(node, ast.Name) and node.id in env:
        return template_of(env[node.id], env, depth + 1)
    return None


def _is_logger(node: ast.AST) -> bool:
    if isinstance(node, ast.Name):
        return node.id.lower().endswith("logger") or node.id in ("logging", "warnings")
    return isinstance(node, ast.Attribute) and node.attr.lower().endswith("logger")


class _Visitor(ast.NodeVisitor):
    def __init__(self, lines: list[str]):
        self.lines = lines
        self.found: list[tuple[str, int, str]] = []
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

    def _add(self, template: str | None, line: int, kind: str) -> None:
        if template is None:
            return
        template = re.sub(r"\s+", " ", template).strip()
        if len(template) >= 3 and re.search(r"[A-Za-z]{2}", template):
            self.found.append((template, line, kind))

    def visit_Raise(self, node: ast.Raise) -> None:
        exc = node.exc
        if isinstance(exc, ast.Call) and exc.args:
            name = exc.func.id if isinstance(exc.func, ast.Name) else getattr(exc.func, "attr", "?")
            self._add(template_of(exc.args[0], self.envs[-1]), node.lineno, f"raise {name}")
        self.generic_visit(node)

    def visit_Assert(self, node: ast.Assert) -> None:
        if node.msg is not None:
            self._add(template_of(node.msg, self.envs[-1]), node.lineno, "assert")
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
                    if isinstance(func.value, ast.Name) and func.value.id == "warnings":
                        kind = "warnings.warn"
                    self._add(template, node.lineno, kind)
        self.generic_visit(node)


def _source_line(lines: list[str], lineno: int) -> str:
    """The statement's first line, stripped; with the next line when the message starts there."""
    first = lines[lineno - 1].strip()
    if first.endswith("(") and lineno < len(lines):
        return first + " " + lines[lineno].strip()
    return first


def extract(sources: dict[str, Source]) -> tuple[list[dict], list[str]]:
    entries: list[dict] = []
    paths: list[str] = []
    for repo, specs in SOURCES.items():
        src = sources[repo]
        for path, wanted in specs:
            paths.append(f"{repo}@{src.ref}:{path}")
            for file in src.files(path):
                text = src.read(file)
                try:
                    tree = ast.parse(text, filename=file)
                except SyntaxError as exc:
                    print(f"skipped {repo}:{file}: {exc}", file=sys.stderr)
                    continue
                lines = text.splitlines()
                visitor = _Visitor(lines)
                visitor.visit(tree)
                for template, line, kind in sorted(visitor.found, key=lambda f: f[1]):
                    if wanted.search(template):
                        entries.append({"template": template, "repo": repo, "path": file, "line": line,
                                        "kind": kind, "source": _source_line(lines, line)})
    return entries, paths


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--transformers", required=True)
    parser.add_argument("--transformers-ref")
    parser.add_argument("--accelerate", required=True)
    parser.add_argument("--accelerate-ref")
    parser.add_argument("--vllm", required=True)
    parser.add_argument("--vllm-ref")
    parser.add_argument("--vllm-ascend", required=True)
    args = parser.parse_args(argv)
    sources = {
        "huggingface/transformers": Source("huggingface/transformers", args.transformers, args.transformers_ref),
        "huggingface/accelerate": Source("huggingface/accelerate", args.accelerate, args.accelerate_ref),
        "vllm-project/vllm": Source("vllm-project/vllm", args.vllm, args.vllm_ref),
        "vllm-project/vllm-ascend": Source("vllm-project/vllm-ascend", args.vllm_ascend, None),
    }
    entries, paths = extract(sources)
    repos = ", ".join(SOURCES)
    write_catalog(NAME, TITLE, repos, sources["vllm-project/vllm-ascend"].ref, paths, EXTRACTOR, entries)
    return 0


if __name__ == "__main__":
    sys.exit(main())
