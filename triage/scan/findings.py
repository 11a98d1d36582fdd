"""A rule's occurrences as a :class:`~triage.report.models.Finding`: its texts filled in the
report's language (captures, the log's own words, fix steps ordered by the facts) and its evidence.
Used by the live announcements of the map step and by the diagnosis."""

from __future__ import annotations

from triage.knowledge.compiled import CompiledRule, fill
from triage.knowledge.rank import confidence_of
from triage.report.i18n import resolve_lang
from triage.report.models import (
    Evidence,
    Finding,
    Origin,
)
from triage.scan.summary import SEvidence, SHits, SOrigin


def fix_order(rule, values: dict[str, str]) -> list[int]:
    """Indexes of the fix steps to show, in order: steps whose ``lead_when`` holds first, steps
    whose ``only_when`` does not hold left out (see :mod:`triage.knowledge.conditions`)."""
    from triage.knowledge.conditions import holds
    from triage.knowledge.schema import FixStep

    lead, rest = [], []
    for i, step in enumerate(rule.fix):
        if isinstance(step, FixStep):
            if step.only_when and not holds(step.only_when, values):
                continue
            if step.lead_when and holds(step.lead_when, values):
                lead.append(i)
                continue
        rest.append(i)
    return lead + rest


def rule_texts(rule: CompiledRule, captures: dict[str, str], lang: str, line: str | None = None,
               facts: dict[str, str] | None = None) -> tuple[str, str, list[str]]:
    """(title, cause, fix) of a rule with ``captures`` filled, in ``lang`` where the rule has it. A
    rule with a code ``lookup`` also gets the log's own words of ``line`` (its first evidence
    line): ``{said}``, ``{reason}``, ``{call}`` (see :mod:`triage.logformat.codeline`). Fix steps that
    depend on the facts and captures are ordered by them (``facts``: fact name -> value)."""
    values = rule.placeholders(captures, lang)
    if rule.rule.lookup is not None and line is not None:
        from triage.logformat.codeline import own_words

        for k, v in own_words(line, captures.get(rule.rule.lookup.capture)).items():
            values.setdefault(k, v)
    r = rule.rule
    source = r.zh if (lang == "zh" and r.zh is not None) else None
    title = source.title if source else r.title
    cause = source.cause if source else r.cause
    steps = source.fix if source else r.fix_texts()
    order = fix_order(r, {**(facts or {}), **captures}) if any(not isinstance(x, str) for x in r.fix) else range(
        len(steps))
    fix = [steps[i] for i in order if i < len(steps)]
    return fill(title, values), fill(cause.strip(), values), [fill(step, values) for step in fix]


def _evidence(ev: SEvidence, files: list[str | None]) -> Evidence:
    return Evidence(file=files[ev.file] if ev.file < len(files) else None, line=ev.line, text=ev.text,
                    origin=Origin(**ev.origin) if ev.origin else Origin())


def _ranks_nodes(origins: list[SOrigin]) -> tuple[list[int], list[str]]:
    ranks = sorted({o.origin["rank"] for o in origins if o.origin.get("rank") is not None})
    nodes = sorted({o.origin["node"] for o in origins if o.origin.get("node")})
    return ranks, nodes


def finding_of(rule: CompiledRule, hits: SHits, files: list[str | None], lang: str,
               suppressed_by: str | None = None, facts: dict[str, str] | None = None) -> Finding:
    """The :class:`Finding` of one rule's occurrences (``facts``: fact name -> value, for fix
    steps that depend on them)."""
    r = rule.rule
    evidence = [_evidence(e, files) for occ in hits.occurrences for e in occ]
    title, cause, fix = rule_texts(rule, hits.captures, lang, evidence[0].text if evidence else None, facts)
    for e in hits.last_occurrence or []:
        ev = _evidence(e, files)
        if ev not in evidence:
            evidence.append(ev)
    ranks, nodes = _ranks_nodes(hits.origins)
    return Finding(
        rule_id=r.id, title=title, layer=r.layer, component=r.component, severity=r.severity, priority=r.priority,
        generic=r.generic, cause=cause, fix=fix, evidence=evidence, first_line=hits.first[1],
        last_line=hits.last[1], first_file=files[hits.first[0]], last_file=files[hits.last[0]], count=hits.count,
        captures=dict(hits.captures), references=list(r.references), suppressed_by=suppressed_by, pack=rule.pack,
        confidence=confidence_of(r), ranks=ranks, nodes=nodes,
    )


def live_finding(analysis, rule: CompiledRule, state, file: str | None) -> Finding:
    """The finding announced the moment ``rule`` first fires (streaming): its first occurrence."""
    from triage.scan.state import _evidence as _occurrence_evidence

    hits = SHits(rule=rule.id, count=state.count, first=(0, state.first_line), last=(0, state.last_line),
                 captures=state.captures, occurrences=[_occurrence_evidence(o) for o in state.occurrences[:1]],
                 origins=[])
    return finding_of(rule, hits, [file], resolve_lang(analysis.lang))
