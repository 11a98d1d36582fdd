"""Summaries joined: the summary of several inputs, byte ranges, processes or nodes read
apart is the summary of reading them at once (files renumbered, hits and origins combined)."""

from __future__ import annotations

from triage.scan.summary import (
    EVIDENCE_FIRST,
    MAX_KEPT,
    MAX_ORIGINS,
    MAX_OTHERS,
    MAX_PID_RANKS,
    MAX_UNRECOGNISED_KEYS,
    SEvidence,
    SFact,
    SHits,
    SOrigin,
    Summary,
    SUnrecognised,
    combine_comm,
)


def _shift_ev(ev: SEvidence, fmap: list[int], shift: dict[int, int]) -> SEvidence:
    f = fmap[ev.file]
    return SEvidence(file=f, line=ev.line + shift.get(ev.file, 0), text=ev.text, origin=ev.origin)


def _beats(prefer: str, a_priority: int, a_pos: tuple[int, int], b_priority: int, b_pos: tuple[int, int]) -> bool:
    """Whether fact value a replaces b: the same choice a single read makes (see ``triage.scan.facts``)."""
    from triage.scan.facts import prefers

    return prefers(prefer, a_priority, a_pos, b_priority, b_pos)


def merge(summaries: list[Summary]) -> Summary:
    """The summary of all ``summaries``' inputs, in order: a left fold, exact in that order (the
    serial read, ``--jobs`` and ``triage merge`` all fold the pieces left to right; a fold of
    pieces grouped otherwise may differ in sampled values such as a fact's ``others``). A file
    marked ``continues`` is joined to the previous summary's last file, its line numbers shifted by
    the lines before it.

    Counts add up; first occurrences, captures and evidence come from the earliest input; the last
    occurrence from the latest; facts are chosen as one read would choose them. Raises
    ``ValueError`` when the summaries were made with different rules (``rules_digest``)."""
    if not summaries:
        return Summary()
    if len(summaries) == 1:
        return summaries[0]
    digests = {s.rules_digest for s in summaries if s.rules_digest}
    out = Summary(triage_version=summaries[0].triage_version, rules_digest=summaries[0].rules_digest,
                  compat_digest=summaries[0].compat_digest, host=summaries[0].host,
                  matcher=summaries[0].matcher)
    if len(digests) > 1:
        out.notices.append("the summaries were made with different rules (rules digests "
                           + ", ".join(sorted(digests)) + "): findings of rules that differ may be missing")
    hits: dict[str, SHits] = {}
    origins: dict[str, dict[tuple, SOrigin]] = {}
    unrec: dict[tuple[str, str], SUnrecognised] = {}
    facts: dict[str, SFact] = {}
    for s in summaries:
        fmap: list[int] = []
        shift: dict[int, int] = {}
        for i, f in enumerate(s.files):
            if i == 0 and f.continues and out.files and out.files[-1].name == f.name:
                prev = out.files[-1]
                fmap.append(len(out.files) - 1)
                shift[i] = prev.lines
                restarts = list(prev.restarts)
                if f.first_start is not None and prev.failed_tail:
                    restarts.append(f.first_start + prev.lines)
                restarts += [r + prev.lines for r in f.restarts]
                any_start = f.first_start is not None or bool(f.restarts)
                comm, conflict = combine_comm(prev.comm_rank, prev.comm_conflict, f.comm_rank, f.comm_conflict)
                out.files[-1] = prev.model_copy(update={
                    "lines": prev.lines + f.lines, "restarts": restarts[-MAX_KEPT:],
                    "comm_rank": comm, "comm_conflict": conflict,
                    "pid_ranks": prev.pid_ranks + [p for p in f.pid_ranks if p not in prev.pid_ranks][
                        :max(0, MAX_PID_RANKS - len(prev.pid_ranks))],
                    "failed_tail": f.failed_tail or (prev.failed_tail and not any_start),
                    "stall": (f.stall[0] + prev.lines, *f.stall[1:]) if f.stall else None})
            else:
                fmap.append(len(out.files))
                out.files.append(f.model_copy(update={"continues": False}))
        for h in s.hits:
            first = (fmap[h.first[0]], h.first[1] + shift.get(h.first[0], 0))
            last = (fmap[h.last[0]], h.last[1] + shift.get(h.last[0], 0))
            occ = [[_shift_ev(e, fmap, shift) for e in o] for o in h.occurrences]
            last_occ = [_shift_ev(e, fmap, shift) for e in h.last_occurrence] if h.last_occurrence else None
            cur = hits.get(h.rule)
            if cur is None:
                cur = hits[h.rule] = SHits(rule=h.rule, count=h.count, first=first, last=last, captures=h.captures,
                                           occurrences=occ, last_occurrence=last_occ)
                origins[h.rule] = {}
            else:
                # the first occurrences are the first EVIDENCE_FIRST of the concatenation; the last
                # one is the latest input's last occurrence, once there are more than EVIDENCE_FIRST
                newest = last_occ or (occ[-1] if occ else None)
                cur.occurrences = (cur.occurrences + occ)[:EVIDENCE_FIRST]
                cur.last_occurrence = newest if cur.count + h.count > EVIDENCE_FIRST else None
                cur.count += h.count
                cur.last = last
            by_key = origins[h.rule]
            for o in h.origins:
                o2 = o.model_copy(update={"file": fmap[o.file], "first_line": o.first_line + shift.get(o.file, 0),
                                          "last_line": o.last_line + shift.get(o.file, 0)})
                k = o2.key()
                have = by_key.get(k)
                if have is None:
                    if len(by_key) < MAX_ORIGINS:
                        by_key[k] = o2
                else:
                    by_key[k] = have.joined(o2)
        for u in s.unrecognised:
            k = (u.kind, u.key)
            if k not in unrec and len(unrec) < MAX_UNRECOGNISED_KEYS:
                unrec[k] = u.model_copy(update={"file": fmap[u.file], "line": u.line + shift.get(u.file, 0)})
        for fact in s.facts:
            f2 = fact.model_copy(update={"file": fmap[fact.file], "line": fact.line + shift.get(fact.file, 0)})
            cur_f = facts.get(fact.name)
            if cur_f is None:
                facts[fact.name] = f2
                continue
            if _beats(fact.prefer, f2.priority, (f2.file, f2.line), cur_f.priority, (cur_f.file, cur_f.line)):
                winner, loser = f2, cur_f
            else:
                winner, loser = cur_f, f2
            others = []
            for v in (*winner.others, loser.value, *loser.others):
                if v != winner.value and v not in others and len(others) < MAX_OTHERS:
                    others.append(v)
            facts[fact.name] = winner.model_copy(update={"others": others})
        for t in s.truncated:
            if len(out.truncated) < MAX_KEPT:
                out.truncated.append(t.model_copy(update={"file": fmap[t.file], "line": t.line + shift.get(t.file, 0)}))
        out.input_errors.extend(s.input_errors)
        for n in s.notices:
            if n not in out.notices and len(out.notices) < MAX_KEPT:
                out.notices.append(n)
        for k, v in s.clock.offsets.items():
            out.clock.offsets[k] = out.clock.offsets.get(k, 0) + v
        for k, v in s.clock.years.items():
            out.clock.years[k] = out.clock.years.get(k, 0) + v
        out.clock.families = sorted(set(out.clock.families) | set(s.clock.families))
    for rule, h in hits.items():
        h.origins = list(origins[rule].values())
    out.hits = list(hits.values())
    out.unrecognised = list(unrec.values())
    out.facts = list(facts.values())
    return out
