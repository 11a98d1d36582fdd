"""``triage collect``: a fake root, fake programs run as real processes, and the command line."""

from __future__ import annotations

import functools
import io
import json
import os
import re
import sys
import time
from datetime import datetime, timezone
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

import triage.collect.collector
from triage.cli.app import app
from triage.collect.collector import collect
from triage.collect.commands import SECTION_CAP, CommandResult, run_command
from triage.collect.environment import REDACTED, same_python, select_env
from triage.version import __version__

runner = CliRunner()
NOW = datetime(2025, 3, 4, 5, 6, 7, tzinfo=timezone.utc)
SHELL_PATH = "/usr/bin:/bin"

NPU_SMI_INFO = """\
+------------------------------------------------------------------------------------------------+
| npu-smi 24.1.rc2                 Version: 24.1.rc2                                             |
+---------------------------+---------------+----------------------------------------------------+
| NPU   Name                | Health        | Power(W)    Temp(C)           Hugepages-Usage(page)|
| Chip                      | Bus-Id        | AICore(%)   Memory-Usage(MB)  HBM-Usage(MB)        |
+===========================+===============+====================================================+
| 0     910B3               | OK            | 93.6        37                0    / 0             |
| 0                         | 0000:C1:00.0  | 0           0    / 0          3162 / 65536         |
+===========================+===============+====================================================+
| 1     910B3               | OK            | 91.2        36                0    / 0             |
| 0                         | 0000:C2:00.0  | 0           0    / 0          3161 / 65536         |
+===========================+===============+====================================================+
+---------------------------+---------------+----------------------------------------------------+
| NPU     Chip              | Process id    | Process name             | Process memory(MB)      |
+===========================+===============+====================================================+
| No running processes found in NPU 0                                                            |
+===========================+===============+====================================================+
"""
NPU_SMI_CHIPS = """\
        NPU ID                         Chip ID                        Chip Logic ID                  Chip Name
        0                              0                              0                              Ascend 910B3
        0                              1                              -                              Mcu
        1                              0                              1                              Ascend 910B3
        1                              1                              -                              Mcu
"""
DRIVER_INFO = """\
Version=24.1.rc2
ascendhal_version=7.35.19
aicpu_version=1.0
tdt_version=1.0
Innerversion=V100R001C19SPC002B224
compatible_version=[V100R001C15],[V100R001C17],[V100R001C18],[V100R001C19]
compatible_version_fw=[7.0.0,7.5.99]
package_version=24.1.rc2
"""
TOOLKIT_INFO = """\
package_name=Ascend-cann-toolkit
version=8.0.RC2
innerversion=V100R001C18SPC001B218
compatible_version=[V100R001C15],[V100R001C17],[V100R001C18]
arch=x86_64
os=linux
path=/usr/local/Ascend/ascend-toolkit/8.0.RC2/x86_64-linux
"""
PIP_LIST = """\
Package           Version
----------------- ------------
torch             2.5.1
torch-npu         2.5.1.post1
vllm              0.9.1
vllm_ascend       0.9.1rc1
"""
MEMINFO = "MemTotal:       1583282360 kB\nMemFree:        1466139420 kB\nMemAvailable:   1531009176 kB\n" \
          "Buffers:         1049948 kB\nCached:         64117548 kB\n"
OS_RELEASE = 'NAME="Ubuntu"\nVERSION="22.04.4 LTS (Jammy Jellyfish)"\nID=ubuntu\nVERSION_ID="22.04"\n'


def _script(path: Path, body: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("#!/bin/sh\n" + body, encoding="utf-8")
    path.chmod(0o755)
    return path


def _heredoc(text: str) -> str:
    return f"cat <<'EOF'\n{text}EOF\n"


def _write(root: Path, absolute: str, text: str) -> Path:
    path = root / absolute.lstrip("/")
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def sections(text: str) -> dict[str, str]:
    """Header line (without the ``==>``/``<==``) -> body, in order; the first line is the ``#`` header."""
    found: dict[str, str] = {}
    current = None
    for line in text.splitlines(keepends=True)[1:]:
        m = re.fullmatch(r"==> (.+) <==\n", line)
        if m:
            current = m.group(1)
            assert current not in found, f"section {current} twice"
            found[current] = ""
        else:
            assert current is not None, line
            found[current] += line
    return found


@pytest.fixture
def host(tmp_path):
    """A fake Ascend host: a root tree, a bin directory with npu-smi, uname and python3, and an environment."""
    root, bin_ = tmp_path / "root", tmp_path / "bin"
    _write(root, "/usr/local/Ascend/driver/version.info", DRIVER_INFO)
    _write(root, "/usr/local/Ascend/ascend-toolkit/8.0.RC2/x86_64-linux/ascend_toolkit_install.info", TOOLKIT_INFO)
    (root / "usr/local/Ascend/ascend-toolkit/latest").symlink_to("8.0.RC2")
    _write(root, "/usr/local/Ascend/ascend-toolkit/latest/version.cfg", "runtime_running_version=[8.0.RC2:8.0.RC2]\n")
    _write(root, "/usr/local/Ascend/ascend-toolkit/set_env.sh", "export SECRET_SETUP_LINE=do-not-copy\n")
    _write(root, "/etc/os-release", OS_RELEASE)
    _write(root, "/proc/meminfo", MEMINFO)
    _write(root, "/proc/1/cgroup", "0::/\n")
    _write(root, "/sys/fs/cgroup/memory.max", "max\n")
    for name in ("davinci0", "davinci10", "davinci1", "davinci_manager", "devmm_svm", "null"):
        _write(root, f"/dev/{name}", "")
    (root / "dev/shm").mkdir()
    _script(bin_ / "npu-smi", 'if [ "$*" = "info" ]; then\n' + _heredoc(NPU_SMI_INFO)
            + 'elif [ "$*" = "info -m" ]; then\n' + _heredoc(NPU_SMI_CHIPS) + "else\n  exit 9\nfi\n")
    _script(bin_ / "uname", 'echo "Linux node-7 5.10.0-182.0.0.95.oe2203sp3.aarch64 #1 SMP aarch64 GNU/Linux"\n')
    _script(bin_ / "python3", '[ "$*" = "-m pip list --disable-pip-version-check" ] || exit 7\n' + _heredoc(PIP_LIST))
    environ = {
        "PATH": f"{bin_}:{SHELL_PATH}",
        "ASCEND_HOME_PATH": "/usr/local/Ascend/ascend-toolkit/latest",
        "ASCEND_RT_VISIBLE_DEVICES": "0,1",
        "HCCL_CONNECT_TIMEOUT": "1200",
        "VLLM_USE_V1": "1",
        "VLLM_API_KEY": "sk-serving-secret",
        "PYTORCH_NPU_ALLOC_CONF": "expandable_segments:True",
        "LD_LIBRARY_PATH": "/usr/local/Ascend/driver/lib64/driver",
        "HF_TOKEN": "hf_abcdefghijklmnopqrstuvwxyz",
        "HOME": "/root",
    }
    return root, bin_, environ


def _collect(root: Path, environ, **kw) -> tuple[str, list[str]]:
    out = io.StringIO()
    if "python" not in kw:
        kw["python"] = str(Path(environ["PATH"].split(":")[0]) / "python3")
    skipped = collect(out, root=root, environ=environ, now=lambda: NOW, **kw)
    return out.getvalue(), skipped


def test_fake_host_sections_are_verbatim(host):
    root, bin_, environ = host
    text, skipped = _collect(root, environ)
    import platform

    assert text.splitlines()[0] == f"# triage collect {__version__} at 2025-03-04T05:06:07Z on {platform.machine()}"
    got = sections(text)
    pip = f"command: {bin_ / 'python3'} -m pip list --disable-pip-version-check"
    assert list(got)[:10] == [
        "command: npu-smi info", "command: npu-smi info -m", "command: uname -a", "pythons", pip,
        "file: /usr/local/Ascend/ascend-toolkit/latest/x86_64-linux/ascend_toolkit_install.info",
        "file: /usr/local/Ascend/ascend-toolkit/latest/version.cfg",
        "file: /usr/local/Ascend/ascend-toolkit/set_env.sh",
        "file: /usr/local/Ascend/driver/version.info",
        "file: /etc/os-release",
    ]
    assert got["command: npu-smi info"] == NPU_SMI_INFO
    assert got["command: npu-smi info -m"] == NPU_SMI_CHIPS
    assert got["command: uname -a"] == "Linux node-7 5.10.0-182.0.0.95.oe2203sp3.aarch64 #1 SMP aarch64 GNU/Linux\n"
    assert got[pip] == PIP_LIST  # the python3 on PATH is the same interpreter: listed once
    assert got["pythons"] == f"{bin_ / 'python3'}: runs triage\n"
    assert sum(h.startswith("command: ") and "pip list" in h for h in got) == 1
    assert got["file: /usr/local/Ascend/driver/version.info"] == DRIVER_INFO
    assert got["file: /usr/local/Ascend/ascend-toolkit/latest/x86_64-linux/ascend_toolkit_install.info"] == \
        TOOLKIT_INFO
    size = (root / "usr/local/Ascend/ascend-toolkit/set_env.sh").stat().st_size
    assert got["file: /usr/local/Ascend/ascend-toolkit/set_env.sh"] == f"exists, {size} bytes (content not collected)\n"
    assert "do-not-copy" not in text
    assert got["file: /etc/os-release"] == OS_RELEASE
    assert got["file: /proc/meminfo"] == "".join(MEMINFO.splitlines(keepends=True)[:3])
    assert got["file: /sys/fs/cgroup/memory.max"] == "max\n"
    assert got["env"] == ("ASCEND_HOME_PATH=/usr/local/Ascend/ascend-toolkit/latest\n"
                          "ASCEND_RT_VISIBLE_DEVICES=0,1\n"
                          "HCCL_CONNECT_TIMEOUT=1200\n"
                          "LD_LIBRARY_PATH=/usr/local/Ascend/driver/lib64/driver\n"
                          "PYTORCH_NPU_ALLOC_CONF=expandable_segments:True\n"
                          f"VLLM_API_KEY={REDACTED}\n"
                          "VLLM_USE_V1=1\n")
    assert "hf_abcdefghijklmnopqrstuvwxyz" not in text and "HF_TOKEN" not in text and "sk-serving-secret" not in text
    assert "HOME=" not in text
    assert got["devices"] == "/dev/davinci0\n/dev/davinci1\n/dev/davinci10\n/dev/davinci_manager\n/dev/devmm_svm\n"
    container = got["container"].splitlines()
    assert container[0].startswith("container: no (")
    assert re.fullmatch(r"/dev/shm: size \d+ bytes \(\d+\.\d MiB\), free \d+ bytes \(\d+\.\d MiB\)", container[1])
    assert skipped == [
        "file /usr/local/Ascend/firmware/version.info: not found",
        "file /usr/local/Ascend/nnal/*/latest/version.info: none found",
        "file /usr/local/Ascend/mindie/latest/version.info: not found",
        "file /usr/local/Ascend/cann*/**/ascend_*_install.info: none found",
        "device /dev/hisi_hdc: not found",
    ]
    # the skipped notes close the file, one header each, in the same order
    assert text.splitlines()[-len(skipped):] == [f"==> skipped: {note} <==" for note in skipped]


def test_every_header_has_the_documented_shape(host):
    root, _, environ = host
    text, _ = _collect(root, environ)
    headers = [line for line in text.splitlines() if line.startswith("==>")]
    assert headers
    for line in headers:
        assert re.fullmatch(r"==> (command|file|skipped): .+ <==|==> (pythons|env|devices|container) <==", line), line


def test_nothing_there_is_all_notes_and_no_error(tmp_path):
    text, skipped = _collect(tmp_path, {"PATH": "/nonexistent"}, which=lambda name, path=None: None,
                             python=None)
    got = sections(text)
    assert set(got) == {"pythons", "env", "devices", "container", *(f"skipped: {n}" for n in skipped)}
    assert got["env"] == "" and got["devices"] == "" and got["pythons"] == ""
    assert got["container"].startswith("container: no (")
    for note in ("command npu-smi info: npu-smi not found", "command npu-smi info -m: npu-smi not found",
                 "command uname -a: uname not found",
                 "command python3 -m pip list --disable-pip-version-check: python3 not found",
                 "file /usr/local/Ascend/driver/version.info: not found",
                 "file /usr/local/Ascend/ascend-toolkit/latest/*/ascend_toolkit_install.info: none found",
                 "file /usr/local/Ascend/ascend-toolkit/set_env.sh: not found",
                 "file /etc/os-release: not found", "file /proc/meminfo: not found",
                 "file /sys/fs/cgroup/memory.max or /sys/fs/cgroup/memory/memory.limit_in_bytes: not found",
                 "device /dev/davinci<N>: none found", "device /dev/davinci_manager: not found",
                 "device /dev/devmm_svm: not found", "file /dev/shm: No such file or directory"):
        assert note in skipped


def test_nonzero_exit_and_stderr_follow_stdout(host):
    root, bin_, environ = host
    _script(bin_ / "npu-smi", 'echo "partial table"\n'
            'echo "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)" >&2\n'
            'echo "dcmi module initialize failed. ret is -8005" >&2\nexit 3\n')
    text, skipped = _collect(root, environ)
    got = sections(text)
    assert got["command: npu-smi info"] == ("partial table\n--- stderr ---\n"
                                            "DrvMngGetConsoleLogLevel failed. (g_conLogLevel=3)\n"
                                            "dcmi module initialize failed. ret is -8005\n--- exit status 3 ---\n")
    assert not any(n.startswith("command npu-smi") for n in skipped)  # it ran: a failure is a fact, not a skip


def test_stderr_only_on_success_has_no_exit_line(host):
    root, bin_, environ = host
    _script(bin_ / "uname", "echo 'uname: warning' >&2\n")
    got = sections(_collect(root, environ)[0])
    assert got["command: uname -a"] == "--- stderr ---\nuname: warning\n"


def test_timeout_kills_the_command_and_its_children(host):
    root, bin_, environ = host
    _script(bin_ / "npu-smi", "echo 'started'\nsleep 30\necho 'never'\n")
    start = time.monotonic()
    text, skipped = _collect(root, environ, timeout=0.5)
    assert time.monotonic() - start < 5  # two runs of 0.5 s, not 2 x 30 s of a sleeping grandchild
    got = sections(text)
    assert got["command: npu-smi info"] == "started\n--- timed out after 0.5 s ---\n"
    assert "command npu-smi info: timed out after 0.5 s" in skipped
    assert "command npu-smi info -m: timed out after 0.5 s" in skipped
    assert "never" not in text


def test_a_program_that_cannot_start_is_skipped(host):
    root, bin_, environ = host
    (bin_ / "npu-smi").write_bytes(b"\x7fELF garbage")  # executable, but not a program

    text, skipped = _collect(root, environ)
    assert "command: npu-smi info" not in sections(text)
    assert any(re.fullmatch(r"command npu-smi info: .*(format|Exec).*", n) for n in skipped), skipped


def test_fake_runner_gets_argv_timeout_and_env(host):
    root, bin_, environ = host
    calls = []

    def run(argv, *, timeout, env):
        calls.append((argv, timeout, env))
        return CommandResult(0, b"caf\xe9 ok\n", b"")

    text, _ = _collect(root, environ, run=run, timeout=3)
    assert calls[0] == ([str(bin_ / "npu-smi"), "info"], 3, environ)
    assert [c[0][1:] for c in calls] == [["info"], ["info", "-m"], ["-a"],
                                         ["-m", "pip", "list", "--disable-pip-version-check"]]
    assert sections(text)["command: uname -a"] == "caf\ufffd ok\n"  # undecodable bytes replaced, not dropped


def test_python_on_path_that_differs_is_listed_too(host):
    root, bin_, environ = host
    other = _script(root.parent / "venv/bin/python", _heredoc("Package Version\n------- -------\nvllm 0.8.5\n"))
    got = sections(_collect(root, environ, python=str(other))[0])
    pips = [h for h in got if "pip list" in h]
    assert pips == [f"command: {other} -m pip list --disable-pip-version-check",
                    f"command: {bin_ / 'python3'} -m pip list --disable-pip-version-check"]
    assert got[pips[0]].endswith("vllm 0.8.5\n") and got[pips[1]] == PIP_LIST


def _pip_script(path: Path, listing: str) -> Path:
    return _script(path, '[ "$*" = "-m pip list --disable-pip-version-check" ] || exit 7\n' + _heredoc(listing))


VLLM_VENV_LIST = "Package Version\n------- -------\nvllm 0.10.0\nvllm_ascend 0.10.0rc1\n"


def test_the_interpreter_behind_vllm_on_path_is_listed(host):
    root, bin_, environ = host
    venv = _pip_script(root.parent / "serving-venv/bin/python3.11", VLLM_VENV_LIST)
    vllm = bin_ / "vllm"
    vllm.write_text(f"#!{venv}\nimport sys\nfrom vllm.entrypoints.cli.main import main\n")
    vllm.chmod(0o755)
    triage_python = _pip_script(root.parent / "triage-venv/bin/python", "Package Version\n------- -------\n")
    got = sections(_collect(root, environ, python=str(triage_python))[0])
    assert got["pythons"] == (f"{triage_python}: runs triage\n{venv}: runs vllm ({vllm})\n"
                              f"{bin_ / 'python3'}: python3 on PATH\n")
    assert got[f"command: {venv} -m pip list --disable-pip-version-check"] == VLLM_VENV_LIST


def test_the_interpreters_of_running_serving_processes_are_listed(host, tmp_path):
    root, bin_, environ = host
    mindie = _pip_script(tmp_path / "mindie-py/bin/python3", "Package Version\n------- -------\nmindie_llm 2.0\n")
    other = _pip_script(tmp_path / "other-py/bin/python3", "Package Version\n")
    for pid, exe, argv, their_root in [
            ("4242", mindie, b"python3\0-m\0mindie_llm.text_generator\0", root),
            ("4343", other, b"python3\0/opt/app/vllm_server.py\0", tmp_path / "elsewhere"),  # another container
            ("4444", other, b"python3\0train.py\0--config\0vllm.yaml\0", root),  # not a serving stack
            ("4545", other, b"python3\0-W\0ignore\0-c\0import vllm\0", root)]:
        folder = root / "proc" / pid
        folder.mkdir(parents=True)
        (folder / "cmdline").write_bytes(argv)
        (folder / "exe").symlink_to(exe)
        (tmp_path / "elsewhere").mkdir(exist_ok=True)
        (folder / "root").symlink_to(their_root)
    got = sections(_collect(root, environ)[0])
    assert got["pythons"] == (f"{bin_ / 'python3'}: runs triage\n{mindie}: runs mindie (process 4242)\n")
    from triage.collect.environment import _run_target

    assert _run_target(["-W", "ignore", "-m", "vllm.entrypoints.openai.api_server"]) == \
        "vllm.entrypoints.openai.api_server"
    assert _run_target(["/opt/venv/bin/vllm", "serve", "/models/qwen"]) == "vllm"
    assert got[f"command: {mindie} -m pip list --disable-pip-version-check"].endswith("mindie_llm 2.0\n")


def test_shebang_interpreter_forms(tmp_path):
    from triage.collect.environment import shebang_interpreter

    def which(name, path=None):
        return f"/found/{name}" if name == "python3" else None

    cases = {"#!/opt/venv/bin/python3.11\n": "/opt/venv/bin/python3.11",
             "#!/usr/bin/env python3\n": "/found/python3",
             "#!/usr/bin/env -S python3 -u\n": "/found/python3",
             "#!/bin/sh\n\'\'\'exec\' \"/very/long/path/venv/bin/python\" \"$0\" \"$@\"\n\' \'\'\'\n":
                 "/very/long/path/venv/bin/python",
             "#!/bin/bash\necho hi\n": None, "#!/usr/bin/perl\n": None, "no shebang\n": None}
    for text, expected in cases.items():
        script = tmp_path / "vllm"
        script.write_text(text)
        assert shebang_interpreter(str(script), which, "/bin") == expected, text
    assert shebang_interpreter(str(tmp_path / "missing"), which, "/bin") is None


def test_same_python(tmp_path):
    real = _script(tmp_path / "usr/bin/python3.11", "")
    venv = tmp_path / "venv/bin"
    venv.mkdir(parents=True)
    (venv / "python3").symlink_to(real)
    (venv / "python").symlink_to("python3")
    assert same_python(str(venv / "python"), str(venv / "python3"))
    assert same_python(str(real), str(real))
    assert not same_python(str(venv / "python"), str(real))  # a venv sees other packages than its base
    assert not same_python(str(venv / "python"), str(tmp_path / "missing/python3"))


def test_cann_layout_is_searched_with_bounds(tmp_path):
    root = tmp_path
    base = "/usr/local/Ascend/cann-8.5.0"
    _write(root, f"{base}/share/info/toolkit/ascend_toolkit_install.info", "version=8.5.0\n")
    _write(root, f"{base}/share/info/ops/ascend_ops_install.info", "version=8.5.0\n")
    _write(root, f"{base}/share/info/ops/not_an_install.info", "x\n")
    _write(root, f"{base}/a/b/c/d/e/f/ascend_deep_install.info", "too deep\n")
    (root / f"{base.lstrip('/')}/share/loop").symlink_to("..")  # a cycle must not hang the walk
    (root / "usr/local/Ascend/cann").symlink_to("cann-8.5.0")  # the same files again: gathered once
    text, skipped = _collect(root, {"PATH": ""}, which=lambda name, path=None: None, python=None)
    got = sections(text)
    files = [h for h in got if h.endswith("_install.info")]
    assert files == ["file: /usr/local/Ascend/cann/share/info/ops/ascend_ops_install.info",
                     "file: /usr/local/Ascend/cann/share/info/toolkit/ascend_toolkit_install.info"]
    assert got[files[0]] == "version=8.5.0\n"
    assert not any("cann*" in n for n in skipped)


def test_cann_layout_caps_the_number_of_files(tmp_path):
    for i in range(25):
        _write(tmp_path, f"/usr/local/Ascend/cann-9/info/c{i:02d}/ascend_c{i:02d}_install.info", f"version={i}\n")
    text, skipped = _collect(tmp_path, {}, which=lambda name, path=None: None, python=None)
    assert sum(h.endswith("_install.info") for h in sections(text)) == 20
    assert "file /usr/local/Ascend/cann*/**/ascend_*_install.info: more than 20 files, only the first 20" in skipped


def test_nnal_and_firmware_and_cgroup_v1(tmp_path):
    _write(tmp_path, "/usr/local/Ascend/nnal/atb/latest/version.info", "Ascend-cann-atb : 8.0.RC2\n")
    _write(tmp_path, "/usr/local/Ascend/firmware/version.info", "Version=7.5.0.1.129\n")
    _write(tmp_path, "/sys/fs/cgroup/memory/memory.limit_in_bytes", "68719476736\n")
    got = sections(_collect(tmp_path, {}, which=lambda name, path=None: None, python=None)[0])
    assert got["file: /usr/local/Ascend/nnal/atb/latest/version.info"] == "Ascend-cann-atb : 8.0.RC2\n"
    assert got["file: /usr/local/Ascend/firmware/version.info"] == "Version=7.5.0.1.129\n"
    assert got["file: /sys/fs/cgroup/memory/memory.limit_in_bytes"] == "68719476736\n"


@pytest.mark.parametrize("marker, cgroup, reason", [
    ("/.dockerenv", "0::/\n", "/.dockerenv exists"),
    (None, "12:memory:/kubepods/burstable/pod1234/abcd\n", "/proc/1/cgroup mentions kubepods"),
    (None, "1:name=systemd:/docker/0123456789abcdef\n", "/proc/1/cgroup mentions docker"),
])
def test_container_detection(tmp_path, marker, cgroup, reason):
    if marker:
        _write(tmp_path, marker, "")
    _write(tmp_path, "/proc/1/cgroup", cgroup)
    got = sections(_collect(tmp_path, {}, which=lambda name, path=None: None, python=None)[0])
    assert got["container"].splitlines()[0] == f"container: yes ({reason})"


def test_big_file_is_capped(tmp_path):
    line = "Version=24.1.rc2 " + "x" * 100 + "\n"
    _write(tmp_path, "/usr/local/Ascend/driver/version.info", line * (3 * SECTION_CAP // len(line)))
    body = sections(_collect(tmp_path, {}, which=lambda name, path=None: None, python=None)[0])[
        "file: /usr/local/Ascend/driver/version.info"]
    assert body.endswith(f"\n--- truncated at {SECTION_CAP} bytes ---\n")
    assert SECTION_CAP <= len(body.encode()) <= SECTION_CAP + 100
    assert body.startswith(line)


def test_run_command_keeps_the_first_bytes_and_the_status():
    result = run_command([sys.executable, "-c", "import sys; sys.stdout.write('a' * 100000); sys.exit(4)"],
                         timeout=30, limit=1000)
    assert (result.returncode, result.stdout, result.stderr, result.timed_out) == (4, b"a" * 1000, b"", False)
    with pytest.raises(OSError):
        run_command(["/nonexistent/npu-smi", "info"])


@settings(deadline=None)  # no timed tests: a loaded machine is slow, not wrong
@given(st.dictionaries(st.from_regex(r"[A-Z_]{1,20}", fullmatch=True), st.text(max_size=20), max_size=12))
def test_select_env_keeps_only_the_listed_names_and_hides_secrets(environ):
    picked = dict(select_env(environ))
    for name, value in environ.items():
        wanted = name.startswith(("ASCEND_", "HCCL_", "VLLM_", "PYTORCH_NPU_")) or name in (
            "TORCH_DEVICE_BACKEND_AUTOLOAD", "LD_LIBRARY_PATH", "PYTHONPATH", "CUDA_VISIBLE_DEVICES")
        assert (name in picked) == wanted
        if wanted and any(w in name for w in ("TOKEN", "KEY", "SECRET", "PASSWORD")):
            assert picked[name] == REDACTED
        elif wanted:
            assert "\n" not in picked[name] and picked[name].replace("\\n", "\n").replace("\\r", "\r") == value


def test_select_env_redaction_ignores_case():
    assert select_env({"HCCL_Secret_x": "s", "ASCEND_password": "p", "VLLM_HOST_IP": "10.0.0.1"}) == [
        ("ASCEND_password", REDACTED), ("HCCL_Secret_x", REDACTED), ("VLLM_HOST_IP", "10.0.0.1")]


# -- the command line -----------------------------------------------------------------------------------------

@pytest.fixture
def fake_world(host, monkeypatch):
    root, bin_, environ = host
    monkeypatch.setattr(triage.collect.collector, "collect",
                        functools.partial(collect, root=root, environ=environ, python=str(bin_ / "python3")))
    return host


def test_cli_writes_the_file_and_summarises_on_stderr(fake_world, tmp_path):
    out = tmp_path / "env.txt"
    result = runner.invoke(app, ["collect", "-o", str(out)])
    assert result.exit_code == 0, result.output
    assert result.stdout == ""
    text = out.read_text(encoding="utf-8")
    assert text.startswith(f"# triage collect {__version__} at ")
    assert sections(text)["file: /usr/local/Ascend/driver/version.info"] == DRIVER_INFO
    lines = result.stderr.splitlines()
    assert lines[0] == f"triage collect: wrote {out}: 4 commands, 7 files, pythons, env, devices, container; 5 skipped:"
    assert "  device /dev/hisi_hdc: not found" in lines


@pytest.mark.parametrize("args", [["collect"], ["collect", "-o", "-"]])
def test_cli_writes_to_stdout(fake_world, args):
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    assert sections(result.stdout)["command: npu-smi info"] == NPU_SMI_INFO
    assert "wrote standard output: 4 commands" in result.stderr and "==>" not in result.stderr


def test_cli_python_option_lists_that_interpreter(fake_world, tmp_path):
    root, bin_, environ = fake_world
    extra = _pip_script(tmp_path / "container-venv/bin/python", VLLM_VENV_LIST)
    result = runner.invoke(app, ["collect", "--python", str(extra), "--python", str(bin_ / "python3")])
    assert result.exit_code == 0, result.output
    got = sections(result.stdout)
    assert got["pythons"] == f"{bin_ / 'python3'}: runs triage\n{extra}: --python\n"
    assert got[f"command: {extra} -m pip list --disable-pip-version-check"] == VLLM_VENV_LIST


def test_cli_unwritable_output_is_a_usage_error(fake_world, tmp_path):
    result = runner.invoke(app, ["collect", "-o", str(tmp_path / "missing" / "env.txt")])
    assert result.exit_code == 2
    assert "No such file or directory" in result.stderr and "Traceback" not in result.output


def test_collected_file_is_read_by_analyze(fake_world, tmp_path):
    out = tmp_path / "env.txt"
    assert runner.invoke(app, ["collect", "-o", str(out)]).exit_code == 0
    result = runner.invoke(app, ["analyze", str(out), "--format", "json"])
    report = json.loads(result.stdout)
    lines = out.read_text(encoding="utf-8").splitlines()
    assert report["lines_read"] == len(lines)
    facts = {f["name"]: f for f in report["facts"]}
    for name, value in [("driver_version", "24.1.rc2"), ("soc", "910B3"), ("cann_version", "8.0.RC2"),
                        ("torch_version", "2.5.1"), ("torch_npu_version", "2.5.1.post1"), ("vllm_version", "0.9.1"),
                        ("vllm_ascend_version", "0.9.1rc1")]:
        assert facts[name]["value"] == value, name
        assert value in lines[facts[name]["line"] - 1], name
    # the fake host runs vllm-ascend 0.9.1rc1 (and the torch_npu it ships with) on CANN 8.0.RC2: the
    # facts alone name the problem, measured against the release's own CANN
    assert result.exit_code == 1
    assert report["root_cause"]["rule_id"] == "compat.cann-too-old"
    assert {e["line"] for e in report["root_cause"]["evidence"]} == {
        facts[n]["line"] for n in ("cann_version", "vllm_ascend_version")}


def test_analyze_turns_a_collect_without_devices_or_driver_into_findings(fake_world, tmp_path):
    root, _, _ = fake_world
    for name in ("davinci0", "davinci1", "davinci10"):
        (root / "dev" / name).unlink()
    (root / "usr/local/Ascend/driver/version.info").unlink()
    out = tmp_path / "env.txt"
    assert runner.invoke(app, ["collect", "-o", str(out)]).exit_code == 0
    lines = out.read_text(encoding="utf-8").splitlines()
    report = json.loads(runner.invoke(app, ["analyze", str(out), "-f", "json"]).stdout)
    root_cause = report["root_cause"]
    assert root_cause["rule_id"] == "collect.no-npu-device-while-visible-devices-set"
    assert root_cause["captures"] == {"var": "ASCEND_RT_VISIBLE_DEVICES", "devices": "0,1"}
    assert [lines[e["line"] - 1] for e in root_cause["evidence"]] == [
        "ASCEND_RT_VISIBLE_DEVICES=0,1", "==> skipped: device /dev/davinci<N>: none found <=="]
    found = {f["rule_id"]: f for f in report["findings"]}
    assert found["collect.no-npu-device"]["suppressed_by"] == "collect.no-npu-device-while-visible-devices-set"
    assert lines[found["collect.npu-driver-missing"]["first_line"] - 1] == \
        "==> skipped: file /usr/local/Ascend/driver/version.info: not found <=="


def test_cli_on_this_machine(tmp_path):
    """The real thing, read-only: whatever this host lacks is skipped, never an error."""
    out = tmp_path / "real.txt"
    result = runner.invoke(app, ["collect", "--output", str(out)])
    assert result.exit_code == 0, result.output
    text = out.read_text(encoding="utf-8")
    assert f"==> command: {sys.executable} -m pip list --disable-pip-version-check <==" in text
    assert "\n==> env <==\n" in text and "\n==> container <==\n" in text
    assert os.environ.get("HF_TOKEN", "\0") not in text
