"""What the commands of the ``triage`` command line share: the typer app and its ``rules``
group, the options every command takes, the rule loading the options and ``.triage.yaml`` ask for,
and failing with an exit code. Exit codes: 0 clean, 1 findings, 2 usage/input, 3 rules."""

from __future__ import annotations

from enum import Enum
from pathlib import Path

import typer

from triage.cli.console import console
from triage.render import FORMATS

app = typer.Typer(add_completion=False, no_args_is_help=True, rich_markup_mode=None, pretty_exceptions_enable=False,
                  help="Diagnose failed LLM deployments on Huawei Ascend NPUs from their raw logs.")
rules_app = typer.Typer(no_args_is_help=True, help="Inspect, check and test rules.")
app.add_typer(rules_app, name="rules")

Format = Enum("Format", {f: f for f in FORMATS}, type=str)  # type: ignore[misc]
Severity = Enum("Severity", {s: s for s in ("critical", "error", "warning", "info")}, type=str)  # type: ignore[misc]


def _fail(message: str, code: int) -> typer.Exit:
    console(stderr=True).print(f"triage: {message}", style="red", highlight=False, soft_wrap=True, markup=False)
    return typer.Exit(code)


def _load(rules: list[Path] | None, disable: list[str] | None, no_builtin: bool = False):
    """The rule set the options and the config file ask for. Raises :class:`UsageError` (exit 2)
    when only ``--disable`` names unknown ids, :class:`RulesInvalid` (exit 3) for anything else."""
    from triage.cli.config import load_config
    from triage.errors import RulesInvalid, UsageError
    from triage.knowledge.loader import entry_point_packs, installed_packs, load_rules, user_packs_from_env

    config = load_config(Path.cwd())
    packs = [*entry_point_packs(), *installed_packs(), *config.rules, *user_packs_from_env(), *(rules or [])]
    origins = {rid: config.source or "<config>" for rid in config.disable}
    origins.update({rid: "--disable" for rid in disable or []})
    try:
        return load_rules(packs, builtin=not no_builtin, disabled=[*config.disable, *(disable or [])],
                          disabled_by=origins)
    except RulesInvalid as exc:
        if exc.problems and all(p.file == "--disable" for p in exc.problems):
            raise UsageError("; ".join(f"--disable: {p.message}" for p in exc.problems)
                             + " (`triage rules list` lists the rule ids)") from None
        raise


def _version(value: bool) -> None:
    if value:
        from triage.version import __version__

        print(f"triage {__version__}")
        raise typer.Exit()


@app.callback()
def _main(version: bool = typer.Option(False, "--version", callback=_version, is_eager=True,
                                       help="Print the version and exit.")) -> None:
    """Diagnose failed LLM deployments on Huawei Ascend NPUs from their raw logs."""


def Arg(default, metavar: str):  # noqa: N802  (reads like typer.Argument)
    """A positional argument named ``metavar`` in the usage line and described in the command's
    help text: typer's own argument list would print a Python type (``<list[str]>``) beside it."""
    return typer.Argument(default, metavar=metavar, hidden=True)


RulesOpt = typer.Option(None, "--rules", metavar="PACK", help="Extra rule pack (directory or file); repeatable.")
DisableOpt = typer.Option(None, "--disable", metavar="ID", help="Rule id to silence; repeatable.")
#: the report options that analyze, merge and explain share
FormatOpt = typer.Option("text", "--format", "-f", case_sensitive=False, help="Output format.")
FailOnOpt = typer.Option("error", "--fail-on", case_sensitive=False, help="Lowest severity that gives exit code 1.")
RedactOpt = typer.Option(False, "--redact", help="Replace IPs, hosts, user names, e-mails and secrets.")


LangOpt = typer.Option(None, "--lang", metavar="LANG",
                       help="Language of the report: en or zh (default: TRIAGE_LANG, else the locale).")


def _lang(value: str | None) -> str:
    from triage.errors import UsageError
    from triage.report.i18n import resolve_lang

    try:
        return resolve_lang(value)
    except ValueError as exc:
        raise UsageError(f"--lang: {exc}") from None


def _jobs(value: str) -> int | None:
    from triage.errors import UsageError

    if value.lower() == "auto":
        return None
    try:
        jobs = int(value)
    except ValueError:
        jobs = 0
    if jobs < 1:
        raise UsageError(f"--jobs: `{value}` is not a number of processes (1, 2, ... or auto)")
    return jobs
