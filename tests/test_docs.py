"""The documented commands work and print what the docs show (first output line)."""

from __future__ import annotations

import re
import shlex

import pytest
from typer.testing import CliRunner

from tests.conftest import ROOT
from triage.cli.app import app

runner = CliRunner()
_BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def documented_sessions():
    for doc in sorted((ROOT / "docs").glob("*.md")):
        for block in _BLOCK.findall(doc.read_text(encoding="utf-8")):
            lines = block.splitlines()
            for i, line in enumerate(lines):
                if line.startswith("$ triage "):
                    shown = lines[i + 1] if i + 1 < len(lines) and not lines[i + 1].startswith("$ ") else None
                    yield pytest.param(line[2:], shown, id=f"{doc.name}:{line[2:40]}")


@pytest.mark.parametrize("command, first_line", list(documented_sessions()))
def test_documented_command(command, first_line, monkeypatch):
    monkeypatch.chdir(ROOT)
    args = shlex.split(command)[1:]
    result = runner.invoke(app, args)
    assert result.exit_code in (0, 1), result.output
    if first_line is not None:
        assert result.stdout.splitlines()[0] == first_line


def test_readme_commands_are_the_ci_commands():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```sh\n(python3 -m venv .*?)\n```", readme)
    assert len(blocks) == 2
    assert blocks[1] in (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert "triage analyze examples/" in blocks[0] and (ROOT / blocks[0].split()[-1]).is_file()


def test_chinese_readme_carries_the_same_set_up_commands_and_is_linked():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    zh = (ROOT / "README.zh-CN.md").read_text(encoding="utf-8")
    english = re.findall(r"```sh\n(python3 -m venv .*?)\n```", readme)
    chinese = re.findall(r"```sh\n(python3 -m venv .*?)\n```", zh)
    assert len(english) == 2 and chinese == english
    assert "(README.zh-CN.md)" in readme.split("## ", 1)[0]  # near the top
    assert "(README.md)" in zh.split("## ", 1)[0]
    for target in re.findall(r"\]\((docs/[^)#]+)", zh):
        assert (ROOT / target).is_file(), target


def test_readme_use_it_activates_the_venv_before_calling_triage():
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    use_it = readme.split("## Use it", 1)[1]
    first_call = use_it.index("triage analyze")
    assert ". .venv/bin/activate" in use_it[:first_call] and ".venv/bin/triage" in use_it[:first_call]


def test_no_tracked_file_refers_to_a_path_outside_the_repository():
    """The repository stands alone: no link to the workplace around it. Real logs in corpus/ quote
    their own machines' paths verbatim and are left out."""
    import subprocess

    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    outside = ["..", "/shared"], ["/", "work", "/"]  # spelled in pieces so this file does not match itself
    needles = ["".join(parts).encode() for parts in outside]
    bad = []
    for name in files.decode().split("\0"):
        if not name or (name.startswith("corpus/") and name.endswith("/log.txt")):
            continue
        try:
            data = (ROOT / name).read_bytes()
        except OSError:
            continue
        bad += [f"{name}: {needle.decode()}" for needle in needles if needle in data]
    assert bad == []


def test_contributing_covers_the_rule_workflow_and_what_it_names_exists():
    import triage

    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    for needle in ("printed_by", "examples.match", "confidence", "`zh`", "triage corpus add", "catalogs/",
                   "triage rules coverage", "--missing", "triage rules schema > rule.schema.json",
                   "# yaml-language-server: $schema=./rule.schema.json", "triage.render_text(report)",
                   "triage.render_markdown(report)"):
        assert needle in text, needle
    assert callable(triage.render_text) and callable(triage.render_markdown)
    help_text = {cmd: runner.invoke(app, ["rules", cmd, "--help"]).stdout for cmd in ("coverage", "schema")}
    assert "--missing" in help_text["coverage"] and "--builtin" in help_text["schema"]
    add = runner.invoke(app, ["corpus", "add", "--help"]).stdout
    assert all(option in add for option in ("--source", "--url", "--expect"))
