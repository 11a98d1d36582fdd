"""GitHub Actions workflow commands: one annotation per finding on its first evidence line (as
``ruff --output-format github`` prints them), so a CI job shows the root cause on the log it read.

Format: ``::error file=F,line=N,title=T::message`` (``warning`` and ``notice`` for the lower
severities and for symptoms); values are escaped as the runner requires (``%``, CR, LF, and in
properties ``:`` and ``,``).
"""

from __future__ import annotations

from triage.report.models import Report

_LEVEL = {"critical": "error", "error": "error", "warning": "warning", "info": "notice"}


def _data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _prop(text: str) -> str:
    return _data(text).replace(":", "%3A").replace(",", "%2C")


def _command(level: str, file: str | None, line: int | None, title: str, message: str) -> str:
    props = []
    if file:
        props.append(f"file={_prop(file)}")
        if line:
            props.append(f"line={line}")
    props.append(f"title={_prop(title)}")
    return f"::{level} {','.join(props)}::{_data(message)}"


def render(report: Report) -> str:
    """The report as GitHub workflow commands, root cause first; the last line is a notice with the
    headline (where no file is known, an annotation without a file)."""
    from triage.render.text import headline

    out = []
    for f in report.findings:
        ev = f.evidence[0] if f.evidence else None
        level = "notice" if f.suppressed_by else _LEVEL[f.severity]
        symptom = f" (symptom of {f.suppressed_by})" if f.suppressed_by else ""
        message = f"{f.title}{symptom}\n{f.cause}\nFix: {f.fix[0] if f.fix else '-'}"
        out.append(_command(level, ev.file if ev else None, ev.line if ev else None,
                            f"triage {f.rule_id} [{f.layer}/{f.component}]", message))
    for u in report.unrecognised:
        out.append(_command(_LEVEL.get(u.severity, "error"), u.file, u.line, f"triage unrecognised {u.kind}",
                            f"Unrecognised error line: {u.text}"))
    out.append(_command("notice", None, None, "triage", headline(report)))
    return "\n".join(out)
