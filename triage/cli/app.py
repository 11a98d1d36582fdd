"""The ``triage`` command line (typer): the app with every command registered, and the
console-script entry point :func:`main`. Exit codes: 0 clean, 1 findings, 2 usage/input, 3 rules."""

from __future__ import annotations

import os
import sys

# the command modules register their commands on the app, in the order `--help` lists them
from triage.cli import analyze, collect, completion, corpus, mcp, rules, rules_packs  # noqa: F401
from triage.cli.common import app
from triage.cli.console import console
from triage.errors import EXIT_INPUT

__all__ = ["app", "main"]

#: Commands whose start-up (rules, knowledge, matcher: ~20,000 objects, no garbage) runs with the
#: garbage collector paused until the reading starts (:func:`triage.util.gc_pause.resume_frozen`).
_PAUSED_START = frozenset({"analyze", "explain"})


def main() -> None:
    """Console-script entry point."""
    if "_TRIAGE_COMPLETE" in os.environ:  # a shell asks for completions (triage completion SHELL)
        from typer.completion import completion_init

        completion_init()
    if sys.argv[1:2] and sys.argv[1] in _PAUSED_START:
        import gc

        gc.disable()  # until resume_frozen()
    try:
        app()
    except BrokenPipeError:  # e.g. `triage analyze x | head`
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # never a traceback: one line, and where to report it
        console(stderr=True).print(f"triage: internal error: {type(exc).__name__}: {exc} "
                                   "(please report it with the command that caused it)", style="red",
                                   highlight=False, markup=False, soft_wrap=True)
        sys.exit(EXIT_INPUT)
