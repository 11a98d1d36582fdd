"""Replace personal details in a report before it is printed (``--redact``).

Found in the log-derived text (evidence, unrecognised lines, captures, file names): IPv4 and IPv6
addresses, host names (fully qualified names, ``host=...``, shell prompts), user names in home
paths, e-mail addresses, and secrets (``hf_...`` and ``sk-...`` tokens, bearer tokens, ``key=``/
``token=``/``password=`` values, long hex or base64 strings). Each distinct value becomes a
placeholder numbered per report (``<ip-1>``, ``<host-2>``): never a hash, which could be reversed.
The same replacements are then applied to every string of the report, so a value that a cause or
fix quotes is hidden too. Which rules fired is not changed: redaction happens at rendering time.
"""

from __future__ import annotations

import ipaddress
import re
from typing import Any

from triage.report.models import Finding, Report, Unrecognised

# Public documentation hosts that rule references point to: not personal.
_PUBLIC_HOSTS = {"github.com", "www.github.com", "raw.githubusercontent.com", "hiascend.com", "www.hiascend.com",
                 "gitcode.com", "gitee.com", "huggingface.co", "pypi.org", "docs.python.org", "docs.vllm.ai",
                 "pytorch.org", "download.pytorch.org", "docs.docker.com", "modelscope.cn", "quay.io",
                 "mirrors.huaweicloud.com", "repo.huaweicloud.com", "support.huawei.com", "json-schema.org"}
_TLDS = r"(?:com|net|org|cn|io|ai|co|local|internal|lan|corp|cluster|svc|intra|edu|gov)"

_PATTERNS: list[tuple[str, re.Pattern[str], int]] = [
    # every repetition bounded: evidence lines can be megabytes, and `(a.)+` would backtrack
    ("email", re.compile(r"\b[A-Za-z0-9._%+-]{1,64}@[A-Za-z0-9-]{1,63}(?:\.[A-Za-z0-9-]{1,63}){0,6}\.[A-Za-z]{2,24}\b"),
     0),
    ("token", re.compile(r"\b(?:hf|sk|ghp|gho|github_pat|xox[bap])[_-][A-Za-z0-9_-]{16,}"), 0),
    ("token", re.compile(r"(?i)\bbearer\s+([A-Za-z0-9._~+/-]{12,}=*)"), 1),
    ("token", re.compile(r"(?i)\b(?:api[_-]?key|access[_-]?key|secret|token|passw(?:or)?d|pwd)\b[\"']?\s*[:=]\s*"
                         r"[\"']?([^\s\"',;]{6,})"), 1),
    ("token", re.compile(r"\b[0-9a-fA-F]{32,}\b"), 0),
    ("token", re.compile(r"(?<![A-Za-z0-9+/])[A-Za-z0-9+/]{40,}={0,2}(?![A-Za-z0-9+/])"), 0),
    ("user", re.compile(r"(?:/home/|/Users/|[A-Za-z]:\\Users\\)([^/\\\s:]+)"), 1),
    ("host", re.compile(r"\b([A-Za-z0-9_-]+)@([A-Za-z0-9][A-Za-z0-9.-]*):[~/]"), 2),
    ("user", re.compile(r"\b([A-Za-z0-9_-]+)@[A-Za-z0-9][A-Za-z0-9.-]*:[~/]"), 1),
    ("host", re.compile(r"(?i)\b(?:host(?:name)?|node(?:_?name)?|server)\s*[=:]\s*[\"']?([A-Za-z][A-Za-z0-9-]{2,}"
                        r"(?:\.[A-Za-z0-9-]+)*)"), 1),
    ("host", re.compile(rf"\b((?:[A-Za-z0-9](?:[A-Za-z0-9-]{{0,61}}[A-Za-z0-9])?\.){{1,8}}{_TLDS})\b", re.I), 1),
    ("ip", re.compile(r"(?<![\w.])(?:\d{1,3}\.){3}\d{1,3}(?![\w.]*\d)"), 0),
    ("ip", re.compile(r"(?<![\w:])(?:[0-9A-Fa-f]{0,4}:){2,7}[0-9A-Fa-f]{0,4}(?![\w:])"), 0),
]
_SKIP_USERS = {"root", "user", "<user>", "runner", "ubuntu", "ma-user", "HwHiAiUser"}


class Redactor:
    """Collects personal values from text and replaces each by a numbered placeholder."""

    def __init__(self) -> None:
        self.mapping: dict[str, str] = {}
        self._counts: dict[str, int] = {}
        self._rx: re.Pattern[str] | None = None
        self._rx_size = 0

    def scan(self, text: str) -> None:
        """Find the personal values in ``text`` and give each a placeholder."""
        for kind, rx, group in _PATTERNS:
            for m in rx.finditer(text):
                value = m.group(group)
                if value and self._wanted(kind, value):
                    self._placeholder(kind, value)

    def _wanted(self, kind: str, value: str) -> bool:
        if value in self.mapping or value.startswith("<"):
            return False
        if kind == "ip":
            try:
                addr = ipaddress.ip_address(value)
            except ValueError:
                return False
            return not addr.is_unspecified
        if kind == "host":
            return value.lower() not in _PUBLIC_HOSTS and not value.lower().endswith(
                tuple("." + h for h in _PUBLIC_HOSTS)) and value.lower() != "localhost"
        if kind == "user":
            return value not in _SKIP_USERS
        return True

    def _placeholder(self, kind: str, value: str) -> str:
        n = self._counts.get(kind, 0) + 1
        self._counts[kind] = n
        self.mapping[value] = f"<{kind}-{n}>"
        return self.mapping[value]

    def apply(self, text: str) -> str:
        """``text`` with every collected value replaced (longest first, so parts do not leak).

        A value is replaced only where it is not part of a longer word (``bob`` is not hidden in
        ``bobcat``).
        """
        if not self.mapping:
            return text
        if self._rx is None or self._rx_size != len(self.mapping):
            alternatives = "|".join(re.escape(v) for v in sorted(self.mapping, key=len, reverse=True))
            self._rx = re.compile(rf"(?<![\w-])(?:{alternatives})(?![\w-])")
            self._rx_size = len(self.mapping)
        return self._rx.sub(lambda m: self.mapping[m.group(0)], text)


    def finding(self, finding: Finding) -> Finding:
        """A redacted copy of one finding (for streamed output); numbering is shared."""
        self._scan_finding(finding)
        return Finding.model_validate(_walk(finding.model_dump(), self))

    def unrecognised(self, line: Unrecognised) -> Unrecognised:
        """A redacted copy of one unexplained line (for streamed output); numbering is shared."""
        self.scan(line.text)
        if line.file:
            self.scan(line.file)
        return Unrecognised.model_validate(_walk(line.model_dump(), self))

    def report(self, report: Report) -> Report:
        """A redacted copy of ``report``; numbering continues from earlier calls."""
        for f in report.findings:
            self._scan_finding(f)
        for u in report.unrecognised:
            self.scan(u.text)
        for name in report.files:
            if name:
                self.scan(name)
        for problem in report.input_errors:
            self.scan(problem.message)
        for note in report.notices:
            self.scan(note)
        for fact in report.facts:
            self.scan(fact.text)
            if fact.file:
                self.scan(fact.file)
        return Report.model_validate(_walk(report.model_dump(), self))

    def _scan_finding(self, finding: Finding) -> None:
        for ev in finding.evidence:
            self.scan(ev.text)
            if ev.file:
                self.scan(ev.file)
        for value in finding.captures.values():
            self.scan(value)


def _walk(value: Any, red: Redactor) -> Any:
    if isinstance(value, str):
        return red.apply(value)
    if isinstance(value, list):
        return [_walk(v, red) for v in value]
    if isinstance(value, dict):
        return {k: _walk(v, red) for k, v in value.items()}
    return value
