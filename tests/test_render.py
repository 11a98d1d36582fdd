"""The human renderers: headline, footer and Markdown wording."""

from __future__ import annotations

import gzip

from typer.testing import CliRunner

import triage
from triage.cli.app import app

runner = CliRunner()
OOM = "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB"


def _cut_gzip(tmp_path, lines: int):
    body = b"".join(b"INFO step %d: %s\n" % (i, bytes(str(i * 7919 % 104729), "ascii") * 20) for i in range(lines))
    packed = gzip.compress(body)
    path = tmp_path / "engine.log.gz"
    path.write_bytes(packed[: len(packed) // 2])
    return path


def test_truncated_input_headline_says_incomplete_and_what_was_read(tmp_path):
    path = _cut_gzip(tmp_path, 20000)
    report = triage.analyze(path)
    assert report.root_cause is None and report.findings == [] and report.lines_read > 0
    text = runner.invoke(app, ["analyze", str(path)])
    assert text.exit_code == 2
    first = text.stdout.splitlines()[0]
    assert first == (f"Input incomplete: no problem found in the {report.lines_read} lines read; {path} was not "
                     "read in full (see the input errors below)")
    assert text.stdout.splitlines()[-1].startswith(f"{report.lines_read} lines read, 0 findings, 1 input not read "
                                                   "in full, rules ")
    md = runner.invoke(app, ["analyze", str(path), "-f", "markdown"]).stdout
    assert md.splitlines()[0] == f"### triage: {first}"
    assert f"- {path}: compressed input is truncated or corrupt" in md


def test_counts_are_singular_for_one(tmp_path):
    log = tmp_path / "one.log"
    log.write_text("INFO one line\n")
    out = runner.invoke(app, ["analyze", str(log)]).stdout.splitlines()
    assert out[0] == "No problem found in 1 line"
    assert out[-1].startswith("1 line read, 0 findings, rules ")
    log.write_text(OOM + "\n")
    out = runner.invoke(app, ["analyze", str(log)]).stdout.splitlines()
    assert out[-1].startswith("1 line read, 1 finding, rules ")
    # a bare exception name states no message: nothing leads, the line is listed as unrecognised
    log.write_text("ZzzTotallyNewError\n")
    out = runner.invoke(app, ["analyze", str(log)]).stdout.splitlines()
    assert out[0] == f"No known root cause: 1 unrecognised error line; first at {log}:1"


def test_markdown_names_the_root_cause_once(tmp_path):
    log = tmp_path / "oom.log"
    log.write_text("INFO start\n" + OOM + "\n")
    md = runner.invoke(app, ["analyze", str(log), "-f", "markdown"]).stdout
    report = triage.analyze(log)
    assert md.count(report.root_cause.title) == 1
    assert md.splitlines()[0].startswith(f"### triage: Root cause: {report.root_cause.title} [")
    assert md.splitlines()[2].startswith(f"Layer `{report.root_cause.layer}`, component ")


def test_piped_text_report_never_wraps(tmp_path):
    import os
    import re
    import subprocess
    import sys

    folder = tmp_path / ("a-directory-with-a-name-long-enough-to-push-every-line-past-eighty-columns" * 2)
    folder.mkdir()
    path = _cut_gzip(folder, 20000)
    long_line = folder / "long.log"
    long_line.write_bytes(b"x" * (5 << 20) + b"\n")
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "LINES")}
    proc = subprocess.run([sys.executable, "-m", "triage", "analyze", str(path), str(long_line)], capture_output=True,
                          env=env, timeout=300)
    lines = proc.stdout.decode().splitlines()
    assert proc.returncode == 2
    assert lines[0].startswith("Input incomplete: ") and lines[0].endswith(" (see the input errors below)")
    assert str(path) in lines[0]
    assert f"note: {long_line}:1 is {5 << 20} bytes long; matched on its first 4194304 bytes" in lines
    assert re.fullmatch(r"\d+ lines read, 0 findings, 1 input not read in full, rules [0-9a-f]{16}, "
                        r"compat [0-9a-f]{16}", lines[-1]), lines[-2:]
    assert proc.stderr.decode().count("\n") == 1  # the input error: one whole line


def test_console_never_wraps_when_not_a_terminal():
    from triage.cli.console import console

    assert console().soft_wrap is True and console(stderr=True).soft_wrap is True  # pytest captures both


def test_render_functions_give_what_the_cli_prints(tmp_path, monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    log = tmp_path / "oom.log"
    log.write_text("INFO start\n" + OOM + "\nZzzTotallyNewError: flux capacitor\n")
    report = triage.analyze(log)
    assert triage.render_text(report) == runner.invoke(app, ["analyze", str(log)]).stdout
    assert triage.render_markdown(report) + "\n" == runner.invoke(app, ["analyze", str(log), "-f", "markdown"]).stdout
    colored = triage.render_text(report, color=True)
    assert "\x1b[" in colored and colored.splitlines()[0].endswith(report.root_cause.fix[0] + "\x1b[0m")
