"""The shapes of error lines that no rule needs to know to be reported: a Python exception line,
a plog ``[ERROR]`` header, an error code, a compiler error, a CANN error-stack line, torch's c10
logger at ERROR / FATAL, vLLM's logger at CRITICAL; and the start of a service run. Each has a
prefilter pattern (:data:`DETECTORS`, searched with the rules) and a confirmation on the normalized
line (:data:`CONFIRM`). These are formats of log lines, not knowledge of what a message means."""

from __future__ import annotations

import re

#: Line-level detectors of error lines no rule may explain; ids follow the rule indices.
DETECTORS: tuple[tuple[str, str], ...] = (
    # `\r` too: in Hyperscan's multiline mode `$` is only before `\n` (CRLF and CR-only logs)
    ("python-exception", r"(?:Error|Exception|Failure|Interrupt)(?::|\r|$)"),
    ("plog-error", r"\[ERROR\] "),
    ("error-code", r"error code is -?\d+|ERR\d{5}|E[A-Z0-9]\d{4}"),
    ("compile-error", r":\d+:\d+: (?:fatal )?error: "),
    ("cann-error-stack", r"\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]"),
    # vLLM's logger at CRITICAL, which it uses only to say it is going down ("... got fatal signal from
    # worker processes, shutting down"): the line that tells a crash when the failing worker's own trace
    # is not in the log
    ("fatal-log", r"CRITICAL \d\d-\d\d \d\d:\d\d:\d\d"),
    # PyTorch's c10 logger at ERROR or FATAL, as torch and torch_npu print it (c10/util/Logging.cpp:
    # "[E" month*100+day " HH:MM:SS." nanoseconds " file:line] "): "[rank1]:[E1201 06:31:02.635343200
    # compiler_depend.ts:444] SelfAttentionOperation setup failed!"
    ("torch-log-error", r"\[[EF]\d{3,4} \d\d:\d\d:\d\d\.\d{6,9} "),
    # not an error: the start of a service run (a restart after a failure starts a new attempt)
    ("restart", r"vLLM API server version |Initializing an? (?:V1 )?LLM engine \(v"),
)

# Confirmation of the detectors (on the normalized line), in order of how telling they are.
CONFIRM = {
    "python-exception": re.compile(
        r"^(?:[A-Za-z_][\w]*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure|Interrupt)(?:: .*)?$", re.ASCII),
    # `error code is 0` is success (an INFO line's), not an error code
    "error-code": re.compile(r"error code is (?:-\d+|0*[1-9]\d*)\b|\bERR\d{5}\b|\bE[A-Z0-9]\d{4}\b", re.ASCII),
    "plog-error": re.compile(r"^\[ERROR\] [A-Za-z_][\w-]*\(\d+,", re.ASCII),
    "compile-error": re.compile(r"^\s*\S+:\d+:\d+: (?:fatal )?error: ", re.ASCII),
    # a line of CANN's error stack (printed only on failure): ... failed.[FUNC:x][FILE:y.cc][LINE:n]
    "cann-error-stack": re.compile(r"\[FUNC:\w+\]\[FILE:[\w.]+\]\[LINE:\d+\]", re.ASCII),
    # torch's c10 logger at ERROR / FATAL, at the start of the line once a [rankN]: prefix is stripped
    "torch-log-error": re.compile(r"^\[[EF]\d{3,4} \d\d:\d\d:\d\d\.\d{6,9} [^\s\]]+:\d+\] \S", re.ASCII),
    # on the raw line: normalization drops the vLLM logger prefix that holds the level
    "fatal-log": re.compile(r"(?:^|\) )CRITICAL \d\d-\d\d \d\d:\d\d:\d\d(?:[.,]\d+)? "
                            r"(?:\[[\w./<>-]+:\d+\]|[\w./<>-]+:\d+\])", re.ASCII),
}
#: Detector kinds confirmed on the raw line rather than the normalized one.
RAW_KINDS = frozenset({"fatal-log"})
KIND_RANK = {"python-exception": 0, "error-code": 1, "compile-error": 2, "cann-error-stack": 3, "plog-error": 4,
             "torch-log-error": 5, "fatal-log": 6}
# the start of a service run (confirmed on the normalized line): vLLM's API server and engine banners
# ("Starting vLLM API server ... on http" is printed once the engine is up, after start-up errors
# it survived: not the start of a run)
START = re.compile(r"^(?:vLLM API server version \S+|Initializing an? (?:V1 )?LLM engine \(v)", re.ASCII)
