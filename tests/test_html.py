"""`--format html`: one self-contained file (no script, nothing from the network), every text escaped,
the timeline of a multi-rank bundle (one row per rank, identical rows collapsed when many, the first
failure marked and linked), Chinese, --redact; and the file in a real browser (headless Chromium)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import tempfile
from pathlib import Path

import pytest
from typer.testing import CliRunner

from triage.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "multinode-hccl-timeout"
CHROMIUM = shutil.which("chromium") or ("/usr/bin/chromium" if Path("/usr/bin/chromium").exists() else None)


def _html(*args: str) -> str:
    result = runner.invoke(app, ["analyze", *args, "-f", "html"])
    assert result.exit_code in (0, 1), result.output
    return result.stdout


def _rows(html: str) -> list[tuple[str, int]]:
    return [(m.group(1), int(m.group(2))) for m in re.finditer(r'<g class="row[^"]*" data-ranks="([^"]*)" '
                                                                r'data-count="(\d+)"', html)]


def _big_bundle(root: Path, nodes: int, per_node: int) -> Path:
    """``nodes`` x ``per_node`` ranks: rank 3's HBM ECC log, every other rank the same notify wait."""
    ecc = (EXAMPLE / "node-1" / "rank-3.log").read_text()
    wait = (EXAMPLE / "node-0" / "rank-0.log").read_text()
    for k in range(nodes):
        for j in range(per_node):
            rank = k * per_node + j
            path = root / f"node-{k}" / f"rank-{rank}.log"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(ecc if rank == 3 else wait)
    return root


def test_self_contained_no_script_no_network():
    html = _html(str(EXAMPLE))
    assert html.startswith("<!DOCTYPE html>") and html.rstrip().endswith("</html>")
    assert "<script" not in html.lower() and "<link" not in html.lower() and "@import" not in html
    assert "<style>" in html and "<svg" in html and "<details" in html
    # no resource from the network: the only http(s) URLs are links (<a href>) to references
    for m in re.finditer(r'(\w+)=["\'](https?://[^"\']*)', html):
        assert m.group(1) == "href", m.group(0)
    for m in re.finditer(r'<(\w+)[^>]*\bhref="https?://', html):
        assert m.group(1) == "a"
    assert "url(" not in html


def test_example_names_the_first_failing_rank_and_links_it():
    text = runner.invoke(app, ["analyze", str(EXAMPLE)]).stdout
    assert "First failure: node-1 rank 3: HBM multi-bit ECC error" in text
    html = _html(str(EXAMPLE))
    assert _rows(html) == [("0", 1), ("1", 1), ("2", 1), ("3", 1)]  # one row per rank
    assert html.index(">node-0<") < html.index('data-ranks="0"') < html.index(">node-1<") < html.index(
        'data-ranks="3"')
    first = re.findall(r'<a href="#([^"]+)"><g class="mark first-failure">', html)
    assert first == ["finding-hw.hbm-multi-bit-ecc"]
    assert f'id="{first[0]}"' in html
    assert 'id="first-failure-evidence"' in html  # its evidence line, highlighted
    assert "<mark>" in html


def test_many_identical_rows_collapse_with_their_count(tmp_path):
    html = _html(str(_big_bundle(tmp_path / "job", 8, 8)))
    rows = _rows(html)
    assert sum(n for _, n in rows) == 64 and len(rows) < 40
    assert ("3", 1) in rows  # the first failing rank keeps its own row
    assert any(n > 1 for _, n in rows) and "(x" in html
    assert "collapsed into one row" in html
    assert re.search(r'class="mark first-failure"', html)


def test_few_ranks_are_not_collapsed(tmp_path):
    rows = _rows(_html(str(_big_bundle(tmp_path / "job", 2, 4))))
    assert [n for _, n in rows] == [1] * 8


def test_hostile_text_is_escaped(tmp_path):
    log = tmp_path / "evil.log"
    log.write_text('RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB <script>alert(1)</script>'
                   ' <img src=http://evil.example/x.png onerror="x"> "&"\n'
                   'Traceback: <iframe src="https://evil.example/"></iframe>\n')
    html = _html(str(log))
    assert "<script" not in html and "<img" not in html and "<iframe" not in html
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert 'src="http' not in html and "src=http" not in html.replace("src=http://evil.example", "")


def test_chinese(tmp_path):
    html = _html(str(EXAMPLE), "--lang", "zh")
    assert '<html lang="zh-CN">' in html
    assert "根因" in html and 'aria-label="各 rank 的时间线"' in html
    assert "最先失败" in html and "每个 rank 一行" in html


def test_redact_removes_an_ip(tmp_path):
    log = tmp_path / "ip.log"
    log.write_text("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB on host 10.23.45.67\n"
                   "connect to 10.23.45.67 failed\n")
    plain = _html(str(log))
    assert "10.23.45.67" in plain
    redacted = _html(str(log), "--redact")
    assert "10.23.45.67" not in redacted and "&lt;ip-1&gt;" in redacted


def test_merge_renders_html(tmp_path):
    paths = []
    for node in ("node-0", "node-1"):
        out = runner.invoke(app, ["analyze", str(EXAMPLE / node), "--node", node, "-f", "summary"])
        path = tmp_path / f"{node}.json"
        path.write_text(out.stdout)
        paths.append(str(path))
    result = runner.invoke(app, ["merge", *paths, "-f", "html"])
    assert result.exit_code == 1
    assert 'class="mark first-failure"' in result.stdout and len(_rows(result.stdout)) == 4


def _chromium(*args: str) -> subprocess.CompletedProcess:
    profile = tempfile.mkdtemp()
    try:
        return subprocess.run([CHROMIUM, "--headless", "--no-sandbox", "--disable-gpu",
                               "--disable-background-networking", "--disable-component-update", "--disable-sync",
                               "--no-first-run", f"--user-data-dir={profile}", *args],
                              capture_output=True, text=True, timeout=120)
    finally:
        shutil.rmtree(profile, ignore_errors=True)


def test_in_a_real_browser(tmp_path):
    if CHROMIUM is None:
        if os.environ.get("TRIAGE_REQUIRE_CHROMIUM") == "1":
            pytest.fail("TRIAGE_REQUIRE_CHROMIUM=1 but chromium is not installed")
        pytest.skip("chromium is not installed")
    page = tmp_path / "report.html"
    page.write_text(_html(str(EXAMPLE)), encoding="utf-8")
    dom = _chromium("--dump-dom", page.as_uri())
    assert dom.returncode == 0, dom.stderr[-2000:]
    rows = _rows(dom.stdout)
    assert [r for r, _ in rows] == ["0", "1", "2", "3"]
    assert re.search(r'<g class="mark first-failure">', dom.stdout)
    assert "<script" not in dom.stdout
    shot = tmp_path / "shot.png"
    result = _chromium(f"--screenshot={shot}", "--window-size=1280,900", page.as_uri())
    assert result.returncode == 0, result.stderr[-2000:]
    data = shot.read_bytes()
    assert data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) > 10_000


def test_a_restart_is_a_mark_and_its_rank_is_drawn_in_causal_order():
    import triage
    from triage.report.models import Attempt

    report = triage.analyze(EXAMPLE)
    file0 = next(o.file for i in report.incidents for o in i.origins if o.rank == 0)
    report = report.model_copy(update={"earlier_attempts": [Attempt(file=file0, first_line=1, last_line=2,
                                                                    root_cause=None)]})
    html = triage.render_html(report)
    row0 = re.search(r'<g class="(row[^"]*)" data-ranks="0".*?</g></g>', html)
    assert row0.group(1) == "row causal" and 'class="mark restart"' in row0.group(0)
    assert "1 rank without comparable times drawn in causal order" in html
