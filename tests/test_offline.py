"""tools/offline-wheelhouse.sh: the wheelhouse for an Ascend host without internet access."""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys

import pytest

from tests.conftest import ROOT

SCRIPT = ROOT / "tools" / "offline-wheelhouse.sh"
pytestmark = pytest.mark.skipif(shutil.which("bash") is None, reason="needs bash")


def _run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", str(SCRIPT), *args], capture_output=True, text=True, timeout=120,
                          env={**os.environ, "PYTHON": sys.executable})


def _dependencies() -> list[str]:
    try:
        import tomllib
    except ImportError:  # Python 3.10
        pytest.skip("needs tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    return [d.split(";")[0].strip() for d in data["project"]["dependencies"]]


def test_dry_run_downloads_binary_wheels_for_the_target(tmp_path):
    result = _run("--dry-run", "--arch", "x86_64", "--python", "3.11", "--glibc", "2.28", "--out", str(tmp_path))
    assert result.returncode == 0, result.stderr
    commands = [shlex.split(line) for line in result.stdout.splitlines()]
    assert commands[0] == ["mkdir", "-p", str(tmp_path)]
    assert commands[1] == [sys.executable, "-m", "pip", "wheel", "--no-deps", "--wheel-dir", str(tmp_path), str(ROOT)]
    target = ["--only-binary=:all:", "--platform", "manylinux_2_28_x86_64", "--python-version", "3.11",
              "--implementation", "cp"]
    deps = _dependencies()
    required = [d for d in deps if not d.startswith("hyperscan")]
    assert commands[2] == [sys.executable, "-m", "pip", "download", *target, "--dest", str(tmp_path), *required]
    assert commands[3] == [sys.executable, "-m", "pip", "download", *target, "--no-deps", "--dest", str(tmp_path),
                           *[d for d in deps if d.startswith("hyperscan")]]
    assert "zstandard>=0.22" in required and len(commands) == 4


def test_defaults_are_an_aarch64_python_310_host():
    result = _run("--dry-run")
    assert result.returncode == 0, result.stderr
    assert "--platform manylinux_2_17_aarch64 --python-version 3.10" in result.stdout
    assert "--dest wheelhouse-aarch64-py3.10" in result.stdout


@pytest.mark.parametrize("args, message", [(["--arch", "arm64"], "--arch must be aarch64 or x86_64"),
                                           (["--python", "310"], "--python must look like 3.10"),
                                           (["--bogus"], "unknown option --bogus")])
def test_bad_options_are_usage_errors(args, message):
    result = _run(*args)
    assert result.returncode == 2 and message in result.stderr and result.stdout == ""


def test_getting_started_documents_the_offline_install():
    text = (ROOT / "docs" / "getting-started.md").read_text(encoding="utf-8")
    assert "## Offline install" in text
    assert "tools/offline-wheelhouse.sh --arch aarch64 --python 3.10" in text
    assert "pip install --no-index --find-links wheelhouse-aarch64-py3.10 ascend-triage" in text


def test_every_folder_the_wheel_force_includes_is_tracked():
    """`pip install .` (and the wheel the script builds) fails on a clean clone when a folder that
    pyproject.toml force-includes is not in git (an empty folder is not)."""
    try:
        import tomllib
    except ImportError:
        pytest.skip("needs tomllib")
    data = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    folders = data["tool"]["hatch"]["build"]["targets"]["wheel"]["force-include"]
    if not (ROOT / ".git").exists():
        pytest.skip("not a git checkout")
    for folder in folders:
        tracked = subprocess.run(["git", "ls-files", folder], cwd=ROOT, capture_output=True, text=True).stdout
        assert tracked.strip(), f"{folder}/ is force-included in the wheel but holds no tracked file"
