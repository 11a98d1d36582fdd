"""Project configuration: ``[tool.triage]`` in ``pyproject.toml`` or a ``.triage.yaml``.

Keys: ``rules`` (extra rule packs, relative to the config file), ``disable`` (rule ids). Each
takes a list or a single value (``disable: generic.python-runtime-error`` is a one-item list).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from triage.errors import RuleProblem, RulesInvalid


@dataclass
class Config:
    """Settings read from the nearest config file (empty when there is none); ``source`` is its path."""

    rules: list[Path] = field(default_factory=list)
    disable: list[str] = field(default_factory=list)
    source: str | None = None


def load_config(start: Path) -> Config:
    """Read ``.triage.yaml`` or ``pyproject.toml`` ``[tool.triage]`` in ``start`` or a parent.

    Raises :class:`~triage.errors.RulesInvalid` (exit code 3) naming the file when it cannot be
    parsed, has unknown keys, or a value of the wrong type.
    """
    for folder in [start, *start.parents]:
        candidate = folder / ".triage.yaml"
        if candidate.is_file():
            import yaml

            try:
                data = yaml.safe_load(candidate.read_text(encoding="utf-8")) or {}
            except (OSError, UnicodeDecodeError, yaml.YAMLError) as exc:
                raise RulesInvalid([RuleProblem(str(candidate), 0, "", f"cannot read: {_one_line(exc)}")]) from None
            return _from_mapping(data, candidate)
        pyproject = folder / "pyproject.toml"
        if pyproject.is_file():
            try:
                import tomllib
            except ImportError:  # Python 3.10
                return Config()
            try:
                data = tomllib.loads(pyproject.read_text(encoding="utf-8")).get("tool", {}).get("triage")
            except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
                raise RulesInvalid([RuleProblem(str(pyproject), 0, "", f"cannot read: {_one_line(exc)}")]) from None
            if data is not None:
                return _from_mapping(data, pyproject)
    return Config()


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())


def _items(data: dict, key: str, path: Path, what: str) -> list[str]:
    """``data[key]`` as a list of strings: a single string is a one-item list."""
    value = data.get(key)
    if value is None:
        return []
    if isinstance(value, str):
        return [value]
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        return list(value)
    raise RulesInvalid([RuleProblem(str(path), 0, key, f"must be {what} or a list of them")])


def _from_mapping(data: object, path: Path) -> Config:
    if not isinstance(data, dict):
        raise RulesInvalid([RuleProblem(str(path), 1, "", "configuration must be a mapping")])
    unknown = set(data) - {"rules", "disable"}
    if unknown:
        raise RulesInvalid([RuleProblem(str(path), 1, ", ".join(sorted(unknown)), "unknown configuration key")])
    packs = [path.parent / p for p in _items(data, "rules", path, "a rule pack path")]
    return Config(packs, _items(data, "disable", path, "a rule id"), str(path))
