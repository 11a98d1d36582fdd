#!/usr/bin/env python3
"""Bundles and all cores: ``--jobs``, the Ray fan-out and crash-looping logs, timed as whole processes.

    python benchmarks/bundles.py                       # every section (~30-40 min on 2 busy cores)
    python benchmarks/bundles.py --only crashloop --runs 3

Sections (``--only``):

* ``jobs``: a bundle of 2 nodes x 8 ranks, 16 files of ``--file-size`` (30M) each: ``--jobs 2``
  against ``--jobs 1`` (target: <= 0.6x), the start-up (a one-line log) and the start-up that target
  would need, and the machine's own limit: two ``--jobs 1`` processes at
  once, a node each (no pool, no merge);
* ``grep``: one ``--big`` (1G) log (``loggen.py``, the log of bench.py): ``triage analyze`` (``--jobs 2``
  and ``--jobs 1``) against ``grep -E -f`` over the rules' patterns (target: <= 0.5x). grep is first
  timed on the log's first 1 MB and 4 MB; when the 4 MB rate puts the whole log past
  ``--grep-budget`` (600 s), its time for the whole log is extrapolated from that rate instead of run;
* ``crashloop``: a log that restarts every ``--every`` (3000) lines (the vLLM start-up block, which the
  fact extractors read, then serving lines and the crash's traceback), a log that restarts as often
  but prints no crash, and a serving log of the same ``--crash-size`` (256M) (target: no slower than
  1.2x, peak memory flat);
* ``cluster``: 64 nodes x 8 ranks (512 files of ``--cluster-lines`` lines), given as the 64 node
  folders: ``--jobs 1``, ``--jobs 2``, ``--ray`` (a local Ray started by each run, 2 CPUs), and in one
  process with Ray already running (``analyze_on_ray``) against ``analyze(jobs=2)``.

Method as in bench.py: every command runs once untimed (page cache, Hyperscan database cache), then
``--runs`` rounds with the tools of a section in a shuffled order; medians, min-max, per-round ratios;
peak RSS and CPU seconds (user + system, the process and the children it waited for) from
``/usr/bin/time`` (RSS of the largest single process: forked readers are waited for, so a
``--jobs 2`` run reports its largest process, not the sum). On a shared machine the CPU seconds are
the steadier figure; wall time is what ``--jobs`` is meant to cut. triage runs as ``python -m triage`` from
this checkout. Inputs are cached in ``--cache-dir`` keyed by the generators' versions and the rules
digest. Results: Markdown on stdout, JSON in ``<cache>/bundles-run-*/results.json``.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import statistics
import sys
import tempfile
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO))

import bench  # noqa: E402
import bundlegen  # noqa: E402
import loggen  # noqa: E402

from triage.knowledge.loader import load_rules  # noqa: E402

MB = 1 << 20


def log(msg: str) -> None:
    bench.log(msg)


def files_below(root: Path) -> list[Path]:
    return sorted(p for p in root.rglob("*") if p.is_file())


class DirTool(bench.Tool):
    """A tool whose inputs (read into the page cache before each run) are every file below its paths."""

    def __init__(self, name: str, cmd: list[str], env: dict, inputs: list[Path], check=None):
        super().__init__(name, cmd, env, check)
        self.inputs = inputs


def calibrate(rules, work: Path) -> float:
    """Bytes per line of a rank file of the ranks layout."""
    t = bundlegen.make_bundle(work / "calibrate", rules=rules, nodes=1, ranks_per_node=2, lines_per_rank=4000)
    return t.bytes / t.lines


def ratio_rows(rows: list[dict], num: str, den: str) -> tuple[float, float]:
    a = next(r for r in rows if r["tool"] == num)
    b = next(r for r in rows if r["tool"] == den)
    per_round = statistics.median(x / y for x, y in zip(a["runs"], b["runs"], strict=True))
    return a["median_s"] / b["median_s"], per_round


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--only", default="jobs,grep,crashloop,cluster")
    ap.add_argument("--runs", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--file-size", type=bench.parse_size, default=bench.parse_size("30M"))
    ap.add_argument("--big", type=bench.parse_size, default=bench.parse_size("1G"))
    ap.add_argument("--grep-budget", type=float, default=600,
                    help="seconds grep may take on the whole --big log before it is only timed on prefixes")
    ap.add_argument("--crash-size", type=bench.parse_size, default=bench.parse_size("256M"))
    ap.add_argument("--every", type=int, default=3000, help="lines between restarts of the crash-looping log")
    ap.add_argument("--cluster-lines", type=int, default=1000, help="lines per rank of the 64 x 8 bundle")
    ap.add_argument("--cache-dir", type=Path, default=Path(tempfile.gettempdir()) / "triage-bench")
    ap.add_argument("--no-ray", action="store_true", help="skip the Ray runs of the cluster section")
    args = ap.parse_args()
    sections = set(args.only.split(","))
    rng = random.Random(args.seed)
    cache = args.cache_dir
    cache.mkdir(parents=True, exist_ok=True)
    work = Path(tempfile.mkdtemp(prefix="bundles-run-", dir=cache))
    env = {k: v for k, v in os.environ.items() if k not in ("TRIAGE_MATCHER", "TRIAGE_RULES_PATH")}
    env["PYTHONPATH"] = os.pathsep.join([str(REPO), *([env["PYTHONPATH"]] if env.get("PYTHONPATH") else [])])
    genv = dict(env, LC_ALL="C")
    tri = [sys.executable, "-m", "triage", "analyze"]
    bench.precompile()
    rs = load_rules()
    info = bench.machine_info(" ".join(tri[:3]))
    state0 = bench.code_state()
    results: dict = {"machine": info, "code_start": state0, "args": {k: str(v) for k, v in vars(args).items()},
                     "load": [os.getloadavg()]}
    report: list[str] = []

    def out(text: str = "") -> None:
        report.append(text)
        print(text, flush=True)

    def loadavg() -> str:
        la = os.getloadavg()
        results["load"].append(la)
        return f"load average {la[0]:.1f} / {la[1]:.1f} / {la[2]:.1f}"

    out(f"# triage bundles benchmark {info['date']}")
    out(f"machine: {info['nproc']} CPUs, {info['cpu']}, {info['mem']}; Python {info['python']}; "
        f"hyperscan {info['hyperscan']}; {info['grep']}; {loadavg()} at start")
    out(f"code: git {state0['git_head']}{' + uncommitted edits' if state0['uncommitted_changes'] else ''}, "
        f"engine sha {state0['engine_sha']}, rules digest {state0['rules_digest']}; runs: {args.runs} (median)")
    key = f"g{bundlegen.GEN_VERSION}-r{rs.digest}-s{args.seed}"

    def check(tool, res) -> None:
        if res["rc"] not in (0, 1):
            log(f"WARNING {tool.name} exit {res['rc']}: {res['stderr'][-600:]}")
            return
        try:
            tool.report = json.loads(res["stdout"])
        except ValueError:
            log(f"WARNING {tool.name}: output is not JSON")

    def run_section(name: str, tools: list, size: int, base: str | None) -> list[dict]:
        bench.rounds(tools, args.runs, rng, label=name, cwd=str(work), timeout=3600)
        rows = bench.summarize(tools, size, base)
        results[name] = rows
        out(bench.table(rows, base, (("median CPU s (user+sys)", lambda r: f"{r['cpu_s']:.2f}"),)))
        return rows

    def summary_of(tool) -> str:
        rep = getattr(tool, "report", None)
        if not rep:
            return "-"
        c = rep.get("cluster") or {}
        ff = c.get("first_failure") or {}
        return (f"root {(rep.get('root_cause') or {}).get('rule_id')}, first failure rank {ff.get('rank')} "
                f"{ff.get('node') or ''}, {rep['lines_read']:,} lines")

    # ---- jobs: 16 files x 30 MB ------------------------------------------------------------------
    if "jobs" in sections:
        per_line = calibrate(rs, work)
        lines = int(args.file_size / per_line)
        root = cache / f"bundle16-{key}-{bench.human(args.file_size)}"
        if not (root.parent / (root.name + ".truth.json")).exists():
            log(f"generating 16 x {bench.human(args.file_size)} ({lines} lines a rank)")
            t = time.perf_counter()
            bundlegen.make_bundle(root, rules=rs, nodes=2, ranks_per_node=8, lines_per_rank=lines, seed=args.seed)
            log(f"  in {time.perf_counter() - t:.0f} s")
        truth = json.loads((root.parent / (root.name + ".truth.json")).read_text())
        inputs = files_below(root)
        # The machine's own limit: each node's half read by its own `--jobs 1` process, both at once
        # (no pool, no merge: two independent processes). On a VM whose two vCPUs share a core or a
        # busy host, two processes at once run slower each than one alone; --jobs 2 cannot beat this.
        # each half's exit status is checked (1 = findings): a half that failed must not pass for a fast run
        halves = [" ".join([*map(shlex.quote, tri), shlex.quote(str(d)), "--format", "json", "--jobs", "1",
                            ">/dev/null"]) for d in sorted(root.iterdir()) if d.is_dir()]
        both = (" ".join(f"{h} & p{i}=$!;" for i, h in enumerate(halves))
                + " rc=0; " + " ".join(f"wait $p{i} || [ $? -eq 1 ] || rc=2;" for i in range(len(halves)))
                + " exit $rc")
        # The serial part no pool can share: a process's start-up (imports, rules, matcher), timed on a
        # one-line log that yields nothing
        one_line = work / "one-line.log"
        one_line.write_text("INFO nothing to report here\n", encoding="utf-8")
        tools = [DirTool("triage --jobs 1", [*tri, str(root), "--format", "json", "--jobs", "1"], env, inputs, check),
                 DirTool("triage --jobs 2", [*tri, str(root), "--format", "json", "--jobs", "2"], env, inputs, check),
                 DirTool("two --jobs 1 at once, a node each", ["sh", "-c", both], env, inputs,
                         lambda tool, res: res["rc"] and log(f"WARNING {tool.name} exit {res['rc']}"))]
        startup = DirTool("start-up: triage on a one-line log", [*tri, str(one_line), "--format", "json"], env,
                          [one_line], lambda tool, res: res["rc"] and log(f"WARNING {tool.name} exit {res['rc']}"))
        out(f"\n## Bundle: 2 nodes x 8 ranks, {len(inputs)} files, {truth['bytes']:,} bytes ({loadavg()})\n")
        rows = run_section("jobs", tools, truth["bytes"], "triage --jobs 1")
        out("\nThe start-up alone (its rounds after the bundle's):\n")
        rows_startup = run_section("jobs_startup_runs", [startup], one_line.stat().st_size, None)
        r, pr = ratio_rows(rows, "triage --jobs 2", "triage --jobs 1")
        lim, plim = ratio_rows(rows, "two --jobs 1 at once, a node each", "triage --jobs 1")
        results["jobs_ratio"] = (r, pr)
        results["jobs_machine_limit"] = (lim, plim)
        out(f"\n--jobs 2 / --jobs 1: **{r:.2f}x** (per round {pr:.2f}x; target <= 0.6x); {summary_of(tools[1])}")
        out(f"two independent --jobs 1 processes at once, a node each / --jobs 1: {lim:.2f}x (per round {plim:.2f}x): "
            "what this machine allows two processes, with no pool and no merge")
        med = {row["tool"]: row["median_s"] for row in rows + rows_startup}
        s0, j1, j2 = med["start-up: triage on a one-line log"], med["triage --jobs 1"], med["triage --jobs 2"]
        shared, whole = j2 - s0, j1 - s0  # the reading with two jobs and with one, start-up taken out
        # (s + shared) / (s + whole) grows with the start-up s; it is 0.6 at:
        need = (0.6 * whole - shared) / 0.4
        results["jobs_startup"] = {"startup_s": s0, "without_startup": shared / whole, "startup_needed_s": need}
        out(f"start-up (a one-line log): {s0:.2f} s of --jobs 1's {j1:.2f} s; start-up taken out of both, --jobs 2 / "
            f"--jobs 1 would be {shared / whole:.2f}x (two jobs read {whole / shared:.2f}x as fast as one); "
            + (f"the 0.6x target needs a start-up of at most {need:.2f} s" if need > 0 else
               "that alone misses the 0.6x target: the reading itself does not scale enough"))
        same = [t.report for t in tools if getattr(t, "report", None)]
        for rep in same:
            rep.pop("matcher", None)
        out(f"reports identical: {len(same) == 2 and same[0] == same[1]}")

    # ---- grep: one 1 GB file -----------------------------------------------------------------------
    if "grep" in sections:
        big = cache / f"log-s{args.seed}-g{loggen.GEN_VERSION}-r{rs.digest}-{bench.human(args.big)}.log"
        if not big.exists():
            log(f"generating {bench.human(args.big)} log")
            loggen.write_log(big, args.big, rs, args.seed)
        posix, _, npat = bench.pattern_files(rs.rules, work, "shipped")
        size = big.stat().st_size
        # GNU grep builds a DFA of all the patterns; with ~1,800 of them it falls back to its
        # backtracking matcher and reads a few MB a minute, so a whole 1 GB run would take hours.
        # It is timed on the log's first 1 MB and 4 MB (equal rates show it is linear) and its time
        # for the whole log is their rate times the size; when that rate would read the whole log
        # within --grep-budget seconds, grep runs on the whole log like the other tools.
        probe = {}
        for mb in (1, 4):
            prefix = work / f"grep-prefix-{mb}M.log"
            with open(big, "rb") as src, open(prefix, "wb") as dst:
                dst.write(src.read(mb * MB))
            res = bench.run_proc(["grep", "-E", "-c", "-f", str(posix), str(prefix)], env=genv, cwd=str(work),
                                 timeout=3600)
            probe[mb] = res["wall"]
            log(f"grep: {mb} MB prefix in {res['wall']:.2f} s")
        rate = probe[4] / (4 * MB)  # seconds a byte
        whole = rate * size <= args.grep_budget
        tools = [bench.Tool("triage --jobs 2", [*tri, str(big), "--format", "json", "--jobs", "2"], env, check),
                 bench.Tool("triage --jobs 1", [*tri, str(big), "--format", "json", "--jobs", "1"], env, check)]
        if whole:
            tools.append(bench.Tool("grep -E -f", ["grep", "-E", "-c", "-f", str(posix), str(big)], genv))
        out(f"\n## One {bench.human(args.big)} log ({size:,} bytes), {npat} patterns for grep ({loadavg()})\n")
        out(f"grep -E -f on the log's first 1 MB: {probe[1]:.2f} s; first 4 MB: {probe[4]:.2f} s "
            f"({probe[4] / 4:.2f} s a MB)" + ("" if whole else
                                              f"; the whole log at that rate: ~{rate * size:,.0f} s (not run)"))
        rows = run_section("grep", tools, size, "grep -E -f" if whole else "triage --jobs 1")
        t2 = next(r for r in rows if r["tool"] == "triage --jobs 2")
        if whole:
            r, pr = ratio_rows(rows, "triage --jobs 2", "grep -E -f")
            results["grep_ratio"] = (r, pr)
            out(f"\ntriage --jobs 2 / grep -E -f: **{r:.2f}x** (per round {pr:.2f}x; target <= 0.5x)")
        else:
            r = t2["median_s"] / (rate * size)
            results["grep_ratio"] = (r, None, "grep extrapolated from its 4 MB prefix")
            out(f"\ntriage --jobs 2 / grep -E -f (grep's time extrapolated from its 4 MB prefix): **{r:.4f}x** "
                "(target <= 0.5x)")

    # ---- crash loop ------------------------------------------------------------------------------
    if "crashloop" in sections:
        size = args.crash_size
        paths = {}
        for kind in ("crashloop", "restarts", "serving"):
            p = cache / f"{kind}-{key}-{bench.human(size)}-e{args.every}.log"
            if not p.exists():
                log(f"generating {p.name}")
                if kind == "crashloop":
                    meta = bundlegen.crashloop_log(p, size, every=args.every, seed=args.seed, rules=rs)
                elif kind == "restarts":
                    meta = bundlegen.crashloop_log(p, size, every=args.every, seed=args.seed, rules=rs, cause=None)
                else:
                    meta = bundlegen.serving_log(p, size, seed=args.seed)
                (p.parent / (p.name + ".json")).write_text(json.dumps(meta))
            paths[kind] = p
        metas = {k: json.loads((p.parent / (p.name + ".json")).read_text()) for k, p in paths.items()}
        tools = [bench.Tool(f"triage {k}", [*tri, str(p), "--format", "json", "--jobs", "1"], env, check)
                 for k, p in paths.items()]
        out(f"\n## A crash-looping log against a serving log, {bench.human(size)} each, --jobs 1 ({loadavg()})\n")
        for k, m in metas.items():
            out(f"- {k}: {m['bytes']:,} bytes, {m['lines']:,} lines, {m['restarts']} start-ups after the first")
        out("")
        rows = run_section("crashloop", tools, size, "triage serving")
        for k in ("crashloop", "restarts"):
            r, pr = ratio_rows(rows, f"triage {k}", "triage serving")
            results[f"{k}_ratio"] = (r, pr)
            out(f"\n{k} / serving: **{r:.2f}x** (per round {pr:.2f}x; target <= 1.2x)")
        out("peak RSS: " + ", ".join(f"{r['tool']} {r['rss_mb']:.1f} MB" for r in rows))

    # ---- 64 nodes x 8 ranks --------------------------------------------------------------------------
    if "cluster" in sections:
        root = cache / f"bundle512-{key}-{args.cluster_lines}"
        if not (root.parent / (root.name + ".truth.json")).exists():
            log("generating 64 x 8 ranks")
            bundlegen.make_bundle(root, rules=rs, nodes=64, ranks_per_node=8, first_rank=333,
                                  lines_per_rank=args.cluster_lines, seed=args.seed)
        truth = json.loads((root.parent / (root.name + ".truth.json")).read_text())
        nodes = [str(root / f"node-{k}") for k in range(64)]
        inputs = files_below(root)
        tools = [DirTool("triage --jobs 1", [*tri, *nodes, "--format", "json", "--jobs", "1"], env, inputs, check),
                 DirTool("triage --jobs 2", [*tri, *nodes, "--format", "json", "--jobs", "2"], env, inputs, check)]
        if not args.no_ray:
            tools.append(DirTool("triage --ray (starts a local Ray)", [*tri, *nodes, "--format", "json", "--ray"],
                                 env, inputs, check))
        out(f"\n## 64 nodes x 8 ranks: {len(inputs)} files, {truth['bytes']:,} bytes, the 64 node folders as paths "
            f"({loadavg()})\n")
        rows = run_section("cluster", tools, truth["bytes"], "triage --jobs 1")
        for t in tools:
            out(f"- {t.name}: {summary_of(t)}")
        reps = [dict(t.report) for t in tools if getattr(t, "report", None)]
        for rep in reps:
            rep.pop("matcher", None)
        out(f"reports identical: {all(r == reps[0] for r in reps)} ({len(reps)} compared)")
        if not args.no_ray:
            res = inprocess_ray(nodes, args.runs, env)
            results["cluster_inprocess"] = res
            out("\nIn one process (Ray started once with num_cpus=2 and left running; medians of "
                f"{args.runs}): `analyze_on_ray` {res['ray']:.2f} s, `analyze(jobs=2)` {res['jobs2']:.2f} s, "
                f"`analyze(jobs=1)` {res['jobs1']:.2f} s; Ray start-up {res['ray_init']:.1f} s; reports identical: "
                f"{res['same']}")

    state1 = bench.code_state()
    if state1 != state0:
        out(f"\nWARNING: the code or rules changed during the run: {state0} -> {state1}")
    out(f"\n{loadavg()} at the end")
    (work / "results.json").write_text(json.dumps(results, indent=1, default=str))
    (work / "report.md").write_text("\n".join(report) + "\n")
    log(f"results in {work}")
    return 0


_INPROCESS = r"""
import json, statistics, sys, time
import ray
from triage import analyze
from triage.run.fanout import analyze_on_ray
paths, runs = json.loads(sys.argv[1]), int(sys.argv[2])
t = time.perf_counter()
ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
ray_init = time.perf_counter() - t
first = analyze_on_ray(paths)  # warm: workers started, rules loaded in them
times = {"ray": [], "jobs2": [], "jobs1": []}
same = True
for _ in range(runs):
    for name in ("ray", "jobs2", "jobs1"):
        t = time.perf_counter()
        rep = analyze_on_ray(paths) if name == "ray" else analyze(paths, jobs=2 if name == "jobs2" else 1)
        times[name].append(time.perf_counter() - t)
        same = same and rep.model_dump(exclude={"matcher"}) == first.model_dump(exclude={"matcher"})
ray.shutdown()
print(json.dumps({**{k: statistics.median(v) for k, v in times.items()}, "runs": times, "ray_init": ray_init,
                  "same": same}))
"""


def inprocess_ray(paths: list[str], runs: int, env: dict) -> dict:
    import subprocess

    res = subprocess.run([sys.executable, "-c", _INPROCESS, json.dumps(paths), str(runs)], capture_output=True,
                         text=True, env=env, timeout=7200)
    try:
        return json.loads(res.stdout.strip().splitlines()[-1])
    except (ValueError, IndexError):
        log(f"in-process Ray run failed: {res.stderr[-800:]}")
        return {"ray": float("nan"), "jobs2": float("nan"), "jobs1": float("nan"), "ray_init": float("nan"),
                "same": None}


if __name__ == "__main__":
    sys.exit(main())
