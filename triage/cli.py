"""The ``triage`` command line (typer). Exit codes: 0 clean, 1 findings, 2 usage/input, 3 rules."""

from __future__ import annotations

import sys
from enum import Enum
from pathlib import Path

import typer

from triage.console import console
from triage.errors import EXIT_INPUT, TriageError
from triage.gc_pause import resume_frozen
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
    from triage.config import load_config
    from triage.errors import RulesInvalid, UsageError
    from triage.loader import entry_point_packs, load_rules, user_packs_from_env

    config = load_config(Path.cwd())
    packs = [*entry_point_packs(), *config.rules, *user_packs_from_env(), *(rules or [])]
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


LangOpt = typer.Option(None, "--lang", metavar="LANG",
                       help="Language of the report: en or zh (default: TRIAGE_LANG, else the locale).")


def _lang(value: str | None) -> str:
    from triage.errors import UsageError
    from triage.i18n import resolve_lang

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


@app.command()
def analyze(
    paths: list[str] = Arg(None, "FILE"),
    format: Format = typer.Option("text", "--format", "-f", case_sensitive=False, help="Output format."),
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = typer.Option("error", "--fail-on", case_sensitive=False,
                                     help="Lowest severity that gives exit code 1."),
    matcher: str = typer.Option(None, "--matcher", metavar="NAME", help="auto, hyperscan, literal or reference."),
    redact: bool = typer.Option(False, "--redact", help="Replace IPs, hosts, user names, e-mails and secrets."),
    follow: bool = typer.Option(False, "--follow",
                                help="Keep reading a growing file by name, like tail -F (Ctrl-C or SIGTERM ends)."),
    as_text: bool = typer.Option(False, "--text", help="Read files that look binary as text (like grep --text)."),
    lang: str = LangOpt,
    jobs: str = typer.Option("auto", "--jobs", "-j", metavar="N",
                             help="Processes to read with (auto: the CPUs this process may use; serial for "
                                  "small input, stdin and --follow). The report is the same for any N."),
    node_level: int = typer.Option(None, "--node-level", metavar="N", min=1,
                                   help="Take the N-th folder level below a named directory as the node name."),
    node: str = typer.Option(None, "--node", metavar="NAME",
                             help="The node these logs come from, where their lines and paths name none "
                                  "(for --format summary on each node, then triage merge)."),
    ray: bool = typer.Option(False, "--ray", help="Fan out over a Ray cluster: one task per path (needs triage[ray])."),
    ray_address: str = typer.Option(None, "--ray-address", metavar="ADDR",
                                    help="The Ray cluster to use (default: RAY_ADDRESS, else a local Ray)."),
) -> None:
    """Diagnose logs: root cause, layer and fix first, then the other findings.

    FILE: log files, directories (every file below), compressed files (.gz, .xz, .bz2, .zst) and
    archives (.tar.*, .zip), or - for standard input (the default). With --ray, a path may be
    NODE_IP:PATH to read a node-local path on that node.
    """
    from triage.api import SMALL_INPUT, expand_inputs, total_size, with_node
    from triage.engine import Analysis

    fmt = format.value
    if not paths and sys.stdin.isatty() and not ray:
        console(stderr=True).print("triage: reading the log from standard input (Ctrl-D ends it); "
                                   "give a file name to analyze a file", style="dim", soft_wrap=True)
    try:
        language = _lang(lang)
        njobs = _jobs(jobs)
        if fmt == "summary" and redact:
            raise _fail("--redact applies when summaries are merged: `triage merge --redact ...`", EXIT_INPUT)
        ruleset = _load(rules, disable)
        redactor = _redactor(redact)
        if ray:
            if follow or not paths or "-" in paths:
                raise _fail("--ray reads named paths (not stdin, not --follow)", EXIT_INPUT)
            from triage.fanout import ray_summaries

            analysis = Analysis(ruleset, matcher, lang=language)
            resume_frozen()
            for summary in ray_summaries(paths, rules=rules, disable=disable, address=ray_address,
                                         node_level=node_level, as_text=as_text):
                analysis.add_summary(summary)
        else:
            sources, problems = expand_inputs(paths or ["-"], node_level=node_level)
            sources = with_node(sources, node)
            size = total_size(sources)
            if matcher is None and size < SMALL_INPUT:
                matcher = "small"
            if follow and (len(sources) != 1 or sources[0].path == "-" or sources[0].member):
                raise _fail("--follow takes exactly one plain file", EXIT_INPUT)
            analysis = Analysis(ruleset, matcher, lang=language)
            analysis.input_errors.extend(problems)  # named paths that do not exist: the others are read
            _run(analysis, sources, fmt, redactor, follow, as_text, njobs, size)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    except ValueError as exc:
        raise _fail(str(exc), EXIT_INPUT) from None
    if fmt == "summary":
        summary = analysis.summary()
        if node is not None:
            summary = summary.model_copy(update={"host": node})
        print(summary.model_dump_json())
        for problem in summary.input_errors:
            console(stderr=True).print(f"triage: {problem.message}", style="red", highlight=False, soft_wrap=True,
                                       markup=False)
        raise typer.Exit(EXIT_INPUT if summary.input_errors else 0)
    report = _render(analysis.report(), fmt, redactor)
    for problem in report.input_errors:
        console(stderr=True).print(f"triage: {problem.message}", style="red", highlight=False, soft_wrap=True,
                                   markup=False)
    raise typer.Exit(report.exit_code(fail_on.value))


@app.command()
def merge(
    summaries: list[Path] = Arg(..., "SUMMARY"),
    format: Format = typer.Option("text", "--format", "-f", case_sensitive=False, help="Output format."),
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = typer.Option("error", "--fail-on", case_sensitive=False,
                                     help="Lowest severity that gives exit code 1."),
    redact: bool = typer.Option(False, "--redact", help="Replace IPs, hosts, user names, e-mails and secrets."),
    lang: str = LangOpt,
) -> None:
    """Correlate summaries (`triage analyze --format summary`, one per node or host) into one report.

    SUMMARY: summary files (JSON), or - for standard input (one summary a line). The report is the
    same as analysing all their inputs at once; a summary made with other rules is noted.
    """
    from pydantic import ValidationError

    from triage.api import merge as merge_summaries
    from triage.summary import Summary

    fmt = format.value
    if fmt == "summary":
        raise _fail("merge prints a report: choose text, json, jsonl, markdown or sarif", EXIT_INPUT)
    loaded = []
    try:
        language = _lang(lang)
        for path in summaries:
            text = sys.stdin.read() if str(path) == "-" else _read_text(path)
            for n, line in enumerate(x for x in text.splitlines() if x.strip()):
                try:
                    loaded.append(Summary.model_validate_json(line))
                except ValidationError as exc:
                    raise _fail(f"{path}: summary {n + 1}: not a triage summary ({exc.error_count()} problems, "
                                f"first: {exc.errors()[0]['msg']})", EXIT_INPUT) from None
        report = merge_summaries(loaded, rules=_load(rules, disable), lang=language)
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    report = _render(report, fmt, _redactor(redact))
    raise typer.Exit(report.exit_code(fail_on.value))


def _read_text(path: Path) -> str:
    from triage.errors import InputError

    try:
        return path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise InputError(f"{path}: no such file") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise InputError(f"{path}: cannot read: {exc}") from None


def _redactor(enabled: bool):
    if not enabled:
        return None
    from triage.redact import Redactor

    return Redactor()


def _interrupt(signum, frame) -> None:
    raise KeyboardInterrupt  # SIGTERM (a container stop, `timeout`) ends reading like Ctrl-C


def _run(analysis, sources, fmt: str, redactor=None, follow: bool = False, as_text: bool = False,
         jobs: int | None = 1, size: int = 0) -> None:
    """Feed ``sources`` to ``analysis``, streaming findings and unexplained lines as they appear;
    Ctrl-C or SIGTERM stops reading and the caller reports what was read. ``jobs`` None picks the
    number of processes (serial for small input, stdin and --follow)."""
    import signal

    from triage.api import feed_source
    from triage.parallel import PARALLEL_THRESHOLD, available_cpus, plan, read_all
    from triage.progress import progress_for
    from triage.render import machine

    streaming = follow or any(s.path == "-" for s in sources)
    live = streaming and fmt == "text"
    if live:
        from triage.render import text  # rich: only a terminal report loads it
    out = console(stderr=True) if live else None
    lang = analysis.lang

    def announce(finding) -> None:
        if redactor is not None:
            finding = redactor.finding(finding)
        if fmt == "jsonl":
            print(machine.finding_line(finding), flush=True)
        elif live and out is not None:
            out.print(text.stream_line(finding, lang), highlight=False, soft_wrap=True, markup=False)

    def unexplained(file, u) -> None:
        from triage.report import Origin, Unrecognised

        line = Unrecognised(file=file, line=u.line, text=u.text, kind=u.kind,
                            origin=Origin(**u.origin) if u.origin else Origin())
        if redactor is not None:
            line = redactor.unrecognised(line)
        if fmt == "jsonl":
            print(machine.unexplained_line(line), flush=True)
        elif live and out is not None:
            out.print(text.unexplained_line(line, lang), style="yellow", highlight=False, soft_wrap=True,
                      markup=False)

    if fmt in ("jsonl", "text"):
        analysis.on_unexplained = unexplained
    try:
        previous = signal.signal(signal.SIGTERM, _interrupt)
    except (ValueError, AttributeError):  # not the main thread, or no SIGTERM on this platform
        previous = None
    try:
        _ = analysis.matcher  # built in the paused start-up (Ctrl-C meanwhile reports nothing read, no traceback)
        resume_frozen()
        with progress_for(sources, enabled=not live) as advance:
            if streaming:
                analysis.on_block = advance
                for source in sources:
                    for finding in feed_source(analysis, source, follow=follow, as_text=as_text):
                        announce(finding)
            else:
                if jobs is None:
                    jobs = available_cpus() if size >= PARALLEL_THRESHOLD else 1
                if jobs == 1:
                    analysis.on_block = advance

                def done(piece, found) -> None:
                    if advance is not None and jobs > 1:
                        advance(piece.size)
                    for finding in found:
                        announce(finding)

                read_all(analysis, plan(sources), jobs, on_piece=done, as_text=as_text)
    except KeyboardInterrupt:
        pass  # report what was read so far
    finally:
        analysis.on_block = None
        analysis.on_unexplained = None
        if previous is not None:
            signal.signal(signal.SIGTERM, previous)


def _render(report, fmt: str, redactor=None):
    """Print ``report`` in ``fmt`` (redacted first when asked); returns what was printed."""
    from triage.render import machine

    if redactor is not None:
        report = redactor.report(report)

    if fmt == "text":
        from triage.render import text

        text.render(report, console())
    elif fmt == "json":
        print(machine.to_json(report))
    elif fmt == "jsonl":
        # findings reasoned from facts exist only once the whole input is read: they close the stream
        for finding in report.findings:
            if finding.pack == "compat":
                print(machine.finding_line(finding))
        print(machine.summary_line(report))
    elif fmt == "markdown":
        from triage.render import markdown

        print(markdown.render(report))
    elif fmt == "sarif":
        from triage.render import sarif

        print(sarif.render(report))
    elif fmt == "summary":
        raise ValueError("a summary is not a report")
    return report


@app.command()
def explain(
    text: list[str] = Arg(None, "LINE"),
    format: Format = typer.Option("text", "--format", "-f", case_sensitive=False, help="Output format."),
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = typer.Option("error", "--fail-on", case_sensitive=False,
                                     help="Lowest severity that gives exit code 1."),
    redact: bool = typer.Option(False, "--redact", help="Replace IPs, hosts, user names, e-mails and secrets."),
    lang: str = LangOpt,
) -> None:
    """Diagnose a message pasted on the command line (same diagnosis as analyze).

    LINE: one or more pasted log lines; - or nothing reads standard input.
    """
    from triage.api import explain as explain_text

    if not text or text == ["-"]:
        if sys.stdin.isatty():
            raise _fail('give the lines to explain as arguments (triage explain "...") or pipe them in', EXIT_INPUT)
        body: str | bytes = sys.stdin.buffer.read()  # bytes: sniffed for BOM / UTF-16 / GBK like a file
    else:
        body = "\n".join(text)
    if format.value == "summary":
        raise _fail("explain prints a report: choose text, json, jsonl, markdown or sarif", EXIT_INPUT)
    try:
        loaded = _load(rules, disable)
        resume_frozen()
        report = explain_text(body, rules=loaded, lang=_lang(lang))
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    except ValueError as exc:
        raise _fail(str(exc), EXIT_INPUT) from None
    _render(report, format.value, _redactor(redact))
    raise typer.Exit(report.exit_code(fail_on.value))


@app.command()
def version() -> None:
    """Print the version of triage and of its knowledge base."""
    from triage.api import default_rules
    from triage.plural import count
    from triage.version import __version__

    rs = default_rules()
    print(f"triage {__version__}, {count(len(rs), 'rule')}, digest {rs.digest}")


from triage import cli_collect, cli_corpus, cli_rules  # noqa: E402,F401  (register the subcommands)

#: Commands whose start-up (rules, knowledge, matcher: ~20,000 objects, no garbage) runs with the
#: garbage collector paused until the reading starts (:func:`triage.gc_pause.resume_frozen`).
_PAUSED_START = frozenset({"analyze", "explain"})


def main() -> None:
    """Console-script entry point."""
    if sys.argv[1:2] and sys.argv[1] in _PAUSED_START:
        import gc

        gc.disable()  # until resume_frozen()
    try:
        app()
    except BrokenPipeError:  # e.g. `triage analyze x | head`
        sys.stderr.close()
        sys.exit(0)
    except Exception as exc:  # never a traceback: one line, and where to report it
        console(stderr=True).print(f"triage: internal error: {type(exc).__name__}: {exc} "
                                   "(please report it with the command that caused it)", style="red",
                                   highlight=False, markup=False, soft_wrap=True)
        sys.exit(EXIT_INPUT)
