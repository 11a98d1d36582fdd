"""Hyperscan (Vectorscan) prefilter: one block-mode scan per 4 MB block, and a per-line check of
the lines flagged by literals.

The databases are cached on disk, keyed by the patterns, the hyperscan version and the CPU
platform; a cached database that does not load (another CPU, a corrupt file) is recompiled.
Patterns Hyperscan refuses are searched with Python ``re`` over the block instead. A pattern whose
required literals are all long (:data:`MIN_LITERAL_SCAN`) is scanned by those literals rather than
by its regex (literals are what Hyperscan scans fastest: the 1,823 regexes of 611 rules scanned at
~100 MB/s), one expression per distinct literal; each line a literal flags is then scanned alone by
a second database of those patterns' regexes, so a pattern reaches Python's confirmation only on
lines its regex matches (a 50 MB log: 1.6 s with regexes only, 0.95 s with literals, ~0.6 s with
the per-line check, since INFO lines holding a failure message's function name no longer reach
Python).
"""

from __future__ import annotations

import functools
import hashlib
import os
import platform
import re
from collections.abc import Iterator, Sequence
from pathlib import Path

import hyperscan as hs

from triage.inputs.reader import Block
from triage.logformat.normalize import strip_ansi
from triage.matching.base import Candidate, PrefilterPattern, hits_by_line, strip_cr
from triage.matching.refused import Refused, takes_utf8
from triage.util.cache import cache_dir

_ESC = b"\x1b"
#: A pattern is scanned by its required literals when the shortest is at least this long (a short
#: literal such as ``error`` flags too many lines for the rule's regex to confirm).
MIN_LITERAL_SCAN = 16


def _flags(p: PrefilterPattern) -> int:
    flags = hs.HS_FLAG_MULTILINE | hs.HS_FLAG_UTF8 | hs.HS_FLAG_ALLOWEMPTY
    return flags | hs.HS_FLAG_CASELESS if p.ignore_case else flags


#: Whether this hyperscan build scans only ``bytes`` (0.7.x refuses a memoryview): learnt on first use.
_BYTES_ONLY = False


def _scan(db, data, handler) -> None:
    """``db.scan(data)``; a memoryview is copied to bytes for the hyperscan releases that take only
    bytes (0.7.23, the newest wheel for glibc < 2.28), once that is known."""
    global _BYTES_ONLY
    if _BYTES_ONLY and not isinstance(data, bytes):
        data = bytes(data)
    try:
        db.scan(data, match_event_handler=handler)
    except TypeError:
        if isinstance(data, bytes):
            raise
        _BYTES_ONLY = True
        db.scan(bytes(data), match_event_handler=handler)


class HyperscanMatcher:
    """Block-mode Hyperscan scan over line-aligned blocks; yields candidate lines in order.

    ``only_cached`` raises ``LookupError`` instead of compiling when no cached database fits
    (a small input is cheaper to prefilter another way than to pay a compile).
    """

    name = "hyperscan"

    def __init__(self, patterns: Sequence[PrefilterPattern], *, use_cache: bool = True, only_cached: bool = False,
                 limits: dict[int, int] | None = None, by_literal: bool = True):
        self._esc_id = len(patterns)
        # pattern ids whose hits are thinned to their last k lines a block (see choose_matcher)
        self._limited = {i: limits[p.target] for i, p in enumerate(patterns) if limits and p.target in limits}
        self._target_of = [p.target for p in patterns]
        self._slow: list[Refused] = []
        self.compile_seconds = 0.0
        self.from_cache = False
        self._only_cached = only_cached
        self._by_literal = by_literal
        #: patterns scanned by their literals: one expression per distinct literal (id ``_esc_id + 1 + g``
        #: for group ``g`` of the pattern ids holding it), and the database of those patterns' regexes that
        #: checks each line a literal flags (one line at a time: cheap next to the rule's confirmation)
        self._lit_groups: list[tuple[int, ...]] = []
        self._verify_db = None
        self._unverified: set[int] = set()
        accepted = list(range(len(patterns)))
        if not takes_utf8():
            # this build refuses every non-ASCII expression: those go to Python straight away
            accepted = [i for i in accepted if patterns[i].regex.isascii()]
        try:
            self._db = self._load_or_compile(patterns, accepted, use_cache)
        except hs.error:
            # Find the patterns Hyperscan refuses (not expected for dialect-clean rules)
            accepted = [i for i in accepted if _compiles(patterns[i])]
            self._db = self._load_or_compile(patterns, accepted, use_cache)
        # the refused patterns are searched with Python re over the block
        kept = set(accepted)
        self._slow = [Refused(p) for i, p in enumerate(patterns) if i not in kept]
        by_lit = sorted({i for group in self._lit_groups for i in group})
        if by_lit:
            try:
                self._verify_db = self._verifier(patterns, by_lit, use_cache)
            except hs.error:  # a regex Hyperscan refuses: its literals' hits stay unverified
                self._unverified = {i for i in by_lit if not _compiles(patterns[i])}
                kept = [i for i in by_lit if i not in self._unverified]
                try:
                    self._verify_db = self._verifier(patterns, kept, use_cache) if kept else None
                except hs.error:  # refused as a whole, for no one pattern: nothing is verified
                    self._unverified = set(by_lit)
            # a thinned pattern's hits must be exactly its matching lines (see choose_matcher)
            self._limited = {i: k for i, k in self._limited.items() if i not in self._unverified}
        #: literal group -> its patterns Hyperscan refused as regexes (only groups that have some)
        self._unverified_of = {g: tuple(i for i in group if i in self._unverified)
                               for g, group in enumerate(self._lit_groups) if self._unverified.intersection(group)}

    def _verifier(self, patterns: Sequence[PrefilterPattern], ids: list[int], use_cache: bool):
        return self._load_or_compile_db([patterns[i].regex.encode("utf-8") for i in ids], ids,
                                        [_flags(patterns[i]) | hs.HS_FLAG_SINGLEMATCH for i in ids], use_cache)

    # -- database -----------------------------------------------------------------------------
    def _load_or_compile(self, patterns: Sequence[PrefilterPattern], accepted: list[int], use_cache: bool):
        exprs, ids, flags = [], [], []
        groups: dict[str, list[int]] = {}
        for i in accepted:
            p = patterns[i]
            if self._by_literal and p.literals and min(map(len, p.literals)) >= MIN_LITERAL_SCAN:
                # its required literals, one of which every match holds (a superset: the regex is
                # checked on the flagged line): literals are what Hyperscan scans fastest, and 1,800
                # patterns of regexes with weak literals scanned at ~100 MB/s
                for lit in p.literals:
                    groups.setdefault(lit, []).append(i)
            else:
                exprs.append(p.regex.encode("utf-8"))
                ids.append(i)
                flags.append(_flags(p))
        # one expression per distinct literal: twenty patterns sharing one (a rule's numeric ranges
        # spelled as alternatives) would otherwise report twenty hits on every line holding it
        self._lit_groups = [tuple(g) for g in groups.values()]
        exprs.append(re.escape(_ESC))
        ids.append(self._esc_id)
        flags.append(0)
        base = hs.HS_FLAG_MULTILINE | hs.HS_FLAG_UTF8 | hs.HS_FLAG_CASELESS
        ids += [self._esc_id + 1 + g for g in range(len(groups))]
        flags += [base] * len(groups)
        return self._load_or_compile_db(exprs, ids, flags, use_cache, literals=list(groups))

    def _load_or_compile_db(self, exprs: list[bytes], ids: list[int], flags: list[int], use_cache: bool,
                            literals: Sequence[str] = ()):
        """The block-mode database of ``exprs`` followed by ``literals`` (each matched verbatim), from
        the cache when one fits, else compiled (and cached). The key holds the literals themselves:
        escaping 1,700 of them costs ~15 ms, paid only when compiling."""
        key = hashlib.sha256(repr((exprs, ("verbatim", list(literals)), ids, flags, _hs_version(), _platform_tag())
                                  ).encode()).hexdigest()[:24]
        path = cache_dir() / f"hs-{key}.db"
        if use_cache and path.is_file():
            try:
                db = hs.loadb(path.read_bytes(), hs.HS_MODE_BLOCK)
                db.scratch = hs.Scratch(db)  # a deserialized database comes without scratch space
                path.touch()  # most recently used: survives pruning
                self.from_cache = True
                return db
            except Exception:  # another CPU, truncated file, other version: recompile below
                pass
        if self._only_cached:
            raise LookupError("no compiled database in the cache")
        import time

        start = time.perf_counter()
        exprs = [*exprs, *map(_literal_expr, literals)]
        db = hs.Database(mode=hs.HS_MODE_BLOCK)
        db.compile(expressions=exprs, ids=ids, elements=len(exprs), flags=flags)
        self.compile_seconds += time.perf_counter() - start
        if use_cache:
            try:
                path.parent.mkdir(parents=True, exist_ok=True)
                tmp = path.with_suffix(f".{os.getpid()}.tmp")
                tmp.write_bytes(hs.dumpb(db))
                tmp.replace(path)
                _prune(path.parent, keep=16)  # two databases per rule set: eight sets
            except OSError:
                pass  # a read-only home is no reason to fail
        return db

    # -- scanning -----------------------------------------------------------------------------
    def candidates(self, block: Block) -> Iterator[Candidate]:
        data = block.buf
        view = block.data
        if not _valid_utf8(block):
            # Hyperscan's UTF-8 mode needs valid UTF-8; lines are decoded with replacement
            # anyway, so scan exactly the text the confirmation will see.
            data = bytes(view).decode("utf-8", "replace").encode("utf-8")
            view = memoryview(data)
        hits: list[tuple[int, int]] = []
        add = hits.append
        _scan(self._db, view, lambda i, _f, to, _fl, _c: add((to, i)))
        for refused in self._slow:
            for start in refused.starts(bytes(view), block.sep):
                hits.append((start + 1, -1 - refused.target))
        hits.sort()
        if self._lit_groups:
            hits = self._verify(hits, data, len(view), block.sep)
        if self._limited:
            hits = self._thin(hits, data, block.sep)
        # a hit ends at `to`: its last byte, `to - 1`, is on the line it belongs to
        for start, end, line_no, pids in hits_by_line(block, data, len(view), [(max(to - 1, 0), pid)
                                                                                  for to, pid in hits]):
            targets: set[int] = set()
            for pid in pids:
                self._add_target(pid, targets)
            yield from self._emit(data, block.sep, start, end, line_no, targets)

    def _verify(self, hits: list[tuple[int, int]], data, limit: int, sep: bytes) -> list[tuple[int, int]]:
        """Replace the literal hits of each line by the line's literal-scanned patterns (as
        :meth:`_line_patterns`, written out here for the hot path: the verified ones once a line, at
        its first literal hit; a line with ANSI escapes is checked without them, as the confirmation
        sees it; refused regexes at each hit of their literals); other hits pass."""
        first = self._esc_id + 1
        db = self._verify_db
        refused = self._unverified_of
        out: list[tuple[int, int]] = []
        start = end = -1  # the line of the previous literal hit
        for to, pid in hits:
            if pid < first:
                out.append((to, pid))
                continue
            last = to - 1 if to else 0  # the hit's last byte is on its line
            if not start <= last < end:
                start = data.rfind(sep, 0, last) + 1
                end = data.find(sep, start, limit)
                if end < 0:
                    end = limit
                if db is not None:
                    line = data[start:end]
                    if _ESC in line:
                        line = strip_ansi(bytes(line).decode("utf-8", "replace")).encode("utf-8")
                    out.extend((to, i) for i in self._verified(line))
            if db is None:
                out.extend((to, i) for i in self._lit_groups[pid - first])
            elif refused and pid - first in refused:
                out.extend((to, i) for i in refused[pid - first])
        return out

    def _line_patterns(self, line: bytes, groups: list[int]) -> set[int]:
        """The literal-scanned patterns that stand on ``line``, where the literals of ``groups``
        were found: those whose regex matches it (one scan of the line: a regex that matches holds
        one of its literals), and the patterns of those groups Hyperscan refused as regexes; every
        pattern of the groups when no regex could be checked."""
        if self._verify_db is None:
            return {i for g in groups for i in self._lit_groups[g]}
        found = self._verified(line)
        if self._unverified_of:
            for g in groups:
                found.update(self._unverified_of.get(g, ()))
        return found

    def _verified(self, line: bytes) -> set[int]:
        """The literal-scanned patterns whose regex matches ``line``."""
        found: set[int] = set()
        _scan(self._verify_db, line, lambda i, _f, _t, _fl, _c: found.add(i))
        return found

    def _thin(self, hits: list[tuple[int, int]], data, sep: bytes) -> list[tuple[int, int]]:
        """Keep only the hits on the last k lines of each limited pattern (a start-up line repeated
        all over a big log is then read k times a block, not thousands); other hits pass."""
        limited = self._limited
        lim = [h for h in hits if h[1] in limited]
        if not lim:
            return hits
        kept = [h for h in hits if h[1] not in limited]
        present = {h[1] for h in lim}
        lines: dict[int, set[int]] = {pid: set() for pid in present}
        full = 0
        for to, pid in reversed(lim):  # from the end of the block: the last lines first
            seen = lines[pid]
            k = limited[pid]
            if len(seen) == k:
                continue
            seen.add(data.rfind(sep, 0, to - 1 if to else 0) + 1)  # the hit's last byte is on its line
            kept.append((to, pid))
            if len(seen) == k:
                full += 1
                if full == len(present):
                    break
        kept.sort()
        return kept

    def _add_target(self, pid: int, targets: set[int]) -> None:
        if pid < 0:
            targets.add(-1 - pid)
        elif pid == self._esc_id:
            targets.add(-1)  # marker: the line holds ANSI escapes, rescan it without them
        else:
            targets.add(self._target_of[pid])

    def _emit(self, data: bytes, sep: bytes, start: int, end: int, line_no: int,
              targets: set[int]) -> Iterator[Candidate]:
        line = strip_cr(data[start:end], sep)
        if -1 in targets:
            targets.discard(-1)
            targets |= self._scan_line(strip_ansi(line.decode("utf-8", "replace")).encode("utf-8"))
        if targets:
            yield line_no, line, sorted(targets)

    def _scan_line(self, line: bytes) -> set[int]:
        found: set[int] = set()
        _scan(self._db, line, lambda i, _f, _t, _fl, _c: found.add(i))
        found.discard(self._esc_id)
        first = self._esc_id + 1
        out = {self._target_of[i] for i in found if i < first}
        groups = [i - first for i in found if i >= first]
        if groups:
            out.update(self._target_of[j] for j in self._line_patterns(line, groups))
        for refused in self._slow:
            if refused.in_line(line):
                out.add(refused.target)
        return out


def _prune(folder: Path, keep: int) -> None:
    """Delete all but the ``keep`` most recently used databases (rule edits leave old ones)."""
    dbs = sorted(folder.glob("hs-*.db"), key=lambda p: p.stat().st_mtime, reverse=True)
    for old in dbs[keep:]:
        old.unlink(missing_ok=True)


def _valid_utf8(block: Block) -> bool:
    # isascii() is a fast scan without allocation; it looks at the whole buffer, so stale
    # bytes past the block's end can only send a valid block to the exact check below.
    if block.buf.isascii():
        return True
    try:
        str(block.data, "utf-8")
        return True
    except UnicodeDecodeError:
        return False


def _literal_expr(literal: str) -> bytes:
    """``literal`` as a Hyperscan expression matching it verbatim (UTF-8)."""
    return re.escape(literal).encode("utf-8")


def _compiles(p: PrefilterPattern) -> bool:
    try:
        hs.Database(mode=hs.HS_MODE_BLOCK).compile(
            expressions=[p.regex.encode("utf-8")], ids=[0], elements=1, flags=[_flags(p)])
        return True
    except Exception:
        return False


@functools.cache
def _hs_version() -> str:
    try:
        from importlib.metadata import version

        return version("hyperscan")
    except Exception:  # pragma: no cover
        return "unknown"


@functools.cache
def _platform_tag() -> str:
    """Machine, OS and the CPU's SIMD features: a database built for AVX-512 will not load on AVX2."""
    features = ""
    try:
        with open("/proc/cpuinfo", encoding="ascii", errors="replace") as f:
            for line in f:
                if line.startswith(("flags", "Features")):
                    wanted = ("avx", "sse4", "bmi", "popcnt", "neon", "asimd", "sve")
                    features = " ".join(sorted(w for w in line.split(":", 1)[1].split() if w.startswith(wanted)))
                    break
    except OSError:
        pass
    return f"{platform.machine()}-{platform.system()}-{features}"
