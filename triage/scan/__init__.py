"""The map step: one input (or a byte range of one) read into a language-neutral
:class:`~triage.scan.summary.Summary`. :class:`~triage.scan.engine.Scanner` reads blocks of lines,
the prefilter (:mod:`triage.matching`) flags candidates, :mod:`.confirm` tests them against the
rules, detectors and fact extractors (:mod:`.facts`), :mod:`.state` keeps what one read saw, and
:mod:`.findings` turns a rule's hits into a finding (live announcements and the diagnosis).
:mod:`.summary` holds the summary models, :mod:`.merge` joins summaries, :mod:`.unexplained` judges
error lines that no rule explains."""
