"""Corpus cases: real logs with the diagnosis they must get (``corpus/<case>/``)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from triage.errors import RuleProblem, RulesInvalid
from triage.knowledge.yaml_source import YamlProblem, load_yaml


class FactExpectation(BaseModel):
    """A fact the case's log must yield: its value and the (1-based) line it comes from."""

    model_config = ConfigDict(extra="forbid")

    value: str
    line: int


class Expectation(BaseModel):
    """What the case's log must give: the root-cause rule (or fact check) and layer, rules that
    fire too, and environment facts with their lines."""

    model_config = ConfigDict(extra="forbid")

    root_cause: str | None
    layer: str | None = None
    also: list[str] = Field(default_factory=list)
    facts: dict[str, FactExpectation] = Field(default_factory=dict)


class Case(BaseModel):
    """``case.yaml``: where the log comes from and what it must give."""

    model_config = ConfigDict(extra="forbid")

    source: str
    url: str | None = None
    synthetic: bool = False
    quotes: str | list[str] | None = None
    healthy: bool = False
    expect: Expectation
    notes: str | None = None
    references: list[str] = Field(default_factory=list)
    """Every other thread, page or source file read while writing or checking the case's rules."""


@dataclass
class CorpusCase:
    """A case folder: its name, log file and parsed ``case.yaml``."""

    name: str
    folder: Path
    case: Case

    @property
    def log(self) -> Path:
        return self.folder / "log.txt"


def default_corpus_dir() -> Path | None:
    """``corpus/`` of the source checkout this package runs from, if there is one."""
    here = Path(__file__).resolve().parents[2] / "corpus"
    return here if here.is_dir() else None


def load_cases(corpus: Path) -> list[CorpusCase]:
    """All cases below ``corpus`` (each a folder with ``case.yaml`` and ``log.txt``), sorted.

    Raises :class:`~triage.errors.RulesInvalid` naming the file and line of a bad ``case.yaml``.
    """
    cases = []
    problems = []
    for meta in sorted(corpus.rglob("case.yaml")):
        try:
            doc = load_yaml(meta.read_text(encoding="utf-8"), str(meta))
            case = Case.model_validate(doc.data)
        except YamlProblem as exc:
            problems.append(exc.problem)
            continue
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                problems.append(RuleProblem(str(meta), doc.line_of(loc), ".".join(map(str, loc)), err["msg"]))
            continue
        if not (meta.parent / "log.txt").is_file():
            problems.append(RuleProblem(str(meta), 0, "", "log.txt is missing beside case.yaml"))
            continue
        cases.append(CorpusCase(meta.parent.name, meta.parent, case))
    if problems:
        raise RulesInvalid(problems)
    return cases
