"""The on-disk format of ``compat/``: fact extractors, fact checks and compatibility tables.

Each file is a mapping with a ``kind`` that picks its model. These files are not rules: the rule
loader never reads this folder, and this schema is not the rule schema.
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

from triage.knowledge.schema import RULE_ID_PATTERN, Confidence, Layer, RuleText, Severity

FactType = Literal["version", "text", "int", "float", "gib"]
#: Units a ``gib`` fact may be printed in, and their size in GiB. vLLM prints "GB" where it
#: divides by 2**30 (``Loading model weights took 8.5107 GB``), so GB counts as GiB here.
UNITS = {"GiB": 1.0, "GB": 1.0, "MiB": 1 / 1024, "MB": 1 / 1024, "B": 1 / 2**30, "KiB": 1 / 2**20}


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class FactSpec(_Strict):
    """A fact triage reads from logs: its name, what it means, and how its value is typed."""

    name: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    label: str
    type: FactType
    prefer: Literal["first", "last"] = "first"
    """Between equally strong lines, keep the first (versions) or the last (figures of the run that
    failed, when a log holds several start-ups)."""


class ExtractorExample(_Strict):
    """A log excerpt (one or more lines) and the value the extractor must read from it."""

    text: str
    value: str


class Extractor(_Strict):
    """How to read one fact from one kind of line.

    ``regex`` has a named group ``value`` (and, for ``gib`` facts, optionally ``unit``). With
    ``after``, the line counts only within ``within`` lines after a line matching ``after`` (the
    ``version=`` line of a CANN install-info file follows its ``package_name=`` line). When two
    extractors give a fact, the higher ``priority`` wins, then the earlier line.
    """

    id: str = Field(pattern=RULE_ID_PATTERN)
    fact: str
    regex: str
    ignore_case: bool = False
    after: str | None = None
    within: int = Field(default=5, ge=1, le=200)
    unit: str | None = None
    priority: int = Field(default=50, ge=0, le=100)
    source: str = Field(min_length=3)
    examples: list[ExtractorExample] = Field(min_length=1)
    no_match: list[str] = Field(default_factory=list)

    @model_validator(mode="after")
    def _unit_known(self) -> Extractor:
        if self.unit is not None and self.unit not in UNITS:
            raise ValueError(f"unknown unit `{self.unit}` (known: {', '.join(UNITS)})")
        return self


class FactsFile(_Strict):
    """``compat/facts.yaml``: the facts and their extractors."""

    kind: Literal["facts"]
    facts: list[FactSpec] = Field(min_length=1)
    extractors: list[Extractor] = Field(min_length=1)


class CheckExamples(_Strict):
    """Log excerpts on which the check must fire (and lead the report), and must stay silent."""

    match: list[str] = Field(min_length=1)
    no_match: list[str] = Field(min_length=1)


class Check(_Strict):
    """A finding reasoned from facts, e.g. a vLLM / vllm-ascend pairing that no release has.

    ``test`` names the reasoner in :mod:`triage.knowledge.compat.checks`; its values fill the ``{name}``
    placeholders of ``cause`` and ``fix``. The fields shared with rules mean the same as there.
    """

    id: str = Field(pattern=RULE_ID_PATTERN)
    test: str
    params: dict[str, str] = Field(default_factory=dict)
    title: str = Field(min_length=5)
    layer: Layer
    component: str = Field(min_length=1)
    severity: Severity
    priority: int = Field(default=88, ge=0, le=100)
    generic: bool = False
    cause: str = Field(min_length=10)
    fix: list[str] = Field(min_length=1)
    suppresses: list[str] = Field(default_factory=list)
    references: list[str] = Field(min_length=1)
    examples: CheckExamples
    confidence: Confidence = "confirmed"
    """Checks compare versions with release tables that cite their sources: confirmed unless said."""
    zh: RuleText | None = None
    """Chinese title, cause and fix (the same placeholders)."""


class ChecksFile(_Strict):
    """``compat/checks.yaml``: the fact checks."""

    kind: Literal["checks"]
    checks: list[Check] = Field(min_length=1)


Source = str | list[str]


class VllmAscendRelease(_Strict):
    """One vllm-ascend release and the versions it is built and tested against."""

    vllm_ascend: str
    vllm: list[str] = Field(min_length=1)
    torch: list[str] = Field(default_factory=list)
    torch_npu: list[str] = Field(default_factory=list)
    cann: str | None = None
    python: str | None = None
    socs: list[str] = Field(default_factory=list)
    images: list[str] = Field(default_factory=list)
    notes: str | None = None
    source: Source


class ImageVariant(_Strict):
    """A suffix of the official image tag (``-310p``, ``-a3``) and the SoC family it is built for."""

    suffix: str
    soc: str
    source: Source


class VllmAscendFile(_Strict):
    """``compat/vllm_ascend.yaml``: the release compatibility matrix."""

    kind: Literal["vllm_ascend_releases"]
    title: str
    releases: list[VllmAscendRelease] = Field(min_length=1)
    image_variants: list[ImageVariant] = Field(default_factory=list)
    image_default_soc: str | None = None
    image_neutral_suffixes: list[str] = Field(default_factory=list)


class TorchNpuRelease(_Strict):
    """One torch_npu release, the PyTorch release it extends and the CANN versions it pairs with."""

    torch_npu: str
    torch: str
    cann: list[str] = Field(default_factory=list)
    notes: str | None = None
    source: Source


class TorchNpuFile(_Strict):
    """``compat/torch_npu.yaml``."""

    kind: Literal["torch_npu_releases"]
    title: str
    releases: list[TorchNpuRelease] = Field(min_length=1)


class ModelRequirement(_Strict):
    """The first releases that know a model architecture."""

    architecture: str
    family: str
    model_type: str | None = None
    transformers_min: str | None = None
    vllm_min: str | None = None
    vllm_ascend_min: str | None = None
    vllm_ascend_also: list[str] = Field(default_factory=list)
    """Releases below ``vllm_ascend_min`` that support it too (a later post-release of an older line)."""
    notes: str | None = None
    source: Source


class ModelsFile(_Strict):
    """``compat/models.yaml``."""

    kind: Literal["model_requirements"]
    title: str
    models: list[ModelRequirement] = Field(min_length=1)


class SocFamily(_Strict):
    """A product family of Ascend chips and the names logs print for its members."""

    family: str
    label: str
    """A short name for reports (``Atlas A2 (Ascend 910B)``)."""
    product: str
    names: list[str] = Field(min_length=1)
    notes: str | None = None
    source: Source


class SocsFile(_Strict):
    """``compat/socs.yaml``."""

    kind: Literal["soc_families"]
    title: str
    families: list[SocFamily] = Field(min_length=1)


class ConventionExample(_Strict):
    """A line of the program's output and where it comes from: a URL of the public log it was copied
    from, or the source file and line whose format string rendered it."""

    text: str
    source: str = Field(min_length=3)


class ConventionExamples(_Strict):
    """Lines the convention must recognise, and real near-misses it must leave alone."""

    match: list[ConventionExample] = Field(min_length=1)
    no_match: list[ConventionExample] = Field(min_length=1)


class Convention(_Strict):
    """How one program of the stack marks an error (or warning) line: pip's ``ERROR:``, make's
    ``*** [...] Error N``, klog's ``E1205 ...``, a pod in ``CrashLoopBackOff``. A line no rule explains
    that matches it is an unexplained line of kind ``kind``, so a failing log is never called clean.

    ``prefilter`` is searched in the raw blocks with the rules (the rule dialect: Hyperscan reads
    it); ``confirm`` (any of its patterns) then decides on the raw line (``scope: raw``) or on the message left once
    process prefixes are stripped (``scope: message``). ``severity`` follows the program's own level.
    """

    kind: str = Field(pattern=r"^[a-z][a-z0-9-]*$")
    program: str
    label: str
    label_zh: str
    component: str
    layer: Layer
    severity: Literal["error", "warning"] = "error"
    prefilter: str
    confirm: list[str] = Field(min_length=1)
    scope: Literal["raw", "message"] = "raw"
    ignore_case: bool = False
    lead: Literal["over_wrappers", "alone"] = "over_wrappers"
    """When such a line leads as a possible cause: like a Python exception, whenever only generic
    wrappers fired (``over_wrappers``), or only when nothing else fired at all (``alone``: a line that
    is itself an outcome, such as ``Killed`` or ``make: *** Error 2``, whose reason is printed above)."""
    references: list[str] = Field(min_length=1)
    examples: ConventionExamples


class Stall(_Strict):
    """A log that ends by repeating one line that says it is waiting: ``says`` the words of such a
    line, ``not_says`` those of a healthy server's periodic lines (engine statistics, health checks),
    ``repeats`` how many times the last line must repeat, numbers and times aside."""

    says: str
    not_says: str
    repeats: int = Field(default=3, ge=2, le=100)
    references: list[str] = Field(min_length=1)
    examples: ConventionExamples


class StackPackage(_Strict):
    """A Python package of the Ascend stack: an exception raised inside it names it (the innermost
    traceback frame in it), with its version when the log states the ``fact``."""

    name: str = Field(pattern=r"^[A-Za-z_][A-Za-z0-9_]*$")
    label: str
    repo: str
    layer: Layer = "framework"
    fact: str | None = None


class ConventionsFile(_Strict):
    """``compat/conventions.yaml``: the error-line conventions of the programs in the stack, and what
    a stalled log looks like."""

    kind: Literal["conventions"]
    title: str
    conventions: list[Convention] = Field(min_length=1)
    stall: Stall
    packages: list[StackPackage] = Field(min_length=1)


KINDS: dict[str, type[BaseModel]] = {
    "facts": FactsFile, "checks": ChecksFile, "vllm_ascend_releases": VllmAscendFile,
    "torch_npu_releases": TorchNpuFile, "model_requirements": ModelsFile, "soc_families": SocsFile,
    "conventions": ConventionsFile,
}
