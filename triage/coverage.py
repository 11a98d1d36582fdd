"""Message catalogs and the knowledge base's coverage of them (``triage rules coverage``).

A catalog (``catalogs/<name>.yaml``) lists the distinct messages a user can see in a log that one
authority prints or documents: the HCCL fault-diagnosis guide, the CANN runtime FAQ, vllm-ascend's
``raise`` statements, MindIE's error texts... It is extracted by a script under
``tools/catalog/`` from a snapshot of the source repository (run by hand; CI never reaches the
network) and then annotated by hand: which rule covers an entry, a sample line where the template
cannot be instantiated mechanically, or why an entry is not user-facing.

An entry is *covered* when a specific (non-generic) rule fires on its sample line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from triage.errors import RuleProblem, RulesInvalid
from triage.yaml_source import YamlProblem, load_yaml


class CatalogEntry(BaseModel):
    """One distinct message: its ``template`` (the format string, ``%s`` / ``{}`` for variable
    parts, or the line a document shows), where it is (``path``, 1-based ``line``), the ``rule``
    expected to cover it, an optional hand-written ``sample`` line, or ``excluded`` with the
    reason it is not user-facing (an internal assert); excluded entries do not count."""

    model_config = ConfigDict(extra="forbid")

    template: str = Field(min_length=3)
    path: str
    line: int | None = None
    kind: str | None = None
    """What prints it: ``raise ValueError``, ``logger.error``, ``HCCL_ERROR``, ``doc`` (a guide page)."""
    repo: str | None = None
    """The entry's repository, in a catalog swept from several (the header's ``repo`` names them all)."""
    source: str | None = None
    """The source code (stripped) that prints the message, for a later check of the rendered template."""
    sample: str | None = None
    rule: str | None = None
    excluded: str | None = None

    @model_validator(mode="after")
    def _not_both(self) -> CatalogEntry:
        if self.rule and self.excluded:
            raise ValueError("an entry is either covered by a `rule` or `excluded`, not both")
        return self

    def sample_line(self) -> str:
        """The line to test: ``sample``, else the template with every placeholder filled."""
        return self.sample if self.sample is not None else instantiate(self.template)


class Catalog(BaseModel):
    """A message catalog: where it was extracted from (``repo`` at ``commit``, ``paths`` in it,
    by ``extractor``) and its entries."""

    model_config = ConfigDict(extra="forbid")

    catalog: str = Field(pattern=r"^[a-z0-9][a-z0-9-]*$")
    title: str
    repo: str
    commit: str = Field(pattern=r"^[0-9a-f]{40}$")
    paths: list[str] = Field(min_length=1)
    extractor: str
    entries: list[CatalogEntry] = Field(default_factory=list)


# printf conversions (with flags, width, precision, length) and Python format fields
# (no space flag: "% e" in a message is arithmetic text, not a conversion)
_PRINTF = re.compile(r"%[-+#0']*(?:\d+|\*)?(?:\.(?:\d+|\*))?(?:hh|h|ll|l|L|z|j|t|I64|I32)?[diouxXeEfgGcspn]")
_FORMAT = re.compile(r"\{[A-Za-z0-9_.\[\]()'\"]*(?:![rsa])?(?::[^{}]*)?\}")
#: What a placeholder becomes in an instantiated template: a short token that a tolerant rule
#: pattern (``\d+``, ``\w+``, ``\S+``, ``.*``) accepts.
SAMPLE_VALUE = "3"


def instantiate(template: str) -> str:
    """``template`` with every ``%d`` / ``%s`` / ``{}`` / ``{name}`` replaced by :data:`SAMPLE_VALUE`
    (``%%`` and ``{{ }}`` become ``%`` and braces)."""
    text = template.replace("%%", "\0pct\0").replace("{{", "\0lb\0").replace("}}", "\0rb\0")
    text = _PRINTF.sub(SAMPLE_VALUE, text)
    text = _FORMAT.sub(SAMPLE_VALUE, text)
    return text.replace("\0pct\0", "%").replace("\0lb\0", "{").replace("\0rb\0", "}")


def default_catalog_dir() -> Path | None:
    """``catalogs/`` of the source checkout (or ``triage/_builtin_catalogs`` when installed)."""
    here = Path(__file__).resolve().parent
    for candidate in (here / "_builtin_catalogs", here.parent / "catalogs"):
        if candidate.is_dir():
            return candidate
    return None


def load_catalogs(folder: Path) -> list[tuple[Path, Catalog]]:
    """Every ``*.yaml`` catalog in ``folder``, sorted by file name.

    Raises :class:`~triage.errors.RulesInvalid` naming the file, line and field of a bad one.
    """
    out, problems = [], []
    for path in sorted(folder.glob("*.yaml")):
        try:
            doc = load_yaml(path.read_text(encoding="utf-8"), str(path))
            out.append((path, Catalog.model_validate(doc.data)))
        except YamlProblem as exc:
            problems.append(exc.problem)
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                problems.append(RuleProblem(str(path), doc.line_of(loc), ".".join(map(str, loc)), err["msg"]))
    if problems:
        raise RulesInvalid(problems)
    return out


@dataclass
class EntryResult:
    """How one catalog entry fared: the specific rules that fired on its sample (best first)."""

    catalog: str
    index: int
    entry: CatalogEntry
    fired: list[str]

    @property
    def covered(self) -> bool:
        return bool(self.fired)


@dataclass
class CatalogCoverage:
    """Covered and counted entries of one catalog (excluded entries are not counted)."""

    catalog: Catalog
    results: list[EntryResult]

    @property
    def counted(self) -> list[EntryResult]:
        return [r for r in self.results if not r.entry.excluded]

    @property
    def covered(self) -> int:
        return sum(r.covered for r in self.counted)

    @property
    def total(self) -> int:
        return len(self.counted)


def measure(catalogs: list[Catalog], rules) -> list[CatalogCoverage]:
    """Run each counted entry's sample line through the rules (alone: no fact checks, the
    reference matcher) and record the specific rules that fire on it."""
    from triage.api import explain
    from triage.compat import load_compat

    knowledge = replace(load_compat(), checks=[])
    out = []
    for cat in catalogs:
        results = []
        for i, entry in enumerate(cat.entries):
            fired: list[str] = []
            if not entry.excluded:
                report = explain(entry.sample_line(), rules=rules, matcher="reference", knowledge=knowledge)
                # a specific rule: not a generic wrapper, and not an unexplained line leading in its own words
                fired = [f.rule_id for f in report.findings if not f.generic and f.pack != "unexplained"]
            results.append(EntryResult(cat.catalog, i, entry, fired))
        out.append(CatalogCoverage(cat, results))
    return out


def percent(covered: int, total: int) -> str:
    """``covered/total (pct%)``, with ``n/a`` for an empty total."""
    pct = f"{100 * covered / total:.1f}%" if total else "n/a"
    return f"{covered}/{total} ({pct})"
