"""The on-disk rule format, as pydantic models that mirror the YAML field by field.

A rule file is ``{"rules": [Rule, ...]}``; a code table file (``rules/codes/*.yaml``) is a
:class:`CodeTable`. These models only check shape and types; the loader adds the checks that need
more than one field (regex dialect, placeholders, ids across files).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, model_validator

Layer = Literal["hardware", "driver", "framework"]
Severity = Literal["critical", "error", "warning", "info"]
Confidence = Literal["confirmed", "likely", "hypothesis"]

#: How sure a rule's cause is, most sure first: ``confirmed`` (traced to the source that prints the
#: message or to a maintainer-resolved thread), ``likely`` (consistent sources, or a message from a
#: catalog no public log shows), ``hypothesis`` (one secondary source; shown as "possible cause").
CONFIDENCES: tuple[str, ...] = ("confirmed", "likely", "hypothesis")

#: Severity names, most severe first; the index is the sort rank.
SEVERITIES: tuple[str, ...] = ("critical", "error", "warning", "info")

RULE_ID_PATTERN = r"^[a-z0-9][a-z0-9_-]*(\.[a-z0-9][a-z0-9_-]*)+$"


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True, defer_build=True)


class Condition(_Strict):
    """One test on one line: a regex search or a plain substring, optionally case-insensitive.

    ``scope`` picks the text tested: ``line`` is the normalized line (container, vLLM and Ray
    prefixes and ANSI colours removed); ``message`` also drops a CANN plog or torch_npu header;
    ``raw`` is the line as read (to anchor on a prefix the normalizer strips, such as vLLM's
    ``[platform.py:123]`` logger location).
    """

    regex: str | None = None
    contains: str | None = Field(default=None, min_length=1)
    ignore_case: bool = False
    scope: Literal["line", "message", "raw"] = "line"

    @model_validator(mode="after")
    def _exactly_one(self) -> Condition:
        if (self.regex is None) == (self.contains is None):
            raise ValueError("a condition needs exactly one of `regex` or `contains`")
        if self.regex is not None and not self.regex:
            raise ValueError("`regex` is empty")
        return self


class LineMatch(_Strict):
    """Conditions that must all hold on the same line: any of ``any``, all of ``all``, none of ``none``."""

    any: list[Condition] = Field(default_factory=list)
    all: list[Condition] = Field(default_factory=list)
    none: list[Condition] = Field(default_factory=list)

    @model_validator(mode="after")
    def _has_positive(self) -> LineMatch:
        if not self.any and not self.all:
            raise ValueError("a match needs at least one condition under `any` or `all`")
        return self


class FollowedBy(_Strict):
    """A second line that must follow the matched line within ``within`` lines (1..1000)."""

    within: int = Field(ge=1, le=1000)
    match: LineMatch


class Lookup(_Strict):
    """Look the value of capture ``capture`` up in code table ``table``.

    Adds the placeholders ``{code_name}``, ``{code_meaning}``, ``{code_causes}`` and ``{code_actions}``.
    """

    capture: str
    table: str


class Example(_Strict):
    """A log excerpt with where it was seen: ``release`` (e.g. ``CANN 8.0.RC3``, ``vllm-ascend
    v0.9.1``) and ``source`` (a URL or ``owner/repo:path``), both optional."""

    text: str = Field(min_length=1)
    release: str | None = None
    source: str | None = None


class Examples(_Strict):
    """Log excerpts (one or more lines each) the rule must match, and near misses it must not.

    A ``match`` item is a string or an :class:`Example` (text with its release and source).
    ``no_match`` is required in the built-in base and optional in user packs (lint warns).
    """

    match: list[str | Example] = Field(min_length=1)
    no_match: list[str] = Field(default_factory=list)

    def match_texts(self) -> list[str]:
        """The ``match`` excerpts as plain text."""
        return [m if isinstance(m, str) else m.text for m in self.match]


class FixStep(_Strict):
    """A fix step that depends on what the log showed: ``lead_when`` moves it to the front when the
    condition holds; ``only_when`` leaves it out when the condition does not hold. Conditions are
    comparisons over captures and facts (see :mod:`triage.knowledge.conditions`), e.g.
    ``model_weights_gib < 0.35 * total``."""

    text: str = Field(min_length=1)
    lead_when: str | None = None
    only_when: str | None = None


class RuleText(_Strict):
    """A rule's words in another language: the same title, cause and fix steps (the same number
    of steps, the same ``{placeholders}``); commands, variables and codes stay as they are."""

    title: str = Field(min_length=2)
    cause: str = Field(min_length=2)
    fix: list[str] = Field(min_length=1)


class Rule(_Strict):
    """A signature: how to recognise one failure in a log, and what to tell the user about it."""

    id: str = Field(pattern=RULE_ID_PATTERN)
    title: str = Field(min_length=5)
    layer: Layer
    component: str = Field(min_length=1)
    severity: Severity
    priority: int = Field(default=50, ge=0, le=100)
    generic: bool = False
    match: LineMatch
    followed_by: FollowedBy | None = None
    lookup: Lookup | None = None
    cause: str = Field(min_length=10)
    fix: list[str | FixStep] = Field(min_length=1)
    """Steps in order; a step may be a :class:`FixStep` whose place depends on facts and captures."""
    suppresses: list[str] = Field(default_factory=list)
    references: list[str] = Field(default_factory=list)
    """Threads, pages and source files the rule rests on (required in the built-in base)."""
    examples: Examples
    override: bool = False
    """True in a user pack to replace the built-in rule with the same id (never implicit)."""
    confidence: Confidence | None = None
    """How sure the cause is (required in the built-in base; a user pack's rule defaults to
    ``confirmed``: its author vouches for it)."""
    printed_by: list[str] = Field(default_factory=list)
    """The source that prints the message, as ``owner/repo:path`` (``#Lnn`` optional)."""
    peer_symptom: bool = False
    """The message is printed by a rank waiting for a failed peer (HCCL waits, timeouts, failed
    connections): a specific failure on another rank, not after it, explains it."""
    draft: bool = False
    """A skeleton from ``triage rules suggest``: accepted in user packs with a warning, refused in
    the built-in base."""
    zh: RuleText | None = None
    """Chinese title, cause and fix (required in the built-in base)."""

    def fix_texts(self) -> list[str]:
        """The fix steps' texts, in their written order."""
        return [step if isinstance(step, str) else step.text for step in self.fix]

    @property
    def effective_confidence(self) -> str:
        """``confidence``, or ``confirmed`` when a user pack left it out."""
        return self.confidence or "confirmed"


class RuleFile(_Strict):
    """A YAML rule file: a list of rules under ``rules``."""

    rules: list[Rule] = Field(default_factory=list)


class CodeText(_Strict):
    """A code's words in another language (Chinese): meaning, and causes and actions where written."""

    meaning: str
    causes: str | None = None
    actions: list[str] = Field(default_factory=list)


class CodeEntry(_Strict):
    """One code of a code table: its symbolic name, its meaning in plain words, its possible
    causes and the actions to take (in our words), and how sure that is.

    ``documented: false`` says the source documents no cause (``N/A``, "contact support"): then
    ``actions`` names what to collect (``asys collect``, the plog, the device log).
    """

    name: str
    meaning: str
    causes: str | None = None
    actions: list[str] = Field(default_factory=list)
    documented: bool = True
    confidence: Confidence | None = None
    zh: CodeText | None = None


class CodeTable(_Strict):
    """A dictionary of error codes, e.g. aclError values, with the documentation it comes from."""

    table: str = Field(pattern=r"^[a-z][a-z0-9_]*$")
    title: str
    source: str | list[str]
    codes: dict[str, CodeEntry] = Field(min_length=1)


def rule_file_json_schema(*, builtin: bool = False) -> dict:
    """The JSON Schema (draft 2020-12) of a rule file, for editors (yaml-language-server).

    ``builtin=False``: a user pack's rules (``references``, ``examples.no_match``, ``confidence``
    and ``zh`` optional; ``triage rules lint`` warns about the first two). ``builtin=True``: the
    stricter built-in base: at least one reference and one ``no_match`` example, ``confidence``
    and ``zh`` required, no ``draft``. Returns a new dict each call.
    """
    schema = RuleFile.model_json_schema()
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["title"] = "triage rule file" + (" (built-in base)" if builtin else "")
    if not builtin:
        return schema
    defs = schema["$defs"]
    rule = defs["Rule"]
    props = rule["properties"]
    rule["required"] = [*rule["required"], "references", "confidence", "zh"]
    props["references"]["minItems"] = 1
    props["confidence"] = {"enum": list(CONFIDENCES), "type": "string", "title": "Confidence"}
    props["zh"] = {"$ref": "#/$defs/RuleText"}
    props["draft"] = {"const": False, "default": False, "title": "Draft"}
    examples = defs["Examples"]
    examples["required"] = [*examples["required"], "no_match"]
    examples["properties"]["no_match"]["minItems"] = 1
    return schema
