"""Load rule packs (directories of YAML files) into a checked, compiled :class:`RuleSet`.

Every problem is reported with its file, line and field, and all problems of a load are
collected before :class:`~triage.errors.RulesInvalid` is raised: a broken pack is never skipped
silently, and never silently disables the built-in rules.
"""

from __future__ import annotations

import functools
import hashlib
import os
import re
import warnings
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from triage import compiled
from triage.cache import cache_dir
from triage.compiled import CompiledRule, placeholders_in
from triage.dialect import check_pattern
from triage.errors import RuleProblem, RulesInvalid
from triage.schema import CodeEntry, CodeTable, Rule, RuleFile
from triage.yaml_source import YamlDocument, YamlProblem, dotted_path, load_yaml

BUILTIN_PACK = "builtin"

#: Fields the built-in base must fill that user packs may leave out (lint warns there).
BUILTIN_REQUIRED: frozenset[str] = frozenset({"references", "examples.no_match", "confidence", "zh", "codes"})


def builtin_rules_dir() -> Path:
    """The built-in rules: ``triage/_builtin_rules`` when installed, ``rules/`` in a checkout."""
    here = Path(__file__).resolve().parent
    installed = here / "_builtin_rules"
    return installed if installed.is_dir() else here.parent / "rules"


@dataclass
class LoadedRule:
    """A validated on-disk rule and where it came from."""

    rule: Rule
    file: str
    line: int
    pack: str
    doc: YamlDocument
    path: tuple


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
    here = Path(__file__).resolve().parent
    for name in ("schema.py", "loader.py", "dialect.py", "yaml_source.py", "compiled.py", "version.py"):
        code.update((here / name).read_bytes())
    return cache_dir() / f"rules-{key[:24]}-{code.hexdigest()[:12]}.pickle"


def _cache_load(key: str):
    """The validated rule set cached for ``key`` (see :func:`triage.cache.load_pickle`), or None."""
    from triage.cache import load_pickle

    return load_pickle(_cache_path(key))


def _cache_store(key: str, value) -> None:
    from triage.cache import store_pickle

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


def check_code_table(table: CodeTable, doc: YamlDocument, file: str) -> list[RuleProblem]:
    """What every code of a built-in table must carry: actions (what to do, or what to collect
    when the source documents no cause), causes unless ``documented: false``, a confidence, and
    its meaning in Chinese."""
    out = []
    for code, entry in table.codes.items():
        where = doc.line_of(("codes", code))
        missing = []
        if not entry.actions:
            missing.append("actions")
        if entry.documented and not entry.causes:
            missing.append("causes (or `documented: false`)")
        if entry.confidence is None:
            missing.append("confidence")
        if entry.zh is None or not entry.zh.meaning:
            missing.append("zh.meaning")
        if missing:
            out.append(RuleProblem(file, where, f"codes.{code}", "missing " + ", ".join(missing)))
    return out


def check_completeness(item: LoadedRule, builtin: bool = True) -> list[RuleProblem]:
    """What a built-in rule must have and a user pack's may lack: references, near misses,
    confidence, Chinese text (see :data:`BUILTIN_REQUIRED`), and not being a draft. The loader
    raises these for the built-in base and keeps them as warnings for user packs; a pack's rule
    is not warned about ``confidence`` (it counts as confirmed: its author vouches) nor ``zh``."""
    rule, doc, base = item.rule, item.doc, item.path
    out = []

    def add(path: tuple, message: str) -> None:
        out.append(RuleProblem(item.file, doc.line_of(base + path), f"rule {rule.id}: {dotted_path(path)}", message))

    if rule.draft:
        add(("draft",), "a draft rule (from `triage rules suggest`): write its cause and fix, then remove `draft`")
    if "references" in BUILTIN_REQUIRED and not rule.references:
        add(("references",), "no references: cite the report, thread or source file the rule rests on")
    if "examples.no_match" in BUILTIN_REQUIRED and not rule.examples.no_match:
        add(("examples",), "no `no_match` examples: add a near miss the rule must not match")
    if builtin and "confidence" in BUILTIN_REQUIRED and rule.confidence is None:
        add(("id",), "no `confidence` (confirmed, likely or hypothesis)")
    if builtin and "zh" in BUILTIN_REQUIRED and rule.zh is None:
        add(("id",), "no Chinese text (`zh`: title, cause, fix)")
    return out


def check_rule(item: LoadedRule, tables: dict[str, dict[str, CodeEntry]]) -> list[RuleProblem]:
    """Checks that need the whole rule: regex dialect, placeholders, lookup table and capture."""
    rule, doc, base = item.rule, item.doc, item.path
    problems: list[RuleProblem] = []
    names: set[str] = set()
    regex_failed = False

    def where(*rest) -> int:
        return doc.line_of(base + rest)

    blocks = [(("match",), rule.match)]
    if rule.followed_by is not None:
        blocks.append((("followed_by", "match"), rule.followed_by.match))
    for prefix, block in blocks:
        for kind in ("any", "all", "none"):
            for i, cond in enumerate(getattr(block, kind)):
                if cond.regex is None:
                    continue
                path = prefix + (kind, i, "regex")
                bad = check_pattern(cond.regex)
                regex_failed = regex_failed or any("compile" in why for why in bad)
                for why in bad:
                    problems.append(RuleProblem(item.file, where(*path), f"rule {rule.id}: {dotted_path(path)}", why))
                if kind != "none" and not any("compile" in why for why in bad):
                    with warnings.catch_warnings():  # check_pattern has reported it already
                        warnings.simplefilter("ignore", FutureWarning)
                        names.update(re.compile(cond.regex, re.ASCII).groupindex)
    if rule.lookup is not None:
        if rule.lookup.table not in tables:
            problems.append(RuleProblem(item.file, where("lookup", "table"), f"rule {rule.id}: lookup.table",
                                        f"no code table named `{rule.lookup.table}`"))
        if rule.lookup.capture not in names:
            problems.append(RuleProblem(item.file, where("lookup", "capture"), f"rule {rule.id}: lookup.capture",
                                        f"no capture group named `{rule.lookup.capture}`"))
        names |= {"code_name", "code_meaning", "code_causes", "code_actions", "said", "reason", "call"}
    if regex_failed:  # the capture groups are unknown: placeholder problems would only be noise
        return problems
    texts = [(("cause",), rule.cause)] + [(("fix", i), step) for i, step in enumerate(rule.fix_texts())]
    problems.extend(_check_conditions(item, names, where))
    for path, text in texts:
        for name in sorted(placeholders_in(text) - names):
            problems.append(RuleProblem(item.file, where(*path), f"rule {rule.id}: {dotted_path(path)}",
                                        f"placeholder {{{name}}} has no matching capture group"))
    if rule.zh is not None:
        problems.extend(_check_translation(item, where))
    return problems


def _check_conditions(item: LoadedRule, captures: set[str], where) -> list[RuleProblem]:
    """Each fix step's ``lead_when`` / ``only_when`` parses and reads only captures and facts."""
    from triage.conditions import ConditionError, names
    from triage.schema import FixStep

    out = []
    if not any(isinstance(step, FixStep) for step in item.rule.fix):
        return out
    known = captures | _fact_names()
    for i, step in enumerate(item.rule.fix):
        if not isinstance(step, FixStep):
            continue
        for key in ("lead_when", "only_when"):
            expr = getattr(step, key)
            if expr is None:
                continue
            path = ("fix", i, key)
            try:
                unknown = sorted(names(expr) - known)
            except ConditionError as exc:
                out.append(RuleProblem(item.file, where(*path), f"rule {item.rule.id}: {dotted_path(path)}", str(exc)))
                continue
            if unknown:
                out.append(RuleProblem(item.file, where(*path), f"rule {item.rule.id}: {dotted_path(path)}",
                                       f"{', '.join(unknown)}: neither a capture group nor a fact name"))
    return out


@functools.lru_cache(maxsize=1)
def _fact_names() -> frozenset[str]:
    """The fact names of the built-in ``compat/facts.yaml`` (what conditions may read)."""
    try:
        from triage.compat import load_compat

        return frozenset(load_compat().facts)
    except Exception:  # a broken compat/ is reported by its own loader
        return frozenset()


def _check_translation(item: LoadedRule, where) -> list[RuleProblem]:
    """The Chinese text has as many fix steps as the English and the same placeholders."""
    rule, zh = item.rule, item.rule.zh
    out = []
    if len(zh.fix) != len(rule.fix):
        out.append(RuleProblem(item.file, where("zh", "fix"), f"rule {rule.id}: zh.fix",
                               f"{len(zh.fix)} steps, the English fix has {len(rule.fix)}"))
    pairs = [(("zh", "title"), zh.title, rule.title), (("zh", "cause"), zh.cause, rule.cause)]
    pairs += [(("zh", "fix", i), z, e) for i, (z, e) in enumerate(zip(zh.fix, rule.fix_texts(), strict=False))]
    for path, z, e in pairs:
        if placeholders_in(z) != placeholders_in(e):
            out.append(RuleProblem(item.file, where(*path), f"rule {rule.id}: {dotted_path(path)}",
                                   f"placeholders {sorted(placeholders_in(z))} differ from the English text's "
                                   f"{sorted(placeholders_in(e))}"))
    return out
