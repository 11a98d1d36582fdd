#!/usr/bin/env python3
"""Which prefilter patterns make the Hyperscan scan slow, and what trailing ``.+`` costs.

    python benchmarks/pattern_cost.py LOG [--mb 64]

1. Each prefilter pattern is compiled alone (with triage's flags) and scanned over the first
   ``--mb`` MB of LOG; the slowest are listed, then the whole database is timed with and without
   them. (A pattern that is slow alone is slow inside the database too: Hyperscan cannot skip
   ahead on a literal it does not have.)
2. Match callbacks: Hyperscan reports *every* end offset of every match, so a pattern ending in
   ``.+`` calls back into Python once per byte of the rest of the line. The candidates() rate is
   measured on healthy lines with 1 in 100 lines being a ``RuntimeError: <150 chars>`` line.
"""

from __future__ import annotations

import argparse
import time

import hyperscan as hs

from triage.inputs.reader import BlockReader
from triage.knowledge.loader import load_rules
from triage.matching import choose_matcher
from triage.matching.base import prefilter_patterns

try:
    from triage.matching.hyperscan_matcher import _flags
except ImportError:  # pragma: no cover
    def _flags(p):
        f = hs.HS_FLAG_MULTILINE | hs.HS_FLAG_UTF8 | hs.HS_FLAG_ALLOWEMPTY
        return f | hs.HS_FLAG_CASELESS if p.ignore_case else f


def scan_time(db, data: bytes, reps: int = 3) -> float:
    best = float("inf")
    for _ in range(reps):
        t = time.perf_counter()
        db.scan(data, match_event_handler=lambda *a: None)
        best = min(best, time.perf_counter() - t)
    return best


def count_callbacks(db, data: bytes) -> int:
    n = [0]

    def cb(*_args):
        n[0] += 1

    db.scan(data, match_event_handler=cb)
    return n[0]


def build(pats):
    db = hs.Database(mode=hs.HS_MODE_BLOCK)
    db.compile(expressions=[p.regex.encode() for p in pats], ids=list(range(len(pats))),
               elements=len(pats), flags=[_flags(p) for p in pats])
    return db


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("log")
    ap.add_argument("--mb", type=int, default=64)
    ap.add_argument("--top", type=int, default=12)
    args = ap.parse_args()
    with open(args.log, "rb") as f:
        data = f.read(args.mb << 20)
    data = data[: data.rfind(b"\n") + 1]
    mb = len(data) / (1 << 20)
    rs = load_rules()
    pats = prefilter_patterns(rs.rules)
    full = build(pats)
    t_full = scan_time(full, data)
    print(f"## {len(pats)} prefilter patterns, {mb:.0f} MB of {args.log}\n")
    print(f"whole database: {t_full:.3f} s = {mb / t_full:.0f} MB/s\n")
    solo = []
    for i, p in enumerate(pats):
        try:
            db = build([p])
        except hs.error:
            continue
        solo.append((scan_time(db, data, 2), i, p))
    solo.sort(reverse=True)
    print(f"slowest patterns alone (median pattern alone: {sorted(s for s, _, _ in solo)[len(solo) // 2]:.4f} s):\n")
    print("| s alone | MB/s | target | case-insensitive | pattern |")
    print("|---:|---:|---:|---|---|")
    nrules = len(rs.rules)
    for s, _i, p in solo[: args.top]:
        who = rs.rules[p.target].id if p.target < nrules else f"detector {p.target - nrules}"
        rx = p.regex if len(p.regex) < 90 else p.regex[:87] + "..."
        print(f"| {s:.4f} | {mb / s:.0f} | {who} | {p.ignore_case} | `{rx.replace('|', chr(92) + '|')}` |")
    slow_ids = {i for _, i, _ in solo[: args.top]}
    rest = build([p for i, p in enumerate(pats) if i not in slow_ids])
    t_rest = scan_time(rest, data)
    print(f"\nwhole database without those {args.top}: {t_rest:.3f} s = {mb / t_rest:.0f} MB/s "
          f"({t_full / t_rest:.2f}x faster)")
    # -- callbacks ------------------------------------------------------------------------------
    m = choose_matcher(rs.rules)
    ok = (b"2025-06-01T10:00:01.123456789Z (APIServer pid=1) INFO 06-01 10:00:01 [loggers.py:123] Engine 000: "
          b"Avg prompt throughput: 1.0 tokens/s, Running: 1 reqs\n")
    bad = (b"2025-06-01T10:00:01.123456789Z (VllmWorker rank=3 pid=12) ERROR 06-01 10:00:01 [core.py:634] "
           b"RuntimeError: " + b"x" * 150 + b"\n")
    print("\n## Match callbacks (candidates() over 4 MB blocks)\n")
    print("| log | MB | Hyperscan callbacks | per error line | candidates() s | MB/s |")
    print("|---|---:|---:|---:|---:|---:|")
    import io

    for label, unit in (("healthy lines only", ok * 100), ("1 in 100 lines is `RuntimeError: <150 chars>`", ok * 99 + bad)):
        blob = unit * 2000
        per_block = count_callbacks(m._db, blob[: 4 << 20])
        t = time.perf_counter()
        lines = 0
        for b in BlockReader(io.BytesIO(blob)):
            for _ in m.candidates(b):
                lines += 1
        el = time.perf_counter() - t
        errs = blob.count(b"RuntimeError")
        total_cb = per_block * len(blob) / (4 << 20)
        print(f"| {label} | {len(blob) / (1 << 20):.0f} | ~{total_cb:,.0f} | "
              f"{(total_cb / errs) if errs else 0:.0f} | {el:.3f} | {len(blob) / (1 << 20) / el:.0f} |")


if __name__ == "__main__":
    main()
