"""The reasoners' toolkit: a verdict, the registry of tests (:data:`TESTS`, filled by
:mod:`.releases` and :mod:`.memory`), and lookups in the compatibility tables.

Reasoners: findings drawn from facts and the compatibility tables, not from one error line.

Each test reads the facts it needs and returns one :class:`Verdict` per problem, or nothing when
the facts are consistent or unknown (a check never guesses a missing version). The words the user
reads (title, cause, fix) live in ``compat/checks.yaml``; the values computed here fill them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Protocol

from .schema import ModelRequirement, VllmAscendRelease
from .versions import at_least, is_dev_build, parse_version, same_release


class FactView(Protocol):
    def value(self, name: str) -> str | None: ...

    def fact(self, name: str): ...


@dataclass
class Verdict:
    """One problem found: ``values`` for the texts, ``facts`` whose lines are the evidence, and
    ``values_zh``: the values that are prose, in Chinese (the others are the same in both)."""

    values: dict[str, str]
    facts: list[str] = field(default_factory=list)
    values_zh: dict[str, str] = field(default_factory=dict)

    def values_for(self, lang: str) -> dict[str, str]:
        """The values in ``lang`` (``zh`` overrides the prose values)."""
        return {**self.values, **self.values_zh} if lang == "zh" else self.values


@dataclass(frozen=True)
class Test:
    """A reasoner, the placeholder ``values`` it fills and the ``params`` it accepts."""

    fn: Callable
    values: tuple[str, ...]
    params: tuple[str, ...] = ()


TESTS: dict[str, Test] = {}


def _test(values: tuple[str, ...], params: tuple[str, ...] = ()):
    def register(fn):
        TESTS[fn.__name__] = Test(fn, values, params)
        return fn
    return register


# -- lookups ------------------------------------------------------------------------------------

def vllm_ascend_release(knowledge, version: str | None) -> VllmAscendRelease | None:
    """The table entry of vllm-ascend ``version`` (a tagged release; dev builds have none)."""
    if version is None or knowledge.vllm_ascend is None or is_dev_build(version):
        return None
    v = parse_version(version)
    if v is not None and v.dev is not None and v.pre is None:
        # a development build of X.Y.Z (0.7.3-dev) precedes X.Y.Z's first release candidate
        line = [r for r in knowledge.vllm_ascend.releases
                if (parse_version(r.vllm_ascend) or v).base_version == v.base_version]
        return line[-1] if line else None  # the table is newest first
    for rel in knowledge.vllm_ascend.releases:
        if same_release(version, rel.vllm_ascend) and same_release(rel.vllm_ascend, version):
            return rel
    return None


def soc_family(knowledge, name: str | None) -> str | None:
    """The family (``910B``, ``910_93``, ``310P``, ``910``) of a chip name as logs print it."""
    fam = soc_entry(knowledge, name)
    return fam.family if fam else None


def soc_label(knowledge, family: str) -> str:
    """The report name of a family (``Atlas A2 (Ascend 910B)``); the family itself if unknown."""
    fams = knowledge.socs.families if knowledge.socs else []
    return next((f.label for f in fams if f.family == family), family)


def soc_entry(knowledge, name: str | None):
    """The :class:`~triage.knowledge.compat.schema.SocFamily` of a chip name, or None."""
    if name is None or knowledge.socs is None:
        return None
    key = name.replace(" ", "").lower()
    keys = {key, key.removeprefix("ascend"), "ascend" + key.removeprefix("ascend")}
    for fam in knowledge.socs.families:
        if any(n.replace(" ", "").lower() in keys for n in fam.names):
            return fam
    return None


def first_release_supporting(knowledge, family: str, since: str) -> str | None:
    """The oldest vllm-ascend release at or after ``since`` whose SoC list has ``family`` (the table
    is sorted newest first by the loader), or None."""
    releases = [r.vllm_ascend for r in knowledge.vllm_ascend.releases
                if family in r.socs and at_least(r.vllm_ascend, since)]
    return releases[-1] if releases else None


def model_requirement(knowledge, facts: FactView) -> ModelRequirement | None:
    """The table entry of the log's model architecture (or, failing that, its ``model_type``)."""
    if knowledge.models is None:
        return None
    arch, mtype = facts.value("architecture"), facts.value("model_type")
    for m in knowledge.models.models:
        if arch is not None and m.architecture == arch:
            return m
    for m in knowledge.models.models:
        if mtype is not None and m.model_type == mtype:
            return m
    return None


# -- version pairings ---------------------------------------------------------------------------
