"""Rich consoles as the CLI wants them: no colour when piped or when ``NO_COLOR`` is set."""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # rich is imported when a console is made: `--format json` never loads it
    from rich.console import Console


def console(*, stderr: bool = False, soft_wrap: bool = False) -> Console:
    """A console on stdout (or stderr) that emits no escape codes at all under ``NO_COLOR``.

    rich already drops colour when the stream is not a terminal; ``NO_COLOR`` (any value) also
    drops styles such as bold and dim, so logs and pipes get plain text. When the stream is not a
    terminal nothing is wrapped (``soft_wrap``), whatever ``soft_wrap`` says: piped lines are read
    by programs (``tail``, ``grep``) and must stay whole.
    """
    from rich.console import Console

    plain = "NO_COLOR" in os.environ
    # emoji=False: a log line holding `:100:` or `:fire:` is printed as it is, never as a pictogram
    out = Console(stderr=stderr, highlight=False, emoji=False, soft_wrap=soft_wrap,
                  color_system=None if plain else "auto", no_color=plain)
    if not out.is_terminal:
        out.soft_wrap = True
    return out
