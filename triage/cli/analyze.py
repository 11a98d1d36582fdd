"""The diagnosing commands: ``analyze``, ``merge``, ``explain`` and ``version``; their reading loop
(live findings, Ctrl-C and SIGTERM) and the report in each output format."""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from triage.cli.common import (
    Arg,
    DisableOpt,
    FailOnOpt,
    Format,
    FormatOpt,
    LangOpt,
    RedactOpt,
    RulesOpt,
    Severity,
    _fail,
    _jobs,
    _lang,
    _load,
    app,
)
from triage.cli.console import console
from triage.errors import EXIT_INPUT, InputError, TriageError
from triage.util.gc_pause import resume_frozen


@app.command()
def analyze(
    paths: list[str] = Arg(None, "FILE"),
    format: Format = FormatOpt,
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = FailOnOpt,
    matcher: str = typer.Option(None, "--matcher", metavar="NAME", help="auto, hyperscan, literal or reference."),
    redact: bool = RedactOpt,
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
    from triage.run.analysis import Analysis
    from triage.run.feed import SMALL_INPUT, expand_inputs, total_size, with_node

    fmt = format.value
    stopped, live = None, False
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
            from triage.run.fanout import ray_summaries

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
            stopped = _run(analysis, sources, fmt, redactor, follow, as_text, njobs, size)
            live = follow or any(s.path == "-" for s in sources)
            if sources and getattr(analysis, "skipped_binary", 0) == len(sources) and stopped is None:
                # a directory or archive of binaries only: nothing readable, like one named binary file
                raise InputError(f"{', '.join(paths)}: nothing readable: {len(sources)} binary file(s) skipped "
                                 "(--text reads them anyway)")
    except TriageError as exc:
        raise _fail(str(exc), exc.exit_code) from None
    except ValueError as exc:
        raise _fail(str(exc), EXIT_INPUT) from None
    except KeyboardInterrupt as exc:  # during start-up (rules, inputs): nothing was read
        raise typer.Exit(143 if isinstance(exc, Terminated) else 130) from None
    if fmt == "summary":
        if stopped is not None and not live:  # a summary of part of the input says so, and fails
            analysis.note(f"reading was interrupted by {stopped} after {analysis.lines_read} lines: "
                          "the rest was not read")
        summary = analysis.summary()
        if node is not None:
            summary = summary.model_copy(update={"host": node})
        print(summary.model_dump_json())
        for problem in summary.input_errors:
            console(stderr=True).print(f"triage: {problem.message}", style="red", highlight=False, soft_wrap=True,
                                       markup=False)
        raise typer.Exit(EXIT_INPUT if summary.input_errors else
                         (143 if stopped == "SIGTERM" else 130) if stopped and not live else 0)
    report = analysis.report()
    if stopped is not None:
        report = report.model_copy(update={"ended_by" if live else "interrupted": stopped})
    if fmt == "jsonl":
        from triage.render.machine import withdrawn_lines

        for line in withdrawn_lines(report, getattr(analysis, "announced", []), redactor):
            print(line, flush=True)
    report = _render(report, fmt, redactor)
    for problem in report.input_errors:
        console(stderr=True).print(f"triage: {problem.message}", style="red", highlight=False, soft_wrap=True,
                                   markup=False)
    raise typer.Exit(report.exit_code(fail_on.value))


@app.command()
def merge(
    summaries: list[Path] = Arg(..., "SUMMARY"),
    format: Format = FormatOpt,
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = FailOnOpt,
    redact: bool = RedactOpt,
    lang: str = LangOpt,
) -> None:
    """Correlate summaries (`triage analyze --format summary`, one per node or host) into one report.

    SUMMARY: summary files (JSON), or - for standard input (one summary a line). The report is the
    same as analysing all their inputs at once; a summary made with other rules is noted.
    """
    from pydantic import ValidationError

    from triage.run.steps import merge as merge_summaries
    from triage.scan.summary import Summary

    fmt = format.value
    if fmt == "summary":
        raise _fail("merge prints a report: choose text, json, jsonl, markdown, sarif, html or github", EXIT_INPUT)
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
    from triage.render.redact import Redactor

    return Redactor()


class Terminated(KeyboardInterrupt):
    """SIGTERM (a container stop, `timeout`): ends reading like Ctrl-C."""


def _interrupt(signum, frame) -> None:
    raise Terminated


#: Bytes of input above which reading with the pure-Python matcher (no Hyperscan wheel) is said on stderr.
SLOW_NOTICE = 64 << 20


def _no_hyperscan() -> bool:
    """Whether the hyperscan package cannot be imported here (no wheel for this platform)."""
    import importlib.util

    return importlib.util.find_spec("hyperscan") is None


def _line_out(text: str) -> None:
    """One jsonl record with its newline in one write: a signal arriving between the record and its
    newline would glue it to the closing summary line."""
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _run(analysis, sources, fmt: str, redactor=None, follow: bool = False, as_text: bool = False,
         jobs: int | None = 1, size: int = 0) -> str | None:
    """Feed ``sources`` to ``analysis``, streaming findings and unexplained lines as they appear;
    Ctrl-C or SIGTERM stops reading and the caller reports what was read. ``jobs`` None picks the
    number of processes (serial for small input, stdin and --follow). Returns the signal that
    stopped reading (``SIGINT`` or ``SIGTERM``), or None when everything was read."""
    import signal

    from triage.cli.progress import progress_for
    from triage.render import machine
    from triage.run.feed import feed_source
    from triage.run.parallel import PARALLEL_THRESHOLD, available_cpus, plan, read_all

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
            _line_out(machine.finding_line(finding))
        elif live and out is not None:
            out.print(text.stream_line(finding, lang), highlight=False, soft_wrap=True, markup=False)

    analysis.announced = []  # the unexplained lines announced live: withdrawn at the end if the report explains them

    def unexplained(file, u) -> None:
        from triage.report.models import Origin, Unrecognised

        analysis.announced.append((file, u.line, u.kind, u.text))
        line = Unrecognised(file=file, line=u.line, text=u.text, kind=u.kind,
                            origin=Origin(**u.origin) if u.origin else Origin())
        if redactor is not None:
            line = redactor.unrecognised(line)
        if fmt == "jsonl":
            _line_out(machine.unexplained_line(line))
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
        if size >= SLOW_NOTICE and getattr(analysis.matcher, "name", "") == "literal" and _no_hyperscan():
            console(stderr=True).print(
                f"triage: no Hyperscan on this platform: reading {size >> 20} MiB with the pure-Python matcher, "
                "about 50x slower (docs/getting-started.md, 'Platforms')", style="dim", highlight=False,
                soft_wrap=True, markup=False)
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
        return None
    except KeyboardInterrupt as exc:  # report what was read so far
        return "SIGTERM" if isinstance(exc, Terminated) else "SIGINT"
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
    elif fmt == "github":
        from triage.render import github

        print(github.render(report))
    elif fmt == "html":
        from triage.render import html

        print(html.render(report), end="")
    elif fmt == "summary":
        raise ValueError("a summary is not a report")
    return report


@app.command()
def explain(
    text: list[str] = Arg(None, "LINE"),
    format: Format = FormatOpt,
    rules: list[Path] = RulesOpt,
    disable: list[str] = DisableOpt,
    fail_on: Severity = FailOnOpt,
    redact: bool = RedactOpt,
    lang: str = LangOpt,
) -> None:
    """Diagnose a message pasted on the command line (same diagnosis as analyze).

    LINE: one or more pasted log lines (quote each); when every argument is a single word, they
    are one line the shell split, joined with spaces. - or nothing reads standard input.
    """
    from triage.api import explain as explain_text

    if not text or text == ["-"]:
        if sys.stdin.isatty():
            raise _fail('give the lines to explain as arguments (triage explain "...") or pipe them in', EXIT_INPUT)
        body: str | bytes = sys.stdin.buffer.read()  # bytes: sniffed for BOM / UTF-16 / GBK like a file
    elif len(text) > 1 and not any(any(c.isspace() for c in word) for word in text):
        body = " ".join(text)  # every argument one word: the shell split one unquoted line
    else:
        body = "\n".join(text)
    if format.value == "summary":
        raise _fail("explain prints a report: choose text, json, jsonl, markdown, sarif, html or github", EXIT_INPUT)
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
    from triage.util.plural import count
    from triage.version import __version__

    rs = default_rules()
    print(f"triage {__version__}, {count(len(rs), 'rule')}, digest {rs.digest}")
