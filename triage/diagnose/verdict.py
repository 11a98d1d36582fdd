"""From a merged :class:`~triage.scan.summary.Summary` to the ranked :class:`~triage.report.models.Report`.

The reduce step: fact checks are reasoned from the facts, findings are ranked (:mod:`triage.knowledge.rank`),
symptoms are linked to their causes origin by origin (:mod:`triage.diagnose.links`), an
unexplained error line leads when only generic wrappers fired, or when it is the earlier error of the
rank the leading peer wait waited for (:mod:`triage.scan.unexplained`), origins
are grouped into incidents and, over several ranks or nodes, the cluster verdict is drawn
(:mod:`triage.diagnose.cluster`). Texts are filled in the report's language.
"""

from __future__ import annotations

from dataclasses import dataclass

from triage.diagnose.attempts import _before_restart, _split_attempts, latest_root
from triage.diagnose.cluster import verdict
from triage.diagnose.facts import MergedFacts
from triage.diagnose.links import Item, explain, incidents, raise_causes
from triage.diagnose.peers import _explain_waits, _waited_for
from triage.diagnose.ranks import _file_ranks, _hits_with_file_rank, _pid_ranks, _rank_of, _tp_is_world
from triage.diagnose.stalls import stall_findings
from triage.knowledge.compat import Knowledge
from triage.knowledge.compat.checks import TESTS
from triage.knowledge.compat.schema import Convention, StackPackage
from triage.knowledge.compat.versions import is_dev_build
from triage.knowledge.compiled import fill
from triage.knowledge.loader import RuleSet
from triage.knowledge.rank import GENERIC, UNEXPLAINED, confidence_of, rank_key, tier_of
from triage.knowledge.schema import SEVERITIES
from triage.logformat.times import Clock
from triage.report.i18n import resolve_lang
from triage.report.models import (
    Evidence,
    Finding,
    Incident,
    IncidentOrigin,
    InputProblem,
    Origin,
    Report,
    TruncatedLine,
    Unrecognised,
)
from triage.scan.findings import finding_of
from triage.scan.summary import SOrigin, Summary, SUnrecognised
from triage.scan.unexplained import component_and_layer, pick, texts

MAX_UNRECOGNISED_SHOWN = 10


@dataclass
class _Unexplained:
    """The rule-like face of an unexplained line (for ranking)."""

    id: str
    severity: str = "error"
    priority: int = 0
    generic: bool = False
    confidence: str = "hypothesis"
    suppresses: tuple = ()


#: Rule ids of findings about the environment a ``triage collect`` file describes (rules/collect.yaml).
ENV_PREFIX = "collect."


def _check_items(summary: Summary, rules: RuleSet, knowledge: Knowledge, facts: MergedFacts,
                 files: list[str | None], notices: list[str]) -> list[tuple[Item, dict]]:
    """Findings reasoned from the facts (``compat/checks.yaml``), ranked with the rest."""
    out = []
    fired_rules = [rules.by_id[h.rule] for h in summary.hits if h.rule in rules.by_id]
    # only specific findings count: the generic wrappers fire in nearly every failed log
    fired = {r.id for r in fired_rules if not r.rule.generic}
    specific = {r.id for r in fired_rules if not r.rule.generic and r.rule.severity in SEVERITIES[:2]}
    dev = facts.fact("vllm_ascend_version")
    if dev is not None and is_dev_build(dev.value):
        note = (f"{dev.file or '-'}:{dev.line}: vllm-ascend {dev.value} is a development build: the release "
                "tables were not applied to it")
        if note not in notices:
            notices.append(note)
    for check in knowledge.checks:
        for verdict_ in TESTS[check.test].fn(facts, knowledge, check.params):
            got = [f for f in (facts.fact(n) for n in verdict_.facts) if f is not None]
            if not got:
                continue
            where = [facts.position(f.name) for f in got]
            first = min(where)
            last = max(zip(where, got, strict=True), key=lambda p: p[0])
            evidence = sorted({Evidence(file=f.file, line=f.line, text=f.text) for f in got},
                              key=lambda e: (files.index(e.file) if e.file in files else 0, e.line))
            if not fired & set(check.suppresses) and specific - set(check.suppresses):
                # it explains none of the findings, and a specific error it does not explain fired:
                # context for that error, not the root cause
                check = check.model_copy(update={"priority": 1})
            origin = SOrigin(file=first[0], origin={}, count=1, first_line=first[1], last_line=last[0][1],
                             first_text=evidence[0].text if evidence else "")
            item = Item(id=check.id, rule=check, pack="compat", tier=tier_of(check), position=first,
                        origins=[origin], suppresses=frozenset(check.suppresses))
            out.append((item, {"captures": dict(verdict_.values), "values_zh": verdict_.values_for("zh"),
                               "evidence": evidence, "first": first, "last": last[0], "check": check}))
    return out


def diagnose(summary: Summary, rules: RuleSet, knowledge: Knowledge, *, lang: str | None = None) -> Report:
    """The ranked report of ``summary`` (rules and fact checks applied, texts in ``lang``)."""
    lang = resolve_lang(lang)
    files = [f.name for f in summary.files]
    notices = list(summary.notices)
    clock = Clock()
    clock.offsets = dict(summary.clock.offsets)
    clock.years = dict(summary.clock.years)
    clock.families = set(summary.clock.families)
    facts = MergedFacts(summary.facts, knowledge, files)
    conventions = {c.kind: c for c in knowledge.conventions}
    packages = {p.name: p for p in knowledge.packages}

    def severity_of(kind: str) -> str:
        return conventions[kind].severity if kind in conventions else "error"

    items: list[Item] = []
    payload: dict[str, object] = {}
    file_rank = _file_ranks(summary, facts.value("world_size"))
    pid_rank = _pid_ranks(summary)
    tp_world = _tp_is_world(summary, facts)
    if file_rank or pid_rank or tp_world:
        summary = summary.model_copy(update={"unrecognised": [
            u.model_copy(update={"origin": {**(u.origin or {}), "rank": r}})
            if (r := _rank_of(u.file, u.origin, file_rank, pid_rank, tp_world)) is not None else u
            for u in summary.unrecognised]})
    for h in summary.hits:
        rule = rules.by_id.get(h.rule)
        if rule is None:  # a summary made with other rules (reported by merge)
            continue
        h = _hits_with_file_rank(h, file_rank, pid_rank, tp_world)
        items.append(Item(id=rule.id, rule=rule.rule, pack=rule.pack, tier=tier_of(rule.rule), position=h.first,
                          origins=h.origins,
                          suppresses=frozenset(rule.rule.suppresses),
                          peer_symptom=bool(getattr(rule.rule, "peer_symptom", False))))
        payload[rule.id] = (rule, h)
    for item, data in _check_items(summary, rules, knowledge, facts, files, notices):
        items.append(item)
        payload[item.id] = data
    items, attempts, earlier = _split_attempts(items, summary, files)
    base = sorted(items, key=lambda it: rank_key(it.rule, it.position, False, it.tier))
    # checks explain everywhere: give them no origins for the links, their file for incidents
    check_origins = {it.id: it.origins for it in base if it.pack == "compat"}
    for it in base:
        if it.pack == "compat":
            it.origins = []
    explain(base, clock)
    raise_causes(base)
    for it in base:
        if it.pack == "compat":
            it.origins = check_origins[it.id]

    # an environment finding (rules/collect.yaml, read from a `triage collect` file) informs the logs
    # read with it: when a log has an error-level finding of its own, that one leads (issue 25)
    env_files = {o.file for it in items if it.id.startswith(ENV_PREFIX) for o in it.origins}
    log_error = any(it.error_level and not it.id.startswith(ENV_PREFIX) and it.pack != "compat"
                    for it in items)

    def key(it: Item) -> tuple:
        k = rank_key(it.rule, it.position, it.suppressed_by is not None, it.tier)
        return (k[0], log_error and it.id.startswith(ENV_PREFIX), *k[1:])

    ranked = sorted(items, key=key)
    best = next((it for it in ranked if it.leads_as_error and it.suppressed_by is None), None)
    lead_line: SUnrecognised | None = None
    waited: Item | None = None  # a peer wait the lead line explains (see _waited_for)
    if best is None or (best.tier == GENERIC and _is_wrapper(best, payload)):
        # a different line than the wrapper's own: the wrapper already shows its line
        own = _first_line(best, payload)
        # a program's outcome line (Killed, make's Error 2) leads only when nothing else fired
        alone = not items
        lead_line = pick([u for u in summary.unrecognised
                          if not _before_restart(summary, u.file, u.line) and (u.file, u.line) != own
                          and (alone or u.kind not in conventions or conventions[u.kind].lead != "alone")],
                         {kind: i for i, kind in enumerate(conventions)})
    elif best.peer_symptom:
        lead_line = _waited_for(best, summary, clock, pid_rank)
        waited = best if lead_line is not None else None
    restarted_after = False
    if lead_line is None and (best is None or (best.tier == GENERIC and _is_wrapper(best, payload))):
        # the last attempt (after a restart) shows no failure of its own, or only a wrapper: the
        # latest earlier attempt's root cause leads, and the report says the service restarted after it
        previous = latest_root(attempts, earlier)
        if previous is not None:
            ranked = sorted([*ranked, previous], key=key)
            restarted_after = True
    if lead_line is not None:
        lead = Item(id=f"unexplained.{lead_line.kind}",
                    rule=_Unexplained(f"unexplained.{lead_line.kind}", severity=severity_of(lead_line.kind)),
                    pack="unexplained", tier=UNEXPLAINED, position=(lead_line.file, lead_line.line),
                    origins=[SOrigin(file=lead_line.file, origin=lead_line.origin or {}, count=1,
                                     first_line=lead_line.line, last_line=lead_line.line, first_text=lead_line.text,
                                     time=lead_line.time)])
        if waited is not None:
            _explain_waits(items, lead, lead_line, clock, waited)
        ranked = sorted([*ranked, lead], key=key)

    fact_values = {f.name: f.value for f in summary.facts}
    findings: list[Finding] = []
    for it in ranked:
        if it.pack == "unexplained":
            findings.append(_unexplained_finding(lead_line, files, lang, summary, conventions, packages, facts,
                                                 waited))
        elif it.pack == "compat":
            findings.append(_check_finding(it, payload[it.id], files, lang))
        else:
            rule, h = payload[it.id]
            finding = finding_of(rule, h, files, lang, it.suppressed_by, fact_values)
            if it.raised_to is not None:
                finding = finding.model_copy(update={"severity": it.raised_to})
            findings.append(finding)
    findings.extend(stall_findings(summary, files, lang))
    root = next((f for f in findings if f.severity in SEVERITIES[:2] and f.suppressed_by is None), None)
    unrecognised: list[Unrecognised] = []
    if root is None or root.generic or root.rule_id.startswith("unexplained."):
        from triage.logformat.detectors import KIND_RANK

        order = {**KIND_RANK, **{c.kind: len(KIND_RANK) + i for i, c in enumerate(knowledge.conventions)}}
        # a line of an earlier attempt is never counted against the last one
        last = [u for u in summary.unrecognised if not _before_restart(summary, u.file, u.line)]
        picked = sorted(last, key=lambda u: (order.get(u.kind, len(order)), u.file, u.line))
        unrecognised = [Unrecognised(file=files[u.file], line=u.line, text=u.text, kind=u.kind,
                                     origin=Origin(**u.origin) if u.origin else Origin(),
                                     severity=severity_of(u.kind))
                        for u in sorted(picked[:MAX_UNRECOGNISED_SHOWN], key=lambda u: (u.file, u.line))]
    groups = incidents(ranked, context_files=env_files if log_error else set())
    incident_list = []
    for origins, members in groups:
        keys = {o.key() for o in origins}
        symptoms = [it.id for it in members if _explained_here(it, keys)]
        # a raised warning is this incident's root only where it explains an error of the incident
        roots = [it for it in members if it.id not in symptoms and (it.error_level or (
            it.raised_to is not None and any(m.suppressed_by == it.id and m.error_level for m in members
                                             if _explained_here(m, keys))))]
        incident_list.append(Incident(
            origins=[IncidentOrigin(node=o.origin.get("node"), rank=o.origin.get("rank"),
                                    file=files[o.file] if o.file < len(files) else None) for o in origins],
            root_cause=roots[0].id if roots else None, symptoms=symptoms, findings=[it.id for it in members]))
    root_item = next((it for it in ranked if root is not None and it.id == root.rule_id), None)
    world = facts.value("world_size")
    seen = [u.origin for u in summary.unrecognised if u.origin] + [{"node": f.node} for f in summary.files if f.node]
    world_size = int(world) if world and world.isdigit() and len(world) <= 7 else None
    cluster = verdict(ranked, root_item, files, clock, world_size, seen)
    return Report(
        triage_version=summary.triage_version or _triage_version(), rules_digest=rules.digest, root_cause=root,
        findings=findings, unrecognised=unrecognised, lines_read=summary.lines_read, files=files,
        truncated_lines=[TruncatedLine(file=files[t.file], line=t.line, length=t.length, limit=t.limit)
                         for t in summary.truncated],
        input_errors=[InputProblem(file=e.file, message=e.message) for e in summary.input_errors],
        notices=notices, matcher=summary.matcher, facts=facts.facts(), compat_digest=knowledge.digest, lang=lang,
        incidents=incident_list, cluster=cluster, earlier_attempts=attempts,
        root_cause_earlier_attempt=(restarted_after and root is not None
                                    and root.rule_id in {a.root_cause for a in attempts}),
    )


#: Unexplained kinds that may be the failure a peer wait waited for: an error of the process itself
#: (not CANN's call-chain echo, not vLLM's "shutting down" line, which follows a failure).
def _first_line(it: Item | None, payload: dict) -> tuple[int, int] | None:
    """(file index, line) of a rule finding's first evidence line."""
    data = payload.get(it.id) if it is not None else None
    if not isinstance(data, tuple) or not data[1].occurrences or not data[1].occurrences[0]:
        return None
    ev = data[1].occurrences[0][0]
    return ev.file, ev.line


def _is_wrapper(it: Item, payload: dict) -> bool:
    """A generic finding that says nothing of its own (``E?9999 Inner Error``, ``ERR00100``, a
    bare ``RuntimeError``): anything but a code whose table knows it. A lookup in a module table
    (``*_module``: which component raised it) names no cause."""
    data = payload.get(it.id)
    if not isinstance(data, tuple):
        return True
    rule, hits = data
    lookup = rule.rule.lookup
    if lookup is None or rule.table is None or lookup.table.endswith("_module"):
        return True
    code = hits.captures.get(lookup.capture, "")
    entry = rule.table.get(code) or rule.table.get(code.upper()) or rule.table.get(code.lstrip("0"))
    return entry is None or (not entry.documented and not entry.causes)


def _explained_here(it: Item, keys: set[tuple]) -> bool:
    """Whether every occurrence of ``it`` on the origins ``keys`` is explained (a symptom there)."""
    mine = [o for o in it.origins if o.key() in keys]
    if it.pack == "compat":
        return it.suppressed_by is not None
    return bool(mine) and all(o.key() in it.explained for o in mine)


def _check_finding(it: Item, data: dict, files: list[str | None], lang: str) -> Finding:
    check = data["check"]
    values = data["captures"]
    source = getattr(check, "zh", None) if lang == "zh" else None
    text_values = data["values_zh"] if source is not None else values
    title = source.title if source else check.title
    cause = source.cause if source else check.cause
    fix = source.fix if source else check.fix
    first, last = data["first"], data["last"]
    return Finding(
        rule_id=check.id, title=fill(title, text_values), layer=check.layer, component=check.component,
        severity=check.severity, priority=check.priority, generic=False, cause=fill(cause.strip(), text_values),
        fix=[fill(s, text_values) for s in fix], evidence=data["evidence"], first_line=first[1], last_line=last[1],
        first_file=files[first[0]], last_file=files[last[0]], count=1, captures=values,
        references=list(check.references), suppressed_by=it.suppressed_by, pack="compat",
        confidence=confidence_of(check))


def _unexplained_finding(u: SUnrecognised, files: list[str | None], lang: str, summary: Summary,
                         conventions: dict[str, Convention], packages: dict[str, StackPackage],
                         facts: MergedFacts, waited: Item | None = None) -> Finding:
    package = packages.get(u.frame[0]) if u.frame else None
    version = facts.value(package.fact) if package is not None and package.fact else None
    component, layer = component_and_layer(u, conventions, packages)
    title, cause, fix = texts(u, lang, component, waited_by=waited.id if waited is not None else None,
                              conventions=conventions, version=version)
    # lines of the same kind in the same file back it up; another file's never do (its own finding)
    same = [x for x in summary.unrecognised if x.kind == u.kind and x.file == u.file
            and (waited is None or (x.file, (x.origin or {}).get("pid"), (x.origin or {}).get("rank"))
                 == (u.file, (u.origin or {}).get("pid"), (u.origin or {}).get("rank")))]
    evidence = [Evidence(file=files[x.file], line=x.line, text=x.text,
                         origin=Origin(**x.origin) if x.origin else Origin())
                for x in sorted(same, key=lambda x: (x.file, x.line)) if x is u or len(same) <= 3][:3]
    if not any(e.line == u.line and e.file == files[u.file] for e in evidence):
        evidence.insert(0, Evidence(file=files[u.file], line=u.line, text=u.text))
    origin = u.origin or {}
    return Finding(
        rule_id=f"unexplained.{u.kind}", title=title, layer=layer, component=component,
        severity=conventions[u.kind].severity if u.kind in conventions else "error", priority=0,
        generic=False, cause=cause, fix=fix, evidence=evidence, first_line=u.line, last_line=u.line,
        first_file=files[u.file], last_file=files[u.file], count=1, captures={"line": u.text},
        references=[], suppressed_by=None, pack="unexplained", confidence="hypothesis",
        ranks=[origin["rank"]] if origin.get("rank") is not None else [],
        nodes=[origin["node"]] if origin.get("node") else [], layer_guessed=True)


def _triage_version() -> str:
    from triage.version import __version__

    return __version__


__all__ = ["diagnose", "MergedFacts"]
