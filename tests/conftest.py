"""Shared fixtures: the built-in rules, loaded once."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from triage.knowledge.loader import load_rules

# Property tests check behaviour, not speed (speed lives in benchmarks/): no per-example deadline,
# which a loaded CI machine would turn into flaky failures.
settings.register_profile("triage-default", deadline=None)
settings.load_profile("triage-default")

# Output is compared in English unless a test asks for Chinese (issue: --lang / TRIAGE_LANG).
os.environ["TRIAGE_LANG"] = "en"

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "corpus"


@pytest.fixture(scope="session")
def builtin_rules():
    return load_rules()


def write_pack(tmp_path: Path, text: str, name: str = "pack.yaml") -> Path:
    """Write a one-file rule pack and return its directory."""
    pack = tmp_path / "pack"
    pack.mkdir(exist_ok=True)
    (pack / name).write_text(text, encoding="utf-8")
    return pack


MINIMAL_RULE = """\
rules:
  - id: test.sample
    title: A sample rule for tests
    layer: framework
    component: test
    severity: error
    priority: 60
    match:
      any:
        - regex: 'sample failure (?P<code>\\d+)'
    cause: The sample failed with code {code}.
    fix:
      - Do the sample fix for {code}.
    references: [https://example.org/sample]
    examples:
      match: ["sample failure 42"]
      no_match: ["sample success"]
"""


def default_sigint() -> None:
    """``preexec_fn`` for a child a test interrupts with SIGINT: a shell that starts a job in the
    background (``cmd &`` without job control, ``nohup``) hands it SIGINT ignored, and Python then
    installs no KeyboardInterrupt handler, so the child would never see the signal."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_DFL)
