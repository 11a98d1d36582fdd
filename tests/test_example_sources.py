"""Every example a built-in rule must match says where it comes from (issue 22, weakness 2).

An example is either real, its source named (a URL, a file in a repository, a corpus case, a run
reproduced here with its commands, a public log found by its index id), or rendered from the format
string, its call site named. A hand-written form the source cannot print hid misses before: an
example without a source is how one gets in, so none is accepted.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from triage.knowledge.loader import load_rules

ROOT = Path(__file__).resolve().parents[1]
RULES = load_rules()

_URL = re.compile(r"^https?://\S+")
#: ``owner/repo:path`` or ``owner/repo@commit:path``, optionally with ``#Lnn`` and a note
_REPO_PATH = re.compile(r"[\w.-]+/[\w.-]+(?:@[\w.^~-]+)?:[\w./-]+")
#: a source file named without its repository (``dash src/exec.c``, ``triage/collect/collector.py#L255``)
_SOURCE_FILE = re.compile(r"[\w/-]+\.(?:c|cc|cpp|h|py|go|sh|rs|java)\b")
_KINDS = {
    "url": lambda s: bool(_URL.match(s)),
    "repository file": lambda s: bool(_REPO_PATH.match(s)),
    "corpus case": lambda s: s.startswith("corpus/") and (ROOT / s.split()[0].rstrip(",;")).is_dir(),
    # rendered from a format string: the call site (a repository file or a URL) must be named
    "rendered": lambda s: s.lower().startswith("rendered") and bool(_REPO_PATH.search(s) or "http" in s
                                                                    or _SOURCE_FILE.search(s)),
    # produced on this project's build machine: the commands or the corpus case that keeps them
    "reproduced": lambda s: s.lower().startswith(("reproduced", "local reproduction")),
    # public text the code index found without naming its repository: its id lets it be found again
    "indexed public text": lambda s: s.startswith(("public ", "a public ")) and bool(re.search(r"\bid \d+", s)),
    "field report": lambda s: s.startswith("field report "),
}


def _examples():
    for compiled in RULES.rules:
        rule = compiled.rule
        for i, ex in enumerate(rule.examples.match):
            yield pytest.param(rule.id, i, ex, id=f"{rule.id}[{i}]")


def kind_of(source: str | None) -> str | None:
    """The kind of an example's ``source`` (a key of ``_KINDS``), or None when it names none."""
    source = (source or "").strip()
    return next((kind for kind, test in _KINDS.items() if source and test(source)), None)


@pytest.mark.parametrize(("rule_id", "index", "example"), list(_examples()))
def test_every_example_names_its_source(rule_id, index, example):
    source = None if isinstance(example, str) else example.source
    assert kind_of(source) is not None, (
        f"{rule_id} examples.match[{index}] must name where it comes from (a URL, owner/repo:path, "
        f"corpus/<case>, 'rendered from owner/repo:path#Lnn', 'reproduced: <commands>'): {source!r}")


def test_the_source_kinds_are_told_apart():
    assert kind_of("https://github.com/vllm-project/vllm-ascend/issues/703") == "url"
    assert kind_of("hicann/hccl:docs/zh/user_guide/fault_diagnosis/task_exception.md") == "repository file"
    assert kind_of("corpus/cluster-npu-busy") == "corpus case"
    assert kind_of("corpus/no-such-case") is None
    assert kind_of("rendered from Ascend/pytorch:torch_npu/npu/__init__.py#L450") == "rendered"
    assert kind_of("rendered by hand") is None
    assert kind_of("rendered from dash src/exec.c (sh_error)") == "rendered"
    assert kind_of("public log text found through the code index (id 23859100826)") == "indexed public text"
    assert kind_of("a forum post") is None
    assert kind_of("") is None and kind_of(None) is None


def test_a_rule_whose_only_logs_are_synthetic_claims_at_most_likely():
    """docs/rule-writing.md: ``likely`` is the most a rule may claim when its only log is synthetic
    (built from a format string); ``confirmed`` needs a real log of the message (or a corpus case)."""
    from triage.kbtools.corpus import load_cases

    synthetic: dict[str, list[bool]] = {}
    for case in load_cases(ROOT / "corpus"):
        for rule_id in [case.case.expect.root_cause, *case.case.expect.also]:
            synthetic.setdefault(rule_id, []).append(bool(case.case.synthetic))
    overclaimed = sorted(c.rule.id for c in RULES.rules if c.rule.confidence == "confirmed"
                         and synthetic.get(c.rule.id) and all(synthetic[c.rule.id]))
    assert overclaimed == []
