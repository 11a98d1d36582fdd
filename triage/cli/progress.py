"""A progress bar on stderr for large inputs read from a terminal session; never in pipes."""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from triage.inputs.sources import Source, plain_file_bytes

#: Inputs smaller than this finish before a bar is worth drawing.
MIN_BYTES = 64 << 20


@contextmanager
def progress_for(sources: list[Source], *, enabled: bool = True) -> Iterator[Callable[[int], None] | None]:
    """Yield a callback ``advance(nbytes)`` that moves a bar, or None when no bar is shown.

    A bar is shown only when stderr is a terminal and the plain files add up to ``MIN_BYTES``.
    """
    total, _ = plain_file_bytes(sources)
    if not enabled or total < MIN_BYTES or not sys.stderr.isatty():
        yield None
        return
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn, TransferSpeedColumn

    with Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                  TransferSpeedColumn(), TimeRemainingColumn(), transient=True) as bar:
        task = bar.add_task("reading", total=total)
        yield lambda n: bar.advance(task, n)
