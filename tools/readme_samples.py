"""The README's sample outputs are what the code prints: every ```text block that starts with a
``$ triage ...`` line shows that command's output, run from the repository root on a terminal 120
columns wide, with the knowledge digests normalised to ``<digest>``.

``python tools/readme_samples.py`` rewrites the blocks of README.md and README.zh-CN.md;
``python tools/readme_samples.py --check`` exits 1 when a block differs (tests/test_docs.py runs the
same comparison).
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
READMES = [ROOT / "README.md", ROOT / "README.zh-CN.md"]
_BLOCK = re.compile(r"(```text\n)(\$ (triage [^\n]+)\n)(.*?)(```)", re.S)
_DIGESTS = re.compile(r"(rules |规则库 |配套表 |compat )[0-9a-f]{16}")


def normalise(text: str) -> str:
    """Output with the digests of the rules and compat/ replaced (they change with every rule)."""
    return _DIGESTS.sub(r"\1<digest>", text)


def run(command: str) -> str:
    """The output of ``command`` (a ``triage ...`` line) as the README shows it."""
    args = shlex.split(command)[1:]
    env = {**os.environ, "COLUMNS": "120", "TERM": "dumb", "NO_COLOR": "1"}
    env.pop("TRIAGE_LANG", None)
    out = subprocess.run([sys.executable, "-c", "from triage.cli.app import main; main()", *args], cwd=ROOT,
                         capture_output=True, text=True, env=env, timeout=300)
    return normalise(out.stdout.rstrip("\n") + "\n")


def runnable(command: str) -> bool:
    """Whether every input the command names is in the repository (an illustrative block naming a
    user's own files, such as ``job-logs/``, is not a sample of this checkout)."""
    args = shlex.split(command)[2:]
    paths = [a for a in args if not a.startswith("-") and a not in ("zh", "en", "json", "text", "markdown")]
    return bool(paths) and all((ROOT / p).exists() for p in paths)


def blocks(text: str) -> list[tuple[str, str]]:
    """(command, shown output) of each runnable sample block."""
    return [(m.group(3), m.group(4)) for m in _BLOCK.finditer(text) if runnable(m.group(3))]


def main() -> int:
    check = "--check" in sys.argv
    differs = False
    for readme in READMES:
        text = readme.read_text(encoding="utf-8")

        def replace(m: re.Match, readme: Path = readme) -> str:
            nonlocal differs
            if not runnable(m.group(3)):
                return m.group(0)
            got = run(m.group(3))
            if got != m.group(4):
                differs = True
                if check:
                    print(f"{readme.name}: `{m.group(3)}` differs", file=sys.stderr)
            return m.group(1) + m.group(2) + got + m.group(5)

        new = _BLOCK.sub(replace, text)
        if not check and new != text:
            readme.write_text(new, encoding="utf-8")
    return 1 if (check and differs) else 0


if __name__ == "__main__":
    sys.exit(main())
