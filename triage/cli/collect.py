"""``triage collect``: write the environment facts a diagnosis needs (versions, devices, env) to one text file."""

from __future__ import annotations

import io
import sys
from collections import Counter
from pathlib import Path

import typer

from triage.cli.common import _fail, app
from triage.cli.console import console
from triage.errors import EXIT_INPUT

_PLURAL = {"command": "commands", "file": "files"}


def summary(target: str, sections: list[tuple[str, str]], skipped: list[str]) -> list[str]:
    """The lines printed on stderr after collecting: what was written where, then each skipped note."""
    counts = Counter(kind for kind, _ in sections)
    parts = [f"{counts[k]} {_PLURAL[k] if counts[k] != 1 else k}" for k in ("command", "file") if counts[k]]
    parts += [k for k in ("pythons", "env", "devices", "container") if counts[k]]
    lines = [f"triage collect: wrote {target}: {', '.join(parts) or 'nothing'}; {len(skipped)} skipped"
             + (":" if skipped else "")]
    lines += [f"  {note}" for note in skipped]
    return lines


@app.command("collect")
def collect_command(
    output: str = typer.Option(None, "--output", "-o", metavar="FILE",
                               help="File to write (default, or -: standard output)."),
    python: list[str] = typer.Option(None, "--python", metavar="PATH",
                                     help="Also list the packages of this Python interpreter; repeatable."),
) -> None:
    """Gather versions, devices and environment (read-only) into one file for `triage analyze`.

    The packages of every Python that matters are listed: triage's own, each --python, the one
    behind `vllm` on PATH, those of the vLLM / MindIE / SGLang processes running now, and the
    python3 on PATH.
    """
    from triage.collect.collector import collect

    sections: list[tuple[str, str]] = []

    def record(kind: str, name: str) -> None:
        sections.append((kind, name))

    if output in (None, "-"):
        target = "standard output"
        sys.stdout.flush()
        buffer = getattr(sys.stdout, "buffer", None)
        if buffer is None:
            skipped = collect(sys.stdout, on_section=record, pythons=python or ())
        else:  # UTF-8 whatever the locale, and the text as it came (no newline translation)
            out = io.TextIOWrapper(buffer, encoding="utf-8", errors="replace", newline="", write_through=True)
            try:
                skipped = collect(out, on_section=record, pythons=python or ())
            finally:
                out.flush()
                out.detach()
    else:
        target = output
        try:
            with open(Path(output), "w", encoding="utf-8", errors="replace", newline="") as out:
                skipped = collect(out, on_section=record, pythons=python or ())
        except OSError as exc:
            raise _fail(f"{output}: {exc.strerror or exc}", EXIT_INPUT) from None
    err = console(stderr=True)
    for line in summary(target, sections, skipped):
        err.print(line, highlight=False, soft_wrap=True, markup=False)
