"""Rule-authoring and output tooling: formats, redaction, rules list/show/lint/why/schema, corpus add/bless,
config files, user packs."""

from __future__ import annotations

import json
import shutil

import yaml
from markdown_it import MarkdownIt
from typer.testing import CliRunner

from tests.conftest import CORPUS, MINIMAL_RULE, ROOT, write_pack
from triage.cli.app import app

runner = CliRunner()
EXAMPLE = ROOT / "examples" / "vllm-ascend-507035.log"


def invoke(*args, **kw):
    result = runner.invoke(app, list(args), **kw)
    assert result.exception is None or isinstance(result.exception, SystemExit), result.exception
    return result


def test_markdown_renders_with_collapsible_evidence():
    md = invoke("analyze", str(EXAMPLE), "-f", "markdown").stdout
    html = MarkdownIt("commonmark", {"html": True}).enable("table").render(md)
    assert html.startswith("<h3>triage: Root cause: ")
    assert "<details><summary>Evidence</summary>" in html
    assert "<code class=\"language-text\">" in html and "error code:507035" in html
    assert "<table>" in html and "generic.engine-dead-error" in html
    text = invoke("analyze", str(EXAMPLE)).stdout
    assert "[framework/vLLM] generic.engine-dead-error, x2" in text  # markup-like text survives


def test_sarif_is_valid_shape():
    data = json.loads(invoke("analyze", str(EXAMPLE), "-f", "sarif").stdout)
    assert data["version"] == "2.1.0"
    run = data["runs"][0]
    ids = [r["id"] for r in run["tool"]["driver"]["rules"]]
    assert ids[0] == "op.vector-core-exception"
    first = run["results"][0]
    assert first["ruleId"] == ids[0] and first["level"] == "error"
    region = first["locations"][0]["physicalLocation"]["region"]
    assert region["startLine"] == 4 and "507035" in region["snippet"]["text"]


def test_fail_on_sets_the_exit_code(tmp_path):
    log = tmp_path / "warn.log"
    log.write_text("[2025-01-01 10:00:00 +0000] [7] [INFO] Using worker: gevent\n")
    data = json.loads(invoke("analyze", str(log), "-f", "json").stdout)
    severities = {f["severity"] for f in data["findings"]}
    assert severities and severities <= {"warning", "info"}
    assert invoke("analyze", str(log)).exit_code == 0
    assert invoke("analyze", str(log), "--fail-on", "warning").exit_code == 1


def test_redact_hides_hosts_ips_users_and_tokens_in_every_format(tmp_path):
    log = tmp_path / "secret.log"
    log.write_text("(RayWorkerWrapper pid=1, ip=10.1.2.3) RuntimeError: NPU out of memory. Tried to allocate "
                   "2.00 GiB (NPU 0; 60.97 GiB total capacity; 58.10 GiB already allocated; 1.10 GiB free; "
                   "58.60 GiB reserved in total by PyTorch) on host gpu7.corp.example.com user /home/alice "
                   "hf_abcdefghijklmnopqrstuvwxyz123\n")
    for fmt in ("text", "json", "jsonl", "markdown", "sarif"):
        out = invoke("analyze", str(log), "-f", fmt, "--redact").stdout
        for secret in ("10.1.2.3", "gpu7.corp.example.com", "alice", "hf_abcdefghijklmnopqrstuvwxyz123"):
            assert secret not in out, (fmt, secret)
        assert "<ip-1>" in out and "<user-1>" in out
    plain = json.loads(invoke("analyze", str(log), "-f", "json").stdout)
    redacted = json.loads(invoke("analyze", str(log), "-f", "json", "--redact").stdout)
    home = tmp_path / "home" / "alice"
    home.mkdir(parents=True)
    bad = home / "bad.gz"
    bad.write_bytes(b"\x1f\x8b\x08\x00garbage")
    result = invoke("analyze", str(bad), "--redact")
    assert result.exit_code == 2 and "truncated or corrupt" in result.stderr
    assert "alice" not in result.stderr and "alice" not in result.stdout
    assert [f["rule_id"] for f in plain["findings"]] == [f["rule_id"] for f in redacted["findings"]]


def test_rules_list_filters_and_json():
    rows = json.loads(invoke("rules", "list", "--layer", "hardware", "-f", "json").stdout)
    assert rows and {r["layer"] for r in rows} == {"hardware"}
    assert any(r["id"].startswith("hw.") for r in rows)
    everything = json.loads(invoke("rules", "list", "-f", "json").stdout)
    assert len(everything) > len(rows)


def test_rules_list_choices_are_case_insensitive_and_checked():
    lower = json.loads(invoke("rules", "list", "--layer", "driver", "-f", "json").stdout)
    assert lower and json.loads(invoke("rules", "list", "--layer", "Driver", "-f", "JSON").stdout) == lower
    for option, value, choices in [("--layer", "hardwre", "'hardware', 'driver', 'framework'"),
                                   ("--severity", "fatal", "'critical', 'error', 'warning', 'info'"),
                                   ("-f", "yaml", "'table', 'json'")]:
        result = invoke("rules", "list", option, value)
        assert result.exit_code == 2 and result.stdout == ""
        assert f"'{value}' is not one of {choices}" in result.stderr


def test_rules_list_piped_has_a_header_row_and_component_matches_words():
    lines = invoke("rules", "list", "--component", "docker").stdout.splitlines()
    assert lines[0] == "id\tlayer\tcomponent\tseverity\tpriority\ttitle"
    rows = [line.split("\t") for line in lines[1:]]
    assert "device.npu-smi-missing-in-container" in [r[0] for r in rows]  # "docker (driver tool mounts)"
    assert rows and all(__import__("re").search(r"\bdocker\b", r[2].lower()) for r in rows)
    from triage.knowledge.lookup import component_matches

    assert component_matches("docker", "docker (driver tool mounts)")
    assert component_matches("Driver Tool", "docker (driver tool mounts)")
    assert not component_matches("torch", "torch_npu") and not component_matches("dock", "docker")


def test_rules_show_prints_rule_and_its_cases():
    out = invoke("rules", "show", "op.vector-core-exception").stdout
    assert "id: op.vector-core-exception" in out and "examples:" in out
    assert "corpus/op-vector-core-507035-sync" in out


def test_rules_lint_reports_file_line_field(tmp_path):
    ok = invoke("rules", "lint")
    assert ok.exit_code == 0 and "rules OK" in ok.stdout
    bad = write_pack(tmp_path, MINIMAL_RULE.replace("'sample failure (?P<code>\\d+)'", "'(a+)+ (?P<code>\\d+)'"))
    result = invoke("rules", "lint", str(bad))
    assert result.exit_code == 3
    assert "pack.yaml:10: rule test.sample: match.any[0].regex: nested quantifier" in result.stderr


def test_rules_lint_finds_unknown_suppress_target(tmp_path):
    rule = MINIMAL_RULE.replace("    priority: 60\n", "    priority: 60\n    suppresses: [nope.x]\n")
    pack = write_pack(tmp_path, rule)
    result = invoke("rules", "lint", str(pack))
    assert result.exit_code == 3 and "unknown rule id `nope.x`" in result.stderr


def test_rules_test_one_rule():
    result = invoke("rules", "test", "op.vector-core-exception")
    assert result.exit_code == 0
    assert "examples: " in result.stdout and "failed" in result.stdout.splitlines()[-1]


def test_rules_why_names_the_failing_condition(tmp_path):
    log = tmp_path / "near.log"
    log.write_text("INFO boot\nRuntimeError: NPU out of memory. Tried to allocate lots\n")
    out = invoke("rules", "why", "memory.npu-oom-caching-allocator", str(log)).stdout
    assert "does not fire" in out and "nearest line 2" in out and "failed: none of any[0] regex" in out
    assert "any[0] matches up to `NPU out of memory\\. Tried to allocate `" in out
    fired = invoke("rules", "why", "op.vector-core-exception", str(EXAMPLE)).stdout
    assert fired.startswith("op.vector-core-exception fires on 1 line: 4")


def test_rules_schema_matches_committed_file():
    schema = json.loads(invoke("rules", "schema").stdout)
    assert schema["title"] == "triage rule file"
    assert json.loads((ROOT / "docs" / "rule.schema.json").read_text()) == schema


def test_rules_schema_builtin_is_the_strict_one():
    strict = json.loads(invoke("rules", "schema", "--builtin").stdout)
    assert json.loads((ROOT / "docs" / "rule.builtin.schema.json").read_text()) == strict
    pack = json.loads(invoke("rules", "schema").stdout)
    rule, pack_rule = strict["$defs"]["Rule"], pack["$defs"]["Rule"]
    assert {"references", "confidence", "zh"} <= set(rule["required"])
    assert not {"references", "confidence", "zh"} & set(pack_rule["required"])
    assert rule["properties"]["references"]["minItems"] == 1 and "minItems" not in pack_rule["properties"]["references"]
    assert rule["properties"]["confidence"]["enum"] == ["confirmed", "likely", "hypothesis"]
    assert rule["properties"]["draft"]["const"] is False
    assert "no_match" in strict["$defs"]["Examples"]["required"]
    assert strict["$defs"]["Examples"]["properties"]["no_match"]["minItems"] == 1
    assert "no_match" not in pack["$defs"]["Examples"]["required"]


def test_rules_lint_prints_pack_warnings_and_analyze_stays_quiet(tmp_path):
    bare = MINIMAL_RULE.replace("    references: [https://example.org/sample]\n", "").replace(
        '      no_match: ["sample success"]\n', "")
    pack = write_pack(tmp_path, bare)
    result = invoke("rules", "lint", str(pack))
    assert result.exit_code == 0
    warnings = result.stderr.splitlines()
    assert len(warnings) == 2 and all(w.startswith(f"warning: {pack / 'pack.yaml'}:") for w in warnings)
    assert "rule test.sample: references: no references" in warnings[0]
    assert "rule test.sample: examples: no `no_match` examples" in warnings[1]
    assert __import__("re").fullmatch(r"\d+ rules OK \(\d+ files\), 2 warnings\n", result.stdout)
    log = tmp_path / "x.log"
    log.write_text("sample failure 7\n")
    quiet = invoke("analyze", "--rules", str(pack), str(log))
    assert quiet.exit_code == 1 and quiet.stderr == "" and quiet.stdout.startswith("Root cause: A sample rule")


def test_corpus_add_then_rules_test_passes(tmp_path):
    corpus = tmp_path / "corpus"
    log = tmp_path / "full.log"
    noise = [f"INFO 01-01 00:00:{i:02d} [core.py:1] step {i} on 10.0.0.{i}" for i in range(40)]
    log.write_text("\n".join(noise[:20] + [EXAMPLE.read_text().splitlines()[3]] + noise[20:]) + "\n")
    result = invoke("corpus", "add", str(log), "--source", "example/repo#1", "--expect", "op.vector-core-exception",
                    "--corpus", str(corpus), "--context", "2")
    assert result.exit_code == 0, result.output
    [case] = list(corpus.iterdir())
    text = (case / "log.txt").read_text()
    assert len(text.splitlines()) == 5 and "507035" in text and "10.0.0." not in text
    meta = yaml.safe_load((case / "case.yaml").read_text())
    assert meta["expect"]["root_cause"] == "op.vector-core-exception" and meta["source"] == "example/repo#1"
    check = invoke("rules", "test", "op.vector-core-exception", "--corpus", str(corpus))
    assert check.exit_code == 0 and "corpus: 1/1 root causes right" in check.stdout


def test_corpus_add_refuses_a_log_that_ranks_another_rule(tmp_path):
    result = invoke("corpus", "add", str(EXAMPLE), "--source", "x/y#1", "--expect", "generic.engine-dead-error",
                    "--corpus", str(tmp_path))
    assert result.exit_code == 1 and "ranks op.vector-core-exception first" in result.stderr


def test_corpus_bless_rewrites_expectations(tmp_path):
    src = CORPUS / "op-vector-core-507035-sync"
    case = tmp_path / "c" / "op-vector-core-507035-sync"
    shutil.copytree(src, case)
    meta = case / "case.yaml"
    meta.write_text(meta.read_text().replace("root_cause: op.vector-core-exception", "root_cause: wrong.rule"))
    assert "1 of 1 case rewritten" in invoke("corpus", "bless", "--corpus", str(tmp_path / "c")).stdout
    assert yaml.safe_load(meta.read_text())["expect"]["root_cause"] == "op.vector-core-exception"


def test_config_file_disables_rules_and_adds_packs(tmp_path, monkeypatch):
    pack = write_pack(tmp_path, MINIMAL_RULE)
    (tmp_path / ".triage.yaml").write_text(f"rules: [{pack.name}]\ndisable: [op.vector-core-exception]\n")
    monkeypatch.chdir(tmp_path)
    data = json.loads(invoke("analyze", str(EXAMPLE), "-f", "json").stdout)
    assert "op.vector-core-exception" not in [f["rule_id"] for f in data["findings"]]
    data = json.loads(invoke("explain", "sample failure 9", "-f", "json").stdout)
    assert data["root_cause"]["rule_id"] == "test.sample"


def test_config_scalars_are_one_item_lists(tmp_path, monkeypatch):
    pack = write_pack(tmp_path, MINIMAL_RULE)
    (tmp_path / ".triage.yaml").write_text(f"rules: {pack}\ndisable: op.vector-core-exception\n")
    monkeypatch.chdir(tmp_path)
    result = invoke("analyze", str(EXAMPLE), "-f", "json")
    assert result.stderr == ""
    assert "op.vector-core-exception" not in [f["rule_id"] for f in json.loads(result.stdout)["findings"]]
    assert json.loads(invoke("explain", "sample failure 9", "-f", "json").stdout)["root_cause"]["rule_id"] == \
        "test.sample"
    (tmp_path / ".triage.yaml").unlink()
    (tmp_path / "pyproject.toml").write_text('[tool.triage]\ndisable = "op.vector-core-exception"\n')
    data = json.loads(invoke("analyze", str(EXAMPLE), "-f", "json").stdout)
    assert "op.vector-core-exception" not in [f["rule_id"] for f in data["findings"]]


def test_config_value_of_the_wrong_type_names_the_file(tmp_path, monkeypatch):
    (tmp_path / ".triage.yaml").write_text("disable: {a: 1}\n")
    monkeypatch.chdir(tmp_path)
    result = invoke("analyze", str(EXAMPLE))
    assert result.exit_code == 3
    assert result.stderr == f"triage: {tmp_path / '.triage.yaml'}: disable: must be a rule id or a list of them\n"


def test_unknown_disable_option_is_a_usage_error_naming_the_option(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    result = invoke("analyze", str(EXAMPLE), "--disable", "no.such-rule")
    assert result.exit_code == 2
    assert result.stderr == ("triage: --disable: unknown rule id `no.such-rule` (`triage rules list` lists the "
                             "rule ids)\n")


def test_unknown_disable_in_the_config_names_the_file(tmp_path, monkeypatch):
    (tmp_path / ".triage.yaml").write_text("disable: [no.such-rule]\n")
    monkeypatch.chdir(tmp_path)
    result = invoke("analyze", str(EXAMPLE))
    assert result.exit_code == 3
    assert result.stderr == f"triage: {tmp_path / '.triage.yaml'}: disable: unknown rule id `no.such-rule`\n"


def test_rules_path_environment_variable(tmp_path, monkeypatch):
    pack = write_pack(tmp_path, MINIMAL_RULE)
    monkeypatch.setenv("TRIAGE_RULES_PATH", str(pack))
    data = json.loads(invoke("explain", "sample failure 3", "-f", "json").stdout)
    assert data["root_cause"]["rule_id"] == "test.sample" and data["root_cause"]["pack"] == str(pack)


def test_installed_plugin_pack_via_entry_point(tmp_path, monkeypatch):
    import importlib.metadata as metadata
    import sys

    pkg = tmp_path / "acme_triage_rules"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "acme.yaml").write_text(MINIMAL_RULE)
    monkeypatch.syspath_prepend(str(tmp_path))
    ep = metadata.EntryPoint(name="acme", value="acme_triage_rules", group="triage.rules")
    monkeypatch.setattr(metadata, "entry_points", lambda group=None: [ep] if group == "triage.rules" else [])
    data = json.loads(invoke("explain", "sample failure 5", "-f", "json").stdout)
    assert data["root_cause"]["rule_id"] == "test.sample"
    assert data["root_cause"]["pack"] == str(pkg)
    sys.modules.pop("acme_triage_rules", None)


def _commands(group, prefix=()):
    for name, command in group.commands.items():
        if hasattr(command, "commands"):  # a group
            yield from _commands(command, (*prefix, name))
        else:
            yield (*prefix, name)


def test_help_shows_no_python_types_as_placeholders():
    import re

    import typer

    commands = list(_commands(typer.main.get_command(app)))
    assert ("analyze",) in commands and ("rules", "why") in commands
    for path in commands:
        out = invoke(*path, "--help").stdout
        assert not re.search(r"<(list\[|str>|path>|int>)", out), (path, out)
        assert "[[" not in out.splitlines()[0], (path, out)
    usage = invoke("analyze", "--help").stdout.splitlines()[0]
    assert usage.endswith("analyze [OPTIONS] [FILE]...")
    assert "--rules PACK" in invoke("analyze", "--help").stdout
    assert "--disable ID" in invoke("analyze", "--help").stdout
