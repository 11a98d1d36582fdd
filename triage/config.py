"""Project configuration: ``[tool.triage]`` in ``pyproject.toml`` or a ``.triage.yaml``.

Keys: ``rules`` (extra rule packs, relative to the config file), ``disable`` (rule ids).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import yaml

from triage.errors import RuleProblem, RulesInvalid


@dataclass
class Config:
    """Settings read from the nearest config file (empty when there is none)."""

    rules: list[Path] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    source: str | None = None


def load_config(start: Path) -> Config:
    """Read ``.triage.yaml`` or ``pyproject.toml`` ``[tool.triage]`` in ``start`` or a parent."""
    for folder in [start, *start.parents]:
        candidate = folder / ".triage.yaml"
        if candidate.is_file():
            data = yaml.safe_load(candidate.read_text(encoding="utf-8")) or {}
            return _from_mapping(data, candidate)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                import tomllib
            except ImportError:  # Python 3.10
                return Config()
            data = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("triage")
            if data is not None:
                return _from_mapping(data, pyproject)
    return Config()


def _from_mapping(data: object, path: Path) -> Config:
    if not isinstance(data, dict):
        raise RulesInvalid([RuleProblem(str(path), 1, "", "configuration must be a mapping")])
    unknown = set(data) - {"rules", "disable"}
    if unknown:
        raise RulesInvalid([RuleProblem(str(path), 1, ", ".join(sorted(unknown)), "unknown configuration key")])
    packs = [path.parent / p for p in data.get("rules", [])]
    return Config(packs, [str(x) for x in data.get("disable", [])], str(path))
