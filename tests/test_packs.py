"""`triage rules install`: a pack installed once is loaded by every command without flags, listed
with its pack, removable, and refused with file:line: field: message when it does not lint."""

from __future__ import annotations

import tarfile

from typer.testing import CliRunner

from triage.cli.app import app

PACK = """rules:
  - id: acme.model-server-quota
    title: The model server refused a request over the team's quota
    layer: framework
    component: acme model server
    severity: error
    priority: 60
    match:
      any:
        - regex: 'QuotaExceeded: team (?P<team>\\w+) is over its quota'
    cause: The team's request quota ran out.
    fix:
      - Ask the platform team for more quota.
    examples:
      match: ["QuotaExceeded: team search is over its quota"]
"""


def _pack(folder, severity="error"):
    folder.mkdir()
    (folder / "team.yaml").write_text(PACK.replace("severity: error", f"severity: {severity}"))
    return folder


def test_install_list_use_uninstall(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_CONFIG_HOME", str(tmp_path / "config"))
    import triage.knowledge.loader as loader

    monkeypatch.setattr(loader, "_default_rules", None)
    runner = CliRunner()
    pack = _pack(tmp_path / "acme")
    result = runner.invoke(app, ["rules", "install", str(pack)])
    assert result.exit_code == 0 and "installed pack acme (1 rules)" in result.output
    found = runner.invoke(app, ["explain", "QuotaExceeded: team search is over its quota"])
    assert found.exit_code == 1 and "team's quota" in found.output.splitlines()[0]
    listed = runner.invoke(app, ["rules", "list", "--grep", "quota", "-f", "json"])
    assert '"acme.model-server-quota"' in listed.output and "packs/acme" in listed.output
    again = runner.invoke(app, ["rules", "install", str(pack)])
    assert again.exit_code == 2 and "installed already" in again.output
    assert runner.invoke(app, ["rules", "uninstall", "acme"]).exit_code == 0
    gone = runner.invoke(app, ["explain", "QuotaExceeded: team search is over its quota"])
    assert "team's quota" not in gone.output


def test_an_archive_installs_and_a_bad_pack_is_refused(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    good = _pack(tmp_path / "acme")
    archive = tmp_path / "acme-pack.tar.gz"
    with tarfile.open(archive, "w:gz") as t:
        t.add(good, arcname="acme")
    result = runner.invoke(app, ["rules", "install", str(archive)])
    assert result.exit_code == 0 and "installed pack acme-pack" in result.output
    bad = _pack(tmp_path / "bad", severity="bogus")
    refused = runner.invoke(app, ["rules", "install", str(bad)])
    assert refused.exit_code == 3
    assert f"{bad}/team.yaml:6: rule acme.model-server-quota: severity:" in refused.output
    assert not (tmp_path / "config" / "packs" / "bad").exists()


def test_uninstall_refuses_a_path_and_install_checks_with_the_installed(tmp_path, monkeypatch):
    monkeypatch.setenv("TRIAGE_CONFIG_HOME", str(tmp_path / "config"))
    runner = CliRunner()
    victim = tmp_path / "victim"
    victim.mkdir()
    result = runner.invoke(app, ["rules", "uninstall", "../../victim"])
    assert result.exit_code == 2 and victim.is_dir()
    pack = _pack(tmp_path / "acme")
    assert runner.invoke(app, ["rules", "install", str(pack)]).exit_code == 0
    twice = runner.invoke(app, ["rules", "install", str(pack), "--name", "acme2"])
    assert twice.exit_code == 3 and "acme.model-server-quota" in twice.output
    assert not (tmp_path / "config" / "packs" / "acme2").exists()
