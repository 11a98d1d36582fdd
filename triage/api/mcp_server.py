"""``triage mcp``: a Model Context Protocol server over stdio (the official ``mcp`` SDK, the
``mcp`` extra), so that a coding agent can call triage as a tool.

Tools: ``analyze`` (a file or directory under the server's roots), ``explain`` (pasted text),
``search_rules`` and ``show_rule``. Results are the JSON of report schema 1 (docs/output.md).
Only paths under the roots the server was started with are read (the current directory by default),
inputs over ``max_bytes`` are refused, and reports are redacted by default (IPs, hosts, user names,
e-mails, secrets), as each tool's description says.
"""

from __future__ import annotations

import os
from pathlib import Path

#: Default limit of the input a tool call may read, in bytes.
MAX_BYTES = 256 << 20


class Refused(ValueError):
    """A tool call the server will not carry out (a path outside the roots, an input too large)."""


def _inside(path: Path, roots: list[Path]) -> bool:
    return any(path == root or root in path.parents for root in roots)


def resolve_input(path: str, roots: list[Path], max_bytes: int) -> Path:
    """``path`` resolved (symlinks followed) when it lies under one of ``roots`` and its files hold
    at most ``max_bytes`` bytes; raises :class:`Refused` otherwise."""
    target = Path(path).expanduser()
    target = (target if target.is_absolute() else roots[0] / target).resolve()
    if not _inside(target, roots):
        raise Refused(f"{path}: outside the roots this server reads ({', '.join(map(str, roots))})")
    if not target.exists():
        raise Refused(f"{path}: no such file or directory")
    size = 0
    files = [target] if target.is_file() else [p for p in target.rglob("*") if p.is_file()]
    for f in files:
        if not _inside(f.resolve(), roots):
            raise Refused(f"{f}: a link out of the roots this server reads")
        size += f.stat().st_size
        if size > max_bytes:
            raise Refused(f"{path}: more than {max_bytes} bytes (start the server with a larger --max-bytes)")
    return target


def build_server(roots: list[Path] | None = None, max_bytes: int = MAX_BYTES, redact: bool = True):
    """The MCP server (``mcp.server.mcpserver.MCPServer``) with triage's tools. ``roots``: the
    directories ``analyze`` may read (default: the current directory). Raises ``ImportError`` when
    the ``mcp`` SDK is not installed (``pip install '.[mcp]'``)."""
    from mcp.server.mcpserver import MCPServer
    from mcp.server.mcpserver.exceptions import ToolError

    from triage.api import analyze as analyze_paths
    from triage.api import default_rules
    from triage.api import explain as explain_text
    from triage.version import __version__

    roots = [Path(r).resolve() for r in (roots or [Path(os.getcwd())])]
    redaction = " Reports are redacted (IPs, hosts, user names, e-mails, secrets replaced)." if redact else ""
    server = MCPServer("triage", version=__version__, instructions=(
        "Diagnose failed LLM deployments on Huawei Ascend NPUs from their logs: root cause, layer "
        "(hardware, driver, framework) and fix. Call `explain` with pasted log lines or `analyze` with a "
        "log file or directory; `search_rules` and `show_rule` look up the knowledge base."))

    def _report(report, redacted: bool) -> dict:
        if redacted:
            from triage.render.redact import Redactor

            report = Redactor().report(report)
        return report.model_dump(mode="json")

    @server.tool(description=(
        "Diagnose a log file or a directory of logs (plogs, docker logs, .gz, .tar.gz bundles) under the "
        f"server's roots ({', '.join(map(str, roots))}); inputs over {max_bytes} bytes are refused. Returns the "
        "report as JSON (schema 1): root_cause (title, layer, component, cause, fix, evidence), findings, "
        "unrecognised error lines." + redaction))
    def analyze(path: str, lang: str = "en") -> dict:
        try:
            target = resolve_input(path, roots, max_bytes)
        except Refused as exc:  # the agent reads why
            raise ToolError(str(exc)) from None
        return _report(analyze_paths(str(target), lang=lang, jobs=1), redact)

    @server.tool(description=(
        "Diagnose log lines pasted as text (one or many lines, as printed). Returns the report as JSON "
        f"(schema 1); text over {max_bytes} bytes is refused." + redaction))
    def explain(text: str, lang: str = "en") -> dict:
        if len(text.encode("utf-8", "replace")) > max_bytes:
            raise ToolError(f"the text is more than {max_bytes} bytes")
        return _report(explain_text(text, lang=lang), redact)

    @server.tool(description="Search the rules: every word must be in a rule's id, title, component or cause "
                             "(any case). Returns up to `limit` rules: id, title, layer, component, severity.")
    def search_rules(words: str, limit: int = 20) -> list[dict]:
        from triage.knowledge.lookup import keyword_matches

        found = [r for r in default_rules().rules if keyword_matches(words, r)][:max(1, min(limit, 200))]
        return [{"id": r.id, "title": r.rule.title, "layer": r.rule.layer, "component": r.rule.component,
                 "severity": r.rule.severity} for r in found]

    @server.tool(description="Show one rule whole by its id: title, layer, component, cause, fix steps, "
                             "references, confidence (a close id is suggested for an unknown one).")
    def show_rule(rule_id: str) -> dict:
        from triage.knowledge.lookup import unknown_id

        rules = default_rules()
        r = rules.by_id.get(rule_id)
        if r is None:
            raise ToolError(unknown_id("rule", rule_id, rules.by_id))
        rule = r.rule
        return {"id": rule.id, "title": rule.title, "layer": rule.layer, "component": rule.component,
                "severity": rule.severity, "cause": rule.cause.strip(), "fix": rule.fix_texts(),
                "references": list(rule.references), "confidence": rule.effective_confidence}

    return server
