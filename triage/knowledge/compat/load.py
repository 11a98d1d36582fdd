"""Load ``compat/`` (facts, checks, compatibility tables) into a checked :class:`Knowledge`."""

from __future__ import annotations

import functools
import hashlib
import re
import warnings
from dataclasses import dataclass, field
from pathlib import Path

from pydantic import ValidationError

from triage.errors import RuleProblem, RulesInvalid
from triage.knowledge.compiled import placeholders_in
from triage.knowledge.dialect import check_pattern
from triage.knowledge.yaml_source import YamlProblem, dotted_path, load_yaml

from .schema import (
    KINDS,
    Check,
    ChecksFile,
    Convention,
    Extractor,
    FactsFile,
    FactSpec,
    ModelsFile,
    SocsFile,
    StackPackage,
    Stall,
    TorchNpuFile,
    VllmAscendFile,
)
from .versions import parse_version


def builtin_compat_dir() -> Path:
    """The built-in compatibility data: ``triage/_builtin_compat`` installed, ``compat/`` in a checkout."""
    here = Path(__file__).resolve().parents[2]  # the triage package
    installed = here / "_builtin_compat"
    return installed if installed.is_dir() else here.parent / "compat"


@dataclass
class Knowledge:
    """What ``compat/`` holds, validated: facts and extractors (in file order), checks, tables."""

    facts: dict[str, FactSpec]
    extractors: list[Extractor]
    checks: list[Check]
    vllm_ascend: VllmAscendFile | None = None
    torch_npu: TorchNpuFile | None = None
    models: ModelsFile | None = None
    socs: SocsFile | None = None
    files: list[str] = field(default_factory=list)
    #: where each extractor and check is defined: id -> (file, line)
    where: dict[str, tuple[str, int]] = field(default_factory=dict)
    #: a digest of the files' content (the report's ``compat_digest``)
    digest: str = ""
    #: the error-line conventions of the programs in the stack (file order), and what a stall is
    conventions: list[Convention] = field(default_factory=list)
    stall: Stall | None = None
    #: the Python packages of the stack that a traceback's innermost frame may name
    packages: list[StackPackage] = field(default_factory=list)


@functools.lru_cache(maxsize=4)
def load_compat(folder: Path | None = None) -> Knowledge:
    """Read every ``*.yaml`` of ``folder`` (default :func:`builtin_compat_dir`).

    Raises :class:`~triage.errors.RulesInvalid` naming the file, line and field of each problem:
    an unknown ``kind``, a schema error, an extractor of an undeclared fact or without a ``value``
    group, a regex outside the rule dialect, a check of an unknown test or with a placeholder its
    test does not give. A validated result is cached on disk (see :mod:`triage.util.cache`), keyed by
    the files' content and location and by this package's compat code, so a start does not
    re-validate unchanged files.
    """
    from triage.util.cache import cache_dir, load_pickle, store_pickle

    folder = folder or builtin_compat_dir()
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    key = hashlib.sha256()
    here = Path(__file__).resolve().parent
    try:
        for path in files:
            key.update(str(path.resolve()).encode() + b"\0" + path.read_bytes() + b"\0")
        for code in sorted(here.glob("*.py")):  # this package's code: the schema, the loader, the checks
            key.update(code.read_bytes())
        key.update((here.parent / "dialect.py").read_bytes())
    except OSError:
        return _load_compat(folder)
    path = cache_dir() / f"compat-{key.hexdigest()[:24]}.pickle"
    cached = load_pickle(path)
    if isinstance(cached, Knowledge):
        return cached
    knowledge = _load_compat(folder)
    store_pickle(path, knowledge, keep=4)
    return knowledge


def _load_compat(folder: Path) -> Knowledge:
    """:func:`load_compat` without the cache."""
    from .checks import TESTS  # the reasoners; imported here to keep the schema free of code

    problems: list[RuleProblem] = []
    parsed: dict[str, list] = {kind: [] for kind in KINDS}
    files = sorted(p for p in folder.glob("*.yaml") if p.is_file())
    for path in files:
        try:
            doc = load_yaml(path.read_text(encoding="utf-8"), str(path))
        except (OSError, UnicodeDecodeError) as exc:
            problems.append(RuleProblem(str(path), 0, "", f"cannot read: {exc}"))
            continue
        except YamlProblem as exc:
            problems.append(exc.problem)
            continue
        data = doc.data
        kind = data.get("kind") if isinstance(data, dict) else None
        if kind not in KINDS:
            problems.append(RuleProblem(str(path), doc.line_of(("kind",)) if isinstance(data, dict) else 1, "kind",
                                        f"`kind` must be one of {', '.join(KINDS)}"))
            continue
        try:
            parsed[kind].append((KINDS[kind].model_validate(data), doc, str(path)))
        except ValidationError as exc:
            for err in exc.errors():
                loc = tuple(err["loc"])
                msg = "unknown key" if err["type"] == "extra_forbidden" else err["msg"]
                problems.append(RuleProblem(str(path), doc.line_of(loc), dotted_path(loc) or kind, msg))
    for kind in ("vllm_ascend_releases", "torch_npu_releases", "model_requirements", "soc_families", "conventions"):
        if len(parsed[kind]) > 1:
            problems.append(RuleProblem(parsed[kind][1][2], 1, "kind", f"a second `{kind}` file"))

    facts: dict[str, FactSpec] = {}
    extractors: list[Extractor] = []
    checks: list[Check] = []
    where: dict[str, tuple[str, int]] = {}
    for ff, doc, file in parsed["facts"]:
        ff: FactsFile
        for i, spec in enumerate(ff.facts):
            if spec.name in facts:
                problems.append(RuleProblem(file, doc.line_of(("facts", i)), f"facts.{i}.name",
                                            f"fact `{spec.name}` declared twice"))
            facts[spec.name] = spec
        for i, ex in enumerate(ff.extractors):
            line = doc.line_of(("extractors", i))
            if ex.id in where:
                problems.append(RuleProblem(file, line, f"extractor {ex.id}: id", "duplicate id"))
            where[ex.id] = (file, line)
            if ex.fact not in facts:
                problems.append(RuleProblem(file, doc.line_of(("extractors", i, "fact")), f"extractor {ex.id}: fact",
                                            f"no fact named `{ex.fact}` is declared"))
            for key in ("regex", "after"):
                pattern = getattr(ex, key)
                if pattern is None:
                    continue
                for why in check_pattern(pattern):
                    problems.append(RuleProblem(file, doc.line_of(("extractors", i, key)),
                                                f"extractor {ex.id}: {key}", why))
            with warnings.catch_warnings():
                warnings.simplefilter("ignore", FutureWarning)
                try:
                    groups = re.compile(ex.regex, re.ASCII).groupindex
                except re.error:
                    groups = {"value": 1}  # reported by check_pattern already
            if "value" not in groups:
                problems.append(RuleProblem(file, doc.line_of(("extractors", i, "regex")),
                                            f"extractor {ex.id}: regex", "needs a named group `value`"))
            extractors.append(ex)
    for cf, doc, file in parsed["checks"]:
        cf: ChecksFile
        for i, check in enumerate(cf.checks):
            line = doc.line_of(("checks", i))
            if check.id in where:
                problems.append(RuleProblem(file, line, f"check {check.id}: id", "duplicate id"))
            where[check.id] = (file, line)
            test = TESTS.get(check.test)
            if test is None:
                problems.append(RuleProblem(file, doc.line_of(("checks", i, "test")), f"check {check.id}: test",
                                            f"unknown test `{check.test}` (known: {', '.join(sorted(TESTS))})"))
                continue
            given = set(test.values)
            texts = [(("cause",), check.cause)] + [(("fix", k), step) for k, step in enumerate(check.fix)]
            for path, text in texts:
                for name in sorted(placeholders_in(text) - given):
                    problems.append(RuleProblem(file, doc.line_of(("checks", i) + path),
                                                f"check {check.id}: {dotted_path(path)}",
                                                f"placeholder {{{name}}} is not a value of test `{check.test}`"))
            if check.zh is None:
                problems.append(RuleProblem(file, line, f"check {check.id}: zh",
                                            "no Chinese text (`zh`: title, cause, fix)"))
            else:
                zh = check.zh
                if len(zh.fix) != len(check.fix):
                    problems.append(RuleProblem(file, doc.line_of(("checks", i, "zh", "fix")),
                                                f"check {check.id}: zh.fix",
                                                f"{len(zh.fix)} steps, the English fix has {len(check.fix)}"))
                pairs = [(("zh", "title"), zh.title, check.title), (("zh", "cause"), zh.cause, check.cause)]
                pairs += [(("zh", "fix", k), z, e) for k, (z, e) in enumerate(zip(zh.fix, check.fix, strict=False))]
                for path, z, e in pairs:
                    if placeholders_in(z) != placeholders_in(e):
                        problems.append(RuleProblem(file, doc.line_of(("checks", i) + path),
                                                    f"check {check.id}: {dotted_path(path)}",
                                                    f"placeholders {sorted(placeholders_in(z))} differ from the "
                                                    f"English text's {sorted(placeholders_in(e))}"))
            for name in sorted(set(test.params) - set(check.params)):
                problems.append(RuleProblem(file, doc.line_of(("checks", i)), f"check {check.id}: params",
                                            f"test `{check.test}` needs parameter `{name}`"))
            for name in sorted(set(check.params) - set(test.params)):
                problems.append(RuleProblem(file, doc.line_of(("checks", i, "params", name)),
                                            f"check {check.id}: params.{name}",
                                            f"test `{check.test}` takes no parameter `{name}`"))
            checks.append(check)
    conventions, stall = _conventions(parsed["conventions"], problems)
    packages = list(parsed["conventions"][0][0].packages) if parsed["conventions"] else []
    if problems:
        raise RulesInvalid(problems)

    def one(kind):
        return parsed[kind][0][0] if parsed[kind] else None

    vllm_ascend = one("vllm_ascend_releases")
    if vllm_ascend is not None:
        # newest first, whatever the file's order: "the first release after X that ..." relies on it
        ordered = sorted(vllm_ascend.releases, key=lambda r: parse_version(r.vllm_ascend) or parse_version("0"),
                         reverse=True)
        vllm_ascend = vllm_ascend.model_copy(update={"releases": ordered})
    digest = hashlib.sha256(b"".join(p.name.encode() + b"\0" + p.read_bytes() for p in files)).hexdigest()[:16]
    return Knowledge(facts, extractors, checks, vllm_ascend, one("torch_npu_releases"),
                     one("model_requirements"), one("soc_families"), [str(p) for p in files], where, digest,
                     conventions, stall, packages)


def _conventions(parsed: list, problems: list[RuleProblem]) -> tuple[list[Convention], Stall | None]:
    """The conventions and the stall of ``compat/conventions.yaml``, their patterns checked against
    the rule dialect; a kind is unique and no built-in detector's (problems are appended)."""
    from triage.logformat.detectors import KIND_RANK

    if not parsed:
        return [], None
    cf, doc, file = parsed[0]
    out: list[Convention] = []
    seen = set(KIND_RANK) | {"restart"}
    for i, c in enumerate(cf.conventions):
        if c.kind in seen:
            problems.append(RuleProblem(file, doc.line_of(("conventions", i, "kind")), f"convention {c.kind}: kind",
                                        "a kind of its own is needed (taken by a detector or another convention)"))
        seen.add(c.kind)
        for path, pattern in [(("prefilter",), c.prefilter), *((("confirm", k), p) for k, p in enumerate(c.confirm))]:
            for why in check_pattern(pattern):
                problems.append(RuleProblem(file, doc.line_of(("conventions", i, *path)),
                                            f"convention {c.kind}: {dotted_path(path)}", why))
        out.append(c)
    for key in ("says", "not_says"):
        for why in check_pattern(getattr(cf.stall, key)):
            problems.append(RuleProblem(file, doc.line_of(("stall", key)), f"stall: {key}", why))
    return out, cf.stall
