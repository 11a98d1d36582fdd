"""The orchestration of a run: inputs expanded into sources and fed to the map step
(:mod:`.feed`), split into byte ranges and read by several processes (:mod:`.parallel`) or Ray
tasks (:mod:`.fanout`), and the :class:`~triage.run.analysis.Analysis` whose report is the
diagnosis of everything read."""
