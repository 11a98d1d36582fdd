"""Python's garbage collector paused while triage builds its long-lived objects.

Importing triage, unpickling a cached rule set, and a CLI run's start-up make tens of thousands of
objects (pydantic models, rules, the matcher) and no garbage: the collector's passes over them find
nothing and cost ~10-15% of a short run (docs/performance.md, run H).
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def paused() -> Iterator[None]:
    """The collector off inside the block, and left as it was found after it (a library caller's
    setting is kept; nested blocks are harmless)."""
    collecting = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()


def resume_frozen() -> None:
    """After a start-up the CLI ran with the collector off (``gc.disable()`` in ``triage.cli.main``):
    freeze the objects made so far out of the collector's passes (and out of forked workers' page
    copies), then collect again. Does nothing when the collector is on."""
    if not gc.isenabled():
        gc.freeze()
        gc.enable()
