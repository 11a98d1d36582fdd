"""Catalog of the MindCluster messages users paste: the scheduling FAQ, the fault-diagnosis (ascend-fd)
guide pages and reports, and the pod-log errors of Ascend Device Plugin / NPU Exporter / NodeD / Volcano.

The full FAQ text exists only on the release branches (on master ``docs/zh/scheduling/07_references/
03_faq.md`` is a list of links to GitCode issues), so the catalog is taken from one commit of the
``branch_v26.0.0`` release branch of Ascend/mind-cluster. Sources, all at that commit:

1. ``docs/zh/scheduling/faq.md``: the message each FAQ topic is about (quoted in its title, or shown
   in its symptom section); topics that quote no log line contribute nothing.
2. ``docs/zh/faultdiag/faq.md`` and the ascend-fd user guide pages ``docs/zh/faultdiag/user_guide/
   07|08|09_*.md``: the report lines they show (``现象描述`` / ``故障名称`` cells) and the errors the
   FAQ names.
3. ``component/ascend-faultdiag/src/ascend_fd/utils/i18n.py``: the Chinese root-cause-node
   descriptions (``fault_descriptions_zh``), i.e. every ``现象描述`` an ascend-fd report can print.
4. ``component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json``: the MindCluster
   component entries (``AISW_MindX_*``, ``AISW_MindIO_*``), which name the device-plugin, volcano,
   docker-runtime and npu-exporter log lines Huawei's own diagnosis treats as faults; each is
   resolved to the format string that prints it where the source has one.
5. ``component/ascend-device-plugin/main.go`` and ``component/noded/main.go``: the start-up errors
   (flag checks, init failures) that end the log of a pod in CrashLoopBackOff.

Usage: ``python tools/catalog/mind_cluster.py /work/.mirror/Ascend+mind-cluster/repo [rev]``
(rev defaults to ``branch_v26.0.0``).
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import git, write_catalog  # noqa: E402

FAQ = "docs/zh/scheduling/faq.md"
FD_FAQ = "docs/zh/faultdiag/faq.md"
FD_GUIDES = ["docs/zh/faultdiag/user_guide/07_diagnosing_faults.md",
             "docs/zh/faultdiag/user_guide/08_diagnosing_faults_on_a_single_server.md",
             "docs/zh/faultdiag/user_guide/09_diagnosing_superpod_faults.md"]
I18N = "component/ascend-faultdiag/src/ascend_fd/utils/i18n.py"
KG = "component/ascend-faultdiag/src/ascend_fd/configuration/kg-config.json"
MAINS = ["component/ascend-device-plugin/main.go", "component/noded/main.go"]

# FAQ topic -> the message it is about, as the FAQ shows it (title or symptom block). The line is
# looked up in the page; a message the page shows in a code block is given as that line.
FAQ_MESSAGES = [
    'MountVolume.SetUp failed for volume "device-ascenddeviceplugin" : hostPath type check failed: '
    '/var/log/mindx-dl/ascend-device-plugin is not a directory',
    "get sem errno =13",
    "failed to init devices parser: connecting to container runtime failed: context deadline exceeded",
    "Failed to get plugin volcano-npu_v{version}_linux-aarch64",
    "Failed to watch *v1alpha1.Job: the server could not find the requested resource (get jobs.batch.volcano.sh)",
    "Failed to watch *v1alpha1.Job: failed to list *v1alpha1.Job: the server could not find the requested "
    "resource (get",
    "deviceManager init failed, prepare dcmi failed, err: &errors.errorString{s:\"cannot found valid driver lib, "
    "fromEnv: lib path is invalid, [/usr/local: check uid or mode failed; /usr/local: check uid or mode failed;]",
    "new npu collector failed, error is auto init failed, err: get chip info failed, err: device Manager is nil",
    "register prometheus failed",
    "command exec failed, &exec.ExitError{",
    "Get device ip failed",
    "all nodes are unavailable: 1 node annotations\\(7\\) not same node idle\\(8\\)",
    "nfs-kernel-server (via systemctl): nfs-kernel-server.serviceJob for nfs-server.service canceled",
    "出现“permission denied”报错",
    "tasks in gang unschedulable: pod group is not ready, 1 minAvailable",
    "报$'\\\\r': command not found",
    "No module named '\\_sqlite3'",
    "报错提示找不到amp\\_C",
    "There is unsafe data in the input tensor",
    "The pointer\\[origin\\_node\\_output\\_addr\\] is null",
    "deviceManager init failed, prepare dcmi failed, err: dcmi init failed, error code: -8005",
    "dcmi module initialize failed. ret is -8005",
    "Error from server (Forbidden): error when deleting",
    "can only create tokens for individual service accounts",
    'Error from server \\(NotFound\\): error when creating "xxx-vcjob.yaml": namespaces "vcjob" not found',
    "出现报错：npu is busy, check again",
    "驱动日志报错：int\\_process\\_hwts\\_sdma\\_timeout",
    'Client received GoAway with error code ENHANCE_YOUR_CALM and debug data equal to ASCII "too_many_pings"',
    "RuntimeError: Failed to register the compute graph node: 4. Reason: Repeated registration node: 4 to the "
    "scheduler.",
    "rebuild HCCL comm group failed",
    'create configmap fault-job-info err:namespaces "cluster-system" not fount',
]

FD_DOC_MESSAGES = {
    FD_FAQ: ["Too many open files."],
}

# ascend-fd log source of an entity -> the component directories whose code writes that log
_COMPONENT_DIRS = {
    "DL_DevicePlugin": ("ascend-device-plugin", "ascend-common"),
    "DL_Volcano_Scheduler": ("ascend-for-volcano",),
    "DL_Volcano_Controller": ("ascend-for-volcano",),
    "DL_Docker_Runtime": ("ascend-docker-runtime",),
    "DL_Npu_Exporter": ("npu-exporter", "ascend-common"),
    "MindIO": ("mindio",),
}
_REPORT_CELL = re.compile(r"\|\s*(现象描述|故障名称)\s*\|\s*(.+?)\s*\|?\s*$")
_GO_CALLS = re.compile(r'hwlog\.RunLog\.(?:Errorf|Error|Warnf|Warn)\(\s*("(?:[^"\\\n]|\\.)*")')


def _show(repo: str, rev: str, path: str) -> str:
    return git(repo, "show", f"{rev}:{path}")


def _grep(repo: str, rev: str, text: str) -> list[str]:
    """``rev:path:line:text`` hits of ``text`` in the components' sources (not ascend-fd's own)."""
    import subprocess
    out = subprocess.run(["git", "-C", repo, "grep", "-n", "-F", text, rev, "--", "component",
                          ":!component/ascend-faultdiag", ":!*_test.go", ":!*.md"], capture_output=True)
    return out.stdout.decode("utf-8", "replace").splitlines()


def _find_line(text: str, needle: str) -> int | None:
    for i, line in enumerate(text.splitlines(), 1):
        if needle in line:
            return i
    return None


def _clean_md(s: str) -> str:
    s = s.replace("\\_", "_").replace("\\[", "[").replace("\\]", "]").replace("\\(", "(").replace("\\)", ")")
    s = s.replace("\\\\r", "\\r")
    for prefix in ("出现“", "出现报错：", "驱动日志报错：", "报错提示", "报"):
        if s.startswith(prefix):
            s = s[len(prefix):]
    return s.replace("”报错", "").strip()


def extract(repo: str, rev: str) -> tuple[list[dict], list[str]]:
    entries: list[dict] = []
    faq = _show(repo, rev, FAQ)
    for msg in FAQ_MESSAGES:
        line = _find_line(faq, msg)
        if line is None:
            raise SystemExit(f"FAQ message not found in {FAQ}: {msg}")
        entries.append({"template": _clean_md(msg), "path": FAQ, "line": line, "kind": "doc"})

    for path, msgs in FD_DOC_MESSAGES.items():
        text = _show(repo, rev, path)
        for msg in msgs:
            entries.append({"template": msg, "path": path, "line": _find_line(text, msg), "kind": "doc"})
    for path in FD_GUIDES:
        for i, line in enumerate(_show(repo, rev, path).splitlines(), 1):
            m = _REPORT_CELL.search(line)
            if m and not m.group(2).startswith(("根因节点分析的", "具体的")):
                entries.append({"template": f"{m.group(1)} | {m.group(2).rstrip('|').strip()}", "path": path,
                                "line": i, "kind": "doc (ascend-fd report)"})

    i18n = _show(repo, rev, I18N)
    zh = i18n[i18n.index("fault_descriptions_zh"):i18n.index("fault_descriptions_en")]
    for m in re.finditer(r'(\d{3}):\s*((?:"[^"]*"\s*)+)(?:,|\})', zh + "}"):
        text = "".join(re.findall(r'"([^"]*)"', m.group(2)))
        entries.append({"template": text, "path": I18N, "line": i18n[:i18n.index(zh)].count("\n")
                        + zh[:m.start()].count("\n") + 1, "kind": f"ascend-fd root-cause description {m.group(1)}"})

    kg = json.loads(_show(repo, rev, KG))["knowledge-repository"]
    for code, ent in kg.items():
        if not code.startswith(("AISW_MindX", "AISW_MindIO")):
            continue
        groups = ent["regex"].get("in", [])
        if groups and isinstance(groups[0], str):
            groups = [groups]
        for words in groups:
            first = words[0]
            # the first keyword that is not a bare word; only hits in the component that writes the
            # log the entity is bound to; prefer a logging / error call
            key = next((w for w in words if len(w) > 8), first)
            dirs = _COMPONENT_DIRS.get(ent["source_file"].split("|")[0], ())
            hits = [h for h in _grep(repo, rev, key) if any(f":component/{c}/" in h for c in dirs)]
            hits.sort(key=lambda h: not re.search(r"RunLog|Errorf|errors\.New|klog|Logger", h))
            where = hits[0].split(":", 3) if hits else None
            entries.append({"template": " ... ".join(words),
                            "path": where[1] if where else KG,
                            "line": int(where[2]) if where else None,
                            "kind": f"ascend-fd entity {code} ({ent['source_file']})"})

    for path in MAINS:
        src = _show(repo, rev, path)
        for m in _GO_CALLS.finditer(src):
            text = m.group(1)[1:-1].replace('\\"', '"')
            entries.append({"template": text, "path": path, "line": src[:m.start()].count("\n") + 1,
                            "kind": "hwlog.RunLog"})
    paths = [FAQ, FD_FAQ, *FD_GUIDES, I18N, KG, *MAINS]
    return entries, paths


def main(argv: list[str]) -> None:
    repo = argv[1] if len(argv) > 1 else "/work/.mirror/Ascend+mind-cluster/repo"
    rev = argv[2] if len(argv) > 2 else "branch_v26.0.0"
    commit = git(repo, "rev-parse", rev).strip()
    entries, paths = extract(repo, commit)
    write_catalog("mind-cluster",
                  "MindCluster (release branch v26.0.0): scheduling FAQ, ascend-fd guide / report lines, "
                  "device-plugin / npu-exporter / noded / volcano pod-log errors",
                  "Ascend/mind-cluster", commit, paths, "tools/catalog/mind_cluster.py", entries)


if __name__ == "__main__":
    main(sys.argv)
