"""Reading paths into an analysis (:func:`read_paths`, serial or in several processes), and the
map and reduce steps apart: :func:`summarize` reads logs into one summary (what
``triage analyze --format summary`` writes), :func:`merge` diagnoses several summaries together
(``triage merge``, Ray's fan-out)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from triage.knowledge.compat import Knowledge
from triage.knowledge.loader import RuleSet, default_rules
from triage.report.models import Report
from triage.run.analysis import Analysis
from triage.run.feed import SMALL_INPUT, expand_inputs, total_size, with_node
from triage.scan.summary import Summary


def read_paths(paths, *, rules=None, matcher=None, knowledge=None, lang=None, jobs=1, node_level=None,
                as_text=False, node=None) -> Analysis:
    """An :class:`Analysis` that has read ``paths`` (arguments as :func:`triage.api.analyze`; ``node``
    as for :func:`triage.api.summarize`). Raises :class:`~triage.errors.InputError` when no path gives
    anything to read."""
    from triage.run.parallel import PARALLEL_THRESHOLD, available_cpus, plan, read_all

    if isinstance(paths, (str, Path)):
        paths = [paths]
    sources, problems = expand_inputs([str(p) for p in paths], node_level=node_level)
    sources = with_node(sources, node)
    size = total_size(sources)
    if matcher is None and size < SMALL_INPUT:
        matcher = "small"
    analysis = Analysis(rules if rules is not None else default_rules(), matcher, knowledge=knowledge, lang=lang)
    analysis.input_errors.extend(problems)
    pieces = plan(sources)
    if jobs is None:
        jobs = available_cpus() if size >= PARALLEL_THRESHOLD else 1
    read_all(analysis, pieces, jobs, as_text=as_text)
    return analysis


def summarize(paths: str | Path | Sequence[str | Path], *, rules: RuleSet | None = None,
              jobs: int | None = 1, node_level: int | None = None, node: str | None = None,
              as_text: bool = False) -> Summary:
    """The language-neutral summary of some logs (what ``triage analyze --format summary``
    writes), to be merged with others by :func:`merge`. ``node`` names the machine the logs come
    from when their lines and paths do not (default: the host name). Raises as :func:`analyze`."""
    analysis = read_paths(paths, rules=rules, jobs=jobs, node_level=node_level, as_text=as_text, node=node)
    summary = analysis.summary()
    return summary.model_copy(update={"host": node}) if node is not None else summary


def merge(summaries: Sequence[Summary], *, rules: RuleSet | None = None, knowledge: Knowledge | None = None,
          lang: str | None = None) -> Report:
    """The report of several summaries (of several nodes, processes or Ray tasks) taken together:
    the same report as analysing their inputs at once. A summary made with other rules is
    reported in the notices."""
    from triage.diagnose.verdict import diagnose
    from triage.scan.merge import merge as merge_summaries

    ruleset = rules if rules is not None else default_rules()
    merged = merge_summaries(list(summaries))
    if merged.rules_digest and merged.rules_digest != ruleset.digest:
        merged = merged.model_copy(update={"notices": [
            *merged.notices, f"the summaries were made with rules {merged.rules_digest}, these are "
                             f"{ruleset.digest}: findings of rules that differ may be missing"]})
    from triage.knowledge.compat import load_compat

    return diagnose(merged, ruleset, knowledge or load_compat(), lang=lang)
