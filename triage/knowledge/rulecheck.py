"""Checks of one loaded rule beyond its schema: code tables, the fields the built-in base requires,
patterns (dialect and safety), conditions and captures, and the Chinese texts. Each returns the
problems it found as :class:`~triage.errors.RuleProblem` (file, line, field)."""

from __future__ import annotations

import functools
import re
import warnings
from dataclasses import dataclass

from triage.errors import RuleProblem
from triage.knowledge.compiled import placeholders_in
from triage.knowledge.dialect import check_pattern
from triage.knowledge.schema import CodeEntry, CodeTable, Rule
from triage.knowledge.yaml_source import YamlDocument, dotted_path

BUILTIN_PACK = "builtin"

#: Fields the built-in base must fill that user packs may leave out (lint warns there).
BUILTIN_REQUIRED: frozenset[str] = frozenset({"references", "examples.no_match", "confidence", "zh", "codes"})


@dataclass
class LoadedRule:
    """A validated on-disk rule and where it came from."""

    rule: Rule
    file: str
    line: int
    pack: str
    doc: YamlDocument
    path: tuple


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
    from triage.knowledge.conditions import ConditionError, names
    from triage.knowledge.schema import FixStep

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
        from triage.knowledge.compat import load_compat

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
