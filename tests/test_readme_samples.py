"""The READMEs' sample outputs are what the code prints (digests normalised); regenerate them with
`python tools/readme_samples.py`."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
_spec = importlib.util.spec_from_file_location("readme_samples", ROOT / "tools" / "readme_samples.py")
samples = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(samples)

BLOCKS = [pytest.param(command, shown, id=f"{readme.name}:{command}")
          for readme in samples.READMES for command, shown in samples.blocks(readme.read_text(encoding="utf-8"))]


def test_each_readme_has_a_sample():
    assert {p.id.split(":")[0] for p in BLOCKS} == {"README.md", "README.zh-CN.md"}


@pytest.mark.parametrize(("command", "shown"), BLOCKS)
def test_the_sample_is_what_the_code_prints(command, shown):
    assert samples.run(command) == shown
