"""CI output: GitHub workflow annotations (`--format github`) and the documented CI jobs."""

from __future__ import annotations

import re
from pathlib import Path

import yaml
from typer.testing import CliRunner

from triage.cli.app import app

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "vllm-ascend-507035.log"
# ::level prop=value,prop=value::message, values escaped (no raw ":" or "," in a value, no newline)
PROP = r"(?:file|line|title)=[^:,\n]*"
COMMAND = re.compile(rf"^::(error|warning|notice)(?: {PROP}(?:,{PROP})*)?::[^\n\r]*$")


def test_github_annotations_are_valid_workflow_commands():
    result = CliRunner().invoke(app, ["analyze", str(EXAMPLE), "-f", "github"])
    lines = result.output.splitlines()
    assert result.exit_code == 1
    assert all(COMMAND.match(line) for line in lines), lines
    first = lines[0]
    assert first.startswith(f"::error file={EXAMPLE},line=4,title=triage op.vector-core-exception")
    assert "%0AFix: " in first  # the newline before the fix is escaped
    assert lines[1].startswith("::notice file=") and "symptom of op.vector-core-exception" in lines[1]
    assert lines[-1].startswith("::notice title=triage::Root cause")


def test_github_escapes_property_separators():
    from triage.render.github import _command

    cmd = _command("error", "a,b:c.log", 3, "t:1,2", "50% done\nnext")
    assert cmd == "::error file=a%2Cb%3Ac.log,line=3,title=t%3A1%2C2::50%25 done%0Anext"


def test_the_ci_jobs_parse_and_run_triage():
    gh = yaml.safe_load((ROOT / "docs" / "ci" / "github-actions.yml").read_text())
    steps = gh["jobs"]["diagnose"]["steps"]
    runs = " ".join(s.get("run", "") for s in steps)
    assert "--format github" in runs and "--format sarif" in runs
    assert any(s.get("uses", "").startswith("github/codeql-action/upload-sarif") for s in steps)
    gl = yaml.safe_load((ROOT / "docs" / "ci" / "gitlab-ci.yml").read_text())
    assert any("triage analyze" in line for line in gl["triage"]["script"])
    assert "triage.md" in gl["triage"]["artifacts"]["paths"]
