#!/usr/bin/env python3
"""End-to-end benchmark of ``triage analyze`` against ``grep -E -f`` / ``rg -f`` on big logs.

    python benchmarks/bench.py --size 500M      # the reference run (~10-15 min on 2 cores)
    python benchmarks/bench.py --quick          # a smoke run, under a minute

Every tool is timed as a whole process (wall clock, and peak RSS from ``wait4``), warm page
cache and warm Hyperscan database cache (each command runs once untimed first), median of
``--runs`` rounds; inside a round the tools run one after the other in a shuffled order.
Logs are generated deterministically (``--seed``) and cached in ``--cache-dir``
(default ``$TMPDIR/triage-bench``). See docs/performance.md for the results and how to read them.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import os
import platform
import pstats
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import ere  # noqa: E402
import loggen  # noqa: E402

from triage.inputs.reader import BlockReader  # noqa: E402
from triage.knowledge.loader import load_rules  # noqa: E402
from triage.matching import choose_matcher  # noqa: E402
from triage.matching.base import prefilter_patterns  # noqa: E402

MB = 1 << 20
EXPLAIN_LINE = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
                "58.92 GiB already allocated; 58.92 GiB current active; 1.66 GiB free; 58.95 GiB reserved in total by PyTorch)")


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", file=sys.stderr, flush=True)


def parse_size(text: str) -> int:
    m = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([kKmMgG]?)i?[bB]?", text.strip())
    if not m:
        raise argparse.ArgumentTypeError(f"bad size {text!r} (e.g. 500M, 2G)")
    mult = {"": 1, "k": 1 << 10, "m": 1 << 20, "g": 1 << 30}[m.group(2).lower()]
    return int(float(m.group(1)) * mult)


def human(n: int) -> str:
    for unit, div in (("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)):
        if n >= div and n % div == 0:
            return f"{n // div}{unit}"
    return f"{n / MB:.1f}M" if n >= MB else str(n)


# ----------------------------------------------------------------------------------- processes
def triage_exe() -> str:
    """The installed console script (through a pyenv shim, the real script behind it)."""
    exe = shutil.which("triage")
    if exe is None:
        sys.exit("bench: the `triage` console script is not on PATH (pip install the package)")
    try:
        head = Path(exe).read_text(errors="replace")[:2000]
    except OSError:
        head = ""
    if "pyenv" in head and shutil.which("pyenv"):
        real = subprocess.run(["pyenv", "which", "triage"], capture_output=True, text=True).stdout.strip()
        if real:
            return real
    return exe


_TIME = "/usr/bin/time" if os.access("/usr/bin/time", os.X_OK) else None
_LAUNCHER = (
    "import os,sys\n"
    "pid=os.fork()\n"
    "if pid==0:\n"
    "    os.execvp(sys.argv[2],sys.argv[2:])\n"
    "_,st,ru=os.wait4(pid,0)\n"
    "open(sys.argv[1],'w').write('%d %f %f'%(ru.ru_maxrss,ru.ru_utime,ru.ru_stime))\n"
    "sys.exit(os.waitstatus_to_exitcode(st))\n"
)


def run_proc(cmd: list[str], *, env: dict | None = None, timeout: float = 1800, cwd: str | None = None,
             keep_stdout: bool = False, mem_limit: int | None = None) -> dict:
    """Run ``cmd``; wall seconds, peak RSS (MB), exit code, optionally its stdout.

    Peak RSS comes from ``/usr/bin/time -f %M`` (or a tiny ``python -S`` fork/exec launcher):
    a child forked straight from this ~90 MB benchmark process would report the parent's RSS
    as its own high-water mark, since Linux carries it over fork and exec.
    """
    # Never /dev/null: GNU grep notices a /dev/null stdout and stops at the first match.
    out = tempfile.TemporaryFile()
    err = tempfile.TemporaryFile()
    fd, rss_file = tempfile.mkstemp(prefix="rss-")
    os.close(fd)
    if _TIME:
        full = [_TIME, "-f", "%M %U %S", "-o", rss_file, *cmd]
    else:
        full = [sys.executable, "-S", "-c", _LAUNCHER, rss_file, *cmd]

    def limit():  # runs in the child
        if mem_limit:
            import resource

            resource.setrlimit(resource.RLIMIT_AS, (mem_limit, mem_limit))

    start = time.perf_counter()
    proc = subprocess.Popen(full, stdout=out, stderr=err, env=env, cwd=cwd, preexec_fn=limit if mem_limit else None)
    killed = []
    timer = threading.Timer(timeout, lambda: (killed.append(True), _kill_tree(proc.pid)))
    timer.start()
    proc.wait()
    wall = time.perf_counter() - start
    timer.cancel()
    try:
        text = Path(rss_file).read_text().strip().splitlines()
        fields = text[-1].split() if text else []
        rss_kb = float(fields[0]) if fields else float("nan")
        # user + system CPU seconds of the command and the children it waited for
        cpu = sum(float(x) for x in fields[1:3]) if len(fields) >= 3 else float("nan")
    except (OSError, ValueError):
        rss_kb = cpu = float("nan")
    os.unlink(rss_file)
    rc = proc.returncode
    res = {"wall": wall, "rss_mb": rss_kb / 1024, "cpu": cpu, "rc": rc, "timeout": bool(killed)}
    err.seek(0)
    res["stderr"] = err.read().decode("utf-8", "replace")[-2000:]
    if keep_stdout:
        out.seek(0)
        res["stdout"] = out.read().decode("utf-8", "replace")
    return res


def _kill_tree(pid: int) -> None:
    """Kill the launcher and the command it started (only processes this benchmark started)."""
    try:
        kids = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    except OSError:
        kids = []
    for k in kids:
        try:
            os.kill(int(k), 9)
        except (OSError, ValueError):
            pass
    try:
        os.kill(pid, 9)
    except OSError:
        pass


class Tool:
    def __init__(self, name: str, cmd: list[str], env: dict | None = None, check=None):
        self.name, self.cmd, self.env, self.check = name, cmd, env, check
        self.runs: list[dict] = []
        self.warm: dict | None = None
        # Regular files among the arguments: read (untimed) before each run, see prewarm().
        self.inputs = [Path(a) for a in cmd[1:] if a.startswith("/") and Path(a).is_file()
                       and a.endswith(".log")]


def prewarm(paths: list[Path]) -> None:
    """Read ``paths`` into the page cache. Some VMs page cold memory out proactively (DAMON
    ``pageout``, kdamond): a 2 GB log that was cached a minute ago may be on disk again."""
    buf = bytearray(16 << 20)
    for p in paths:
        with open(p, "rb", buffering=0) as f:
            while f.readinto(buf):
                pass


def rounds(tools: list[Tool], runs: int, rng: random.Random, *, label: str, cwd: str, timeout: float) -> None:
    """Warm every tool once, then ``runs`` rounds in a shuffled order; fills ``tool.runs``."""
    for t in tools:
        prewarm(t.inputs)
        t.warm = run_proc(t.cmd, env=t.env, cwd=cwd, keep_stdout=True, timeout=timeout)
        if t.check:
            t.check(t, t.warm)
        log(f"{label}: warm {t.name}: {t.warm['wall']:.2f} s, rc {t.warm['rc']}")
    for r in range(runs):
        order = tools[:]
        rng.shuffle(order)
        for t in order:
            prewarm(t.inputs)
            t.runs.append(run_proc(t.cmd, env=t.env, cwd=cwd, timeout=timeout))
        log(f"{label}: round {r + 1}/{runs}: " + ", ".join(f"{t.name} {t.runs[-1]['wall']:.2f}s" for t in order))


def summarize(tools: list[Tool], size: int, baseline: str | None) -> list[dict]:
    base = next((t for t in tools if t.name == baseline), None)
    rows = []
    for t in tools:
        walls = [r["wall"] for r in t.runs]
        med = statistics.median(walls)
        row = {"tool": t.name, "bytes": size, "median_s": med, "min_s": min(walls), "max_s": max(walls),
               "mb_s": size / MB / med, "rss_mb": max(r["rss_mb"] for r in t.runs),
               "rss_runs": [r["rss_mb"] for r in t.runs],
               "cpu_s": statistics.median(r.get("cpu", float("nan")) for r in t.runs),
               "rc": sorted({r["rc"] for r in t.runs}), "runs": walls}
        if base is not None:
            bmed = statistics.median(r["wall"] for r in base.runs)
            row["x_base"] = med / bmed
            row["x_base_per_round"] = statistics.median(a["wall"] / b["wall"] for a, b in zip(t.runs, base.runs, strict=False))
        rows.append(row)
    return rows


def table(rows: list[dict], baseline: str | None, extra_cols: tuple = ()) -> str:
    head = ["tool", "size", "median wall s", "min-max s", "MB/s", "peak RSS MB"]
    if baseline:
        head += [f"x {baseline}", "x per round"]
    head += [c for c, _ in extra_cols]
    lines = ["| " + " | ".join(head) + " |", "|" + "|".join(["---"] + ["---:"] * (len(head) - 1)) + "|"]
    for r in rows:
        cells = [r["tool"], human(r["bytes"]) if r["bytes"] else "-", f"{r['median_s']:.3f}",
                 f"{r['min_s']:.2f}-{r['max_s']:.2f}", f"{r['mb_s']:.0f}" if r["bytes"] else "-", f"{r['rss_mb']:.1f}"]
        if baseline:
            cells += [f"{r['x_base']:.2f}" if "x_base" in r else "-",
                      f"{r['x_base_per_round']:.2f}" if "x_base_per_round" in r else "-"]
        cells += [fn(r) for _, fn in extra_cols]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines)


# ------------------------------------------------------------------------------------ patterns
def pattern_files(rules, workdir: Path, tag: str) -> tuple[Path, Path, int]:
    """Write the rules' prefilter patterns (no detectors) as POSIX ERE and as Rust regex files."""
    nrules = len(rules)
    pats = [p for p in prefilter_patterns(rules) if p.target < nrules]
    posix, rust = [], []
    for p in pats:
        posix.append(ere.to_ere(p.regex, p.ignore_case, "posix"))
        rust.append(ere.to_ere(p.regex, p.ignore_case, "rust"))
    fp, fr = workdir / f"patterns-{tag}.ere", workdir / f"patterns-{tag}.rust"
    fp.write_text("\n".join(posix) + "\n")
    fr.write_text("\n".join(rust) + "\n")
    return fp, fr, len(pats)


def prefilter_lines(path: Path, rules) -> dict:
    """In-process: the lines triage's own matcher flags for some rule (detectors excluded).

    ``rule_lines`` counts what the block-mode scan flags; ``per_line`` rescans each flagged line
    on its own (the matcher's ``_scan_line``), which is grep's line-by-line semantics: a block
    scan also flags a line in which a match that started on an earlier line ends (a negated class
    such as ``[^:]+`` runs across the newline).
    """
    nrules = len(rules)
    matcher = choose_matcher(rules)
    flagged = flagged_any = per_line = 0
    cross: list[int] = []
    first: list[int] = []
    rescan = getattr(matcher, "_scan_line", None)
    start = time.perf_counter()
    with open(path, "rb") as f:
        reader = BlockReader(f)
        for block in reader:
            for line_no, raw, targets in matcher.candidates(block):
                flagged_any += 1
                if any(t < nrules for t in targets):
                    flagged += 1
                    if len(first) < 100000:
                        first.append(line_no)
                    if rescan is not None:
                        if any(t < nrules for t in rescan(raw)):
                            per_line += 1
                        elif len(cross) < 20:
                            cross.append(line_no)
    return {"matcher": matcher.name, "rule_lines": flagged, "all_candidate_lines": flagged_any,
            "per_line": per_line if rescan is not None else None, "cross_line_examples": cross,
            "lines": reader.lines_read, "seconds": time.perf_counter() - start, "line_numbers": first}


def grep_count(out: str) -> int | None:
    try:
        return sum(int(x.rsplit(":", 1)[-1]) for x in out.split())
    except ValueError:
        return None


# ----------------------------------------------------------------------------------- rule pack
def synthetic_pack(rules, total: int, workdir: Path) -> tuple[Path, int]:
    """A rule pack that brings the rule count to ``total``: real patterns behind distinct literals."""
    from triage.matching.base import _unanchor

    need = max(0, total - len(rules))
    pack = workdir / f"synthetic-rules-{total}"
    if pack.exists():
        shutil.rmtree(pack)
    pack.mkdir(parents=True)
    sources = [r for r in rules if r.follower is None]
    out = []
    for i in range(need):
        src = sources[i % len(sources)]
        conds = []
        for cond in src.anchor.prefilter_conditions():
            spec = cond.spec
            body = _unanchor(spec.regex) if spec.regex is not None else re.escape(spec.contains or "")
            if body.endswith("$") and not body.endswith("\\$"):
                body = body[:-1]
            conds.append({"regex": f"BENCHSYN{i:04d}Q (?:{body})", "ignore_case": spec.ignore_case})
        out.append({
            "id": f"benchsynth.r{i:04d}", "title": f"Synthetic benchmark rule {i} (clone of {src.id})",
            "layer": src.rule.layer, "component": src.rule.component, "severity": src.rule.severity,
            "match": {"any": conds}, "cause": "A synthetic rule that only exists to measure rule-count scaling.",
            "fix": ["Nothing: benchmark rule."], "references": ["benchmarks/bench.py"],
            "examples": {"match": [f"BENCHSYN{i:04d}Q example"], "no_match": ["nothing"]},
        })
    per_file = 250
    for k in range(0, len(out), per_file):
        (pack / f"synthetic-{k // per_file:02d}.yaml").write_text(json.dumps({"rules": out[k:k + per_file]}, indent=1))
    return pack, need


# ------------------------------------------------------------------------------------- machine
def precompile() -> None:
    """Write the bytecode of ``triage/`` (as ``pip install`` does), so that every timed run imports
    from ``.pyc`` files even where ``PYTHONDONTWRITEBYTECODE`` is set (each run would otherwise
    compile the package's sources again, ~0.15 s that no installed copy pays)."""
    import compileall

    compileall.compile_dir(str(HERE.parent / "triage"), quiet=1)


def code_state() -> dict:
    """Which engine and rules were measured: git HEAD, a hash of triage/*.py (uncommitted edits
    included) and the rules digest."""
    import hashlib

    repo = HERE.parent
    h = hashlib.sha256()
    for p in sorted((repo / "triage").rglob("*.py")):
        h.update(p.name.encode() + p.read_bytes())
    try:
        head = subprocess.run(["git", "-C", str(repo), "rev-parse", "--short", "HEAD"], capture_output=True,
                              text=True).stdout.strip()
        dirty = subprocess.run(["git", "-C", str(repo), "status", "--porcelain", "triage", "rules"], capture_output=True,
                               text=True).stdout.strip()
    except OSError:
        head, dirty = "?", ""
    try:
        digest = load_rules().digest
    except Exception as exc:  # rules being edited: say so
        digest = f"unloadable ({type(exc).__name__})"
    return {"git_head": head, "uncommitted_changes": bool(dirty), "engine_sha": h.hexdigest()[:12],
            "rules_digest": digest}


def machine_info(triage: str) -> dict:
    cpu = ""
    flags = ""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name") and not cpu:
                cpu = line.split(":", 1)[1].strip()
            if line.startswith("flags") and not flags:
                f = line.split(":", 1)[1].split()
                flags = " ".join(x for x in ("avx2", "avx512f", "avx512vbmi") if x in f)
    except OSError:
        pass
    try:
        from importlib.metadata import version

        hs_version = version("hyperscan")
    except Exception:
        hs_version = "not installed"
    try:
        import hyperscan

        vs = hyperscan.__version__ if hasattr(hyperscan, "__version__") else ""
    except Exception:
        vs = ""
    def ver(cmd):
        try:
            return subprocess.run(cmd, capture_output=True, text=True).stdout.splitlines()[0]
        except Exception:
            return "absent"
    mem = ""
    try:
        mem = Path("/proc/meminfo").read_text().splitlines()[0].split(":", 1)[1].strip()
    except OSError:
        pass
    load = os.getloadavg()
    return {"nproc": os.cpu_count(), "cpu": cpu, "cpu_flags": flags, "mem": mem, "python": sys.version.split()[0],
            "platform": platform.platform(), "hyperscan": hs_version, "hyperscan_module": vs,
            "grep": ver(["grep", "--version"]), "rg": ver(["rg", "--version"]) if shutil.which("rg") else "absent",
            "triage": triage, "loadavg_start": load, "date": time.strftime("%Y-%m-%d %H:%M:%S %Z")}


# ------------------------------------------------------------------------------------ profiling
_PHASES = r"""
import json, sys, time
from triage.knowledge.loader import load_rules
from triage.matching import choose_matcher
from triage.inputs.reader import BlockReader
path = sys.argv[1]
rs = load_rules()
m = choose_matcher(rs.rules)
out = {}
def timed(name, fn):
    t = time.perf_counter(); fn(); out[name] = time.perf_counter() - t
def read_blocks():
    with open(path, 'rb') as f:
        for b in BlockReader(f):
            pass
def read_raw():
    with open(path, 'rb') as f:
        buf = bytearray(4 << 20)
        while f.readinto(buf):
            pass
def count_nl():
    with open(path, 'rb') as f:
        for b in BlockReader(f):
            if hasattr(b, 'buf'):
                b.buf.count(b'\n', 0, b.end)
            else:
                b.data.count(b'\n')
def decode():
    with open(path, 'rb') as f:
        for b in BlockReader(f):
            str(b.data, 'utf-8')
def hs_scan():
    if not hasattr(m, '_db'):
        return
    with open(path, 'rb') as f:
        for b in BlockReader(f):
            m._db.scan(b.data, match_event_handler=lambda *a: None)
def candidates():
    with open(path, 'rb') as f:
        for b in BlockReader(f):
            for _ in m.candidates(b):
                pass
def analysis():
    from triage.run.analysis import Analysis
    a = Analysis(rs)
    a._matcher = m
    with open(path, 'rb') as f:
        for _ in a.feed(f, path):
            pass
    a.report()
for name, fn in [('readinto 4 MB, nothing else', read_raw), ('BlockReader blocks (incl. line count)', read_blocks),
                 ('BlockReader, then bytes.count(newline) again per block', count_nl), ('BlockReader, then str(block, utf-8) per block', decode),
                 ('BlockReader, then Hyperscan db.scan per block (no-op callback)', hs_scan), ('matcher.candidates (reader + UTF-8 check + scan + hits)', candidates),
                 ('Analysis.feed + report (everything but start-up and rendering)', analysis)]:
    timed(name, fn)
print(json.dumps(out))
"""

_EXPLAIN_PHASES = r"""
import json, sys, time
t0 = time.perf_counter()
import triage.cli.app
t1 = time.perf_counter()
from triage.knowledge.loader import load_rules
rs = load_rules()
t2 = time.perf_counter()
from triage.matching import choose_matcher
m = choose_matcher(rs.rules)
t3 = time.perf_counter()
from triage.matching.hyperscan_matcher import HyperscanMatcher
from triage.matching.base import prefilter_patterns
from triage.matching.select import DETECTORS
try:
    cold = HyperscanMatcher(prefilter_patterns(rs.rules), use_cache=False)
    cold_s = cold.compile_seconds
except Exception:
    cold_s = None
import hyperscan as hs
blob = hs.dumpb(m._db) if hasattr(m, "_db") else None
tl = time.perf_counter()
if blob is not None:
    db = hs.loadb(blob, mode=hs.HS_MODE_BLOCK)
    db.scratch = hs.Scratch(db)
loadb_s = time.perf_counter() - tl
try:
    hs.loadb(blob)
    plain_loadb = "works"
except Exception as exc:
    plain_loadb = f"{type(exc).__name__}: {exc}"
t4 = time.perf_counter()
from triage.api import explain
r = explain(sys.argv[1], rules=rs)
t5 = time.perf_counter()
from triage.render import machine
machine.to_json(r)
t6 = time.perf_counter()
print(json.dumps({"import triage.cli.app": t1 - t0, "load_rules()": t2 - t1,
                  "choose_matcher() (cached Hyperscan DB; not used by explain)": t3 - t2,
                  "Hyperscan compile without cache": cold_s,
                  "explain() on the line (reference matcher, <64 KiB)": t5 - t4, "render json": t6 - t5,
                  "hs.loadb(blob, mode=HS_MODE_BLOCK) + Scratch (what a working cache costs)": loadb_s,
                  "hs.loadb(blob) without a mode argument (hyperscan 0.9 needs one)": plain_loadb,
                  "rules": len(rs.rules), "Hyperscan DB loaded from triage's cache": getattr(m, "from_cache", None)}))
"""


_RULES_PHASES = r"""
import json, sys, time
from pathlib import Path
t0 = time.perf_counter()
from triage.knowledge.loader import load_rules
from triage.matching.base import prefilter_patterns
from triage.matching.select import DETECTORS
from triage.matching.hyperscan_matcher import HyperscanMatcher
from triage.inputs.reader import BlockReader
packs = [Path(p) for p in sys.argv[2:]]
t1 = time.perf_counter()
rs = load_rules(packs)
t2 = time.perf_counter()
pats = prefilter_patterns(rs.rules)
m = HyperscanMatcher(pats, use_cache=False)
t3 = time.perf_counter()
with open(sys.argv[1], 'rb') as f:
    for b in BlockReader(f):
        for _ in m.candidates(b):
            pass
t4 = time.perf_counter()
print(json.dumps({"rules": len(rs.rules), "patterns": len(pats), "load_rules s": t2 - t1,
                  "Hyperscan compile s": t3 - t2, "read + scan + hits s": t4 - t3}))
"""


def profile_analysis(path: Path, top: int = 18) -> str:
    from triage.run.analysis import Analysis

    rs = load_rules()
    a = Analysis(rs)
    _ = a.matcher
    prof = cProfile.Profile()
    prof.enable()
    with open(path, "rb") as f:
        for _ in a.feed(f, str(path)):
            pass
    a.report()
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("tottime").print_stats(top)
    return _trim_pstats(s.getvalue())


def profile_load_rules(top: int = 14) -> str:
    prof = cProfile.Profile()
    prof.enable()
    load_rules()
    prof.disable()
    s = io.StringIO()
    pstats.Stats(prof, stream=s).sort_stats("cumulative").print_stats(top)
    return _trim_pstats(s.getvalue())


def _trim_pstats(text: str) -> str:
    lines = text.splitlines()
    keep = []
    started = False
    for line in lines:
        if "function calls" in line:
            keep.append(line.strip())
        if line.strip().startswith("ncalls"):
            started = True
        if started and line.strip():
            keep.append(line.replace(str(Path(sys.prefix)), "<prefix>").replace(str(HERE.parent), "<repo>"))
    return "\n".join(keep)


def importtime_top(python: str, n: int = 12) -> tuple[float, list[tuple[float, str]]]:
    res = subprocess.run([python, "-X", "importtime", "-c", "import triage.cli.app"], capture_output=True, text=True)
    rows = []
    total = 0.0
    for line in res.stderr.splitlines():
        m = re.match(r"import time:\s+(\d+) \|\s+(\d+) \|( *)(\S+)", line)
        if not m:
            continue
        cum, depth, name = int(m.group(2)) / 1e6, len(m.group(3)), m.group(4)
        if name == "triage.cli.app":
            total = cum
        if depth <= 3:
            rows.append((cum, ("  " * ((depth - 1) // 2)) + name))
    rows.sort(reverse=True)
    return total, rows[:n]


# ----------------------------------------------------------------------------------------- main
def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--size", type=parse_size, default=parse_size("500M"), help="base log size (default 500M)")
    ap.add_argument("--quick", action="store_true", help="small sizes, 3 runs: a smoke test under a minute")
    ap.add_argument("--runs", type=int, default=None, help="timed rounds per comparison (default 5; quick 3)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "triage-bench")
    ap.add_argument("--only", default="", help="comma list of sections: main,scale,rss,rules,plogdir,oneline,"
                                              "fallback,explain,check,profile (default all)")
    ap.add_argument("--rules-total", type=int, default=1000)
    ap.add_argument("--fallback-runs", type=int, default=1,
                    help="timed runs of the pure-Python fallback (slow: ~5 MB/s; default 1, after the main rounds)")
    ap.add_argument("--plog-files", type=int, default=None, help="files in the plog directory (default 2000)")
    ap.add_argument("--oneline-size", type=parse_size, default=None, help="single-line file size (default 1G)")
    ap.add_argument("--oneline-timeout", type=float, default=None, help="seconds before the single-line run is killed")
    ap.add_argument("--rss-sizes", default=None, help="two sizes for the RSS flatness check (default 50M,1G)")
    ap.add_argument("--json", type=Path, default=None, help="also write all results here")
    ap.add_argument("--prune", action="store_true",
                    help="delete cached logs made for other rules digests or seeds (they pile up as rules change)")
    args = ap.parse_args()

    if args.quick:
        size = parse_size("8M") if args.size == parse_size("500M") else args.size
        runs = args.runs or 1
        plog_files = args.plog_files or 100
        one_size = args.oneline_size or parse_size("16M")
        one_timeout = args.oneline_timeout or 20
        rss_sizes = [parse_size(s) for s in (args.rss_sizes or "4M,32M").split(",")]
    else:
        size = args.size
        runs = args.runs or 5
        plog_files = args.plog_files or 2000
        one_size = args.oneline_size or parse_size("1G")
        one_timeout = args.oneline_timeout or 150
        rss_sizes = [parse_size(s) for s in (args.rss_sizes or "50M,1G").split(",")]
    sections = set(args.only.split(",")) if args.only else {
        "main", "scale", "rss", "rules", "plogdir", "oneline", "fallback", "explain", "check", "profile"}
    rng = random.Random(args.seed)
    cache = args.cache_dir
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="run-", dir=cache))  # cwd of the tools: no .triage.yaml above /tmp
    triage = triage_exe()
    precompile()
    env = {k: v for k, v in os.environ.items() if k not in ("TRIAGE_MATCHER", "TRIAGE_RULES_PATH")}
    genv = dict(env, LC_ALL="C")
    have_rg = shutil.which("rg") is not None
    info = machine_info(triage)
    results: dict = {"machine": info, "args": {"size": size, "runs": runs, "seed": args.seed, "quick": args.quick}}
    report: list[str] = []
    T0 = time.perf_counter()

    def out(text: str = "") -> None:
        report.append(text)
        print(text, flush=True)

    out(f"# triage benchmark ({'quick' if args.quick else 'full'}) {info['date']}")
    out(f"machine: {info['nproc']} CPUs, {info['cpu']} ({info['cpu_flags']}), {info['mem']}; "
        f"Python {info['python']}; hyperscan {info['hyperscan']}; {info['grep']}; {info['rg']}; "
        f"load average at start {info['loadavg_start'][0]:.2f}")
    out(f"triage: {triage}; runs: {runs} (median); cache: {cache}")
    state0 = code_state()
    results["code_start"] = state0
    out(f"code: git {state0['git_head']}{' + uncommitted edits' if state0['uncommitted_changes'] else ''}, "
        f"engine sha {state0['engine_sha']}, rules digest {state0['rules_digest']}")

    rs = load_rules()
    rules = rs.rules
    # ---- logs (prefixes of one deterministic stream) --------------------------------------
    sizes_needed = {size}
    if "scale" in sections:
        sizes_needed.add(4 * size)
    if "rss" in sections:
        sizes_needed.update(rss_sizes)
    biggest = max(sizes_needed)
    key = f"s{args.seed}-g{loggen.GEN_VERSION}-r{rs.digest}"
    master = cache / f"log-{key}-{human(biggest)}.log"
    logs: dict[int, Path] = {}
    existing = sorted(cache.glob(f"log-{key}-*.log"), key=lambda p: p.stat().st_size)
    src = next((p for p in existing if p.stat().st_size >= biggest - 4096), None)
    if args.prune:
        # Logs for other rules digests or seeds are stale: the rules they were made from are gone.
        # (Opt-in: another benchmark running at the same time may still be reading them.)
        for stale in cache.glob("log-*.log*"):
            if not stale.name.startswith(f"log-{key}-"):
                stale.unlink(missing_ok=True)
        for stale in list(cache.glob("plogdir-*")) + list(cache.glob("plogcat-*")):
            if key not in stale.name:
                shutil.rmtree(stale, ignore_errors=True) if stale.is_dir() else stale.unlink(missing_ok=True)
    if src is None:
        log(f"generating {human(biggest)} log (seed {args.seed}) ...")
        t = time.perf_counter()
        meta = loggen.write_log(master, biggest, rs, args.seed)
        (cache / (master.name + ".json")).write_text(json.dumps(meta))
        log(f"  {meta} in {time.perf_counter() - t:.1f} s")
        src = master
    for s in sorted(sizes_needed):
        p = cache / f"log-{key}-{human(s)}.log"
        if not p.exists() or (p != src and abs(p.stat().st_size - s) > 8192):
            log(f"cutting a {human(s)} prefix")
            loggen.copy_prefix(src, p, s)
        logs[s] = p
    base_log = logs[size]
    actual = {s: p.stat().st_size for s, p in logs.items()}

    pat_posix, pat_rust, npat = pattern_files(rules, work, "shipped")
    out(f"rules: {len(rules)} shipped, {npat} prefilter patterns (+{len(prefilter_patterns(rules)) - npat} detector "
        f"patterns, not given to grep/rg); patterns as ERE: {pat_posix}")

    def tools_for(path: Path, posix: Path, rust: Path, *, rules_dir: Path | None = None, literal: bool = False,
                  grep: bool = True, rg: bool = True, label: str = "") -> list[Tool]:
        extra = ["--rules", str(rules_dir)] if rules_dir else []
        ts = [Tool(f"triage{label}", [triage, "analyze", str(path), "--format", "json", *extra], env,
                   check=check_triage)]
        if literal:
            ts.append(Tool(f"triage{label} (TRIAGE_MATCHER=literal)", ts[0].cmd, dict(env, TRIAGE_MATCHER="literal"),
                           check=check_triage))
        if grep:
            ts.append(Tool(f"grep -E -f{label}", ["grep", "-E", "-c", "-f", str(posix), str(path)], genv))
        if rg and have_rg:
            ts.append(Tool(f"rg -f{label}", ["rg", "--no-config", "-c", "-f", str(rust), str(path)], genv))
        return ts

    def check_triage(tool: Tool, res: dict) -> None:
        if res["rc"] not in (0, 1):
            log(f"WARNING {tool.name} exit {res['rc']}: {res['stderr'][-400:]}")
            return
        try:
            rep = json.loads(res["stdout"])
        except ValueError:
            log(f"WARNING {tool.name}: output is not JSON")
            return
        tool.report = rep  # type: ignore[attr-defined]

    def triage_summary(t: Tool) -> str:
        rep = getattr(t, "report", None)
        if not rep:
            return "-"
        return f"{rep.get('matcher')}, {len(rep['findings'])} findings, {rep['lines_read']} lines"

    # ---- main comparison ------------------------------------------------------------------
    main_rows = None
    if "main" in sections or "fallback" in sections or "check" in sections:
        ts = tools_for(base_log, pat_posix, pat_rust)
        if "main" not in sections:
            ts = [t for t in ts if t.name.startswith("grep") or t.name.startswith("rg")]
        rounds(ts, runs, rng, label=f"base {human(size)}", cwd=str(work), timeout=3600)
        if "fallback" in sections:
            fb = Tool("triage (TRIAGE_MATCHER=literal)", [triage, "analyze", str(base_log), "--format", "json"],
                      dict(env, TRIAGE_MATCHER="literal"), check=check_triage)
            for k in range(max(1, args.fallback_runs)):
                prewarm([base_log])
                r_fb = run_proc(fb.cmd, env=fb.env, cwd=str(work), keep_stdout=(k == 0), timeout=7200)
                if k == 0:
                    fb.warm = r_fb
                    check_triage(fb, r_fb)
                fb.runs.append(r_fb)
                log(f"fallback run {k + 1}: {r_fb['wall']:.1f} s")
            ts.append(fb)
        main_rows = summarize(ts, actual[size], "grep -E -f" if any(t.name == "grep -E -f" for t in ts) else None)
        for row in main_rows:
            if "literal" in row["tool"]:
                row["tool"] += f" [{len(row['runs'])} run(s), not interleaved]"
        results["main"] = main_rows
        out(f"\n## Base log: {human(size)} ({actual[size]:,} bytes), shipped rules ({len(rules)})\n")
        out(table(main_rows, "grep -E -f", (("result", lambda r: next(
            (triage_summary(t) if t.name.startswith("triage") else f"{(t.warm or {}).get('stdout', '').strip()} lines"
             for t in ts if r["tool"].startswith(t.name) and (("literal" in t.name) == ("literal" in r["tool"]))), "")),)))
        tri = next((t for t in ts if t.name == "triage"), None)
        if tri is not None and getattr(tri, "report", None):
            out("\ntriage found: " + ", ".join(f"{f['rule_id']} x{f['count']}" for f in tri.report["findings"][:12])
                + (" ..." if len(tri.report["findings"]) > 12 else ""))

        # ---- grep/rg vs triage's own prefilter ------------------------------------------------
        if "check" in sections:
            g = next((t for t in ts if t.name == "grep -E -f"), None)
            r_ = next((t for t in ts if t.name == "rg -f"), None)
            pf = prefilter_lines(base_log, rules)
            gc = grep_count(g.warm["stdout"]) if g else None
            rc_ = grep_count(r_.warm["stdout"]) if r_ and r_.warm.get("stdout", "").strip() else (0 if r_ else None)
            results["check"] = {k: v for k, v in pf.items() if k != "line_numbers"} | {"grep": gc, "rg": rc_}
            out(f"\n### Prefilter agreement on the {human(size)} log\n")
            out(f"- triage's prefilter ({pf['matcher']}, in-process, rule patterns only): **{pf['rule_lines']}** lines "
                f"flagged ({pf['all_candidate_lines']} with the 3 detector patterns) of {pf['lines']:,}; "
                f"scan took {pf['seconds']:.2f} s")
            ref = pf["per_line"] if pf["per_line"] is not None else pf["rule_lines"]
            if pf["per_line"] is not None:
                out(f"- of those, lines where a rule pattern matches *within the line* (each flagged line rescanned "
                    f"alone, grep's semantics): **{pf['per_line']}**; the other {pf['rule_lines'] - pf['per_line']} are "
                    f"flagged only because a match that started on an earlier line ends there "
                    f"(e.g. lines {pf['cross_line_examples'][:5]})")
            out(f"- grep -E -c -f (ERE translation): **{gc}** lines -> "
                f"{'AGREE' if gc == ref else 'DISAGREE'} with the per-line count"
                f"{'' if gc == pf['rule_lines'] else ' (differs from the block-mode count)'}")
            if r_:
                out(f"- rg -c -f (Rust-regex translation): **{rc_}** lines -> {'AGREE' if rc_ == ref else 'DISAGREE'}")
            if gc != ref:
                res = subprocess.run(["grep", "-n", "-E", "-f", str(pat_posix), str(base_log)], env=genv,
                                     capture_output=True, text=True, errors="replace")
                gl = {int(x.split(":", 1)[0]) for x in res.stdout.splitlines()}
                tl = set(pf["line_numbers"]) - set(pf["cross_line_examples"])
                only_g, only_t = sorted(gl - tl)[:5], sorted(tl - gl)[:5]
                out(f"  - only grep: {only_g}; only triage: {only_t}")
                results["check"]["only_grep"], results["check"]["only_triage"] = only_g, only_t
            naive = subprocess.run(["grep", "-c", "-E", "-f", str(work / "naive.ere"), str(base_log)], env=genv,
                                   capture_output=True, text=True) if _write_naive(rules, work / "naive.ere") else None
            if naive is not None:
                out(f"- for contrast, the patterns given to grep -E untranslated (`\\d` read as `d`, `(?:` invalid "
                    f"-> the worst offenders dropped): {naive.stdout.strip() or naive.stderr.strip()[:120]} lines")

    # ---- 4x scaling -------------------------------------------------------------------------
    if "scale" in sections:
        big = logs[4 * size]
        ts = tools_for(big, pat_posix, pat_rust)
        rounds(ts, runs, rng, label=f"4x {human(4 * size)}", cwd=str(work), timeout=3600)
        rows = summarize(ts, actual[4 * size], "grep -E -f")
        results["scale"] = rows
        out(f"\n## 4x log: {human(4 * size)} ({actual[4 * size]:,} bytes)\n")
        out(table(rows, "grep -E -f"))
        if main_rows:
            base_med = {r["tool"]: r["median_s"] for r in main_rows}
            out("\ntime(4x) / time(1x): " + ", ".join(
                f"{r['tool']} {r['median_s'] / base_med[r['tool']]:.2f}x" for r in rows if r["tool"] in base_med))
            results["scale_ratio"] = {r["tool"]: r["median_s"] / base_med[r["tool"]] for r in rows if r["tool"] in base_med}

    # ---- RSS flatness -------------------------------------------------------------------------
    if "rss" in sections:
        ts = [Tool(f"triage {human(s)}", [triage, "analyze", str(logs[s]), "--format", "json"], env) for s in rss_sizes]
        rounds(ts, max(1, min(3, runs)), rng, label="rss", cwd=str(work), timeout=3600)
        rows = []
        for t, s in zip(ts, rss_sizes, strict=True):
            rows.append(summarize([t], actual[s], None)[0])
        results["rss"] = rows
        out(f"\n## Peak RSS against input size (triage analyze, {max(1, min(3, runs))} runs)\n")
        out(table(rows, None))
        out(f"\npeak RSS difference {human(rss_sizes[-1])} - {human(rss_sizes[0])}: "
            f"{rows[-1]['rss_mb'] - rows[0]['rss_mb']:+.1f} MB")

    # ---- 1,000 rules ------------------------------------------------------------------------
    if "rules" in sections:
        pack, added = synthetic_pack(rules, args.rules_total, work)
        rs_big = load_rules([pack])
        pposix, prust, np_big = pattern_files(rs_big.rules, work, f"{args.rules_total}")
        ts = tools_for(base_log, pat_posix, pat_rust, rg=False) + tools_for(
            base_log, pposix, prust, rules_dir=pack, rg=False, label=f" {len(rs_big.rules)} rules")
        rounds(ts, runs, rng, label=f"rules {len(rs_big.rules)}", cwd=str(work), timeout=3600)
        rows = summarize(ts, actual[size], "triage")
        results["rules"] = rows
        breakdown = []
        for packs in ([], [str(pack)]):
            res = subprocess.run([sys.executable, "-c", _RULES_PHASES, str(base_log), *packs], capture_output=True,
                                 text=True, env=env, cwd=str(work))
            try:
                breakdown.append(json.loads(res.stdout))
            except ValueError:
                log(f"rules breakdown failed: {res.stderr[-300:]}")
        results["rules_breakdown"] = breakdown
        out(f"\n## Rule count: {len(rules)} shipped vs {len(rs_big.rules)} ({added} synthetic clones of real patterns "
            f"behind distinct literals, `--rules {pack.name}`), {human(size)} log\n")
        out(table(rows, "triage", (("findings", lambda r: next(
            (triage_summary(t) if t.name.startswith("triage") else "-" for t in ts if t.name == r["tool"]), "")),)))
        if breakdown:
            out("\nIn-process breakdown (fresh process each, one run):\n")
            out("| rules | prefilter patterns | load_rules s | Hyperscan compile s | read + scan + hits s |")
            out("|---:|---:|---:|---:|---:|")
            for b in breakdown:
                out(f"| {b['rules']} | {b['patterns']} | {b['load_rules s']:.3f} | {b['Hyperscan compile s']:.3f} | "
                    f"{b['read + scan + hits s']:.3f} |")

    # ---- plog directory -----------------------------------------------------------------------
    if "plogdir" in sections:
        d = cache / f"plogdir-{key}-{plog_files}"
        if not d.exists():
            log(f"generating a plog directory of {plog_files} files")
            meta = loggen.write_plog_dir(d, plog_files, rs)
            (cache / (d.name + ".json")).write_text(json.dumps(meta))
        meta = json.loads((cache / (d.name + ".json")).read_text())
        cat = cache / f"plogcat-{key}-{plog_files}.log"
        if not cat.exists():
            with open(cat, "wb") as fo:
                for f in sorted(p for p in d.rglob("*") if p.is_file()):
                    fo.write(f.read_bytes())
        ts = [Tool("triage DIR", [triage, "analyze", str(d), "--format", "json"], env, check=check_triage),
              Tool("triage (same bytes as one file)", [triage, "analyze", str(cat), "--format", "json"], env),
              Tool("grep -E -f -r DIR", ["grep", "-E", "-c", "-r", "-f", str(pat_posix), str(d)], genv)]
        if have_rg:
            ts.append(Tool("rg -f DIR", ["rg", "--no-config", "-c", "-f", str(pat_rust), str(d)], genv))
        rounds(ts, runs, rng, label="plogdir", cwd=str(work), timeout=3600)
        rows = summarize(ts, meta["bytes"], "grep -E -f -r DIR")
        results["plogdir"] = rows
        out(f"\n## Plog directory: {meta['files']} files, {meta['bytes']:,} bytes\n")
        out(table(rows, "grep -E -f -r DIR", (("result", lambda r: next(
            (triage_summary(t) for t in ts if t.name == r["tool"] and t.name.startswith("triage")), "-")),)))

    # ---- one huge line ------------------------------------------------------------------------
    if "oneline" in sections:
        rows = []
        mem_cap = 6 << 30
        for variant, first in (("one line, no newline before it", False), ("one line after a normal line", True)):
            p = cache / f"oneline-{human(one_size)}-{int(first)}.log"
            if not p.exists():
                log(f"writing {p.name}")
                loggen.write_one_line(p, one_size, newline_first=first)
            prewarm([p])
            res = run_proc([triage, "analyze", str(p), "--format", "json"], env=env, cwd=str(work), keep_stdout=True,
                           timeout=one_timeout, mem_limit=mem_cap)
            rep = None
            try:
                rep = json.loads(res["stdout"])
            except ValueError:
                pass
            trunc = rep.get("truncated_lines") if rep else None
            rows.append({"variant": variant, "bytes": p.stat().st_size, "wall": res["wall"], "rss_mb": res["rss_mb"],
                         "rc": res["rc"], "timeout": res["timeout"],
                         "truncated_reported": bool(trunc), "truncated": trunc,
                         "findings": [f["rule_id"] for f in rep["findings"]] if rep else None,
                         "stderr": "" if rep else res["stderr"][-300:]})
            log(f"oneline {variant}: {res['wall']:.1f} s, {res['rss_mb']:.0f} MB, rc {res['rc']}, timeout {res['timeout']}")
        results["oneline"] = rows
        from triage.inputs.reader import MAX_LINE

        out(f"\n## A {human(one_size)} line (triage truncates lines at {human(MAX_LINE)}; timeout {one_timeout:.0f} s, "
            f"address-space cap {mem_cap >> 30} GiB)\n")
        out("| file | wall s | peak RSS MB | exit | truncation reported | findings | note |")
        out("|---|---:|---:|---:|---|---|---|")
        for r in rows:
            note = "KILLED at timeout" if r["timeout"] else (r["stderr"].strip().splitlines()[-1][:100] if r["stderr"].strip() else "")
            out(f"| {r['variant']} | {r['wall']:.2f} | {r['rss_mb']:.0f} | {r['rc']} | {r['truncated_reported']} | "
                f"{', '.join(r['findings']) if r['findings'] is not None else '-'} | {note} |")

    # ---- explain ----------------------------------------------------------------------------
    if "explain" in sections:
        ex = Tool("triage explain \"<line>\"", [triage, "explain", EXPLAIN_LINE], env)
        py = Tool("python -c pass", [sys.executable, "-c", "pass"], env)
        imp = Tool("python -c 'import triage.cli.app'", [sys.executable, "-c", "import triage.cli.app"], env)
        ver = Tool("triage version (imports + load_rules)", [triage, "version"], env)
        ts = [ex, py, imp, ver]
        rounds(ts, runs, rng, label="explain", cwd=str(work), timeout=120)
        rows = summarize(ts, 0, None)
        results["explain"] = rows
        phases = json.loads(subprocess.run([sys.executable, "-c", _EXPLAIN_PHASES, EXPLAIN_LINE], capture_output=True,
                                           text=True, env=env, cwd=str(work)).stdout)
        itotal, itop = importtime_top(sys.executable)
        results["explain_phases"] = phases
        results["importtime"] = {"total": itotal, "top": itop}
        out("\n## `triage explain \"<one line>\"` (warm caches; target < 0.5 s)\n")
        out(table(rows, None))
        out("\nIn-process breakdown (one fresh process):\n")
        for k, v in phases.items():
            out(f"- {k}: {v:.3f} s" if isinstance(v, float) else f"- {k}: {v}")
        out(f"\n`python -X importtime -c 'import triage.cli.app'`: {itotal:.3f} s cumulative; largest:\n")
        for cum, name in itop:
            out(f"    {cum:.3f} s  {name}")
        out("\ncProfile of load_rules() (cumulative):\n")
        out("```\n" + profile_load_rules() + "\n```")

    # ---- where the time goes ------------------------------------------------------------------
    if "profile" in sections:
        ppath = base_log
        phases = json.loads(subprocess.run([sys.executable, "-c", _PHASES, str(ppath)], capture_output=True, text=True,
                                           env=env, cwd=str(work)).stdout or "{}")
        results["phases"] = phases
        out(f"\n## Where the time goes ({human(size)} log, in-process, one run each)\n")
        out("| phase | s | MB/s |")
        out("|---|---:|---:|")
        for k, v in phases.items():
            out(f"| {k} | {v:.3f} | {actual[size] / MB / v:.0f} |")
        out("\ncProfile of Analysis.feed + report (tottime):\n")
        out("```\n" + profile_analysis(ppath) + "\n```")

    state1 = code_state()
    results["code_end"] = state1
    if state1 != state0:
        out(f"\nWARNING: the engine or rules changed during the run: {state0} -> {state1}")
    results["loadavg_end"] = os.getloadavg()
    results["elapsed_s"] = time.perf_counter() - T0
    out(f"\nload average at end {results['loadavg_end'][0]:.2f}; bench took {results['elapsed_s']:.0f} s")
    (work / "results.json").write_text(json.dumps(results, indent=1, default=str))
    (work / "report.md").write_text("\n".join(report) + "\n")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1, default=str))
    log(f"results in {work}/results.json and report.md")
    return 0


def _write_naive(rules, path: Path) -> bool:
    """The patterns as they are, minus those grep -E rejects outright (to show the silent misreads)."""
    nrules = len(rules)
    keep = []
    for p in prefilter_patterns(rules):
        if p.target >= nrules:
            continue
        rx = p.regex
        if "(?" in rx:
            continue
        ok = subprocess.run(["grep", "-E", "-c", "-e", rx, "/dev/null"], capture_output=True, env=dict(os.environ, LC_ALL="C"))
        if ok.returncode in (0, 1):
            keep.append(rx)
    path.write_text("\n".join(keep) + "\n")
    return bool(keep)


if __name__ == "__main__":
    sys.exit(main())
