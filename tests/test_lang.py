"""Chinese (issue 13): --lang, TRIAGE_LANG and the locale; texts in Chinese with the same values."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import triage
from triage.cli.app import app
from triage.report.i18n import resolve_lang

runner = CliRunner()
OOM = ("RuntimeError: NPU out of memory. Tried to allocate 2.00 GiB (NPU 3; 60.97 GiB total capacity; "
       "58.00 GiB already allocated; 1.00 GiB free; 58.20 GiB reserved in total by PyTorch)\n")


@pytest.mark.parametrize(("env", "want"), [
    ({"LANG": "zh_CN.UTF-8"}, "zh"), ({"LC_ALL": "zh_CN.UTF-8", "LANG": "en_US.UTF-8"}, "zh"),
    ({"LC_ALL": "C.UTF-8", "LANG": "zh_CN.UTF-8"}, "en"), ({"LC_MESSAGES": "zh_TW.UTF-8"}, "zh"), ({}, "en"),
    ({"TRIAGE_LANG": "zh", "LANG": "en_US.UTF-8"}, "zh"), ({"TRIAGE_LANG": "en", "LANG": "zh_CN.UTF-8"}, "en"),
])
def test_language_from_the_environment(monkeypatch, env, want):
    for var in ("TRIAGE_LANG", "LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.delenv(var, raising=False)
    for k, v in env.items():
        monkeypatch.setenv(k, v)
    assert resolve_lang() == want
    assert resolve_lang("en") == "en" and resolve_lang("zh-CN") == "zh"


def test_unknown_language_is_a_usage_error(tmp_path):
    log = tmp_path / "x.log"
    log.write_text(OOM)
    result = runner.invoke(app, ["analyze", str(log), "--lang", "fr"])
    assert result.exit_code == 2 and "--lang" in result.stderr


def test_json_in_chinese_keeps_keys_ids_layers_and_captured_values():
    en = triage.explain(OOM, lang="en")
    zh = triage.explain(OOM, lang="zh")
    assert en.lang == "en" and zh.lang == "zh"
    a, b = en.root_cause, zh.root_cause
    assert (a.rule_id, a.layer, a.severity, a.captures) == (b.rule_id, b.layer, b.severity, b.captures)
    assert a.title != b.title and any("\u4e00" <= ch <= "\u9fff" for ch in b.title)
    # the captured values appear in the Chinese cause
    assert "NPU 3" in b.cause and "2.00 GiB" in b.cause
    assert json.loads(zh.model_dump_json()).keys() == json.loads(en.model_dump_json()).keys()


def test_locale_alone_gives_chinese_and_lang_overrides_it(tmp_path, monkeypatch):
    log = tmp_path / "x.log"
    log.write_text(OOM)
    monkeypatch.delenv("TRIAGE_LANG", raising=False)
    monkeypatch.setenv("LC_ALL", "zh_CN.UTF-8")
    zh = runner.invoke(app, ["analyze", str(log)]).stdout.splitlines()
    assert zh[0].startswith("根因：") and "[框架/torch_npu]" in zh[0]
    assert any(line.startswith("层级：硬件（hardware）") for line in zh)
    assert zh[-1].startswith("已读 1 行，")
    en = runner.invoke(app, ["analyze", str(log), "--lang", "en"]).stdout.splitlines()
    assert en[0].startswith("Root cause: ") and "[framework/torch_npu]" in en[0]


def test_every_builtin_rule_and_check_has_chinese_with_the_same_placeholders():
    from triage.knowledge.compat import load_compat
    from triage.knowledge.compiled import placeholders_in
    from triage.knowledge.loader import load_rules

    missing = [r.id for r in load_rules().rules if r.rule.zh is None]
    assert missing == []
    for r in load_rules().rules:
        zh = r.rule.zh
        assert len(zh.fix) == len(r.rule.fix), r.id
        assert placeholders_in(zh.cause) == placeholders_in(r.rule.cause), r.id
    assert all(c.zh is not None for c in load_compat().checks)


def test_rules_show_in_chinese():
    result = runner.invoke(app, ["rules", "show", "memory.npu-oom-caching-allocator", "--lang", "zh"])
    assert result.exit_code == 0
    assert "torch_npu 申请 tensor 时 NPU 显存" in result.stdout


# -- the Chinese text and Markdown reports: no English words of triage's own left in them -------------

NOTIFY = ("[rank{r}]: EI0002: [PID: 1{r}] 2025-03-02-11:50:10.100.000 The wait execution of the Notify register "
          "times out. Reason: The Notify register has not received the Notify record from remote rank [5].base "
          "information: [streamID:[1], taskID[39], taskType[Notify Wait], tag[AllReduce_1]] task information: "
          "[notify id:[0x0000000500000010], stage:[0], remote rank:[5].]\n")


def _bundle(tmp_path, *, oom_on_5: bool):
    """job-logs/node-{0,1}/rank-N.log: rank 5 runs out of memory (or prints nothing), the others time out."""
    root = tmp_path / "job-logs"
    for r in range(8):
        if r == 5 and not oom_on_5:
            continue
        node = root / f"node-{r // 4}"
        node.mkdir(parents=True, exist_ok=True)
        body = f"[rank{r}]: INFO 2025-03-02 11:20:01 world_size=8 start\n"
        if r == 5:
            header = "[rank5]: [ERROR] 2025-03-02-11:20:09 (PID:4112, Device:5, RankID:5) "
            body += header + OOM.replace("NPU 3", "NPU 5")
        else:
            body += NOTIFY.format(r=r)
        (node / f"rank-{r}.log").write_text(body)
    return root


def test_chinese_text_report_has_no_english_labels(tmp_path):
    out = runner.invoke(app, ["analyze", "examples/vllm-ascend-507035.log", "--lang", "zh"]).stdout.splitlines()
    assert out[0].startswith("根因：执行算子时发生 Vector Core 异常（507035） [框架/")
    assert out[1] == "  规则 op.vector-core-exception · 级别 critical · 出现 1 次，examples/vllm-ascend-507035.log:4"
    assert any(line.startswith("  参考：https://") for line in out)
    assert "其他发现（1）：" in out
    other = next(line for line in out if line.startswith("- error "))
    assert other.endswith("generic.engine-dead-error，2 次（由 op.vector-core-exception 引起）")
    assert out[-1].startswith("已读 11 行，2 项发现，规则库 ") and "，配套表 " in out[-1]
    for english in ("seen", " x2", "symptom of", "rules ", "compat ", "See:"):
        assert not any(english in line for line in out if not line.startswith("    ")), english


def test_chinese_cluster_section(tmp_path):
    root = _bundle(tmp_path, oom_on_5=True)
    out = runner.invoke(app, ["analyze", str(root), "--lang", "zh"]).stdout.splitlines()
    assert out[0].startswith("根因：torch_npu 申请 tensor 时 NPU 显存（HBM）耗尽 [框架/torch_npu]")
    assert "，rank 5，节点 node-1" in out[1]
    assert "集群：8 个 rank，2 个节点，world size 为 8" in out
    first = next(line for line in out if line.startswith("  最先失败："))
    assert first.startswith("  最先失败：node-1 rank 5，torch_npu 申请 tensor 时 NPU 显存（HBM）耗尽"
                            "（memory.npu-oom-caching-allocator，")
    assert first.endswith("，2025-03-02T11:20:09）")
    assert ("  连带现象：7 个 rank（0-4, 6-7）出现 hccl.notify-wait-timeout，由 memory.npu-oom-caching-allocator 引起"
            in out)
    assert "  8 个 rank 中有 1 个因此失败（局部故障：重点排查这些卡或节点）" in out
    assert any(line.startswith("  world size（rank 数）：8（") for line in out)
    assert not any(word in line for line in out for word in ("Cluster", "First failure", "Symptom", "caused by"))


def test_chinese_suspect_and_its_reason(tmp_path):
    root = _bundle(tmp_path, oom_on_5=False)
    out = runner.invoke(app, ["analyze", str(root), "--lang", "zh"]).stdout.splitlines()
    assert "  可疑：rank 5：没有打印任何内容，而其他 rank 都在等待中超时" in out
    en = runner.invoke(app, ["analyze", str(root), "--lang", "en"]).stdout.splitlines()
    assert "  Suspect: rank 5: printed nothing while every other rank timed out waiting" in en


def test_chinese_separate_incidents_and_notices(tmp_path):
    hccl, run = tmp_path / "hccl.log", tmp_path / "run1.log"
    hccl.write_text("INFO start\n[ERROR] HCCL(60570,):2025-12-04-14:46:07.911.312 [hccl_socket.cc:106] [60570]"
                    "[HcclSocket][Listen] socket type[0], listen on ip[192.2.2.195] and specific port[16666] fail.\n")
    run.write_text("INFO start\n" + OOM)
    out = runner.invoke(app, ["analyze", str(hccl), str(run), "--lang", "zh"]).stdout.splitlines()
    assert "独立事件（2）：" in out
    assert any(line.startswith(f"  2. [{run}] 根因：torch_npu 申请 tensor 时 NPU 显存（HBM）耗尽"
                               "（memory.npu-oom-caching-allocator）") for line in out)
    folder = tmp_path / "dir"
    folder.mkdir()
    (folder / "a.log").write_text(OOM)
    (folder / "core.bin").write_bytes(bytes(range(256)) * 8)
    out = runner.invoke(app, ["analyze", str(folder), "--lang", "zh"]).stdout.splitlines()
    assert f"提示：{folder / 'core.bin'}：已跳过：二进制文件，不是日志（加 --text 可强制按文本读取）" in out


def test_chinese_headlines_without_a_root_cause(tmp_path):
    log = tmp_path / "ok.log"
    log.write_text("INFO fine\nINFO still fine\n")
    assert runner.invoke(app, ["analyze", str(log), "--lang", "zh"]).stdout.splitlines()[0] == "未发现问题（共 2 行）"
    log.write_text("INFO x\nZzzTotallyNewError\n")
    first = runner.invoke(app, ["analyze", str(log), "--lang", "zh"]).stdout.splitlines()[0]
    assert first == f"未找到已知根因：1 条未识别的错误行，第一条在 {log}:2"


def test_chinese_markdown(tmp_path):
    root = _bundle(tmp_path, oom_on_5=True)
    md = runner.invoke(app, ["analyze", str(root), "-f", "markdown", "--lang", "zh"]).stdout
    lines = md.splitlines()
    assert lines[0].startswith("### triage: 根因：torch_npu 申请 tensor 时 NPU 显存（HBM）耗尽")
    assert lines[2] == "层级 `框架`，组件 torch_npu，级别 critical（`memory.npu-oom-caching-allocator`，出现 1 次）"
    for text in ("**处理建议**", "<summary>证据</summary>", "| 级别 | 发现 | 层级 / 组件 | 规则 | 首次出现 | 次数 |",
                 "（由 `memory.npu-oom-caching-allocator` 引起） | 驱动 / HCCL |", "| 环境 | 值 | 位置 |",
                 "| world size（rank 数） | 8 |", "<summary>其他发现的证据</summary>", "<sub>已读 16 行 · triage "):
        assert text in md, text
    for english in ("**Fix**", "Evidence", "| severity |", "symptom of", "References:", "lines read", "| environment"):
        assert english not in md, english
    en = runner.invoke(app, ["analyze", str(root), "-f", "markdown", "--lang", "en"]).stdout
    assert "**Fix**" in en and "| severity | finding | layer / component | rule | first seen | count |" in en


def test_localised_notices_keep_unknown_text():
    from triage.report.i18n import localise

    assert localise("x.log was truncated after line 12 (rotated): the lines after that are numbered from 1 in the "
                    "new text", "zh") == "x.log 在第 12 行之后被截断（日志轮转）：此后的行按新文件从 1 重新编号"
    assert localise("never joined the communicator (hccl.rootinfo-detect-failed)", "zh") == \
        "一直没有加入通信域（hccl.rootinfo-detect-failed）"
    assert localise("something new", "zh") == "something new"
    assert localise("x.bin: skipped: binary file, not a log (--text reads it anyway)", "en").startswith("x.bin: skip")
