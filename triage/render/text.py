"""The human report: root cause, its layer and first fix on the first line; then the rest.

Texts are in the report's language (``report.lang``: ``en`` or ``zh``); rule ids, severities,
captured values, commands and codes are the same in both.
"""

from __future__ import annotations

from rich.console import Console
from rich.markup import escape

from triage.report.i18n import confidence_label, fact_label, layer_label, localise, t, times
from triage.report.models import Cluster, Fact, Finding, Report, Unrecognised
from triage.util.plural import count

_SEVERITY_STYLE = {"critical": "bold red", "error": "red", "warning": "yellow", "info": "cyan"}


def where(file: str | None, line: int, lang: str = "en") -> str:
    """``file:line``, or ``line N`` for stdin and pasted text (``第 N 行`` in Chinese)."""
    if file:
        return f"{file}:{line}"
    return f"第 {line} 行" if lang == "zh" else f"line {line}"


def _lines(n: int, lang: str) -> str:
    return f"{n} 行" if lang == "zh" else count(n, "line")


def _count(n: int, singular: str, zh_unit: str, lang: str, plural: str | None = None) -> str:
    return f"{n} {zh_unit}" if lang == "zh" else count(n, singular, plural)


def cause_label(f: Finding, lang: str = "en") -> str:
    """``Root cause`` or, for a hypothesis, ``Possible cause``."""
    return t("possible_cause" if f.confidence == "hypothesis" else "root_cause", lang)


def headline(report: Report) -> str:
    """The first line of the report, as plain text.

    A root cause is always the headline. Otherwise, when an input could not be read in full
    (``input_errors``), the headline says so and how many lines were read: a clean verdict on
    part of the input is never presented as a clean log.
    """
    lang = report.lang
    stopped = report.interrupted or report.ended_by
    if stopped is not None:
        key = "interrupted" if report.interrupted else "ended_by"
        return t(key, lang, signal=stopped, lines=_lines(report.lines_read, lang)) + _verdict(report)
    return _verdict(report)


def _verdict(report: Report) -> str:
    """The headline without the note of an interruption."""
    lang = report.lang
    root = report.root_cause
    if root is not None:
        sep = "：" if lang == "zh" else ": "
        restarted = t("restarted_after", lang) if report.root_cause_earlier_attempt else ""
        return (f"{cause_label(root, lang)}{sep}{root.title}{restarted} [{layer_label(root.layer, lang)}/"
                f"{root.component}] -> {t('fix', lang)}{sep}{root.fix[0]}")
    lines = _lines(report.lines_read, lang)
    if report.input_errors and report.lines_read == 0:
        return t("nothing_read", lang)
    incomplete = ""
    if report.truncated_lines:
        n = len(report.truncated_lines)
        incomplete += (f"；{n} 行超过行长度上限，只读了前一部分（见下方提示）" if lang == "zh" else
                       f"; {count(n, 'line')} over the line limit read only in part (see the note below)")
    if report.input_errors:
        incomplete += (f"；{incomplete_inputs(report)}（见下方输入错误）" if lang == "zh"
                       else f"; {incomplete_inputs(report)} (see the input errors below)")
    if report.unrecognised:
        u = report.unrecognised[0]
        if lang == "zh":
            return t("no_known_root", lang, n=len(report.unrecognised), where=where(u.file, u.line, lang)) + incomplete
        return (f"No known root cause: {count(len(report.unrecognised), 'unrecognised error line')}; "
                f"first at {where(u.file, u.line)}{incomplete}")
    stall = next((f for f in report.findings if f.pack == "stall"), None)
    if stall is not None:
        return t("stall_headline", lang, title=stall.title) + incomplete
    if report.findings:
        if lang == "zh":
            return t("no_error", lang, n=len(report.findings), lines=lines) + incomplete
        return f"No error found; {count(len(report.findings), 'notice')} in {lines}{incomplete}"
    if report.input_errors:
        if lang == "zh":
            return f"输入不完整：已读的 {lines}中未发现问题{incomplete}"
        return f"Input incomplete: no problem found in the {lines} read{incomplete}"
    if report.lines_read == 0:
        named = [f for f in report.files if f]
        what = ", ".join(named[:3]) if named else ("输入" if lang == "zh" else "the input")
        return t("empty", lang, what=what)
    return t("clean", lang, lines=lines) + incomplete


def incomplete_inputs(report: Report) -> str:
    """``x.gz was not read in full`` (one input error) or ``N inputs were not read in full``."""
    errors = report.input_errors
    if report.lang == "zh":
        return f"{errors[0].file or '-'} 未能读完" if len(errors) == 1 else f"{len(errors)} 个输入未能读完"
    if len(errors) == 1:
        return f"{errors[0].file or '-'} was not read in full"
    return f"{len(errors)} inputs were not read in full"


def footer(report: Report) -> str:
    """The last line: lines read, findings, input errors, and the digests of the knowledge used."""
    compat = f", compat {report.compat_digest}" if report.compat_digest else ""
    if report.lang == "zh":
        errors = f"，{len(report.input_errors)} 个输入未读完" if report.input_errors else ""
        compat = f"，{t('compat_digest', 'zh', digest=report.compat_digest)}" if report.compat_digest else ""
        return (f"已读 {report.lines_read} 行，{len(report.findings)} 项发现{errors}，"
                f"{t('rules_digest', 'zh', digest=report.rules_digest)}{compat}")
    errors = f", {count(len(report.input_errors), 'input')} not read in full" if report.input_errors else ""
    return (f"{count(report.lines_read, 'line')} read, {count(len(report.findings), 'finding')}{errors}, "
            f"rules {report.rules_digest}{compat}")


def fact_line(fact: Fact, lang: str = "en") -> str:
    """``label: value (file:line)``, with the other values seen for the same fact."""
    if lang == "zh":
        others = f"；{t('also', lang)} {', '.join(fact.others)}" if fact.others else ""
        return f"{fact_label(fact.name, fact.label, lang)}：{fact.value}{others}（{where(fact.file, fact.line, lang)}）"
    others = f"; {t('also', lang)} {', '.join(fact.others)}" if fact.others else ""
    return f"{fact.label}: {fact.value}{others} ({where(fact.file, fact.line, lang)})"


def stream_line(finding: Finding, lang: str = "en") -> str:
    """One line announcing a finding the moment it is first seen (streaming mode)."""
    return (f"[{finding.severity}] {where(finding.first_file, finding.first_line, lang)} "
            f"{finding.rule_id}: {finding.title} [{layer_label(finding.layer, lang)}/{finding.component}]")


def unexplained_line(u: Unrecognised, lang: str = "en") -> str:
    """One line announcing an error line no rule explains, the moment it is first seen."""
    label = t("unexplained", lang)
    if lang == "zh":
        from triage.scan.unexplained import _KIND_LABEL

        kind = _KIND_LABEL["zh"].get(u.kind, u.kind)
        return f"[{label}] {where(u.file, u.line, lang)}（{kind}）：{u.text.strip()}"
    return f"[{label}] {where(u.file, u.line, lang)} ({u.kind}): {u.text.strip()}"


def ranks_text(ranks: list[int]) -> str:
    """``0-7, 9, 12-13``: ranks as compact ranges."""
    out: list[str] = []
    start = prev = None
    for r in sorted(set(ranks)):
        if start is None:
            start = prev = r
        elif r == prev + 1:
            prev = r
        else:
            out.append(f"{start}-{prev}" if prev != start else str(start))
            start = prev = r
    if start is not None:
        out.append(f"{start}-{prev}" if prev != start else str(start))
    return ", ".join(out)


def cluster_lines(report: Report) -> list[str]:
    """The cluster section as plain lines (empty when the input shows fewer than two ranks/nodes)."""
    c: Cluster | None = report.cluster
    if c is None:
        return []
    lang = report.lang
    zh = lang == "zh"
    colon, comma = ("：", "，") if zh else (": ", ", ")
    out = []
    scope = []
    if c.ranks:
        scope.append(f"{len(c.ranks)} 个 rank" if zh else count(len(c.ranks), "rank"))
    if c.nodes:
        scope.append(f"{len(c.nodes)} 个节点" if zh else count(len(c.nodes), "node"))
    if c.world_size:
        scope.append(t("world_size", lang, n=c.world_size))
    out.append(t("cluster", lang) + colon + (comma.join(scope) or "-"))
    ff = c.first_failure
    if ff is not None:
        who = " ".join(x for x in [ff.node or "", f"rank {ff.rank}" if ff.rank is not None else ""] if x) or (
            ff.file or "-")
        when = f"{comma}{ff.time}" if ff.time else ""
        title = next((f.title for f in report.findings if f.rule_id == ff.rule_id), ff.rule_id)
        if zh:
            place = where(ff.file, ff.line, lang)
            out.append(f"  {t('first_failure', lang)}：{who}，{title}（{ff.rule_id}，{place}{when}）")
        else:
            out.append(f"  First failure: {who}: {title} ({ff.rule_id}, {where(ff.file, ff.line)}{when})")
    for s in c.symptoms:
        n = len(s.ranks)
        if zh:
            who = f"{n} 个 rank（{ranks_text(s.ranks)}）" if n else t("some_inputs", lang) + " "
        else:
            who = f"{count(n, 'rank')} ({ranks_text(s.ranks)})" if n else t("some_inputs", lang)
        out.append(f"  {t('symptom', lang)}{colon}" + t("symptom_line", lang, who=who, rule=s.rule_id,
                                                              cause=s.caused_by))
    if c.waits_only:
        out.append("  " + t("waits_only", lang))
    elif report.root_cause is not None and c.ranks:
        root_ranks = report.root_cause.ranks
        total = c.world_size or len(c.ranks)
        if c.common:
            out.append("  " + t("all_ranks", lang, n=total))
        elif root_ranks:
            out.append("  " + t("subset", lang, k=len(root_ranks), n=total))
    for s in c.suspects:
        node = (f"（{s.node}）" if zh else f" ({s.node})") if s.node else ""
        out.append(f"  {t('suspect', lang)}{colon}rank {s.rank}{node}{colon}{localise(s.why, lang)}")
    return out


def incident_lines(report: Report) -> list[str]:
    """The separate incidents (only when there are several), each with its own root cause."""
    if len(report.incidents) < 2:
        return []
    lang = report.lang
    zh = lang == "zh"
    titles = {f.rule_id: f.title for f in report.findings}
    n = len(report.incidents)
    out = [f"{t('other_incidents', lang)}（{n}）：" if zh else f"{t('other_incidents', lang)} ({n}):"]
    for i, inc in enumerate(report.incidents, 1):
        files = sorted({o.file for o in inc.origins if o.file}) or ["-"]
        ranks = sorted({o.rank for o in inc.origins if o.rank is not None})
        where_ = ", ".join(files[:3]) + (f" (+{len(files) - 3})" if len(files) > 3 else "")
        if ranks:
            where_ += ("；" if zh else "; ") + t("ranks", lang, ranks=ranks_text(ranks))
        if inc.root_cause:
            title = titles.get(inc.root_cause, inc.root_cause)
            cause = f"{title}（{inc.root_cause}）" if zh else f"{title} ({inc.root_cause})"
        else:
            cause = t("no_error_finding", lang)
        if zh:
            out.append(f"  {i}. [{where_}] 根因：{cause}")
        else:
            out.append(f"  {i}. [{where_}] root cause: {cause}")
        if inc.symptoms:
            out.append(("     连带现象：" if zh else "     symptoms: ") + ", ".join(inc.symptoms))
    return out


def to_text(report: Report, *, color: bool = False, width: int = 100) -> str:
    """``report`` as the text the CLI prints (the same lines ``triage analyze`` writes to a pipe).

    ``color`` adds ANSI styles; ``width`` (columns) only matters for the styled output, lines are
    never wrapped. Returns the text, ending in a newline.
    """
    import io

    buffer = io.StringIO()
    out = Console(file=buffer, width=width, soft_wrap=True, highlight=False, force_terminal=color,
                  color_system="standard" if color else None, no_color=not color)
    render(report, out)
    return buffer.getvalue()


def attempt_lines(report: Report) -> list[str]:
    """The earlier attempts of a restarting service (the report diagnoses the last one)."""
    if not report.earlier_attempts:
        return []
    zh = report.lang == "zh"
    out = [f"之前的运行（{len(report.earlier_attempts)} 次，本报告诊断最后一次）：" if zh else
           f"Earlier attempts ({len(report.earlier_attempts)}; this report diagnoses the last one):"]
    for a in report.earlier_attempts:
        span = f"{a.file or '-'}:{a.first_line}-{a.last_line}"
        cause = a.root_cause or ("无错误级发现" if zh else "no error-level finding")
        out.append(f"  {span}: {'根因' if zh else 'root cause'} {cause}"
                   + (f" (+{len(a.findings) - 1})" if len(a.findings) > 1 else ""))
    return out


def render(report: Report, console: Console) -> None:
    """Print ``report`` for a person on ``console``."""
    lang = report.lang
    zh = lang == "zh"
    root = report.root_cause
    style = _SEVERITY_STYLE.get(root.severity, "") if root else ("yellow" if report.unrecognised else "green")
    console.print(escape(headline(report)), style=style, highlight=False, soft_wrap=True)
    if root is not None:
        _finding_block(root, console, full=True, lang=lang)
    for line in cluster_lines(report):
        console.print(escape(line), highlight=False, soft_wrap=True)
    incidents = incident_lines(report)
    if incidents:
        console.print()
        for line in incidents:
            console.print(escape(line), highlight=False, soft_wrap=True)
    for line in attempt_lines(report):
        console.print(escape(line), highlight=False, soft_wrap=True)
    others = [f for f in report.findings if root is None or f.rule_id != root.rule_id]
    if others:
        console.print()
        console.print(f"{t('other_findings', lang)}（{len(others)}）：" if zh
                      else f"Other findings ({len(others)}):", style="bold", soft_wrap=True)
        for f in others:
            _finding_block(f, console, full=root is None and f is others[0], lang=lang)
    if report.facts:
        console.print()
        console.print(t("environment", lang) + ("：" if zh else ":"), style="bold", soft_wrap=True)
        for fact in report.facts:
            console.print(f"  {escape(fact_line(fact, lang))}", highlight=False, soft_wrap=True)
    if report.unrecognised:
        console.print()
        console.print(t("unrecognised", lang) + ("：" if zh else ":"), style="bold yellow", soft_wrap=True)
        for u in report.unrecognised:
            console.print(f"  {escape(where(u.file, u.line, lang))}: {escape(u.text)}", highlight=False,
                          soft_wrap=True)
    note = t("note", lang) + ("：" if zh else ": ")
    for tl in report.truncated_lines:
        text = t("truncated_line", lang, where=where(tl.file, tl.line, lang), length=tl.length, limit=tl.limit)
        console.print(f"{note}{text}", style="dim", highlight=False, markup=False, soft_wrap=True)
    for n in report.notices:
        console.print(f"{note}{localise(n, lang)}", style="dim", highlight=False, markup=False, soft_wrap=True)
    console.print()
    if report.findings:
        console.print(t("legend", lang), style="dim", highlight=False, soft_wrap=True, markup=False)
    console.print(footer(report), style="dim", highlight=False, soft_wrap=True, markup=False)


def _finding_block(f: Finding, console: Console, *, full: bool, lang: str = "en") -> None:
    zh = lang == "zh"
    sev = _SEVERITY_STYLE.get(f.severity, "")
    layer = f"[{layer_label(f.layer, lang)}/{f.component}]"
    comma = "，" if zh else ", "
    ranks = comma + t("ranks", lang, ranks=ranks_text(f.ranks)) if f.ranks else ""
    if not full:
        symptom = t("symptom_of", lang, rule=f.suppressed_by) if f.suppressed_by else ""
        note = (f"（{symptom}）" if zh else f" ({symptom})") if symptom else ""
        possible = t("possible_cause_note", lang) if f.confidence == "hypothesis" else ""
        count_ = f"{comma}{times(f.count, lang)}" if zh else f", x{f.count}"
        console.print(f"- [{sev}]{f.severity}[/] {escape(f.title)} {escape(layer)} "
                      f"{f.rule_id}{count_}{escape(ranks)}{escape(note)}{escape(possible)}", highlight=False,
                      soft_wrap=True)
        # a fact check's evidence is the facts it compared: show them all (a rule: its first line)
        for ev in f.evidence if f.pack == "compat" else f.evidence[:1]:
            console.print(f"    {escape(where(ev.file, ev.line, lang))}: {escape(ev.text.strip())}", style="dim",
                          highlight=False, soft_wrap=True)
        return
    seen = (f"  {t('rule', lang)} {f.rule_id} · {t('severity', lang)} {f.severity} · "
            f"{t('seen', lang)} {times(f.count, lang)}{comma}{where(f.first_file, f.first_line, lang)}"
            + (f" {t('to', lang)} {where(f.last_file, f.last_line, lang)}" if f.count > 1 else "") + ranks)
    if f.nodes:
        seen += comma + t("nodes", lang, nodes=", ".join(f.nodes[:8])) + (
            f" (+{len(f.nodes) - 8})" if len(f.nodes) > 8 else "")
    if f.confidence != "confirmed":
        seen += f" · {confidence_label(f.confidence, lang)}"
    if f.layer_guessed:
        seen += f" · {t('layer_guessed', lang)}"
    console.print(seen, style="dim", highlight=False, soft_wrap=True, markup=False)
    colon = "：" if zh else ":"
    console.print(f"  {t('Cause', lang)}{colon}{'' if zh else ' '}{escape(f.cause)}", highlight=False, soft_wrap=True)
    console.print(f"  {t('Fix', lang)}{colon}", highlight=False, soft_wrap=True)
    for i, step in enumerate(f.fix, 1):
        console.print(f"    {i}. {escape(step)}", highlight=False, soft_wrap=True)
    console.print(f"  {t('Evidence', lang)}{colon}", highlight=False, soft_wrap=True)
    for ev in f.evidence:
        console.print(f"    {escape(where(ev.file, ev.line, lang))}: {escape(ev.text.strip())}", highlight=False,
                      soft_wrap=True)
    if f.references:
        console.print(f"  {t('See', lang)}{colon}{'' if zh else ' '}" + escape(" ".join(f.references[:3])), style="dim",
                      highlight=False, soft_wrap=True)
