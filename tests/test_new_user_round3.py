"""What a new user met, round three: the commands behave as a user of a serious tool expects."""

from __future__ import annotations

from typer.testing import CliRunner

from triage.cli.app import app

runner = CliRunner()


def test_explain_joins_an_unquoted_line_split_by_the_shell():
    split = runner.invoke(app, ["explain", "RuntimeError:", "NPU", "out", "of", "memory."])
    assert split.exit_code == 1 and split.output.startswith("Root cause: NPU out of memory")
    # arguments holding spaces stay one line each
    two = runner.invoke(app, ["explain", "-f", "json", "INFO first line", "RuntimeError: NPU out of memory."])
    assert '"lines_read": 2' in two.output


def test_rules_list_grep_and_unknown_ids_get_suggestions():
    listed = runner.invoke(app, ["rules", "list", "--grep", "multi-bit ecc"])
    ids = [line.split("\t")[0] for line in listed.output.splitlines()[1:]]
    from triage.api import default_rules

    rules = default_rules().by_id
    texts = {i: " ".join([i, rules[i].rule.title, rules[i].rule.cause]).lower() for i in ids}
    assert "hw.hbm-multi-bit-ecc" in ids and all("multi-bit" in x and "ecc" in x for x in texts.values())
    assert len(ids) < 20 and "generic.engine-dead-error" not in ids
    shown = runner.invoke(app, ["rules", "show", "hw.hbm-multibit-ecc"])
    assert shown.exit_code == 2 and "did you mean `hw.hbm-multi-bit-ecc`" in shown.output


def test_suggest_never_drafts_a_bare_exception_and_says_when_nothing_fired(tmp_path):
    vague = tmp_path / "vague.log"
    vague.write_text("ValueError: 12345\n")
    result = runner.invoke(app, ["rules", "suggest", str(vague)])
    assert "regex:" not in result.output and "too few stable words" in result.output
    quiet = tmp_path / "quiet.log"
    quiet.write_text("INFO all good\n")
    result = runner.invoke(app, ["rules", "suggest", str(quiet)])
    assert "no error line found" in result.output and "every error line is explained" not in result.output
    good = tmp_path / "good.log"
    good.write_text("ValueError: the tokenizer of /models/x has no chat template 1234\n")
    drafted = runner.invoke(app, ["rules", "suggest", str(good)])
    assert r"regex: 'ValueError: the tokenizer of \S+ has no chat template \d+'" in drafted.output


def test_empty_and_unreadable_inputs_name_the_path(tmp_path):
    empty = tmp_path / "empty.log"
    empty.write_text("")
    result = runner.invoke(app, ["analyze", str(empty)])
    assert result.exit_code == 0 and f"{empty} was empty" in result.output
    folder = tmp_path / "nothing"
    folder.mkdir()
    result = runner.invoke(app, ["analyze", str(folder)])
    assert result.exit_code == 2 and f"{folder}: no input files" in result.output
    binaries = tmp_path / "bins"
    binaries.mkdir()
    (binaries / "a.bin").write_bytes(bytes(range(256)) * 40)
    result = runner.invoke(app, ["analyze", str(binaries)])
    assert result.exit_code == 2 and "nothing readable: 1 binary file(s) skipped" in result.output


def test_a_stage_prefixed_cann_reason_leads_over_the_wrapper():
    text = ("[Stage-1] (EngineCore pid=12) ERROR 12-05 10:00:00 [core.py:700]     The argument is invalid.Reason: "
            "rtGetDevMsg execution failed, the context is a null pointer.\n"
            "[Stage-1] (EngineCore pid=12) ERROR 12-05 10:00:01 [multiproc_executor.py:150] Worker proc "
            "VllmWorker-0 died unexpectedly, shutting down executor.\n")
    result = runner.invoke(app, ["explain", "-f", "json", text])
    assert '"rule_id": "unexplained.cann-error-reason"' in result.output.split('"findings"')[0]


def test_an_env_file_informs_the_log_and_the_log_leads():
    """Issue 25, item 7: `triage analyze env.txt engine.log` is one incident headed by the log's cause."""
    import json

    env = "corpus/collect-no-davinci-visible-devices/log.txt"
    log = "examples/vllm-ascend-507035.log"
    both = runner.invoke(app, ["analyze", env, log, "--format", "json"])
    report = json.loads(both.stdout)
    assert report["root_cause"]["rule_id"] == "op.vector-core-exception"
    assert len(report["incidents"]) == 1
    incident = report["incidents"][0]
    assert incident["root_cause"] == "op.vector-core-exception"
    assert "collect.no-npu-device-while-visible-devices-set" in incident["findings"]
    assert {o["file"] for o in incident["origins"]} == {env, log}
    # the env file alone still reports its own finding first
    alone = json.loads(runner.invoke(app, ["analyze", env, "--format", "json"]).stdout)
    assert alone["root_cause"]["rule_id"] == "collect.no-npu-device-while-visible-devices-set"
