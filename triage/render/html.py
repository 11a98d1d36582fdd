"""One self-contained HTML file: the diagnosis, each finding with its evidence lines, the facts and
the compatibility checks, and for several ranks or nodes a timeline (:mod:`triage.render.timeline`).

Inline CSS and inline SVG only: no script, style sheet, font or image from the network, so the file
reads the same offline and with scripts disabled; sections collapse with ``<details>``. Every text
from the log or the rules goes through :func:`html.escape`. Texts are in the report's language.
"""

from __future__ import annotations

from html import escape

from triage.render.text import attempt_lines, cluster_lines, headline, incident_lines, where
from triage.render.timeline import anchor, svg
from triage.report.i18n import fact_label, layer_label, localise, t
from triage.report.models import Evidence, Finding, Report
from triage.util.plural import count

_CSS = """
body{font:14px/1.45 system-ui,-apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","Microsoft YaHei",sans-serif;
margin:0 auto;max-width:1100px;padding:16px 24px;color:#1f2328;background:#fff}
h1{font-size:18px;margin:0 0 4px;color:#57606a;font-weight:600}
h2{font-size:16px;margin:22px 0 8px;border-bottom:1px solid #d0d7de;padding-bottom:4px}
.headline{font-size:17px;font-weight:600;padding:10px 12px;border-radius:6px;background:#f6f8fa;
border-left:6px solid #57606a;margin:8px 0 12px}
.headline.critical,.headline.error{border-color:#cf222e}.headline.warning{border-color:#bf8700}
.headline.clean{border-color:#1a7f37}
details{border:1px solid #d0d7de;border-radius:6px;margin:8px 0;padding:0 12px}
details[open]{padding-bottom:8px}summary{cursor:pointer;padding:8px 0;font-weight:600}
.sev{display:inline-block;min-width:62px;text-align:center;border-radius:10px;font-size:12px;padding:0 6px;
color:#fff;background:#57606a;margin-right:6px}
.sev.critical{background:#a40e26}.sev.error{background:#cf222e}.sev.warning{background:#9a6700}
.sev.info{background:#0969da}
.meta{color:#57606a;font-size:13px}.symptom{color:#57606a;font-weight:normal}
.ev{font:12.5px/1.5 ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;white-space:pre-wrap;
word-break:break-all;margin:2px 0;padding:2px 6px;background:#f6f8fa;border-radius:4px}
.ev .loc{color:#57606a;margin-right:8px}.ev.first-failure{outline:2px solid #d1242f}
mark{background:#fff1a8;padding:0 1px}
table{border-collapse:collapse;margin:6px 0}td,th{border:1px solid #d0d7de;padding:3px 8px;text-align:left;
vertical-align:top;font-size:13px}th{background:#f6f8fa}
ul.lines{margin:4px 0;padding-left:20px}
figure{margin:8px 0;overflow-x:auto}figcaption{color:#57606a;font-size:13px;margin-top:4px}
svg.timeline text{font:12px ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;fill:#1f2328}
svg.timeline text.node{font-weight:bold}svg.timeline text.axis{fill:#57606a}
svg.timeline .lane{stroke:#d0d7de;stroke-width:1}svg.timeline .causal .lane{stroke-dasharray:3 3}
.mark.first-failure{fill:#d1242f;stroke:#5c0011;stroke-width:1.5}.mark.error{fill:#fb8f44}
.mark.timeout{fill:#8250df}.mark.wait{fill:#0969da}.mark.restart{fill:#6e7781}
.key{margin-right:12px;white-space:nowrap}.key::before{content:"\\25CF";margin-right:3px}
.key.first::before{content:"\\25C6";color:#d1242f}.key.error::before{color:#fb8f44}
.key.timeout::before{content:"\\25A0";color:#8250df}.key.wait::before{content:"\\25B2";color:#0969da}
.key.restart::before{content:"\\258C";color:#6e7781}
footer{color:#57606a;font-size:12px;margin-top:24px}
"""


def marked(text: str, captures: dict[str, str]) -> str:
    """``text`` escaped, the captured values in it wrapped in ``<mark>``; the whole line when none
    of them occurs in it."""
    spans: list[tuple[int, int]] = []
    for value in captures.values():
        value = str(value)
        if len(value) < 2:
            continue
        at = text.find(value)
        while at >= 0:
            spans.append((at, at + len(value)))
            at = text.find(value, at + len(value))
    if not spans:
        return f"<mark>{escape(text)}</mark>"
    spans.sort()
    out, pos = [], 0
    for a, b in spans:
        if a < pos:  # overlaps a span already marked
            a = pos
        if a >= b:
            continue
        out += [escape(text[pos:a]), f"<mark>{escape(text[a:b])}</mark>"]
        pos = b
    out.append(escape(text[pos:]))
    return "".join(out)


def _evidence(ev: Evidence, f: Finding, lang: str, first: tuple | None) -> str:
    is_first = first is not None and (f.rule_id, ev.file, ev.line) == first
    cls = "ev first-failure" if is_first else "ev"
    ident = ' id="first-failure-evidence"' if is_first else ""
    return (f'<div class="{cls}"{ident}><span class="loc">{escape(where(ev.file, ev.line, lang))}</span>'
            f"{marked(ev.text.rstrip(), f.captures)}</div>")


def _link(ref: str) -> str:
    if ref.startswith(("https://", "http://")):
        return f'<a href="{escape(ref)}" rel="noreferrer">{escape(ref)}</a>'
    return escape(ref)


def _finding(f: Finding, lang: str, first: tuple | None, *, open_: bool) -> str:
    symptom = f' <span class="symptom">({escape(t("symptom_of", lang, rule=f.suppressed_by))})</span>' \
        if f.suppressed_by else ""
    meta = t("html_where", lang, layer=layer_label(f.layer, lang), component=f.component, severity=f.severity,
             rule=f.rule_id, n=f.count)
    if f.ranks:
        meta += " · " + t("ranks", lang, ranks=_ranks(f.ranks))
    if f.nodes:
        meta += " · " + t("nodes", lang, nodes=", ".join(f.nodes[:8]) + (f" (+{len(f.nodes) - 8})"
                                                                           if len(f.nodes) > 8 else ""))
    out = [f'<details id="{escape(anchor(f.rule_id))}" class="finding"{" open" if open_ else ""}>',
           f'<summary><span class="sev {escape(f.severity)}">{escape(f.severity)}</span>{escape(f.title)} '
           f'[{escape(layer_label(f.layer, lang))}/{escape(f.component)}]{symptom}</summary>',
           f'<p class="meta">{escape(meta)}</p>',
           f"<p><b>{escape(t('Cause', lang))}</b>: {escape(f.cause)}</p>"]
    if f.fix:
        out.append(f"<p><b>{escape(t('Fix', lang))}</b></p><ol>"
                   + "".join(f"<li>{escape(step)}</li>" for step in f.fix) + "</ol>")
    if f.evidence:
        out.append(f"<p><b>{escape(t('Evidence', lang))}</b></p>")
        out += [_evidence(ev, f, lang, first) for ev in f.evidence]
    if f.references:
        out.append(f'<p class="meta">{escape(t("See", lang))}: ' + " ".join(_link(r) for r in f.references)
                   + "</p>")
    out.append("</details>")
    return "\n".join(out)


def _ranks(ranks: list[int]) -> str:
    from triage.render.text import ranks_text

    return ranks_text(ranks)


def _lines(block: list[str]) -> str:
    """A text-report section (heading, then indented lines) as a heading and a list."""
    return (f"<p><b>{escape(block[0].strip())}</b></p><ul class=\"lines\">"
            + "".join(f"<li>{escape(line.strip())}</li>" for line in block[1:]) + "</ul>")


def render(report: Report) -> str:
    """The report as one self-contained HTML document."""
    lang = report.lang
    root = report.root_cause
    ff = report.cluster.first_failure if report.cluster else None
    first = (ff.rule_id, ff.file, ff.line) if ff else None
    tone = root.severity if root else ("warning" if report.unrecognised else "clean")
    out = ["<!DOCTYPE html>", f'<html lang="{"zh-CN" if lang == "zh" else "en"}"><head><meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(t('html_title', lang))}: {escape(headline(report)[:120])}</title>",
           f"<style>{_CSS}</style></head><body>",
           f"<header><h1>{escape(t('html_title', lang))}</h1>",
           f'<p class="headline {escape(tone)}" id="headline">{escape(headline(report))}</p></header>']
    cluster = cluster_lines(report)
    if cluster:  # the picture first: which rank failed first, and what the others did
        out.append(f"<h2>{escape(t('cluster', lang))}</h2>")
        picture = svg(report)
        if picture:
            out.append(picture)
        out.append(_lines(cluster))
    if root is not None:
        out += [f"<h2>{escape(t('html_root', lang))}</h2>", _finding(root, lang, first, open_=True)]
    for block in (incident_lines(report), attempt_lines(report)):
        if block:
            out.append(_lines(block))
    others = [f for f in report.findings if (root is None or f.rule_id != root.rule_id) and f.pack != "compat"]
    checks = [f for f in report.findings if (root is None or f.rule_id != root.rule_id) and f.pack == "compat"]
    if others:
        out.append(f"<h2>{escape(t('other_findings' if root else 'html_findings', lang))} ({len(others)})</h2>")
        out += [_finding(f, lang, first, open_=root is None and i == 0) for i, f in enumerate(others)]
    if checks:
        out.append(f"<h2>{escape(t('html_compat', lang))} ({len(checks)})</h2>")
        out += [_finding(f, lang, first, open_=True) for f in checks]
    if report.facts:
        out += [f"<h2>{escape(t('environment', lang))}</h2>", "<table>"]
        for fact in report.facts:
            value = fact.value + (t("md_also", lang, values=", ".join(fact.others)) if fact.others else "")
            out.append(f"<tr><th>{escape(fact_label(fact.name, fact.label, lang))}</th><td>{escape(value)}</td>"
                       f"<td class=\"meta\">{escape(where(fact.file, fact.line, lang))}</td></tr>")
        out.append("</table>")
    if report.unrecognised:
        out += [f"<h2>{escape(t('unrecognised', lang))}</h2>"]
        out += [f'<div class="ev"><span class="loc">{escape(where(u.file, u.line, lang))}</span>'
                f"<mark>{escape(u.text.rstrip())}</mark></div>" for u in report.unrecognised]
    notes = [t("truncated_line", lang, where=where(x.file, x.line, lang), length=x.length, limit=x.limit)
             for x in report.truncated_lines]
    notes += [p.message for p in report.input_errors] + [localise(n, lang) for n in report.notices]
    if notes:
        out += [f"<h2>{escape(t('note', lang))}</h2>", "<ul>"] + [f"<li>{escape(n)}</li>" for n in notes] + ["</ul>"]
    if report.findings:
        out.append(f'<p class="meta">{escape(t("legend", lang))}</p>')
    footer = t("md_footer", lang, lines=count(report.lines_read, "line"), n=report.lines_read,
               version=report.triage_version, digest=report.rules_digest)
    out += [f"<footer>{escape(footer)}</footer>", "</body></html>"]
    return "\n".join(out) + "\n"
