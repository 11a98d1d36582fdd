"""``triage mcp``: serve triage to coding agents over the Model Context Protocol (stdio)."""

from __future__ import annotations

from pathlib import Path

import typer

from triage.cli.common import _fail, app
from triage.errors import EXIT_INPUT


@app.command()
def mcp(
    root: list[Path] = typer.Option(None, "--root", metavar="DIR",
                                    help="A directory the analyze tool may read (repeatable; default: the "
                                         "current directory)."),
    max_bytes: int = typer.Option(256 << 20, "--max-bytes", metavar="N", min=1,
                                  help="Refuse inputs larger than this many bytes."),
    no_redact: bool = typer.Option(False, "--no-redact",
                                   help="Return reports unredacted (they are redacted by default)."),
) -> None:
    """Serve triage over the Model Context Protocol on stdio (needs the mcp extra: pip install '.[mcp]').

    Tools: analyze (a file or directory under the roots), explain (pasted text), search_rules and
    show_rule; results are the JSON report of schema 1. Register it with an agent as the command
    `triage mcp` (docs/mcp.md).
    """
    from triage.api.mcp_server import build_server

    for r in root or []:
        if not r.is_dir():
            raise _fail(f"--root {r}: not a directory", EXIT_INPUT)
    try:
        server = build_server(root or None, max_bytes, redact=not no_redact)
    except ImportError:  # the SDK is the optional mcp extra
        raise _fail("triage mcp needs the MCP SDK: pip install '.[mcp]' in triage's checkout", EXIT_INPUT) from None
    server.run("stdio")
