"""Shell completion: `triage completion bash|zsh|fish` prints the script, `--install` installs it,
and the script's protocol (the _TRIAGE_COMPLETE environment variable) completes commands and
subcommands."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

# the console script itself: completion is keyed by the program's name
CLI = [os.path.join(os.path.dirname(sys.executable), "triage")]


def _run(args, env=None):
    return subprocess.run([*CLI, *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, **(env or {})})


@pytest.mark.parametrize(("shell", "installed"), [("bash", ".bash_completions/triage.sh"), ("zsh", ".zfunc/_triage"),
                                                  ("fish", ".config/fish/completions/triage.fish")])
def test_completion_installs(tmp_path, shell, installed):
    printed = _run(["completion", shell])
    assert printed.returncode == 0 and "_TRIAGE_COMPLETE" in printed.stdout
    result = _run(["completion", shell, "--install"], env={"HOME": str(tmp_path)})
    assert result.returncode == 0, result.stderr
    script = (tmp_path / installed).read_text()
    assert "_TRIAGE_COMPLETE" in script


def test_completion_protocol_completes_commands():
    zsh = _run([], env={"_TRIAGE_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "triage ana"})
    assert '"analyze"' in zsh.stdout
    fish = _run([], env={"_TRIAGE_COMPLETE": "complete_fish", "_TYPER_COMPLETE_FISH_ACTION": "get-args",
                         "_TYPER_COMPLETE_ARGS": "triage rules sh"})
    assert fish.stdout.startswith("show\t")
    bash = _run([], env={"_TRIAGE_COMPLETE": "complete_bash", "COMP_WORDS": "triage me", "COMP_CWORD": "1"})
    assert bash.stdout.split() == ["merge"]
