"""Turn a raw log line into the text rules test: strip what is not the message.

Removed: Markdown quote markers (``> ``) of a pasted log, ANSI colour codes, docker /
``kubectl logs --timestamps`` timestamps, ``kubectl --prefix``
tags, torch.distributed's ``[rank3]:`` prefix, torchrun's ``--tee`` prefix ``[default4]:``,
Ray and vLLM process tags such as ``(EngineCore_DP0 pid=626)``, ``(VllmWorker TP1 pid=21355)`` or
``(RayWorkerWrapper pid=123, ip=<ip>)``, and vLLM's logger prefix (``ERROR 12-05 07:51:00 [core.py:708]`` and the older
``ERROR 04-18 01:55:45 engine.py:400]``). ``message`` additionally drops a CANN plog header
(``[ERROR] RUNTIME(1234,python):2025-06-01-10:00:00.123.456 [stream.cc:123]``) or a torch_npu
header (``[ERROR] 2024-03-07-01:31:48 (PID:1, Device:0, RankID:-1)``).

The functions work on one line at a time so the matcher can normalize only the lines it flags.
"""

from __future__ import annotations

import re

_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)")
_PREFIXES = [
    # Markdown quote markers of a log pasted into an issue or a chat ("> > [ERROR] ...")
    re.compile(r"^(?:> ?)+(?=\S)"),
    # docker logs --timestamps / kubectl logs --timestamps: RFC 3339 with nanoseconds
    re.compile(r"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:[.,]\d+)?(?:Z|[+-]\d\d:?\d\d)? "),
    # kubectl logs --prefix
    re.compile(r"^\[pod/[^\]\s]+\] "),
    # torch.distributed's per-rank prefix: "[rank3]: RuntimeError: ..." (the rank is read from the raw line)
    re.compile(r"^\[rank\d{1,6}\]: ?"),
    # torchrun --tee / --redirects: "[default4]:" (the role and the *local* rank: no origin of its own)
    re.compile(r"^\[default\d{1,6}\]: ?"),
    # vLLM-Omni's pipeline stage tag: [Stage-1]
    re.compile(r"^\[Stage-\d{1,4}\] ?"),
    # Ray / vLLM process tags: (EngineCore_DP0 pid=626) (VllmWorker rank=3 pid=1) (RayWorkerWrapper pid=1, ip=x)
    # (VllmWorker TP1 pid=21355): a worker's parallel indexes may follow its name as words of their own
    re.compile(r"^\([A-Za-z_][\w.:-]*(?: (?:TP|DP|PP|EP|PCP|DCP)\d{1,5})*(?:,? [A-Za-z_]\w*=[^\s),]+)+\) "),
    # vLLM logger: "ERROR 12-05 07:51:00 [core.py:708] " and "INFO 04-18 01:55:45 engine.py:400] "
    re.compile(
        r"^(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) \d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? "
        r"(?:\[[\w./<>-]+:\d+\]|[\w./<>-]+:\d+\]) ?"
    ),
]
_PLOG_HEADER = re.compile(
    r"^\[(?:ERROR|WARNING|WARN|INFO|DEBUG|EVENT|TRACE)\] "
    r"(?:[A-Za-z_][\w-]*\(\d+,[^)]*\):\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d\.\d+(?:\.\d+)? \[[^\]]*\]\s*(?:\d+ )?"
    r"|\d{4}-\d\d-\d\d-\d\d:\d\d:\d\d(?:\.\d+)? \(PID:\d+, Device:-?\d+, RankID:-?\d+\) )"
)


def strip_ansi(text: str) -> str:
    """``text`` without ANSI escape sequences (colours, cursor moves, OSC titles)."""
    return _ANSI.sub("", text) if "\x1b" in text else text


# All of them, nested in any order, as one match: each starts differently (`>`, a digit, `[pod/`,
# `[rank`, `[default`, `(`, a level name), so which one strips a prefix never depends on the order.
_ALL_PREFIXES = re.compile("(?:" + "|".join(f"(?:{rx.pattern.removeprefix('^')})" for rx in _PREFIXES) + ")*")


def normalize(raw: str) -> str:
    """The normalized line of ``raw`` (a decoded line without its line end): prefixes removed,
    however many are nested (a docker time, then a Ray tag, then the vLLM logger prefix...)."""
    text = strip_ansi(raw).rstrip("\r\n")
    end = _ALL_PREFIXES.match(text).end()
    return text[end:] if end else text


def message_of(text: str) -> str:
    """The message of a normalized line: ``text`` without a CANN plog or torch_npu header."""
    m = _PLOG_HEADER.match(text)
    return text[m.end():] if m else text


class LineView:
    """The texts conditions test for one line: ``line`` (normalized) and ``message`` (lazily)."""

    __slots__ = ("raw", "line", "_message")

    def __init__(self, raw: str):
        self.raw = raw
        self.line = normalize(raw)
        self._message: str | None = None

    @property
    def message(self) -> str:
        if self._message is None:
            self._message = message_of(self.line)
        return self._message

    def scope(self, name: str) -> str:
        """The text for a condition's ``scope`` (``line``, ``message`` or ``raw``)."""
        if name == "line":
            return self.line
        return self.message if name == "message" else self.raw
