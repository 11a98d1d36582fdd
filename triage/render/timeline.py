"""The timeline of a multi-rank report as inline SVG: one row per rank grouped by node, time left to
right, a mark for each first error, wait, timeout and restart of the rank.

Times come from the findings' evidence lines (:func:`triage.logformat.times.time_of_line`, put on
one clock by :class:`~triage.logformat.times.Clock`) and from the cluster's first failure; a rank
whose marks have no comparable time is drawn in causal order (cause, errors, timeouts, waits,
restarts) and the caption says how many. Rows with the same marks are collapsed into one row with
their count when there are many, so 1,000 ranks stay readable.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from html import escape

from triage.logformat.times import Clock, iso, parse_iso, time_of_line
from triage.report.i18n import t
from triage.report.models import Finding, Report
from triage.util.plural import count

#: More rows than this (after grouping by node) and identical rows are collapsed into one.
MAX_ROWS = 40
_ORDER = {"first": 0, "error": 1, "timeout": 2, "wait": 3, "restart": 4}
_LABEL_W, _PLOT_W, _ROW_H, _TOP = 230, 720, 18, 28
_SLOTS = 5  # positions of a causal-order row


def anchor(rule_id: str) -> str:
    """The id of a finding's section in the HTML report: ``finding-<rule id>``."""
    return "finding-" + re.sub(r"[^A-Za-z0-9_.-]", "-", rule_id)


def kind_of(f: Finding) -> str:
    """``timeout``, ``wait`` or ``error``: what a finding's mark shows."""
    rid = f.rule_id.lower()
    if "wait" in rid or "heartbeat" in rid:
        return "wait"
    if "timeout" in rid or "timed-out" in rid:
        return "timeout"
    return "error"


@dataclass
class Mark:
    kind: str
    rule_id: str
    when: datetime | None = None
    first: bool = False


@dataclass
class Row:
    node: str
    ranks: list[int]
    marks: list[Mark] = field(default_factory=list)
    timed: bool = True

    def signature(self, start: datetime | None, span: float) -> tuple:
        return (self.timed, tuple((m.kind, m.rule_id, m.first, _x(m, start, span) // 8 if self.timed else 0)
                                  for m in self.marks))


def _x(m: Mark, start: datetime | None, span: float) -> int:
    if m.when is None or start is None:
        return 0
    return int((m.when - start).total_seconds() / span * (_PLOT_W - 50)) + 10


def rows_of(report: Report) -> tuple[list[Row], datetime | None, datetime | None]:
    """The rows of the timeline (one per rank, in node order), and the first and last time drawn."""
    c = report.cluster
    node_of: dict[int, str] = {}
    for inc in report.incidents:
        for o in inc.origins:
            if o.rank is not None and o.node:
                node_of.setdefault(o.rank, o.node)
    for f in report.findings:
        for ev in f.evidence:
            if ev.origin.rank is not None and ev.origin.node:
                node_of.setdefault(ev.origin.rank, ev.origin.node)
    ranks = set(c.ranks if c else [])
    for f in report.findings:
        ranks.update(f.ranks)
    clock = Clock()
    seen: list[tuple[Finding, int, object]] = []
    for f in report.findings:
        for ev in f.evidence:
            lt = time_of_line(ev.text)
            if lt is not None and ev.origin.rank is not None:
                clock.see(lt)
                seen.append((f, ev.origin.rank, lt))
    when: dict[tuple[str, int], datetime] = {}
    for f, rank, lt in seen:
        at = clock.comparable(lt)
        key = (f.rule_id, rank)
        if at is not None and (key not in when or at < when[key]):
            when[key] = at
    ff = c.first_failure if c else None
    if ff is not None and ff.rank is not None and ff.time:
        when[(ff.rule_id, ff.rank)] = parse_iso(ff.time)
    restarts = _restart_ranks(report)
    generic = {f.rule_id for f in report.findings if f.generic}
    rows: list[Row] = []
    failing = [(f, set(f.ranks)) for f in report.findings if f.severity in ("critical", "error")]
    for rank in sorted(ranks):
        row = Row(node_of.get(rank, ""), [rank])
        for f, on in failing:
            if rank in on:
                first = ff is not None and ff.rank == rank and ff.rule_id == f.rule_id
                row.marks.append(Mark("first" if first else kind_of(f), f.rule_id, when.get((f.rule_id, rank)),
                                      first))
        if any(m.rule_id not in generic for m in row.marks):  # a wrapper only where nothing else shows
            row.marks = [m for m in row.marks if m.rule_id not in generic]
        row.marks += [Mark("restart", t("tl_restart", report.lang)) for _ in range(restarts.get(rank, 0))]
        row.timed = bool(row.marks) and all(m.when is not None for m in row.marks)
        row.marks.sort(key=lambda m: (m.when or datetime.max, _ORDER[m.kind]) if row.timed else _ORDER[m.kind])
        rows.append(row)
    rows.sort(key=lambda r: (r.node, r.ranks[0]))
    times = [m.when for r in rows if r.timed for m in r.marks if m.when is not None]
    return rows, (min(times) if times else None), (max(times) if times else None)


def _restart_ranks(report: Report) -> dict[int, int]:
    """Rank -> earlier attempts (restarts) seen in its files."""
    ranks_of: dict[str, set[int]] = {}
    for inc in report.incidents:
        for o in inc.origins:
            if o.file and o.rank is not None:
                ranks_of.setdefault(o.file, set()).add(o.rank)
    out: dict[int, int] = {}
    for a in report.earlier_attempts:
        for rank in ranks_of.get(a.file or "", ()):
            out[rank] = out.get(rank, 0) + 1
    return out


def collapse(rows: list[Row], start: datetime | None, span: float) -> list[Row]:
    """Identical rows (the same marks at the same place) as one row with all their ranks: within a
    node first, then over nodes, while there are more than :data:`MAX_ROWS`."""
    if len(rows) <= MAX_ROWS:
        return rows
    for across in (False, True):
        merged: dict[tuple, Row] = {}
        for r in rows:
            key = (None if across else r.node, r.signature(start, span))
            if key in merged and not any(m.first for m in r.marks):
                have = merged[key]
                have.ranks += r.ranks
                if have.node != r.node:
                    have.node = "*"
            else:
                merged[key if key not in merged else (key, r.ranks[0])] = Row(r.node, list(r.ranks), r.marks, r.timed)
        rows = sorted(merged.values(), key=lambda r: (r.node == "*", r.node, r.ranks[0]))
        if len(rows) <= MAX_ROWS:
            break
    return rows


def _placed(r: Row, start: datetime | None, span: float) -> list[tuple[int, Mark, str]]:
    """The marks of a row with their x and tooltip: marks of one kind at one place merged, marks of
    different kinds at one place set apart, the first failure drawn last (on top)."""
    out: list[tuple[int, Mark, str]] = []
    slot = 0
    for m in r.marks:
        tip = m.rule_id + (f" {iso(m.when)}" if m.when else "")
        x = _LABEL_W + (_x(m, start, span) if r.timed else 10 + slot * (_PLOT_W - 20) // _SLOTS)
        same = next((i for i, (px, pm, _) in enumerate(out) if pm.kind == m.kind and abs(px - x) < 10), None)
        if same is not None:
            px, pm, ptip = out[same]
            out[same] = (px, pm, f"{ptip}; {tip}")
            continue
        while any(abs(px - x) < 12 for px, _, _ in out):
            x += 12
        out.append((x, m, tip))
        slot += 1
    return sorted(out, key=lambda o: o[1].first)


def _ranks_label(ranks: list[int]) -> str:
    from triage.render.text import ranks_text

    return ranks_text(ranks)


def _shape(kind: str, x: int, y: int) -> str:
    if kind == "first":
        return f'<polygon points="{x},{y - 8} {x + 8},{y} {x},{y + 8} {x - 8},{y}"/>'
    if kind == "timeout":
        return f'<rect x="{x - 5}" y="{y - 5}" width="10" height="10"/>'
    if kind == "wait":
        return f'<polygon points="{x - 6},{y + 5} {x + 6},{y + 5} {x},{y - 6}"/>'
    if kind == "restart":
        return f'<rect x="{x - 2}" y="{y - 7}" width="4" height="14"/>'
    return f'<circle cx="{x}" cy="{y}" r="5"/>'


def svg(report: Report) -> str:
    """The timeline as an HTML ``<figure>`` with an inline SVG and its caption ('' for one rank)."""
    c = report.cluster
    if c is None:
        return ""
    lang = report.lang
    rows, start, end = rows_of(report)
    if len(rows) < 2 and len(c.nodes) < 2:
        return ""
    span = max((end - start).total_seconds(), 1.0) if start and end else 1.0
    shown = collapse(rows, start, span)
    lines: list[str] = []
    y = _TOP
    node = None
    for r in shown:
        if r.node != node:
            node = r.node
            label = t("tl_several_nodes", lang) if node == "*" else (node or t("tl_no_node", lang))
            lines.append(f'<text class="node" x="4" y="{y + 12}">{escape(label)}</text>')
            y += _ROW_H
        ranks = _ranks_label(r.ranks)
        label = (t("tl_rank", lang, ranks=ranks) if len(r.ranks) == 1 else
                 t("tl_ranks_n", lang, ranks=ranks, n=len(r.ranks)))
        cls = "row" + ("" if r.timed else " causal") + (" collapsed" if len(r.ranks) > 1 else "")
        lines.append(f'<g class="{cls}" data-ranks="{escape(ranks)}" data-count="{len(r.ranks)}">')
        lines.append(f'<text class="rank" x="16" y="{y + 13}">{escape(label)}</text>')
        lines.append(f'<line class="lane" x1="{_LABEL_W}" y1="{y + 9}" x2="{_LABEL_W + _PLOT_W}" y2="{y + 9}"/>')
        for x, m, tip in _placed(r, start, span):
            shape = _shape(m.kind, x, y + 9)
            cls_ = "mark " + ("first-failure" if m.first else m.kind)
            body = f'<g class="{cls_}"><title>{escape(tip)}</title>{shape}</g>'
            if m.kind != "restart":
                body = f'<a href="#{escape(anchor(m.rule_id))}">{body}</a>'
            lines.append(body)
        lines.append("</g>")
        y += _ROW_H
    width = _LABEL_W + _PLOT_W + 10
    axis = ""
    if start is not None and end is not None:
        axis = (f'<text class="axis" x="{_LABEL_W}" y="16">{escape(iso(start) or "")}</text>'
                f'<text class="axis" x="{_LABEL_W + _PLOT_W}" y="16" text-anchor="end">'
                f'{escape(iso(end) or "")}</text>')
    title = escape(t("tl_title", lang))
    picture = (f'<svg class="timeline" width="{width}" height="{y + 8}" '
               f'viewBox="0 0 {width} {y + 8}" role="img" aria-label="{title}">{axis}{"".join(lines)}</svg>')
    causal = sum(len(r.ranks) for r in rows if not r.timed)
    caption = [t("tl_caption", lang, n=len(rows))]
    if causal:
        caption.append(t("tl_causal", lang, ranks=f"{causal} 个 rank" if lang == "zh" else count(causal, "rank")))
    if len(shown) < len(rows):
        caption.append(t("tl_collapsed", lang, rows=len(shown)))
    legend = " ".join(f'<span class="key {k}">{escape(t("tl_" + k, lang))}</span>'
                      for k in ("first", "error", "timeout", "wait", "restart"))
    words = ("" if lang == "zh" else " ").join(caption)
    return (f'<figure class="timeline-figure">{picture}<figcaption>{escape(words)}'
            f'<br>{legend}</figcaption></figure>')
