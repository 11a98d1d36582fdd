"""``triage completion SHELL``: the shell completion script for bash, zsh or fish, printed or
installed (typer's completion, for a shell named rather than detected)."""

from __future__ import annotations

from enum import Enum

import typer

from triage.cli.common import Arg, app

Shell = Enum("Shell", {s: s for s in ("bash", "zsh", "fish")}, type=str)  # type: ignore[misc]
COMPLETE_VAR = "_TRIAGE_COMPLETE"


@app.command()
def completion(shell: Shell = Arg(..., "SHELL"),
               install: bool = typer.Option(False, "--install",
                                            help="Install it for your user (bash: ~/.bash_completions, zsh: "
                                                 "~/.zfunc, fish: ~/.config/fish/completions).")) -> None:
    """Print (or --install) the shell completion script: SHELL is bash, zsh or fish.

    Print it into a file your shell reads, e.g. `triage completion bash > ~/.triage-complete.bash`
    and `source` it from ~/.bashrc; or let `--install` do it. Commands, options and rule-command
    subcommands complete.
    """
    from typer.completion import get_completion_script
    from typer.completion import install as install_script

    if install:
        name, path = install_script(shell=shell.value, prog_name="triage", complete_var=COMPLETE_VAR)
        print(f"{name} completion installed in {path}; it takes effect in a new shell")
        return
    print(get_completion_script(prog_name="triage", complete_var=COMPLETE_VAR, shell=shell.value))
