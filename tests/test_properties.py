"""Property tests: random bytes, line-end mixes and planted real errors never crash triage, never
lose or renumber a line, and the planted error is always found; redaction never leaks a secret.

In CI (``CI`` set) each property runs 2,000 examples; locally 200.
"""

from __future__ import annotations

import io
import os

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.conftest import CORPUS
from triage.inputs.reader import BlockReader
from triage.knowledge.loader import load_rules
from triage.matching.select import choose_matcher
from triage.render.redact import Redactor
from triage.report.models import Evidence, Finding, Report
from triage.run.analysis import Analysis

settings.register_profile("ci", max_examples=2000, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.register_profile("dev", max_examples=200, deadline=None,
                          suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
settings.load_profile("ci" if os.environ.get("CI") else "dev")

RULES = load_rules()
MATCHER = choose_matcher(RULES.rules, None)
HEALTHY = [p.read_bytes().splitlines() for p in sorted(CORPUS.glob("healthy-*/log.txt"))]
ERRORS = [(r.id, ex) for r in RULES.rules if not r.rule.generic
          for ex in r.rule.examples.match_texts() if "\n" not in ex]


def analyse(data: bytes, block_size: int = 1 << 16):
    analysis = Analysis(RULES, MATCHER, block_size=block_size)
    list(analysis.feed(io.BytesIO(data)))
    return analysis.report()


def expected_lines(data: bytes) -> int:
    if not data:
        return 0
    sep = b"\n" if b"\n" in data else b"\r"
    return data.count(sep) + (0 if data.endswith(sep) else 1)


@given(st.binary(max_size=4000), st.integers(min_value=16, max_value=512))
def test_random_bytes_never_crash_and_count_every_line(data, block_size):
    report = analyse(data, block_size)
    assert report.lines_read == expected_lines(data)


@given(st.lists(st.sampled_from([b"\n", b"\r\n", b"\r", b"x", b"INFO ok", b"\xff", b"\x00", b"ERROR"]),
                max_size=200),
       st.integers(min_value=8, max_value=64))
def test_line_end_mixes_keep_line_numbers(parts, block_size):
    data = b"".join(parts)
    reader = BlockReader(io.BytesIO(data), block_size=block_size, max_line=1 << 20)
    numbers = [n for b in reader for n, _ in b.lines()]  # a block is valid until the next one is read
    assert numbers == list(range(1, expected_lines(data) + 1))


@given(st.sampled_from(range(len(HEALTHY))), st.sampled_from(ERRORS), st.data(),
       st.sampled_from([b"\n", b"\r\n"]))
def test_planted_error_in_healthy_log_is_found_at_its_line(log_index, error, data, end):
    rule_id, line = error
    healthy = HEALTHY[log_index]
    at = data.draw(st.integers(min_value=0, max_value=len(healthy)))
    lines = healthy[:at] + [line.encode()] + healthy[at:]
    report = analyse(end.join(lines) + end)
    assert report.lines_read == len(lines)
    fired = {f.rule_id: f for f in report.findings}
    earlier = [a for a in report.earlier_attempts if a.first_line <= at + 1 <= a.last_line]
    if earlier and rule_id not in fired:
        # planted before the service's start banner: it belongs to an earlier attempt
        assert rule_id in earlier[0].findings, f"{rule_id} lost when planted at line {at + 1}"
        return
    assert rule_id in fired, f"{rule_id} lost when planted at line {at + 1}"
    assert any(ev.line == at + 1 for ev in fired[rule_id].evidence), fired[rule_id].evidence


secrets = st.one_of(
    st.from_regex(r"hf_[A-Za-z0-9]{30}", fullmatch=True),
    st.from_regex(r"sk-[A-Za-z0-9]{32}", fullmatch=True),
    st.from_regex(r"[0-9a-f]{40}", fullmatch=True),
    st.tuples(*[st.integers(1, 254)] * 4).map(lambda t: ".".join(map(str, t))),
    st.from_regex(r"[a-z]{3,8}\.[a-z]{3,8}@example\.com", fullmatch=True),
)


@given(secrets, st.sampled_from(["token={}", "Authorization: Bearer {}", "connect to {} failed", "mail {} now",
                                 "key {} in config", "{}"]))
def test_redaction_never_leaves_a_planted_secret(secret, template):
    text = "RuntimeError: " + template.format(secret) + " while loading /home/alice/models/qwen"
    finding = Finding(rule_id="x.y", title="t", layer="framework", component="c", severity="error", priority=1,
                      generic=False, cause=f"cause mentions {secret}", fix=[f"fix with {secret}"],
                      evidence=[Evidence(file="/home/alice/log.txt", line=1, text=text)], first_line=1,
                      last_line=1, count=1, captures={"value": secret}, references=[])
    report = Report(triage_version="0", rules_digest="0", root_cause=finding, findings=[finding], unrecognised=[],
                    lines_read=1, files=["/home/alice/log.txt"])
    out = Redactor().report(report).model_dump_json()
    assert secret not in out
    assert "alice" not in out


@given(st.text(alphabet=st.characters(min_codepoint=1, max_codepoint=0x7F), min_size=4, max_size=200),
       st.binary(max_size=64))
@settings(max_examples=200, suppress_health_check=[HealthCheck.too_slow])
def test_utf16_without_bom_is_found_and_nul_free_samples_are_not(text, noise):
    from triage.inputs.decode import _utf16_without_bom

    # ASCII text in UTF-16 is recognised from its first four characters on
    assert _utf16_without_bom(text.encode("utf-16-le")) == "utf-16-le"
    assert _utf16_without_bom(text.encode("utf-16-be")) == "utf-16-be"
    # a sample with fewer than three NUL bytes is never UTF-16 (the fast path), whatever its bytes
    sample = (text.encode() + noise).replace(b"\0", b"", max(0, (text.encode() + noise).count(0) - 2))
    assert sample.count(0) <= 2
    assert _utf16_without_bom(sample) is None


_LINE_PREFIXES = [
    "> ", "> > ", "2025-06-01T10:00:00.123456789Z ", "2025-06-01T10:00:00+08:00 ", "[pod/vllm-0/engine] ",
    "[rank3]: ", "[rank12]:", "(VllmWorker rank=3 pid=1201) ", "(RayWorkerWrapper pid=77, ip=10.0.0.2) ",
    "(EngineCore_DP0 pid=626) ", "ERROR 12-05 07:51:00 [core.py:708] ", "INFO 04-18 01:55:45 engine.py:400] ",
    "WARNING 06-01 10:00:00.123 [worker_v1.py:230] ", "[default4]:", "(VllmWorker TP1 pid=21355) ",
]


@given(st.lists(st.sampled_from(_LINE_PREFIXES), max_size=12),
       st.sampled_from(["RuntimeError: NPU out of memory. Tried to allocate 30.00 MiB",
                        "[ERROR] RUNTIME(1,python):2025-06-01-10:00:00.123.456 [stream.cc:12] 1 fail",
                        "EZ9999: Inner Error!", "(not a tag) x", "2025 was a year"]))
def test_nested_line_prefixes_are_all_stripped_in_any_order(prefixes, message):
    from triage.logformat.normalize import normalize

    raw = "".join(prefixes) + message
    assert normalize(raw) == message
    assert normalize("\x1b[31m" + raw + "\x1b[0m\r") == message


def test_each_line_prefix_pattern_matches_only_its_own_kind():
    # normalize() strips them with one alternation; that is order-free only while no two can match
    # at the same place (today: each starts differently)
    from triage.logformat.normalize import _PREFIXES

    heads = ["> x", "2025-06-01T10:00:00Z x", "[pod/a/b] x", "[rank1]: x", "[default1]:x", "[Stage-1] x",
             "(W pid=1) x", "INFO 06-01 10:00:00 [a.py:1] x"]
    for i, head in enumerate(heads):
        assert [j for j, rx in enumerate(_PREFIXES) if rx.match(head)] == [i]


def test_more_than_six_nested_prefixes_are_all_stripped():
    from triage.logformat.normalize import normalize

    assert normalize("[rank0]: " * 7 + "msg") == "msg"
    assert normalize("(A pid=1) (B pid=2) " * 4 + "x") == "x"
