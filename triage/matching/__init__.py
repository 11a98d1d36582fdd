"""Prefilters: find the lines that may match a rule, so only those are normalized and confirmed.

Every matcher yields ``(line number, raw line bytes, candidate ids)``; the candidates are a
*superset* of the rules that match, and the rules' own regexes have the final word. So every
matcher gives exactly the same findings; they differ only in speed.
"""

from __future__ import annotations

from triage.matching.base import Candidate, Matcher, PrefilterPattern, prefilter_patterns
from triage.matching.select import choose_matcher

__all__ = ["Candidate", "Matcher", "PrefilterPattern", "choose_matcher", "prefilter_patterns"]
