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

from triage.cli.app import app

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
    ("cr-only.log", 2), ("mixed-endings.log", 3), ("utf16-nobom.log", 2), ("utf16be-nobom.log", 2),
    ("nul-padded.log", 4),
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


def test_binary_file_named_is_an_input_error_and_text_reads_it():
    result = run("analyze", str(HOSTILE / "binary.bin"), "-f", "json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["lines_read"] == 0 and data["findings"] == []
    assert [p["file"] for p in data["input_errors"]] == [str(HOSTILE / "binary.bin")]
    assert "binary file" in data["input_errors"][0]["message"]
    # --text reads it as grep --text would: bytes replaced, line numbers true
    raw = (HOSTILE / "binary.bin").read_bytes()
    expected_line = raw[: raw.index(b"RuntimeError")].count(b"\n") + 1
    data = json.loads(run("analyze", "--text", str(HOSTILE / "binary.bin"), "-f", "json").stdout)
    assert data["root_cause"]["first_line"] == expected_line
    assert data["lines_read"] == raw.count(b"\n") + (0 if raw.endswith(b"\n") else 1)


def test_a_real_executable_is_binary():
    result = run("analyze", sys.executable)
    assert result.exit_code == 2
    assert f"triage: {sys.executable}: binary file, not a log" in result.stderr


def test_binary_file_in_a_directory_is_skipped_with_a_notice(tmp_path):
    (tmp_path / "core.bin").write_bytes((HOSTILE / "binary.bin").read_bytes())
    (tmp_path / "run.log").write_bytes((HOSTILE / "nul-padded.log").read_bytes())
    result = run("analyze", str(tmp_path), "-f", "json")
    data = json.loads(result.stdout)
    assert result.exit_code == 1 and data["input_errors"] == []
    assert data["root_cause"]["rule_id"] == OOM and data["root_cause"]["first_file"] == str(tmp_path / "run.log")
    assert data["notices"] == [f"{tmp_path / 'core.bin'}: skipped: binary file, not a log (--text reads it anyway)"]


@pytest.mark.parametrize("sample, encoding", [
    ("utf16-nobom.log", "utf-16-le"), ("utf16be-nobom.log", "utf-16-be"), ("nul-padded.log", None),
    ("nul-bytes.log", None), ("gbk.log", "gb18030"),
])
def test_sniff_keeps_padded_and_bomless_logs_as_text(sample, encoding):
    from triage.inputs.decode import sniff

    assert sniff((HOSTILE / sample).read_bytes()) == (encoding, None)


def test_sniff_calls_binary_what_is_mostly_not_text():
    from triage.inputs.decode import BINARY_SHARE, sniff

    encoding, share = sniff((HOSTILE / "binary.bin").read_bytes())
    assert encoding is None and share is not None and share > BINARY_SHARE
    assert sniff(b"\0" * 5000)[1] is None  # an all-NUL file is a log padded after a crash: text, empty


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
    assert data["notices"] == [f"{HOSTILE / 'binary.bin'}: skipped: binary file, not a log (--text reads it anyway)"]


LOG = b"".join(b"INFO step %d of the warm-up\n" % i for i in range(300)) + (HOSTILE / "nul-bytes.log").read_bytes()


def _compress(kind: str, data: bytes) -> bytes:
    import bz2
    import lzma

    import zstandard

    return {"xz": lzma.compress, "bz2": bz2.compress, "zst": zstandard.ZstdCompressor().compress,
            "gz": __import__("gzip").compress}[kind](data)


@pytest.mark.parametrize("kind", ["xz", "bz2", "zst", "gz"])
@pytest.mark.parametrize("suffix", [True, False])
def test_compressed_logs_are_read_by_magic_and_suffix(tmp_path, kind, suffix):
    path = tmp_path / (f"engine.log.{kind}" if suffix else "engine-log")
    path.write_bytes(_compress(kind, LOG))
    data = json.loads(run("analyze", str(path), "-f", "json").stdout)
    assert data["root_cause"]["rule_id"] == OOM
    assert data["root_cause"]["evidence"][0]["line"] == 302  # 300 warm-up lines, then the sample's line 2
    assert data["lines_read"] == LOG.count(b"\n") and data["input_errors"] == []


@pytest.mark.parametrize("kind", ["xz", "bz2", "zst"])
def test_truncated_compressed_log_is_exit_2_and_keeps_what_was_read(tmp_path, kind):
    packed = _compress(kind, b"".join(b"INFO line %d of a long log that was cut\n" % i for i in range(100000)))
    path = tmp_path / f"cut.log.{kind}"
    path.write_bytes(packed[: len(packed) // 2])
    result = run("analyze", str(path), "-f", "json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert 0 < data["lines_read"] < 100000
    [problem] = data["input_errors"]
    assert problem["message"].startswith(f"{path}: compressed input is truncated or corrupt")
    assert f"(read {data['lines_read']} lines before it)" in problem["message"]


@pytest.mark.parametrize("magic, name", [(b"\x04\x22\x4d\x18", "lz4"), (b"7z\xbc\xaf\x27\x1c", "7-Zip"),
                                         (b"\x1f\x9d\x90", "compress (.Z)")])
def test_unsupported_compression_is_an_input_error_not_matched_bytes(tmp_path, magic, name):
    path = tmp_path / "engine.log"
    path.write_bytes(magic + b"\nRuntimeError: NPU out of memory.\n")
    result = run("analyze", str(path), "-f", "json")
    assert result.exit_code == 2
    data = json.loads(result.stdout)
    assert data["findings"] == [] and data["lines_read"] == 0
    assert data["input_errors"][0]["message"].startswith(f"{path}: {name}-compressed input is not supported")


@pytest.mark.parametrize("name, flag", [("bundle.tar.zst", "--zstd"), ("bundle.tzst", "--zstd"),
                                        ("bundle.tar.xz", "-J"), ("bundle.bin", "--zstd"), ("plain-bundle", "")])
def test_tar_bundles_by_suffix_and_by_content(tmp_path, name, flag):
    import tarfile

    import zstandard

    tree = tmp_path / "asys"
    (tree / "plog").mkdir(parents=True)
    (tree / "plog" / "plog-1.log").write_bytes(LOG)
    (tree / "plog" / "core").write_bytes((HOSTILE / "binary.bin").read_bytes())
    (tree / "a.log").write_text("INFO fine\n")
    tar_path = tmp_path / "b.tar"
    with tarfile.open(tar_path, "w") as tf:
        tf.add(tree, arcname="asys")
    raw = tar_path.read_bytes()
    packed = {"--zstd": zstandard.ZstdCompressor().compress, "-J": __import__("lzma").compress,
              "": lambda b: b}[flag](raw)
    path = tmp_path / name
    path.write_bytes(packed)
    data = json.loads(run("analyze", str(path), "-f", "json").stdout)
    members = [m.name for m in tarfile.open(tar_path).getmembers() if m.isfile() and m.name != "asys/plog/core"]
    assert data["files"] == [f"{path}:{m}" for m in members]  # archive order
    assert data["root_cause"]["first_file"] == f"{path}:asys/plog/plog-1.log"
    assert data["root_cause"]["first_line"] == 302
    assert data["notices"] == [f"{path}:asys/plog/core: skipped: binary file, not a log (--text reads it anyway)"]


def test_file_that_vanishes_before_it_is_read(tmp_path, monkeypatch):
    import triage.run.feed as sources

    log = tmp_path / "gone.log"
    log.write_text("x\n")
    real_expand = sources.expand

    def expand_then_delete(paths, errors=None, **kwargs):
        out = real_expand(paths, errors, **kwargs)
        log.unlink()
        return out

    monkeypatch.setattr(sources, "expand", expand_then_delete)
    result = run("analyze", str(log))
    assert result.exit_code == 2 and "no such file" in result.stderr


def test_over_long_line_is_matched_on_a_prefix_and_said_so(tmp_path):
    from triage.api import default_rules
    from triage.run.analysis import Analysis

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
    proc = subprocess.run([sys.executable, "-c", "from triage.cli.app import main; main()", "analyze", "-"],
                          stdin=subprocess.DEVNULL, capture_output=True, timeout=120,
                          env={**os.environ, "NO_COLOR": "1"})
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.decode().startswith("No problem found in 0 lines")


def test_backtracking_regex_that_slips_past_lint_is_time_bounded(tmp_path, monkeypatch):
    import io
    import time

    import triage.knowledge.compiled as compiled
    from triage.knowledge.loader import load_rules
    from triage.run.analysis import Analysis

    # (x|xx)+y is exponential in a backtracking engine; build the rule past the loader's lint.
    pack = tmp_path / "p"
    pack.mkdir()
    (pack / "r.yaml").write_text(MINIMAL_RULE_SLOW)
    monkeypatch.setattr("triage.knowledge.rulecheck.check_pattern", lambda p: [])
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
