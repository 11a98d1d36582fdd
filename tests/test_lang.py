"""Chinese (issue 13): --lang, TRIAGE_LANG and the locale; texts in Chinese with the same values."""

from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import triage
from triage.cli import app
from triage.i18n import resolve_lang

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
    from triage.compat import load_compat
    from triage.compiled import placeholders_in
    from triage.loader import load_rules

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
