"""Rule files: every fault is an error naming the file, the line and the field."""

from __future__ import annotations

import pytest

from tests.conftest import MINIMAL_RULE, write_pack
from triage.errors import RulesInvalid
from triage.knowledge.loader import load_rules


def problems_of(tmp_path, text):
    pack = write_pack(tmp_path, text)
    with pytest.raises(RulesInvalid) as info:
        load_rules([pack], builtin=False)
    return info.value.problems


def test_minimal_rule_loads_and_compiles(tmp_path):
    rules = load_rules([write_pack(tmp_path, MINIMAL_RULE)], builtin=False)
    assert [r.id for r in rules.rules] == ["test.sample"]
    assert rules.rules[0].line == 2
    assert rules.rules[0].group_names == {"code"}


def test_unknown_key_names_file_line_and_field(tmp_path):
    text = MINIMAL_RULE.replace("    priority: 60\n", "    priority: 60\n    colour: red\n")
    [p] = problems_of(tmp_path, text)
    assert p.file.endswith("pack.yaml")
    assert p.line == 8
    assert p.field == "rule test.sample: colour"
    assert p.message == "unknown key"


def test_wrong_type_is_reported_at_its_line(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("priority: 60", "priority: high"))
    assert (p.line, p.field) == (7, "rule test.sample: priority")


def test_bad_layer_is_rejected(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("layer: framework", "layer: network"))
    assert p.line == 4 and p.field.endswith("layer")


def test_regex_that_does_not_compile(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("(?P<code>\\d+)", "(?P<code>\\d+"))
    assert p.line == 10
    assert p.field == "rule test.sample: match.any[0].regex"
    assert "does not compile" in p.message


@pytest.mark.parametrize("construct, words", [
    ("(?=x)", "lookahead"), ("(a)\\1", "backreference"), ("(?>ab)", "atomic"), ("a++", "possessive"),
    ("(?i)x", "inline flags"), ("(a+)+", "nested quantifier"), ("\\Ax", "\\A or \\Z"),
    ("[[:digit:]]", "POSIX"), ("(?:timeout){e<=1}", "fuzzy"),
])
def test_dialect_rejects_non_portable_constructs(tmp_path, construct, words):
    text = MINIMAL_RULE.replace("'sample failure (?P<code>\\d+)'", f"'sample (?P<code>\\d+) {construct}'")
    found = problems_of(tmp_path, text)
    assert any(words in p.message for p in found), found
    assert all(p.field == "rule test.sample: match.any[0].regex" for p in found)


def test_placeholder_without_capture(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("code {code}.", "code {status}."))
    assert p.line == 11 and p.field == "rule test.sample: cause"
    assert "{status}" in p.message


def test_duplicate_key_in_one_mapping(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("    priority: 60\n", "    priority: 60\n    priority: 70\n"))
    assert p.line == 8 and "duplicate key" in p.message


def test_duplicate_ids_in_one_pack(tmp_path):
    second = MINIMAL_RULE.split("rules:\n", 1)[1]
    found = problems_of(tmp_path, MINIMAL_RULE + second)
    assert [p.line for p in found] == [18] and "duplicate id" in found[0].message


def test_malformed_yaml(tmp_path):
    [p] = problems_of(tmp_path, MINIMAL_RULE.replace("title: A sample", "title: [A sample"))
    assert "invalid YAML" in p.message and p.line >= 3


def test_yaml_object_construction_is_refused(tmp_path):
    [p] = problems_of(tmp_path, "rules: !!python/object/apply:os.system ['echo pwned']\n")
    assert "unsupported YAML tag" in p.message and p.line == 1


def test_user_pack_cannot_silently_shadow_builtin(tmp_path, builtin_rules):
    rid = builtin_rules.rules[0].id
    pack = write_pack(tmp_path, MINIMAL_RULE.replace("test.sample", rid))
    with pytest.raises(RulesInvalid) as info:
        load_rules([pack])
    assert "override: true" in str(info.value)
    overridden = load_rules([write_pack(tmp_path, MINIMAL_RULE.replace("test.sample", rid).replace(
        "    priority: 60\n", "    priority: 60\n    override: true\n"))])
    assert overridden.by_id[rid].pack.endswith("pack")


def test_broken_user_pack_is_an_error_not_skipped(tmp_path):
    with pytest.raises(RulesInvalid):
        load_rules([write_pack(tmp_path, "rules: [1, 2")])


def test_missing_pack_is_an_error(tmp_path):
    with pytest.raises(RulesInvalid) as info:
        load_rules([tmp_path / "nope"], builtin=False)
    assert "not found" in str(info.value)
