"""``triage collect``: gather the environment facts a diagnosis needs into one text file (read-only).
Its output is an input of ``triage analyze``; this package imports no other stage.
:mod:`.collector` writes the sections, :mod:`.commands` runs commands, :mod:`.environment` reads
the serving processes and environment variables."""

from triage.collect.collector import collect

__all__ = ["collect"]
