"""Differential test: every prefilter gives exactly the findings of the plain reference matcher."""

from __future__ import annotations

import io
import random

import pytest

from tests.conftest import CORPUS
from triage.knowledge.compat import load_compat
from triage.knowledge.loader import load_rules
from triage.run.analysis import Analysis

RULES = load_rules()
FAST = ["literal"]
try:
    import hyperscan  # noqa: F401

    FAST.append("hyperscan")
except ImportError:  # pragma: no cover - the portable path is still tested
    pass


_reference_cache: dict[bytes, tuple] = {}


def findings(data: bytes, matcher: str, block_size: int | None = None):
    if matcher == "reference" and block_size is None:
        if data not in _reference_cache:
            _reference_cache[data] = _findings(data, matcher, None)
        return _reference_cache[data]
    return _findings(data, matcher, block_size)


_matchers: dict[str, object] = {}


def _findings(data: bytes, matcher: str, block_size: int | None):
    if matcher not in _matchers:  # compile once per test session, never from the on-disk cache
        _matchers[matcher] = Analysis(RULES).build_matcher(matcher, use_cache=False)
    analysis = Analysis(RULES, _matchers[matcher], **({"block_size": block_size} if block_size else {}))
    list(analysis.feed(io.BytesIO(data)))
    report = analysis.report()
    return ([(f.rule_id, f.first_line, f.last_line, f.count, f.captures, [e.line for e in f.evidence])
             for f in report.findings],
            [(u.line, u.kind) for u in report.unrecognised],
            [(f.name, f.value, f.line) for f in report.facts],
            # `others` is a sample (a few matching lines per block are read): it may vary with the
            # block size, never with the matcher
            [(f.name, f.others) for f in report.facts])


def planted_log(seed: int = 7) -> bytes:
    """Healthy-looking vLLM/plog noise with the rules' own examples planted at random lines."""
    rng = random.Random(seed)
    noise = [
        "INFO 12-05 07:51:00 [core.py:75] Initializing a V1 LLM engine with config: model='Qwen/Qwen3-8B'",
        "(VllmWorker rank=3 pid=1234) INFO 12-05 07:51:02 [model_runner.py:1100] Loading model weights took 15.2 GB",
        "[INFO] RUNTIME(1234,python):2025-06-01-10:00:00.123.456 [stream.cc:123] stream created",
        "2025-06-01T10:00:00.123456789Z INFO:     127.0.0.1:5000 - \"POST /v1/completions HTTP/1.1\" 200 OK",
        "[W601 10:00:00.000000000 compiler_depend.ts:133] Warning: Device do not support double dtype now",
        "\x1b[32mINFO\x1b[0m 12-05 07:51:03 [loader.py:10] hccl timeout=1800 no out of memory risk, error code is 0",
    ]
    examples = [ex for r in RULES.rules for ex in r.rule.examples.match_texts()]
    # the fact extractors' examples too, so that facts (and the checks they feed) are compared
    examples += [ex.text for ex in load_compat().extractors for ex in ex.examples]
    lines = []
    for _ in range(2000):
        if rng.random() < 0.03:
            lines.extend(rng.choice(examples).splitlines())
        else:
            lines.append(rng.choice(noise))
    half = len(lines) // 2
    return ("\r\n".join(lines[:half]) + "\n" + "\n".join(lines[half:])).encode()  # mixed line ends, no final \n


@pytest.mark.parametrize("matcher", FAST)
def test_fast_matchers_equal_reference_on_planted_log(matcher):
    data = planted_log()
    assert findings(data, matcher) == findings(data, "reference")


@pytest.mark.parametrize("matcher", FAST)
def test_lines_split_across_block_edges(matcher):
    data = planted_log(seed=11)[:200_000]
    expected = findings(data, "reference")
    assert expected[0], "the planted log must produce findings"
    assert findings(data, matcher, block_size=4093)[:3] == expected[:3]


@pytest.mark.parametrize("matcher", FAST)
def test_corpus_findings_equal_reference(matcher):
    for log in sorted(CORPUS.rglob("log.txt")):
        data = log.read_bytes()
        assert findings(data, matcher) == findings(data, "reference"), log


@pytest.mark.parametrize("matcher", FAST)
def test_several_rules_on_one_line_and_ansi(matcher):
    ex = [r.rule.examples.match_texts()[0] for r in RULES.rules if "\n" not in r.rule.examples.match_texts()[0]][:5]
    data = (" || ".join(ex) + "\n\x1b[31m" + ex[-1] + "\x1b[0m").encode()
    assert findings(data, matcher) == findings(data, "reference")


@pytest.mark.parametrize("matcher", FAST)
@pytest.mark.parametrize("end", [b"\n", b"\r\n", b"\r"])
def test_unrecognised_lines_agree_on_every_line_end(matcher, end):
    lines = [b"starting", b"KeyboardInterrupt", b"torch.OutOfMemoryError", b"x.py:3:1: error: bad",
             b"[ERROR] RUNTIME(12,python):2025-01-01-00:00:00.000.000 [a.cc:1] weird", b"done"]
    data = end.join(lines) + end
    expected = findings(data, "reference")
    # no rule fires: the compiler error (the only line stating a message) leads as an unexplained line
    assert [f[0] for f in expected[0]] == ["unexplained.compile-error"] and len(expected[1]) == 4
    assert findings(data, matcher) == expected


@pytest.mark.parametrize("matcher", FAST)
def test_full_width_punctuation_classes_match_like_the_reference(matcher, tmp_path):
    from tests.conftest import write_pack

    pack = write_pack(tmp_path, """\
rules:
  - id: test.zh-link-down
    title: A Chinese report line with full-width or ASCII punctuation
    layer: hardware
    component: test
    severity: error
    match:
      any:
        - regex: '故障名称[:：]\\s*(?P<what>链路\\S+)[,，]\\s*设备[(（](?P<dev>\\d+)[)）]'
    cause: The link is down on device {dev}.
    fix: [Reseat the cable.]
    references: [https://example.invalid/zh]
    examples:
      match: ["故障名称：链路断开，设备（3）"]
      no_match: ["故障名称 链路断开"]
""")
    from triage.knowledge.loader import load_rules

    rules = load_rules([pack])
    lines = ["故障名称：链路断开，设备（3）", "故障名称: 链路断开, 设备(4)", "故障名称：链路抖动,设备(5)",
             "故障名称 链路断开"]
    data = ("\n".join(["INFO 中文日志开始"] + lines) + "\n").encode()
    got = {}
    for name in ("reference", matcher):
        analysis = Analysis(rules, name)
        list(analysis.feed(io.BytesIO(data)))
        f = next(f for f in analysis.report().findings if f.rule_id == "test.zh-link-down")
        got[name] = (f.count, f.first_line, f.last_line, f.captures)
    assert got[matcher] == got["reference"] == (3, 2, 4, {"what": "链路断开", "dev": "3"})


def test_wide_bounded_repeats_are_unbounded_in_the_prefilter():
    import re as _re

    from triage.matching.base import _relax_repeats

    rx = r"(?P<msg>sizes [^\n]{1,400}? do not contain[{]{0,100} \{1,200\} .{0,80}x{2,3})"
    relaxed = _relax_repeats(rx)
    assert relaxed == r"(?P<msg>sizes [^\n]+? do not contain[{]* \{1,200\} .*x{2,3})"
    line = "sizes " + "a" * 500 + " do not contain {1,200} " + "b" * 100 + "xx"
    # a superset: it matches where the rule's regex does, and where the bound alone excluded
    assert _re.search(relaxed, line) and not _re.search(rx, line)
    assert _re.search(relaxed, "sizes 4 do not contain{{ {1,200} qxx")


@pytest.mark.skipif("hyperscan" not in FAST, reason="hyperscan is not installed")
def test_literal_scanned_patterns_reach_python_only_where_their_regex_matches():
    from triage.inputs.reader import BlockReader
    from triage.matching.base import PrefilterPattern
    from triage.matching.hyperscan_matcher import MIN_LITERAL_SCAN, HyperscanMatcher

    lit = "hcclcomminitrootinfo"
    assert len(lit) >= MIN_LITERAL_SCAN
    patterns = [
        # failure form: the function name is a required literal, but INFO lines name it too
        PrefilterPattern(0, r"errNo\[0x[0-9a-f]+\] ?HcclCommInitRootInfo", False, (lit,)),
        # two more patterns sharing the literal: one Hyperscan expression, each checked on its own
        PrefilterPattern(1, r"HcclCommInitRootInfo\] rank\[\d+\] rankSize\[16\]", False, (lit,)),
        PrefilterPattern(2, r"HcclCommInitRootInfo\] rank\[\d+\] rankSize\[8\]", False, (lit,)),
    ]
    m = HyperscanMatcher(patterns, use_cache=False)
    assert len(m._lit_groups) == 1 and m._lit_groups[0] == (0, 1, 2)
    lines = [
        "[INFO] HCCL(1,python):2025-06-01-10:00:01.172.304 [op_base.cc:1] [HcclCommInitRootInfo] rank[3] "
        "rankSize[16] deviceLogicId[3] init success",
        "plain line",
        "[ERROR] HCCL(1,python):2025-06-01-10:00:02.000.000 [op_base.cc:9] errNo[0x0000000005000004] "
        "HcclCommInitRootInfo failed",
        "[INFO] HCCL(1,python):2025-06-01-10:00:03.000.000 [op_base.cc:1] [HcclCommInitRootInfo] rank[1] "
        "rankSize[8] deviceLogicId[1] init success",
        "HcclCommInitRootInfo named in passing",
        # escapes: the line without them decides, also when they split the literal
        "\x1b[31m[HcclCommInitRootInfo] rank[2] rankSize[16]\x1b[0m",
        "\x1b[1mHcclCommInit\x1b[0mRootInfo] rank[5] rankSize[8]",
        "\x1b[31m[HcclCommInitRootInfo] colour\x1b[0m",
    ]
    data = ("\n".join(lines) + "\n").encode()
    got = [(n, list(t)) for block in BlockReader(io.BytesIO(data)) for n, _raw, t in m.candidates(block)]
    assert got == [(1, [1]), (3, [0]), (4, [2]), (6, [1]), (7, [2])]


@pytest.mark.skipif("hyperscan" not in FAST, reason="hyperscan is not installed")
def test_a_line_flagged_by_several_literals_is_verified_once_and_refused_regexes_keep_their_hits():
    from triage.inputs.reader import BlockReader
    from triage.matching.base import PrefilterPattern
    from triage.matching.hyperscan_matcher import HyperscanMatcher

    a, b = "notify wait timeout", "socket establish failed"
    patterns = [
        # one pattern, two literals (an alternation): each is a group of its own
        PrefilterPattern(0, r"(?:notify wait timeout|socket establish failed) on rank \d+", False, (a, b)),
        PrefilterPattern(1, r"socket establish failed, peer \d+", False, (b,)),
        # a backreference: Hyperscan refuses the regex, so its literal's hits are never dropped
        PrefilterPattern(2, r"(\w+) notify wait timeout \1", False, (a,)),
    ]
    m = HyperscanMatcher(patterns, use_cache=False)
    assert sorted(m._lit_groups) == [(0, 1), (0, 2)] and m._unverified == {2}
    lines = [
        "notify wait timeout on rank 3 and socket establish failed on rank 4",  # both literals, pattern 0 once
        "socket establish failed, peer 7",
        "notify wait timeout, nothing else",  # only the refused pattern stands
        "x notify wait timeout x",
        "unrelated",
    ]
    data = ("\n".join(lines) + "\n").encode()
    got = [(n, list(t)) for block in BlockReader(io.BytesIO(data)) for n, _raw, t in m.candidates(block)]
    assert got == [(1, [0, 2]), (2, [1]), (3, [2]), (4, [2])]


@pytest.mark.skipif("hyperscan" not in FAST, reason="hyperscan is not installed")
def test_thinning_keeps_the_last_lines_whose_regex_matches_not_those_with_the_literal_only():
    from triage.inputs.reader import BlockReader
    from triage.matching.base import PrefilterPattern
    from triage.matching.hyperscan_matcher import HyperscanMatcher

    p = PrefilterPattern(0, r"Available KV cache memory: \d+\.\d+ GiB", False, ("available kv cache memory: ",))
    m = HyperscanMatcher([p], use_cache=False, limits={0: 2})
    lines = [f"Available KV cache memory: {i}.5 GiB" for i in range(5)]
    lines += ["Available KV cache memory: unknown"] * 3  # the literal, not the regex
    lines += ["\x1b[33mAvailable KV cache memory: unknown\x1b[0m"]  # nor in colour
    data = ("\n".join(lines) + "\n").encode()
    got = [n for block in BlockReader(io.BytesIO(data)) for n, _raw, _t in m.candidates(block)]
    assert got == [4, 5]


def test_remembered_confirmations_do_not_apply_to_raw_scoped_rules(tmp_path):
    from tests.conftest import write_pack

    pack = write_pack(tmp_path, """\
rules:
  - id: test.raw-worker-3
    title: An OOM printed by worker 3 (its tag is on the raw line only)
    layer: framework
    component: test
    severity: error
    match:
      all:
        - regex: 'NPU out of memory\\. Tried to allocate'
        - regex: '^\\(VllmWorker rank=3 '
          scope: raw
    cause: Worker 3 ran out of memory.
    fix: [Lower gpu_memory_utilization.]
    references: [https://example.invalid/raw]
    examples:
      match: ["(VllmWorker rank=3 pid=9) ERROR 06-01 10:00:00 [a.py:1] NPU out of memory. Tried to allocate 2 GiB"]
      no_match: ["(VllmWorker rank=2 pid=9) ERROR 06-01 10:00:00 [a.py:1] NPU out of memory. Tried to allocate 2 GiB"]
  - id: test.oom-any-worker
    title: An OOM from any worker
    layer: framework
    component: test
    severity: error
    match:
      any:
        - regex: 'NPU out of memory\\. Tried to allocate (?P<size>\\d+ GiB)'
    cause: A worker ran out of memory.
    fix: [Lower gpu_memory_utilization.]
    references: [https://example.invalid/any]
    examples:
      match: ["NPU out of memory. Tried to allocate 2 GiB"]
      no_match: ["NPU memory fine"]
""")
    rules = load_rules([pack], builtin=False)
    msg = "ERROR 06-01 10:00:00 [a.py:1] NPU out of memory. Tried to allocate 2 GiB"
    # the same normalized line four times: worker 2, 3, 2, 3
    data = "\n".join(f"(VllmWorker rank={r} pid={r}) {msg}" for r in (2, 3, 2, 3)).encode() + b"\n"
    for name in ("reference", *FAST):
        analysis = Analysis(rules, name)
        list(analysis.feed(io.BytesIO(data)))
        got = {f.rule_id: (f.count, f.first_line, f.last_line) for f in analysis.report().findings}
        assert got["test.raw-worker-3"] == (2, 2, 4), name
        assert got["test.oom-any-worker"][0] == 4, name
        assert analysis._memo  # the any-worker rule's confirmations were remembered


@pytest.mark.skipif("hyperscan" not in FAST, reason="hyperscan is not installed")
def test_a_hyperscan_build_refusing_utf8_expressions_keeps_the_non_ascii_findings(monkeypatch):
    """hyperscan 0.7.23 (the newest wheel for glibc < 2.28) refuses every non-ASCII expression in UTF-8
    mode. Those patterns are searched in Python, where a bounded repeat must still span characters,
    not bytes: ``HBM\\S{0,20}?多bit ECC`` over twelve Chinese characters (36 bytes) was missed."""
    from triage.matching import hyperscan_matcher as hm

    monkeypatch.setattr(hm, "takes_utf8", lambda: False)
    matcher = Analysis(RULES).build_matcher("hyperscan")
    assert len(matcher._slow) >= 40  # the non-ASCII patterns
    logs = [log for log in sorted(CORPUS.rglob("log.txt")) if not log.read_bytes().isascii()]
    assert len(logs) > 20
    for log in logs:
        data = log.read_bytes()
        analysis = Analysis(RULES, matcher)
        list(analysis.feed(io.BytesIO(data)))
        got = [(f.rule_id, f.first_line, f.count) for f in analysis.report().findings]
        assert got == [(f[0], f[1], f[3]) for f in findings(data, "reference")[0]], log
    hbm = CORPUS / "cluster-fd-report-hbm-ecc" / "log.txt"
    analysis = Analysis(RULES, matcher)
    list(analysis.feed(io.BytesIO(hbm.read_bytes())))
    assert "cluster.fd-hbm-ecc-fault" in [f.rule_id for f in analysis.report().findings]


def test_a_refused_pattern_flags_every_line_its_regex_matches():
    """A refused pattern is searched by its literals only when their case folds like ASCII, else by its
    own regex over the decoded text: a repeat, a ``.`` or a class spans characters, not bytes."""
    from triage.matching.base import PrefilterPattern

    pytest.importorskip("hyperscan")
    from triage.matching.refused import Refused

    def flags(regex, literals, line, ignore_case=False):
        refused = Refused(PrefilterPattern(0, regex, ignore_case, literals))
        data = f"healthy line\n{line}\nanother\n".encode()
        # each hit's byte offset, as the line it falls on (1-based)
        return refused.in_line(line.encode()), [data[:start].count(b"\n") + 1 for start in refused.starts(data, b"\n")]

    hbm = "| 故障名称 | HBM用户内存空间内存颗粒访问多bit ECC错误 |"
    assert flags(r"HBM[AC]?\S{0,20}?多bit ECC", ("多bit ecc",), hbm) == (True, [2])
    assert flags(r"HBM[AC]?\S{0,20}?多bit ECC", None, hbm) == (True, [2])
    assert flags(r"HBM[AC]?\S{0,20}?多bit ECC", None, "HBM单bit ECC")[0] is False
    # a literal with a cased non-ASCII letter: bytes IGNORECASE would not fold it
    assert flags(r"Überlauf erkannt", ("überlauf erkannt",), "Überlauf erkannt", ignore_case=True)[0] is True
    # a `.`, a class or a `?` on a non-ASCII character, with no literal to go by
    assert flags(r"故.障", None, "故中障")[0] is True
    assert flags(r"设备[甲乙]号", None, "设备乙号")[0] is True
    assert flags(r"错误码?：", None, "错误：")[0] is True
    assert flags(r"错误码?：", None, "正常")[0] is False
