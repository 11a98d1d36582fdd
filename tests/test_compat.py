"""Environment facts and compatibility checks: extractors, checks, tables, versions, KV arithmetic."""

from __future__ import annotations

import io
import json
import re
from dataclasses import replace
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from tests.conftest import CORPUS
from triage.api import analyze, explain
from triage.cli.app import app
from triage.errors import RulesInvalid
from triage.kbtools.corpus import load_cases
from triage.kbtools.selftest import check_checks, check_extractors
from triage.knowledge.compat import load_compat
from triage.knowledge.compat.checks import soc_family, vllm_ascend_release
from triage.knowledge.compat.versions import at_least, is_dev_build, parse_version, release_of, same_release
from triage.knowledge.loader import load_rules, rule_files

RULES = load_rules()
KNOWLEDGE = load_compat()
CASES = load_cases(CORPUS)
runner = CliRunner()


@pytest.mark.parametrize("extractor_id", [e.id for e in KNOWLEDGE.extractors])
def test_extractor_examples(extractor_id):
    alone = replace(KNOWLEDGE, extractors=[e for e in KNOWLEDGE.extractors if e.id == extractor_id])
    failures = [f"{r.subject} {r.check}: {r.detail}" for r in check_extractors(alone, RULES) if not r.passed]
    assert failures == []


@pytest.mark.parametrize("check_id", [c.id for c in KNOWLEDGE.checks])
def test_check_examples(check_id):
    failures = [f"{r.check}: {r.detail}" for r in check_checks(KNOWLEDGE, RULES)
                if r.subject == check_id and not r.passed]
    assert failures == []


def test_every_fact_has_an_extractor_and_a_corpus_case():
    extracted = {e.fact for e in KNOWLEDGE.extractors}
    assert sorted(set(KNOWLEDGE.facts) - extracted) == []
    shown = {name for c in CASES if not c.case.synthetic for name in c.case.expect.facts}
    # every kind of fact is shown, with its line, on a real log
    assert sorted(set(KNOWLEDGE.facts) - shown) == []


# No public report found yet prints a tagged vllm-ascend release beside a vLLM release it does not pair
# with (reports of this mismatch show dev builds, which are not judged, or name one side in prose).
UNBACKED_CHECKS = {"compat.vllm-ascend-vllm-mismatch"}


def test_every_check_is_backed_by_a_real_corpus_case():
    backed = {rid for c in CASES if not c.case.synthetic for rid in [c.case.expect.root_cause, *c.case.expect.also]}
    assert sorted(c.id for c in KNOWLEDGE.checks if c.id not in backed) == sorted(UNBACKED_CHECKS)
    # real logs whose root cause only the version facts name (not the KV-cache arithmetic)
    version_roots = [c.name for c in CASES if not c.case.synthetic and (c.case.expect.root_cause or "").startswith(
        "compat.") and "kv-cache" not in (c.case.expect.root_cause or "")]
    assert len(version_roots) >= 5, version_roots


def test_rule_loader_never_reads_compat():
    from triage.knowledge.loader import builtin_rules_dir

    assert not any("compat" in p.parts for p in rule_files(builtin_rules_dir()))
    assert all(Path(f).parent.name != "compat" for f in RULES.files)


# -- facts through the whole engine ---------------------------------------------------------------

COLLECT_ENV = """\
PyTorch version: 2.5.1
Python version: 3.10.17 (main, May  8 2025, 07:18:04) [GCC 11.4.0] (64-bit runtime)
Versions of relevant libraries:
[pip3] torch==2.5.1
[pip3] torch-npu==2.5.1.post1.dev20250619
[pip3] transformers==4.52.4
vLLM Version: 0.9.2
vLLM Ascend Version: 0.9.1

CANN:
package_name=Ascend-cann-toolkit
version=8.1.RC1
innerversion=V100R001C21SPC001B238
"""


def test_collect_env_facts_have_their_lines():
    facts = {f.name: (f.value, f.line) for f in explain(COLLECT_ENV).facts}
    assert facts["torch_version"] == ("2.5.1", 1)
    assert facts["python_version"] == ("3.10.17", 2)
    assert facts["torch_npu_version"] == ("2.5.1.post1.dev20250619", 5)
    assert facts["transformers_version"] == ("4.52.4", 6)
    assert facts["vllm_version"] == ("0.9.2", 7)
    assert facts["vllm_ascend_version"] == ("0.9.1", 8)
    assert facts["cann_version"] == ("8.1.RC1", 12)


def test_stronger_extractor_wins_and_other_values_are_kept():
    text = ('File "/usr/local/Ascend/ascend-toolkit/8.0.RC3/python/site-packages/te/x.py", line 3\n'
            "package_name=Ascend-cann-toolkit\nversion=8.1.RC1\n")
    fact = next(f for f in explain(text).facts if f.name == "cann_version")
    assert (fact.value, fact.line, fact.extractor, fact.others) == ("8.1.RC1", 3, "cann.toolkit-install-info",
                                                                   ["8.0.RC3"])


def test_after_context_must_be_near_and_in_the_same_file(tmp_path):
    far = "package_name=Ascend-cann-toolkit\n" + "x\n" * 5 + "version=8.1.RC1\n"
    assert [f for f in explain(far).facts if f.name == "cann_version"] == []
    a, b = tmp_path / "a.log", tmp_path / "b.log"
    a.write_text("package_name=Ascend-cann-toolkit\n")
    b.write_text("version=8.1.RC1\n")
    assert [f for f in analyze([a, b]).facts if f.name == "cann_version"] == []


def test_facts_from_a_second_file_feed_the_checks(tmp_path):
    env, log = tmp_path / "env.txt", tmp_path / "engine.log"
    env.write_text("vLLM Version: 0.9.2\nvLLM Ascend Version: 0.9.1\n")
    log.write_text("ImportError: cannot import name 'SamplingMetadata' from 'vllm.model_executor'\n")
    report = analyze([env, log])
    assert report.root_cause.rule_id == "compat.vllm-ascend-vllm-mismatch"
    assert {(e.file, e.line) for e in report.root_cause.evidence} == {(str(env), 1), (str(env), 2)}


def test_facts_in_json_and_markdown():
    result = runner.invoke(app, ["explain", "--format", "json", COLLECT_ENV])
    data = json.loads(result.stdout)
    vllm = next(f for f in data["facts"] if f["name"] == "vllm_version")
    assert (vllm["value"], vllm["line"], vllm["extractor"]) == ("0.9.2", 7, "collect-env.vllm")
    md = runner.invoke(app, ["explain", "--format", "markdown", COLLECT_ENV]).stdout
    assert "| vLLM | 0.9.2 | line 7 |" in md
    text = runner.invoke(app, ["explain", COLLECT_ENV]).stdout
    assert "Environment (read from the log):" in text and "vllm-ascend: 0.9.1 (line 8)" in text


def test_all_matchers_read_the_same_facts():
    from triage.run.analysis import Analysis

    text = COLLECT_ENV.encode() + b"\r\n" + b"INFO Available KV cache memory: 5.15 GiB\r\n"
    got = {}
    for name in ("hyperscan", "literal", "reference"):
        analysis = Analysis(RULES, name)
        for _ in analysis.feed(io.BytesIO(text)):
            pass
        got[name] = [(f.name, f.value, f.line) for f in analysis.report().facts]
    assert got["hyperscan"] == got["literal"] == got["reference"]
    assert ("kv_cache_available_gib", "5.15", 15) in got["reference"]


# -- the KV-cache arithmetic ----------------------------------------------------------------------

def _kv(report):
    return next(f for f in report.findings if f.rule_id == "compat.kv-cache-max-model-len")


def test_kv_v0_tokens_and_utilization_arithmetic():
    report = explain(
        "the current vLLM instance can use total_gpu_memory (60.96GiB) x gpu_memory_utilization (0.90) = 54.86GiB\n"
        "model weights take 40.28GiB; non_torch_memory takes 0.26GiB; PyTorch activation peak memory takes 4.45GiB; "
        "the rest of the memory reserved for KV Cache is 9.87GiB.\n"
        "ValueError: The model's max seq len (32768) is larger than the maximum number of tokens that can be "
        "stored in KV cache (21824).\n")
    f = _kv(report)
    assert f is report.findings[0]
    assert f.captures["fit_len"] == "21824"
    per_token = 9.87 / 21824
    need = per_token * 32768
    util = 0.90 + (need - 9.87) / 60.96
    assert f"{need:.2f} GiB of KV cache" in f.cause
    assert f"= {util:.3f}" in f.cause
    assert f.fix[0] == "Set `--max-model-len 21824` or lower (what your clients actually need)."


def test_kv_v1_estimate_agrees_with_vllm():
    # vllm-project/recipes#12: vLLM printed its own estimate; ours must agree within rounding
    case = next(c for c in CASES if c.name == "memory-kv-cache-v1-qwen3-coder")
    f = _kv(analyze(case.log))
    line = case.log.read_text().splitlines()[2]
    max_len, needed, available, printed = (float(x) for x in re.search(
        r"max seq len \((\d+)\), \(([\d.]+) GiB.*?memory \(([\d.]+) GiB\).*?length is (\d+)", line).groups())
    ours = max_len * available / needed
    assert abs(ours - printed) / printed < 0.001
    assert f.captures["fit_len"] == str(int(printed))


def test_kv_rounds_down_to_blocks_without_an_estimate():
    f = _kv(explain("non-default args: {'model': '/m', 'block_size': 64}\nValueError: To serve at least one request "
                    "with the models's max seq len (131072), (4.54 GiB KV cache is needed, which is larger than the "
                    "available KV cache memory (1.71 GiB)."))
    assert f.captures["fit_len"] == str(int(131072 * 1.71 / 4.54) // 64 * 64)
    assert "total NPU memory and gpu_memory_utilization are not in the log" in f.cause


def test_kv_check_silent_when_it_fits_or_figures_are_missing():
    assert explain("GPU KV cache size: 447,088 tokens\nnon-default args: {'max_model_len': 32768}").findings == []
    report = explain("ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization`")
    assert "compat.kv-cache-max-model-len" not in [f.rule_id for f in report.findings]


# -- versions and tables --------------------------------------------------------------------------

@pytest.mark.parametrize(("text", "expected"), [
    ("8.1.RC1", "8.1rc1"), ("8.0.RC3.alpha002", "8.0rc3"), ("24.1.rc2", "24.1rc2"), ("v0.11.0rc0", "0.11.0rc0"),
    ("2.5.1.post1.dev20250619", "2.5.1.post1.dev20250619"), ("not a version", None),
])
def test_parse_version(text, expected):
    v = parse_version(text)
    assert (str(v) if v else None) == expected


def test_version_relations():
    assert str(release_of("2.7.1+cpu")) == "2.7.1"
    assert same_release("2.5.1.post1.dev20250619", "2.5.1.post1")
    assert same_release("2.5.1.post1", "2.5.1") and not same_release("2.5.1", "2.5.1.post1")
    assert at_least("8.1.0", "8.1.RC1") and at_least("8.0.RC3", "8.1.RC1") is False
    assert is_dev_build("0.9.2rc2.dev255+gcf96366.d20250830") and not is_dev_build("0.9.1rc1")


@settings(deadline=None)  # no timed tests: a loaded machine is slow, not wrong
@given(st.text(max_size=40))
def test_version_parsing_never_raises(text):
    parse_version(text)
    release_of(text)
    at_least(text, "8.1.RC1")


def test_tables_cite_sources_and_know_the_main_releases():
    assert vllm_ascend_release(KNOWLEDGE, "0.9.1") is not None
    assert vllm_ascend_release(KNOWLEDGE, "0.9.2rc2.dev255+gcf96366") is None
    assert soc_family(KNOWLEDGE, "910B3") == "910B" and soc_family(KNOWLEDGE, "310P3") == "310P"
    for table in (KNOWLEDGE.vllm_ascend.releases, KNOWLEDGE.torch_npu.releases, KNOWLEDGE.models.models,
                  KNOWLEDGE.socs.families):
        assert all(entry.source for entry in table)
    families = {f.family for f in KNOWLEDGE.socs.families}
    for rel in KNOWLEDGE.vllm_ascend.releases:
        assert set(rel.socs) <= families, rel.vllm_ascend


# -- bad data gets a clear error ------------------------------------------------------------------

def test_malformed_compat_file_names_file_line_and_field(tmp_path):
    (tmp_path / "facts.yaml").write_text(
        "kind: facts\nfacts:\n  - {name: vllm_version, label: vLLM, type: version}\n"
        "extractors:\n  - id: x.y\n    fact: nope\n    regex: 'vLLM (?P<val>\\d+)'\n    source: here\n"
        "    examples: [{text: a, value: b}]\n")
    (tmp_path / "other.yaml").write_text("kind: rules\n")
    with pytest.raises(RulesInvalid) as err:
        load_compat.__wrapped__(tmp_path)
    text = str(err.value)
    assert f"{tmp_path / 'facts.yaml'}:6: extractor x.y: fact: no fact named `nope`" in text
    assert f"{tmp_path / 'facts.yaml'}:7: extractor x.y: regex: needs a named group `value`" in text
    assert f"{tmp_path / 'other.yaml'}:1: kind:" in text


def test_check_with_unknown_placeholder_is_refused(tmp_path):
    (tmp_path / "checks.yaml").write_text(
        "kind: checks\nchecks:\n  - id: compat.x\n    test: vllm_pairing\n    title: a title\n    layer: framework\n"
        "    component: vLLM\n    severity: error\n    cause: 'vLLM {nope} is wrong here'\n    fix: [do]\n"
        "    references: [r]\n    examples: {match: [a], no_match: [b]}\n")
    with pytest.raises(RulesInvalid) as err:
        load_compat.__wrapped__(tmp_path)
    assert ("checks.yaml:9: check compat.x: cause: placeholder {nope} is not a value of test `vllm_pairing`"
            in str(err.value))


# -- review findings, each pinned -------------------------------------------------------------------

def test_each_release_row_is_consistent_with_itself():
    """A release's own vLLM, PyTorch, torch_npu and CANN never make a compatibility finding."""
    bad = []
    for rel in KNOWLEDGE.vllm_ascend.releases:
        lines = [f"vLLM Version: {rel.vllm[0]}", f"vLLM Ascend Version: {rel.vllm_ascend}"]
        if rel.torch:
            lines.append(f"PyTorch version: {rel.torch[0]}")
        if rel.torch_npu:
            lines.append(f"[pip3] torch-npu=={rel.torch_npu[0]}")
        if rel.cann:
            lines += ["CANN:", "package_name=Ascend-cann-toolkit", f"version={rel.cann}"]
        fired = [f.rule_id for f in explain("\n".join(lines)).findings if f.rule_id.startswith("compat.")]
        if fired:
            bad.append((rel.vllm_ascend, fired))
    assert bad == []


def test_a_mismatch_beside_an_unrelated_specific_error_is_context():
    report = explain("vLLM Version: 0.9.2\nvLLM Ascend Version: 0.9.1\n"
                     "RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 0; 60.97 GiB total capacity; "
                     "58.10 GiB already allocated; 1.10 GiB free; 58.60 GiB reserved in total by PyTorch)\n"
                     "RuntimeError: Engine core initialization failed. See root cause above.")
    ids = [f.rule_id for f in report.findings]
    assert report.root_cause.rule_id.startswith("memory.")
    assert "compat.vllm-ascend-vllm-mismatch" in ids


@settings(deadline=None)  # no timed tests: a loaded machine is slow, not wrong
@given(st.integers(min_value=20, max_value=6000))
def test_huge_numbers_are_not_facts(digits):
    text = (f"vLLM Version: {'1' * digits}\n--max-model-len {'9' * digits}\nGPU KV cache size: 1,000 tokens\n"
            f"Available KV cache memory: {'9' * digits}.5 GiB\n")
    report = explain(text)  # no crash, and no count or size past what a log can mean
    assert not {f.name for f in report.facts} & {"max_model_len", "kv_cache_available_gib"}


def test_an_extractor_that_runs_out_of_time_reads_nothing():
    """Fact regexes get the rules' per-line time bound (`.*?` after a repeated literal is quadratic)."""
    from triage.scan.facts import CompiledExtractor

    ex = next(e for e in KNOWLEDGE.extractors if e.id == "vllm.config-max-seq-len")
    compiled = CompiledExtractor(ex, KNOWLEDGE.facts[ex.fact])

    class Slow:
        def search(self, text, timeout=None):
            assert timeout is not None  # the bound is passed on every search
            raise TimeoutError

    compiled._value = Slow()
    assert compiled.value_match("with config: " * 20000) is None


def test_first_value_wins_across_extractors_of_equal_priority_whatever_the_blocks(tmp_path):
    from triage.run.analysis import Analysis

    text = b"torch-npu                         2.5.1.post1\nx\nName: torch-npu\nVersion: 2.6.0\n"
    got = set()
    for block in (48, 4 << 20):
        analysis = Analysis(RULES, "reference", block_size=block)
        list(analysis.feed(io.BytesIO(text)))
        got.add(next((f.value, f.line) for f in analysis.report().facts if f.name == "torch_npu_version"))
    assert got == {("2.5.1.post1", 1)}


def test_rejected_values_count_as_read_lines_in_every_matcher():
    from triage.run.analysis import Analysis

    text = ("".join(f"Initializing a V1 LLM engine (vdev{i}) with config: model='/m'\n" for i in range(10))
            + "Initializing a V1 LLM engine (v0.9.1) with config: model='/m'\n").encode()
    got = {}
    for name in ("hyperscan", "literal", "reference"):
        analysis = Analysis(RULES, name)
        list(analysis.feed(io.BytesIO(text)))
        got[name] = [(f.name, f.value, f.line) for f in analysis.report().facts]
    assert got["hyperscan"] == got["literal"] == got["reference"]
    assert ("vllm_version", "0.9.1", 11) in got["reference"]


def test_v1_kv_size_after_a_healthy_start_is_no_finding():
    report = explain("non-default args: {'model': '/m', 'max_model_len': 131072}\n"
                     "INFO [kv_cache_utils.py:716] GPU KV cache size: 60,000 tokens\n"
                     "INFO [kv_cache_utils.py:720] Maximum concurrency for 131,072 tokens per request: 2.10x\n"
                     "INFO:     Application startup complete.")
    assert report.findings == []


def test_dev_builds_of_vllm_are_not_judged_by_model_checks():
    report = explain("vLLM Version: 0.1.dev8000+gd6bfae8.empty\nINFO Resolved architecture: Qwen3ForCausalLM")
    assert [f.rule_id for f in report.findings if f.rule_id.startswith("compat.")] == []


def test_the_last_start_up_gives_launch_parameters_and_figures():
    report = explain("ValueError: The model's max seq len (131072) is larger than the maximum number of tokens that "
                     "can be stored in KV cache (81536).\n"
                     "Initializing a V1 LLM engine (v0.9.1) with config: model='/m', max_seq_len=32768, "
                     "tensor_parallel_size=2\nINFO:     Application startup complete.")
    fact = next(f for f in report.facts if f.name == "max_model_len")
    assert (fact.value, fact.line, fact.others) == ("32768", 2, ["131072"])
    assert "compat.kv-cache-max-model-len" not in [f.rule_id for f in report.findings]


def test_a_check_missing_a_required_parameter_is_refused(tmp_path):
    (tmp_path / "checks.yaml").write_text(
        "kind: checks\nchecks:\n  - id: compat.x\n    test: vllm_ascend_requires\n    title: a title\n"
        "    layer: framework\n    component: vLLM\n    severity: error\n    cause: 'something is off'\n"
        "    fix: [do]\n    references: [r]\n    examples: {match: [a], no_match: [b]}\n")
    with pytest.raises(RulesInvalid) as err:
        load_compat.__wrapped__(tmp_path)
    assert "checks.yaml:3: check compat.x: params: test `vllm_ascend_requires` needs parameter `fact`" in str(err.value)


def test_versions_of_the_forms_the_stack_prints():
    assert str(parse_version("8.5.0.alpha001")) == "8.5.0a1"
    assert str(parse_version("23.0.rc3.b060")) == "23.0rc3"
    assert str(parse_version("2.0.T3.B010")) == "2.0a3" and at_least("2.0.T3.B010", "2.0.RC1") is False
    assert parse_version("1" * 5000) is None
    from triage.knowledge.compat.versions import same_minor

    assert same_minor("2.8", "2.8.0")
