"""Catalog of the Ascend Docker Runtime's user-facing error messages.

The runtime moved into Ascend/mind-cluster (``component/ascend-docker-runtime``); the standalone
Ascend/ascend-docker-runtime repository stopped in 2023, so the extractor reads the mind-cluster
snapshot. It sweeps the parts that run when a container with NPUs is created or removed:

- ``cli/src/*.c`` and ``destroy/src/main.c`` (the ``ascend-docker-cli`` prestart hook binary and
  ``ascend-docker-destroy``): ``Logger(..., LEVEL_ERROR|LEVEL_WARN, ...)``, ``FormatLogMessage(...)``
  passed to an error ``Logger``, ``ShowExceptionInfo(...)`` (printed to stderr, so it reaches
  ``docker run``), ``fprintf(stderr, ...)``;
- ``hook/``, ``runtime/`` (without ``runtime/grus``, the checkpoint/restore add-on) and
  ``mindxcheckutils/`` (Go): ``fmt.Errorf`` / ``errors.New`` / ``log.Fatal`` texts and
  ``hwlog.RunLog.Error[f]`` / ``Warn[f]`` format strings.

Not swept: the installer (``install/``, ``build/scripts``), whose messages appear only while
installing the runtime, and the ``grus`` checkpoint/restore add-on.

Usage: ``python tools/catalog/ascend_docker_runtime.py /work/.mirror/Ascend+mind-cluster/repo``
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import head_commit, list_files, read_file, write_catalog  # noqa: E402

BASE = "component/ascend-docker-runtime/"
PATHS = [BASE + p for p in ("cli/src", "destroy/src", "hook", "runtime", "mindxcheckutils")]
SKIP = ("_test.go", "/grus/", "/test/", "mock")

# a C or Go string literal, possibly several joined by `+` (Go) or juxtaposed (C)
_STR = r'"(?:[^"\\\n]|\\.)*"'
_STRS = rf'{_STR}(?:\s*\+?\s*{_STR})*'
_C_CALLS = re.compile(
    rf'\b(?P<kind>Logger|FormatLogMessage|ShowExceptionInfo|LOG_ERROR)\(\s*(?P<s>{_STRS})(?P<rest>[^;]*)', re.S)
_C_STDERR = re.compile(rf'fprintf\(\s*stderr\s*,\s*(?P<s>{_STRS})', re.S)
_GO_CALLS = re.compile(
    rf'(?P<kind>fmt\.Errorf|errors\.New|log\.Fatal|hwlog\.RunLog\.(?:Errorf|Error|Warnf|Warn))\(\s*(?P<s>{_STRS})',
    re.S)


def _literal(text: str) -> str:
    parts = re.findall(_STR, text)
    out = "".join(p[1:-1] for p in parts)
    return out.replace('\\"', '"').replace("\\n", "").replace("\\t", " ").strip()


def _line_of(src: str, pos: int) -> int:
    return src.count("\n", 0, pos) + 1


def extract(repo: str) -> list[dict]:
    entries: list[dict] = []
    for prefix in PATHS:
        for path in list_files(repo, prefix):
            if any(s in path for s in SKIP) or not path.endswith((".c", ".go")):
                continue
            src = read_file(repo, path)
            if path.endswith(".c"):
                for m in _C_CALLS.finditer(src):
                    kind, text = m.group("kind"), _literal(m.group("s"))
                    rest = m.group("rest")
                    if kind == "Logger" and "LEVEL_ERROR" not in rest and "LEVEL_WARN" not in rest:
                        continue
                    if kind == "LOG_ERROR" or text in ("%s",):
                        continue
                    if kind == "FormatLogMessage":
                        # only messages that end up in an error Logger call right after
                        tail = src[m.end():m.end() + 200]
                        if "LEVEL_ERROR" not in tail and "LEVEL_WARN" not in tail:
                            continue
                    entries.append({"template": text, "path": path, "line": _line_of(src, m.start()), "kind": kind})
                for m in _C_STDERR.finditer(src):
                    text = _literal(m.group("s"))
                    if text in ("%s",) or len(text) < 3:
                        continue
                    entries.append({"template": text, "path": path, "line": _line_of(src, m.start()),
                                    "kind": "fprintf(stderr)"})
            else:
                for m in _GO_CALLS.finditer(src):
                    text = _literal(m.group("s"))
                    if len(text) < 3:
                        continue
                    entries.append({"template": text, "path": path, "line": _line_of(src, m.start()),
                                    "kind": m.group("kind")})
    return entries


def main(argv: list[str]) -> None:
    repo = argv[1] if len(argv) > 1 else "/work/.mirror/Ascend+mind-cluster/repo"
    write_catalog(
        "ascend-docker-runtime",
        "Ascend Docker Runtime (ascend-docker-runtime, -hook, -cli, -destroy): error messages",
        "Ascend/mind-cluster", head_commit(repo), PATHS, "tools/catalog/ascend_docker_runtime.py",
        extract(repo))


if __name__ == "__main__":
    main(sys.argv)
