"""Hostile input: every file either analyses correctly (true line numbers, nothing dropped) or
fails with a one-line error and exit code 2. Never a traceback."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triage.cli import app

HOSTILE = Path(__file__).parent / "hostile"
OOM = "memory.npu-oom-caching-allocator"
runner = CliRunner()


def run(*args: str, input: str | None = None):
    result = runner.invoke(app, list(args), input=input)
    assert "Traceback" not in result.output
    assert result.exception is None or isinstance(result.exception, SystemExit)
    return result


@pytest.mark.parametrize("name, line", [
    ("invalid-utf8.log", 2), ("gbk.log", 2), ("utf16-bom.log", 2), ("nul-bytes.log", 2),
    ("cr-only.log", 2), ("mixed-endings.log", 3),
])
def test_odd_encodings_and_line_ends_keep_line_numbers(name, line):
    result = run("analyze", str(HOSTILE / name), "-f", "json")
    data = json.loads(result.stdout)
    assert data["root_cause"]["rule_id"] == OOM
    assert data["root_cause"]["evidence"][0]["line"] == line
    assert "NPU out of memory" in data["root_cause"]["evidence"][0]["text"]


def test_gbk_text_is_transcoded_not_garbled():
    data = json.loads(run("analyze", str(HOSTILE / "gbk.log"), "-f", "json").stdout)
    assert data["lines_read"] == 3
    assert run("analyze", str(HOSTILE / "gbk.log")).exit_code == 1


def test_binary_file_is_read_with_replacement():
    raw = (HOSTILE / "binary.bin").read_bytes()
    expected_line = raw[: raw.index(b"RuntimeError")].count(b"\n") + 1
    data = json.loads(run("analyze", str(HOSTILE / "binary.bin"), "-f", "json").stdout)
    assert data["root_cause"]["first_line"] == expected_line
    assert data["lines_read"] == raw.count(b"\n") + (0 if raw.endswith(b"\n") else 1)


def test_empty_file_is_clean():
    result = run("analyze", str(HOSTILE / "empty.log"))
    assert result.exit_code == 0 and "0 lines" in result.stdout


@pytest.mark.parametrize("name", ["truncated.log.gz", "corrupt.log.gz"])
def test_broken_gzip_is_exit_2_with_one_line_error(name):
    result = run("analyze", str(HOSTILE / name))
    assert result.exit_code == 2
    errors = [line for line in result.stderr.splitlines() if line.startswith("triage:")]
    assert len(errors) == 1 and name in errors[0] and "truncated or corrupt" in errors[0]


def test_archives_are_read_member_by_member():
    for name, member in [("bundle.tar.gz", "asys/plog/plog-1.log"), ("bundle.zip", "slog/device-0/device-0.log")]:
        data = json.loads(run("analyze", str(HOSTILE / name), "-f", "json").stdout)
        assert data["root_cause"]["rule_id"] == OOM
        assert data["root_cause"]["evidence"][0]["file"] == f"{HOSTILE / name}:{member}"
        assert data["root_cause"]["evidence"][0]["line"] == 2


def test_directory_of_mixed_files_reports_what_it_can_and_the_bad_file():
    result = run("analyze", str(HOSTILE), "-f", "json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["root_cause"]["rule_id"] == OOM
    assert {Path(p["file"]).name for p in data["input_errors"]} == {"truncated.log.gz", "corrupt.log.gz"}


def test_file_that_vanishes_before_it_is_read(tmp_path, monkeypatch):
    import triage.sources as sources

    log = tmp_path / "gone.log"
    log.write_text("x\n")
    real_expand = sources.expand

    def expand_then_delete(paths):
        out = real_expand(paths)
        log.unlink()
        return out

    monkeypatch.setattr(sources, "expand", expand_then_delete)
    result = run("analyze", str(log))
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_over_long_line_is_matched_on_a_prefix_and_said_so(tmp_path):
    from triage.api import default_rules
    from triage.engine import Analysis

    line = b"RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; " \
           b"58.10 GiB already allocated; 1.10 GiB free; 58.60 GiB reserved in total by PyTorch) " + b"x" * 300_000
    analysis = Analysis(default_rules(), "hyperscan" if _has_hyperscan() else "literal", max_line=4096,
                        block_size=4096)
    list(analysis.feed(__import__("io").BytesIO(b"before\n" + line + b"\nafter\n")))
    report = analysis.report()
    assert report.lines_read == 3
    assert [(t.line, t.length) for t in report.truncated_lines] == [(2, len(line))]
    assert report.root_cause is not None and report.root_cause.first_line == 2


def _has_hyperscan() -> bool:
    try:
        import hyperscan  # noqa: F401
    except ImportError:
        return False
    return True


def test_stdin_closed_at_once_is_clean():
    proc = subprocess.run([sys.executable, "-c", "from triage.cli import main; main()", "analyze", "-"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("No problem found in 0 lines")


def test_backtracking_regex_that_slips_past_lint_is_time_bounded(tmp_path, monkeypatch):
    import io
    import time

    import triage.compiled as compiled
    from triage.engine import Analysis
    from triage.loader import load_rules

    # (x|xx)+y is exponential in a backtracking engine; build the rule past the loader's lint.
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "r.yaml").write_text(MINIMAL_RULE_SLOW)
    monkeypatch.setattr("triage.loader.check_pattern", lambda p: [])
    monkeypatch.setattr(compiled, "MATCH_TIMEOUT", 0.2)
    rules = load_rules([pack], builtin=False)
    analysis = Analysis(rules, "reference")
    start = time.perf_counter()
    list(analysis.feed(io.BytesIO(b"slow " + b"x" * 60 + b"\n")))
    report = analysis.report()
    assert time.perf_counter() - start < 30  # exponential without the timeout: it would never end
    assert report.findings == [] and "gave up after 0.2 s" in report.notices[0]


MINIMAL_RULE_SLOW = """\
rules:
  - id: test.slow
    title: A pathological rule
    layer: framework
    component: test
    severity: error
    match:
      any:
        - regex: 'slow (x|xx)+y'
    cause: A regex that backtracks for ever.
    fix: [none]
    references: [https://example.org]
    examples: {match: ["slow xy"], no_match: ["fast"]}
"""


def test_explain_sniffs_bytes_like_a_file():
    import codecs

    import triage

    line = "RuntimeError: NPU out of memory."
    for data in (codecs.BOM_UTF8 + line.encode(), codecs.BOM_UTF16_LE + line.encode("utf-16-le"),
                 ("信息\n" + line).encode("gb18030")):
        report = triage.explain(data)
        assert report.root_cause is not None and report.root_cause.rule_id == "memory.npu-oom-short-message", data


def test_long_utf8_first_line_is_not_taken_for_gbk(tmp_path):
    log = tmp_path / "zh.log"
    log.write_bytes(("ts=1 " + "错误 " * 1300 + "\nRuntimeError: 模型加载失败\n").encode())
    data = json.loads(run("analyze", str(log), "-f", "json").stdout)
    assert data["root_cause"]["evidence"][0]["text"] == "RuntimeError: 模型加载失败"
