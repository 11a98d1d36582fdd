"""A progress bar on stderr for inputs that take more than a second, read from a terminal session;
never in pipes. Plain files show bytes of their total size; standard input, compressed files and
archives (whose size is not known before reading) show the bytes read and the speed."""

from __future__ import annotations

import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from triage.inputs.sources import Source, plain_file_bytes

#: Plain files smaller than this finish before a bar is worth drawing.
MIN_BYTES = 64 << 20
#: Seconds of reading before a bar appears (a quick read never flashes one).
DELAY = 1.0


class _LazyBar:
    """Moves a rich bar that starts only once reading has taken :data:`DELAY` seconds."""

    def __init__(self, total: int | None):
        self.total = total
        self.read = 0
        self.start = time.monotonic()
        self.bar = None
        self.task = None

    def __call__(self, n: int) -> None:
        self.read += n
        if self.bar is None:
            if time.monotonic() - self.start < DELAY:
                return
            from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn, TransferSpeedColumn

            self.bar = Progress("[progress.description]{task.description}", BarColumn(), DownloadColumn(),
                                TransferSpeedColumn(), TimeRemainingColumn(), transient=True)
            self.bar.start()
            self.task = self.bar.add_task("reading", total=self.total, completed=self.read)
            return
        self.bar.update(self.task, completed=self.read)

    def stop(self) -> None:
        if self.bar is not None:
            self.bar.stop()


@contextmanager
def progress_for(sources: list[Source], *, enabled: bool = True) -> Iterator[Callable[[int], None] | None]:
    """Yield a callback ``advance(nbytes)`` that moves a bar, or None when no bar can be shown (not a
    terminal, or plain files under ``MIN_BYTES``). ``nbytes`` are bytes read (decompressed for a
    compressed input, so its bar counts up without a total)."""
    if not enabled or not sys.stderr.isatty():
        yield None
        return
    total, all_plain = plain_file_bytes(sources)
    if all_plain and total < MIN_BYTES:
        yield None
        return
    bar = _LazyBar(total if all_plain else None)
    try:
        yield bar
    finally:
        bar.stop()
