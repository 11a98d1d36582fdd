"""Load rule packs (directories of YAML files) into a checked, compiled :class:`RuleSet`.

Every problem is reported with its file, line and field, and all problems of a load are
collected before :class:`~triage.errors.RulesInvalid` is raised: a broken pack is never skipped
silently, and never silently disables the built-in rules.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from triage.errors import RuleProblem, RulesInvalid
from triage.knowledge import compiled
from triage.knowledge.compiled import CompiledRule
from triage.knowledge.rulecheck import (
    BUILTIN_PACK,
    BUILTIN_REQUIRED,
    LoadedRule,
    check_code_table,
    check_completeness,
    check_rule,
)
from triage.knowledge.schema import CodeEntry, CodeTable, RuleFile
from triage.knowledge.yaml_source import YamlDocument, YamlProblem, dotted_path, load_yaml
from triage.util.cache import cache_dir


def builtin_rules_dir() -> Path:
    """The built-in rules: ``triage/_builtin_rules`` when installed, ``rules/`` in a checkout."""
    here = Path(__file__).resolve().parent.parent  # the triage package
    installed = here / "_builtin_rules"
    return installed if installed.is_dir() else here.parent / "rules"


@dataclass
class RuleSet:
    """The compiled rules (in load order), the code tables, and a digest of their content."""

    rules: list[CompiledRule]
    tables: dict[str, dict[str, CodeEntry]]
    digest: str
    files: list[str] = field(default_factory=list)
    warnings: list[RuleProblem] = field(default_factory=list)
    """Problems that do not stop loading (a user pack's draft rule, missing references...)."""

    def __post_init__(self) -> None:
        self.by_id = {r.id: r for r in self.rules}

    def __len__(self) -> int:
        return len(self.rules)


def rule_files(pack: Path) -> list[Path]:
    """The YAML files of a pack directory (recursively, sorted), or the file itself."""
    if pack.is_file():
        return [pack]
    return sorted(p for p in pack.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file())


def user_packs_from_env() -> list[Path]:
    """Rule packs named in ``TRIAGE_RULES_PATH`` (``os.pathsep``-separated)."""
    value = os.environ.get("TRIAGE_RULES_PATH", "")
    return [Path(p) for p in value.split(os.pathsep) if p]


def installed_packs_dir() -> Path:
    """Where ``triage rules install`` puts rule packs: ``$TRIAGE_CONFIG_HOME/packs``, else
    ``$XDG_CONFIG_HOME/triage/packs``, else ``~/.config/triage/packs``."""
    home = os.environ.get("TRIAGE_CONFIG_HOME")
    if home:
        return Path(home) / "packs"
    base = os.environ.get("XDG_CONFIG_HOME") or str(Path.home() / ".config")
    return Path(base) / "triage" / "packs"


def installed_packs() -> list[Path]:
    """The rule packs ``triage rules install`` installed (one folder each, by name), loaded by every
    command without flags."""
    folder = installed_packs_dir()
    return sorted(p for p in folder.iterdir() if p.is_dir() and not p.name.startswith(".")) if folder.is_dir() else []


ENTRY_POINT_GROUP = "triage.rules"


def entry_point_packs() -> list[Path]:
    """Rule packs shipped by installed packages under the ``triage.rules`` entry-point group.

    An entry point names a module (its directory is the pack) or a callable returning a path.
    Raises :class:`~triage.errors.RulesInvalid` when one cannot be loaded.
    """
    from importlib.metadata import entry_points

    packs = []
    for ep in entry_points(group=ENTRY_POINT_GROUP):
        try:
            target = ep.load()
            path = Path(target()) if callable(target) else Path(next(iter(target.__path__)))
        except Exception as exc:  # a broken plugin is an error, never skipped
            raise RulesInvalid([RuleProblem(f"entry point {ep.name} ({ep.value})", 0, "", str(exc))]) from None
        packs.append(path)
    return packs


def load_rules(packs: Sequence[Path | str] = (), *, builtin: bool = True,
               disabled: Iterable[str] = (), disabled_by: Mapping[str, str] | None = None) -> RuleSet:
    """Load the built-in pack (unless ``builtin=False``) and then each of ``packs``.

    A rule in a later pack replaces an earlier one with the same id only if it says
    ``override: true``. ``disabled`` ids are dropped after loading (an unknown id is an error,
    reported as coming from ``disabled_by[id]``: a config file's path or an option name;
    ``<config>`` when not given). Raises :class:`~triage.errors.RulesInvalid` listing every
    problem found.
    """
    sources: list[tuple[str, Path]] = []
    if builtin:
        sources.append((BUILTIN_PACK, builtin_rules_dir()))
    for pack in packs:
        path = Path(pack)
        if not path.exists():
            raise RulesInvalid([RuleProblem(str(path), 0, "", "rule pack not found")])
        sources.append((str(path), path))

    texts: list[tuple[str, Path, str | None]] = []
    problems: list[RuleProblem] = []
    digest = hashlib.sha256()
    for pack_name, pack_path in sources:
        for file in rule_files(pack_path):
            text = _read(file, problems)
            texts.append((pack_name, file, text))
            if text is not None:
                digest.update(pack_name.encode() + b"\0" + file.name.encode() + b"\0" + text.encode() + b"\0")
    files = [str(f) for _, f, t in texts if t is not None]
    # the cache stores file paths: key it on where the files are too, not only on their content
    key = hashlib.sha256((digest.hexdigest() + "\0" + "\0".join(str(Path(f).resolve()) for f in files)).encode()
                         ).hexdigest()
    cached = None if problems else _cache_load(key)
    if cached is not None:
        entries, tables, lint_warnings = cached
    else:
        lint_warnings = []
        entries, tables = _validate(texts, problems, lint_warnings)
        if not problems:
            _cache_store(key, (entries, tables, lint_warnings))
    disabled = list(disabled)
    known = {rule.id for rule, *_ in entries}
    for rid in disabled:
        if rid not in known:
            origin = (disabled_by or {}).get(rid, "<config>")
            problems.append(RuleProblem(origin, 0, "disable", f"unknown rule id `{rid}`"))
    if problems:
        raise RulesInvalid(problems)
    rules = []
    for rule, file, line, pack in entries:
        if rule.id in disabled:
            continue
        rules.append(compiled.build(rule, len(rules), tables, file, line, pack))
    return RuleSet(rules, tables, digest.hexdigest()[:16], files, list(lint_warnings))


def _validate(texts: list[tuple[str, Path, str | None]], problems: list[RuleProblem],
              lint_warnings: list[RuleProblem] | None = None):
    """Parse, validate and lint every file; returns ([(rule, file, line, pack)], tables)."""
    loaded: dict[str, LoadedRule] = {}
    tables: dict[str, dict[str, CodeEntry]] = {}
    seen_in_pack: dict[str, LoadedRule] = {}
    current_pack = None
    for pack_name, file, text in texts:
        if text is None:
            continue
        if pack_name != current_pack:
            current_pack, seen_in_pack = pack_name, {}
        for item in _parse_file(text, str(file), pack_name, problems, tables):
            rid = item.rule.id
            if rid in seen_in_pack:
                other = seen_in_pack[rid]
                problems.append(RuleProblem(item.file, item.line, f"rule {rid}: id",
                                            f"duplicate id (first defined at {other.file}:{other.line})"))
                continue
            seen_in_pack[rid] = item
            if rid in loaded and not item.rule.override:
                other = loaded[rid]
                problems.append(RuleProblem(
                    item.file, item.line, f"rule {rid}: id",
                    f"id already defined by pack {other.pack} ({other.file}:{other.line}); "
                    "set `override: true` to replace it on purpose"))
                continue
            if item.rule.override and rid not in loaded:
                problems.append(RuleProblem(item.file, item.line, f"rule {rid}: override",
                                            "`override: true` but no earlier pack defines this id"))
                continue
            loaded[rid] = item
    for item in loaded.values():
        problems.extend(check_rule(item, tables))
        found = check_completeness(item, builtin=item.pack == BUILTIN_PACK)
        if item.pack == BUILTIN_PACK:
            problems.extend(found)
        elif lint_warnings is not None:
            lint_warnings.extend(found)
    return [(i.rule, i.file, i.line, i.pack) for i in loaded.values()], tables


# -- a cache of validated rule sets: parsing, validation and lint cost ~0.1 s per start ------------

def _cache_path(key: str) -> Path:
    code = hashlib.sha256()
    here = Path(__file__).resolve().parent.parent  # the triage package
    for name in ("knowledge/schema.py", "knowledge/loader.py", "knowledge/rulecheck.py", "knowledge/dialect.py",
                 "knowledge/yaml_source.py", "knowledge/compiled.py", "version.py"):
        code.update((here / name).read_bytes())
    return cache_dir() / f"rules-{key[:24]}-{code.hexdigest()[:12]}.pickle"


def _cache_load(key: str):
    """The validated rule set cached for ``key`` (see :func:`triage.util.cache.load_pickle`), or None."""
    from triage.util.cache import load_pickle

    return load_pickle(_cache_path(key))


def _cache_store(key: str, value) -> None:
    from triage.util.cache import store_pickle

    store_pickle(_cache_path(key), value, keep=8)


def _read(file: Path, problems: list[RuleProblem]) -> str | None:
    try:
        return file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(RuleProblem(str(file), 0, "", f"cannot read: {exc}"))
        return None


def _parse_file(text: str, file: str, pack: str, problems: list[RuleProblem],
                tables: dict[str, dict[str, CodeEntry]]) -> list[LoadedRule]:
    try:
        doc = load_yaml(text, file)
    except YamlProblem as exc:
        problems.append(exc.problem)
        return []
    data = doc.data
    if data is None:
        return []
    if isinstance(data, dict) and "table" in data:
        try:
            table = CodeTable.model_validate(data)
        except ValidationError as exc:
            problems.extend(_validation_problems(exc, doc, file, ()))
            return []
        if table.table in tables:
            problems.append(RuleProblem(file, doc.line_of(("table",)), "table", f"duplicate table `{table.table}`"))
        if pack == BUILTIN_PACK and "codes" in BUILTIN_REQUIRED:
            problems.extend(check_code_table(table, doc, file))
        tables[table.table] = dict(table.codes)
        return []
    if not isinstance(data, dict):
        problems.append(RuleProblem(file, 1, "", "a rule file is a mapping with a `rules` list"))
        return []
    out: list[LoadedRule] = []
    # Validate rule by rule so one bad rule does not hide the problems of the others.
    unknown = sorted(set(data) - {"rules"})
    for key in unknown:
        problems.append(RuleProblem(file, doc.line_of((key,)), str(key), "unknown key"))
    raw_rules = data.get("rules", [])
    if not isinstance(raw_rules, list):
        problems.append(RuleProblem(file, doc.line_of(("rules",)), "rules", "must be a list"))
        return []
    for i, raw in enumerate(raw_rules):
        try:
            rule = RuleFile.model_validate({"rules": [raw]}).rules[0]
        except ValidationError as exc:
            problems.extend(_validation_problems(exc, doc, file, ("rules", i), strip=2, raw=raw))
            continue
        out.append(LoadedRule(rule, file, doc.line_of(("rules", i)), pack, doc, ("rules", i)))
    return out


def _validation_problems(exc: ValidationError, doc: YamlDocument, file: str, base: tuple,
                         strip: int = 0, raw: object = None) -> list[RuleProblem]:
    rid = raw.get("id") if isinstance(raw, dict) else None
    out = []
    for err in exc.errors():
        loc = tuple(err["loc"])[strip:]
        path = base + loc
        field_name = dotted_path(loc) or "rule"
        label = f"rule {rid}: {field_name}" if rid else field_name
        message = err["msg"]
        if err["type"] == "extra_forbidden":
            message = "unknown key"
        out.append(RuleProblem(file, doc.line_of(path), label, message))
    return out


_default_rules: RuleSet | None = None


def default_rules() -> RuleSet:
    """The built-in rules, packs of installed plugins, packs installed with ``triage rules install``
    and ``TRIAGE_RULES_PATH``, loaded once.

    Raises :class:`~triage.errors.RulesInvalid` if any rule file is invalid.
    """
    global _default_rules
    if _default_rules is None:
        _default_rules = load_rules([*entry_point_packs(), *installed_packs(), *user_packs_from_env()])
    return _default_rules
