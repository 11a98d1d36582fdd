"""The package layout shows the data flow: every module of ``triage/`` sits in a stage, imports only
its own stage and the stages below it, no import circle ties modules, and no module passes 400 lines
(docs/design.md, "Packages")."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "triage"

#: Stages from the bottom up; a module may import modules of its own stage or of a lower one.
STAGES: list[tuple[str, tuple[str, ...]]] = [
    ("base", ("triage.errors", "triage.version", "triage.util")),
    ("log line formats", ("triage.logformat",)),
    ("inputs", ("triage.inputs", "triage.collect")),
    ("knowledge", ("triage.knowledge",)),
    ("report models", ("triage.report",)),
    ("matching", ("triage.matching",)),
    ("map step", ("triage.scan",)),
    ("diagnosis", ("triage.diagnose",)),
    ("renderers", ("triage.render",)),
    ("run", ("triage.run",)),
    ("api", ("triage.api",)),
    ("knowledge tools", ("triage.kbtools",)),
    ("cli", ("triage.cli", "triage.__main__")),
    # the package itself and the import paths kept from before the packages (docs/api.md)
    ("public paths", ("triage", "triage.loader", "triage.compat", "triage.fanout")),
]


def _module_name(path: Path) -> str:
    parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def _imports(name: str, path: Path, modules: dict[str, Path]) -> set[str]:
    """The ``triage`` modules that ``name`` imports, at module level or inside functions."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1])
                target = f"{base}.{node.module}" if node.module else base
            else:
                target = node.module or ""
            targets = [f"{target}.{a.name}" if f"{target}.{a.name}" in modules else target for a in node.names]
        else:
            continue
        out.update(t for t in targets if t == "triage" or t.startswith("triage."))
    out.discard(name)
    return out


def stage_of(name: str) -> int:
    """Index in :data:`STAGES` of the stage holding module ``name`` (the longest prefix decides)."""
    best, length = -1, -1
    for i, (_, prefixes) in enumerate(STAGES):
        for prefix in prefixes:
            if (name == prefix or name.startswith(prefix + ".")) and len(prefix) > length:
                best, length = i, len(prefix)
    return best


MODULES = _modules()
GRAPH = {name: _imports(name, path, MODULES) for name, path in MODULES.items()}


def test_every_module_sits_in_a_stage():
    assert [m for m in MODULES if stage_of(m) < 0] == []


def test_no_stage_imports_a_higher_one():
    upward = [(m, stage_of(m), d, stage_of(d)) for m, deps in GRAPH.items() for d in deps
              if stage_of(d) > stage_of(m)]
    assert upward == []


def test_no_import_circle():
    # strongly connected components (Tarjan): a component of more than one module is a circle
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    circles: list[list[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        on.add(v)
        for w in GRAPH.get(v, ()):
            if w not in MODULES:
                continue
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                circles.append(sorted(comp))

    for v in MODULES:
        if v not in index:
            visit(v)
    assert circles == []


@pytest.mark.parametrize("name", sorted(MODULES))
def test_module_length(name):
    assert len(MODULES[name].read_text(encoding="utf-8").splitlines()) <= 400


def test_the_checks_see_a_violation():
    # the graph walk finds function-level imports (the checks would pass vacuously otherwise)
    assert "triage.diagnose.verdict" in GRAPH["triage.run.analysis"]
    assert "triage.run.parallel" in GRAPH["triage.run.steps"]
    assert stage_of("triage.cli.app") > stage_of("triage.api") > stage_of("triage.run.feed")
    assert stage_of("triage.knowledge.compat.checks") == stage_of("triage.knowledge")
