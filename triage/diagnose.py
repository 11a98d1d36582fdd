"""From a merged :class:`~triage.summary.Summary` to the ranked :class:`~triage.report.Report`.

The reduce step: fact checks are reasoned from the facts, findings are ranked (:mod:`triage.rank`),
symptoms are linked to their causes origin by origin (:mod:`triage.correlate.links`), an
unexplained error line leads when only generic wrappers fired, or when it is the earlier error of the
rank the leading peer wait waited for (:mod:`triage.unexplained`), origins
are grouped into incidents and, over several ranks or nodes, the cluster verdict is drawn
(:mod:`triage.correlate.cluster`). Texts are filled in the report's language.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from triage.compat import Knowledge
from triage.compat.checks import TESTS
from triage.compat.versions import is_dev_build
from triage.compiled import CompiledRule, fill
from triage.correlate.cluster import verdict
from triage.correlate.links import Item, explain, incidents, line_time
from triage.correlate.origin import pid_rank_of_line
from triage.correlate.times import Clock
from triage.i18n import resolve_lang
from triage.loader import RuleSet
from triage.rank import GENERIC, UNEXPLAINED, confidence_of, rank_key, tier_of
from triage.report import (
    Evidence,
    Fact,
    Finding,
    Incident,
    IncidentOrigin,
    InputProblem,
    Origin,
    Report,
    TruncatedLine,
    Unrecognised,
)
from triage.schema import SEVERITIES
from triage.summary import SEvidence, SFact, SHits, SOrigin, STime, Summary, SUnrecognised
from triage.unexplained import component_and_layer, pick, texts

MAX_UNRECOGNISED_SHOWN = 10


class MergedFacts:
    """The facts of a summary, as the fact checks read them (``value``, ``fact``, ``position``)."""

    def __init__(self, facts: list[SFact], knowledge: Knowledge, files: list[str | None]):
        self._facts = {f.name: f for f in facts}
        self._labels = {name: spec.label for name, spec in knowledge.facts.items()}
        self._order = {name: i for i, name in enumerate(knowledge.facts)}
        self._files = files

    def value(self, name: str) -> str | None:
        f = self._facts.get(name)
        return f.value if f else None

    def fact(self, name: str) -> Fact | None:
        f = self._facts.get(name)
        if f is None:
            return None
        return Fact(name=name, label=self._labels.get(name, name), value=f.value, file=self._files[f.file],
                    line=f.line, text=f.text, extractor=f.extractor, others=list(f.others))

    def position(self, name: str) -> tuple[int, int] | None:
        f = self._facts.get(name)
        return (f.file, f.line) if f else None

    def facts(self) -> list[Fact]:
        names = sorted(self._facts, key=lambda n: self._order.get(n, len(self._order)))
        return [f for f in (self.fact(n) for n in names) if f is not None]


@dataclass
class _Unexplained:
    """The rule-like face of an unexplained line (for ranking)."""

    id: str
    severity: str = "error"
    priority: int = 0
    generic: bool = False
    confidence: str = "hypothesis"
    suppresses: tuple = ()


def fix_order(rule, values: dict[str, str]) -> list[int]:
    """Indexes of the fix steps to show, in order: steps whose ``lead_when`` holds first, steps
    whose ``only_when`` does not hold left out (see :mod:`triage.conditions`)."""
    from triage.conditions import holds
    from triage.schema import FixStep

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
    line): ``{said}``, ``{reason}``, ``{call}`` (see :mod:`triage.codeline`). Fix steps that
    depend on the facts and captures are ordered by them (``facts``: fact name -> value)."""
    values = rule.placeholders(captures, lang)
    if rule.rule.lookup is not None and line is not None:
        from triage.codeline import own_words

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
    from triage.engine import _evidence

    hits = SHits(rule=rule.id, count=state.count, first=(0, state.first_line), last=(0, state.last_line),
                 captures=state.captures, occurrences=[_evidence(o) for o in state.occurrences[:1]], origins=[])
    return finding_of(rule, hits, [file], resolve_lang(analysis.lang))


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
    items, attempts = _split_attempts(items, summary, files)
    base = sorted(items, key=lambda it: rank_key(it.rule, it.position, False, it.tier))
    # checks explain everywhere: give them no origins for the links, their file for incidents
    check_origins = {it.id: it.origins for it in base if it.pack == "compat"}
    for it in base:
        if it.pack == "compat":
            it.origins = []
    explain(base, clock)
    for it in base:
        if it.pack == "compat":
            it.origins = check_origins[it.id]

    def key(it: Item) -> tuple:
        return rank_key(it.rule, it.position, it.suppressed_by is not None, it.tier)

    ranked = sorted(items, key=key)
    best = next((it for it in ranked if it.error_level and it.suppressed_by is None), None)
    lead_line: SUnrecognised | None = None
    waited: Item | None = None  # a peer wait the lead line explains (see _waited_for)
    if best is None or (best.tier == GENERIC and _is_wrapper(best, payload)):
        # a different line than the wrapper's own: the wrapper already shows its line
        own = _first_line(best, payload)
        lead_line = pick([u for u in summary.unrecognised
                          if not _before_restart(summary, u.file, u.line) and (u.file, u.line) != own])
    elif best.peer_symptom:
        lead_line = _waited_for(best, summary, clock, pid_rank)
        waited = best if lead_line is not None else None
    if lead_line is not None:
        lead = Item(id=f"unexplained.{lead_line.kind}", rule=_Unexplained(f"unexplained.{lead_line.kind}"),
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
            findings.append(_unexplained_finding(lead_line, files, lang, summary, waited))
        elif it.pack == "compat":
            findings.append(_check_finding(it, payload[it.id], files, lang))
        else:
            rule, h = payload[it.id]
            findings.append(finding_of(rule, h, files, lang, it.suppressed_by, fact_values))
    root = next((f for f in findings if f.severity in SEVERITIES[:2] and f.suppressed_by is None), None)
    unrecognised: list[Unrecognised] = []
    if root is None or root.generic or root.rule_id.startswith("unexplained."):
        from triage.engine import KIND_RANK

        picked = sorted(summary.unrecognised, key=lambda u: (KIND_RANK[u.kind], u.file, u.line))
        unrecognised = [Unrecognised(file=files[u.file], line=u.line, text=u.text, kind=u.kind,
                                     origin=Origin(**u.origin) if u.origin else Origin())
                        for u in sorted(picked[:MAX_UNRECOGNISED_SHOWN], key=lambda u: (u.file, u.line))]
    groups = incidents(ranked)
    incident_list = []
    for origins, members in groups:
        keys = {o.key() for o in origins}
        symptoms = [it.id for it in members if _explained_here(it, keys)]
        roots = [it for it in members if it.error_level and it.id not in symptoms]
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
    )


#: Unexplained kinds that may be the failure a peer wait waited for: an error of the process itself
#: (not CANN's call-chain echo, not vLLM's "shutting down" line, which follows a failure).
_PEER_FAILURE_KINDS = frozenset({"python-exception", "plog-error", "error-code", "compile-error", "torch-log-error"})
#: How long before a wait its peer's failure may be (s): the longest default HCCL wait
#: (``HCCL_EXEC_TIMEOUT`` 1836 s; torch's process-group timeout 1800 s) with margin. An older error
#: belongs to another attempt or to nothing the wait saw.
PEER_WAIT_WINDOW = 3600


def _second(t: STime | None, clock: Clock) -> datetime | None:
    """``t`` on the local clock to the whole second (vLLM prints whole seconds, a plog fractions,
    c10 none that count), or None when it cannot be compared."""
    when = clock.comparable(line_time(t))
    return when.replace(microsecond=0) if when is not None else None


def _soon_after(later: STime | None, earlier: STime | None, clock: Clock) -> bool:
    """Whether ``later`` is at least a whole second and at most :data:`PEER_WAIT_WINDOW` after
    ``earlier`` (both known and comparable)."""
    a, b = _second(later, clock), _second(earlier, clock)
    return a is not None and b is not None and 1 <= (a - b).total_seconds() <= PEER_WAIT_WINDOW


def _waits_for(o: SOrigin, u: SUnrecognised, clock: Clock) -> bool:
    """Whether the wait occurrence ``o`` (a peer-symptom rule's) may have waited for the unexplained
    line ``u``: ``u`` states a rank (its own, or its pid's) and ``o`` names that rank as its peer or
    states another one; ``u`` came at least a whole second earlier (vLLM prints whole seconds, a plog
    fractions) and at most :data:`PEER_WAIT_WINDOW` earlier, and earlier in the file when both are in
    one file (a wait's time may come from a later occurrence); and both are in one file, or both on
    known nodes (rank 1 of two unrelated logs read together is two ranks)."""
    uo = u.origin or {}
    u_rank, o_rank = uo.get("rank"), o.origin.get("rank")
    if u_rank is None or not (o.peer == u_rank or (o_rank is not None and o_rank != u_rank)):
        return False
    if o.file == u.file:
        if not u.line < o.first_line:
            return False
    elif o.origin.get("node") is None or uo.get("node") is None:
        return False
    return _soon_after(o.time, u.time, clock)


def _waited_for(wait: Item, summary: Summary, clock: Clock, pid_rank: dict[tuple, int]) -> SUnrecognised | None:
    """The error a peer wait waited for, when no rule knows it: an unexplained error line that may
    have been waited for by every occurrence of ``wait`` (an HCCL timeout or failed link, a store or
    broadcast wait: a ``peer_symptom`` rule; see :func:`_waits_for`), the rank the wait names as its
    peer first, then the earliest (vllm-ascend#1565: rank 1's ``_pickle.UnpicklingError`` two minutes
    before rank 0's ``Transport init error ... dst_rank[1]``). A line whose rank came from its pid is
    passed over when several pids held that rank (a restart gave the rank to a new process). None
    when the wait has no occurrence or no line qualifies."""
    if not wait.origins:
        return None
    holders: dict[tuple, set[int]] = {}
    for k, r in pid_rank.items():
        holders.setdefault((k[0], k[1], r), set()).add(k[2])
    peers = {o.peer for o in wait.origins if o.peer is not None}

    def stale(u: SUnrecognised) -> bool:
        origin = u.origin or {}
        if origin.get("pid") is None:
            return False
        k = _pid_key(u.file, origin)
        return k in pid_rank and len(holders.get((k[0], k[1], pid_rank[k]), ())) > 1

    found = [u for u in summary.unrecognised
             if u.kind in _PEER_FAILURE_KINDS and not _before_restart(summary, u.file, u.line)
             and all(_waits_for(o, u, clock) for o in wait.origins) and not stale(u) and pick([u]) is not None]
    if not found:
        return None
    named = [u for u in found if (u.origin or {}).get("rank") in peers]
    found = named or found
    first = min(_second(u.time, clock) for u in found)
    return pick([u for u in found if _second(u.time, clock) == first])


def _explain_waits(items: list[Item], lead: Item, u: SUnrecognised, clock: Clock, wait: Item) -> None:
    """Mark the occurrences of the peer waits that followed ``u`` as explained by ``lead``: those of
    ``wait`` (the leading wait, which :func:`_waits_for` tied to ``u``) and, once that tie holds, those
    of the other waits that came after ``u`` in another process (:func:`_later_elsewhere`: EI0006 with
    only its pid beside the failed link that names the peer). A wait whose every occurrence is
    explained becomes its symptom."""
    for it in items:
        if not it.peer_symptom or it.suppressed_by is not None:
            continue
        for o in it.origins:
            if o.key() not in it.explained and (_waits_for(o, u, clock) if it is wait else
                                                _later_elsewhere(o, u, clock)):
                it.explained[o.key()] = lead.id
        if it.origins and all(o.key() in it.explained for o in it.origins):
            it.suppressed_by = lead.id


def _later_elsewhere(o: SOrigin, u: SUnrecognised, clock: Clock) -> bool:
    """Whether the wait occurrence ``o`` came after ``u`` (as :func:`_waits_for` times it) in the same
    file from another process: it states no rank or another one, and no pid or another one."""
    uo = u.origin or {}
    if o.file != u.file or not u.line < o.first_line:
        return False
    if o.origin.get("rank") == uo.get("rank") or (o.origin.get("pid") is not None
                                                  and o.origin.get("pid") == uo.get("pid")):
        return False
    return _soon_after(o.time, u.time, clock)


def _before_restart(summary: Summary, file: int, line: int) -> bool:
    """Whether ``line`` of input ``file`` belongs to an attempt before the file's last restart."""
    restarts = summary.files[file].restarts if file < len(summary.files) else []
    return bool(restarts) and line < max(restarts)


def _split_attempts(items: list[Item], summary: Summary, files: list[str | None]) -> tuple[list[Item], list]:
    """Keep the findings of each log's last attempt; list the earlier attempts (a log in which the
    service restarted after a failure: ``kubectl logs --previous``, a crash-looping pod).

    A rule whose every occurrence lies before its file's last restart belongs to an earlier attempt:
    it is left out of the ranking and listed with that attempt (by the segment of its first line).
    """
    from triage.report import Attempt

    if not any(f.restarts for f in summary.files):
        return items, []
    keep, earlier = [], []
    for it in items:
        if it.origins and it.pack != "compat" and all(_before_restart(summary, o.file, o.last_line)
                                                       for o in it.origins):
            earlier.append(it)
        else:
            keep.append(it)
    segments: dict[tuple[int, int], list[Item]] = {}
    for it in earlier:
        for o in it.origins:
            starts = [1, *sorted(summary.files[o.file].restarts)]
            # every attempt whose lines overlap this origin's first..last occurrence
            for k, start in enumerate(starts[:-1]):
                end = starts[k + 1] - 1
                if o.first_line <= end and o.last_line >= start:
                    members = segments.setdefault((o.file, start), [])
                    if it not in members:
                        members.append(it)
    attempts = []
    for (file, start), members in sorted(segments.items()):
        restarts = sorted(summary.files[file].restarts)
        end = next((r - 1 for r in restarts if r > start), summary.files[file].lines)
        members.sort(key=lambda it: rank_key(it.rule, it.position, False, it.tier))
        root = next((it.id for it in members if it.error_level), None)
        attempts.append(Attempt(file=files[file], first_line=start, last_line=end, root_cause=root,
                                findings=[it.id for it in members]))
    return keep, attempts


def _file_ranks(summary: Summary, world: str | None) -> dict[int, int]:
    """{file index: global rank} of the files whose process stated its rank in a communicator of the
    world's size (``[HcclCommInitRootInfo] rank[13] rankSize[16]`` in a plog file). The world size is
    the fact when the input states it, else the largest communicator seen; a communicator larger than
    the fact says the fact came from a smaller group (a plog's first ``rankSize``), and wins."""
    sizes = [f.comm_rank[1] for f in summary.files if f.comm_rank]
    if not sizes:
        return {}
    n = max(sizes)
    if world and world.isdigit() and len(world) <= 7:
        n = max(n, int(world))
    return {i: f.comm_rank[0] for i, f in enumerate(summary.files)
            if f.comm_rank and f.comm_rank[1] == n and not f.comm_conflict}


def _pid_key(file: int, origin: dict) -> tuple:
    """Where a pid names one process: on its node when the node is known (a bundle's plog and stdout
    files of one host share pids), else only in its own file (two hosts' files may reuse a pid)."""
    node = origin.get("node")
    return ("node", node, origin["pid"]) if node is not None else ("file", file, origin["pid"])


def _pid_ranks(summary: Summary) -> dict[tuple, int]:
    """{:func:`_pid_key`: global rank} learned from the kept lines where one construct states both a
    pid and a rank (:func:`~triage.correlate.origin.pid_rank_of_line`: torch_npu's ``(PID:77120,
    Device:5, RankID:5)``, ``(VllmWorker rank=5 pid=77120)``), so a line of the same process that
    states only its pid (a CANN plog line ``RUNTIME(77120,python)``, ``EE9999: [PID: 77120]``) gets
    that rank. Kept lines: each rule's first line per origin, its evidence lines, the unexplained
    lines; and the pairs each file's vLLM rank assignment lines stated (:attr:`SFile.pid_ranks`). A pid
    seen with two ranks (reused after a restart) maps to none."""
    seen: dict[tuple, int | None] = {}

    def note(file: int, origin: dict | None, text: str) -> None:
        got = pid_rank_of_line(text) if "pid" in text.lower() else None
        if got is None:
            return
        pair(file, origin, *got)

    def pair(file: int, origin: dict | None, pid: int, rank: int) -> None:
        k = _pid_key(file, {**(origin or {}), "pid": pid})
        if k in seen and seen[k] != rank:
            seen[k] = None
        else:
            seen.setdefault(k, rank)

    for h in summary.hits:
        for o in h.origins:
            note(o.file, o.origin, o.first_text)
        for e in [e for occ in h.occurrences for e in occ] + list(h.last_occurrence or []):
            note(e.file, e.origin, e.text)
    for u in summary.unrecognised:
        note(u.file, u.origin, u.text)
    for i, f in enumerate(summary.files):
        for pid, rank, node in f.pid_ranks:
            pair(i, {"node": node}, pid, rank)
    return {k: r for k, r in seen.items() if r is not None}


def _tp_is_world(summary: Summary, facts: MergedFacts) -> bool:
    """Whether a worker's tensor parallel index is its global rank: the input is one log of a job
    that is one tensor parallel group. The log states a tensor parallel size above 1, no data
    parallel size above 1, and either a world size equal to it, or no world size, no pipeline parallel
    size above 1 and no data parallel index but 0; and no kept line states a rank and a tp index that
    differ. vLLM then tags workers by tp index only (``(VllmWorker TP1 pid=21355)``, ``Worker_TP2_EP2``).
    Several inputs never qualify: two services' logs read together each have a TP1."""
    if len(summary.files) != 1:
        return False
    tp, world, pp, dp = (facts.value(n) for n in ("tensor_parallel_size", "world_size", "pipeline_parallel_size",
                                                  "data_parallel_size"))
    if not (tp and tp.isdigit() and int(tp) > 1) or (dp and (not dp.isdigit() or int(dp) > 1)):
        return False
    if world:
        if not (world.isdigit() and int(world) == int(tp)):
            return False
    elif pp and pp.isdigit() and int(pp) > 1:
        return False
    origins = [o.origin for h in summary.hits for o in h.origins] + [u.origin or {} for u in summary.unrecognised]
    for o in origins:
        if (not world and o.get("dp") not in (None, 0)) or (
                o.get("rank") is not None and o.get("tp") is not None and o["rank"] != o["tp"]):
            return False
    return True


def _rank_of(file: int, origin: dict | None, file_rank: dict[int, int], pid_rank: dict[tuple, int],
             tp_world: bool = False) -> int | None:
    """The rank a line that states none gets: its file's (:func:`_file_ranks`), else its pid's
    (:func:`_pid_ranks`), else its tp index when the job is one tensor parallel group
    (:func:`_tp_is_world`); None when it states one or none is known."""
    origin = origin or {}
    if origin.get("rank") is not None:
        return None
    if file in file_rank:
        return file_rank[file]
    if origin.get("pid") is not None and (r := pid_rank.get(_pid_key(file, origin))) is not None:
        return r
    return origin.get("tp") if tp_world else None


def _hits_with_file_rank(h: SHits, file_rank: dict[int, int], pid_rank: dict[tuple, int] | None = None,
                         tp_world: bool = False) -> SHits:
    """``h`` with a rank on the origins and evidence lines that state none (:func:`_rank_of`), so the
    finding's ``ranks``, its evidence and the cluster verdict agree.

    A rank-less origin entry stands for all of a file's rank-less occurrences; it takes its pid's rank
    or tp index only when all of them came from that one pid (``mixed_pids`` is false). Entries that
    come to share a rank are joined (:meth:`~triage.summary.SOrigin.joined`)."""
    pid_rank = pid_rank or {}
    if not file_rank and not pid_rank and not tp_world:
        return h

    def with_rank(o, rank: int | None):
        return o if rank is None else o.model_copy(update={"origin": {**(o.origin or {}), "rank": rank}})

    def entry_rank(o: SOrigin) -> int | None:
        if o.file not in file_rank and o.mixed_pids:
            return None  # the entry counts several processes' lines: no one tp or pid speaks for them
        return _rank_of(o.file, o.origin, file_rank, pid_rank, tp_world)

    merged: dict[tuple, SOrigin] = {}
    for o in (with_rank(o, entry_rank(o)) for o in h.origins):
        have = merged.get(o.key())
        merged[o.key()] = o if have is None else have.joined(o)

    def line(e):
        return with_rank(e, _rank_of(e.file, e.origin, file_rank, pid_rank, tp_world))

    return h.model_copy(update={
        "origins": list(merged.values()),
        "occurrences": [[line(e) for e in occ] for occ in h.occurrences],
        "last_occurrence": [line(e) for e in h.last_occurrence] if h.last_occurrence else h.last_occurrence})


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
                         waited: Item | None = None) -> Finding:
    component, layer = component_and_layer(u)
    title, cause, fix = texts(u, lang, component, waited_by=waited.id if waited is not None else None)
    same = [x for x in summary.unrecognised if x.kind == u.kind
            and (waited is None or (x.file, (x.origin or {}).get("pid"), (x.origin or {}).get("rank"))
                 == (u.file, (u.origin or {}).get("pid"), (u.origin or {}).get("rank")))]
    evidence = [Evidence(file=files[x.file], line=x.line, text=x.text,
                         origin=Origin(**x.origin) if x.origin else Origin())
                for x in sorted(same, key=lambda x: (x.file, x.line)) if x is u or len(same) <= 3][:3]
    if not any(e.line == u.line and e.file == files[u.file] for e in evidence):
        evidence.insert(0, Evidence(file=files[u.file], line=u.line, text=u.text))
    origin = u.origin or {}
    return Finding(
        rule_id=f"unexplained.{u.kind}", title=title, layer=layer, component=component, severity="error", priority=0,
        generic=False, cause=cause, fix=fix, evidence=evidence, first_line=u.line, last_line=u.line,
        first_file=files[u.file], last_file=files[u.file], count=1, captures={"line": u.text},
        references=[], suppressed_by=None, pack="unexplained", confidence="hypothesis",
        ranks=[origin["rank"]] if origin.get("rank") is not None else [],
        nodes=[origin["node"]] if origin.get("node") else [], layer_guessed=True)


def _triage_version() -> str:
    from triage.version import __version__

    return __version__


__all__ = ["diagnose", "finding_of", "live_finding", "rule_texts", "MergedFacts"]
