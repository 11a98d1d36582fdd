"""``triage rules suggest LOG``: a draft rule for each error line no rule explains.

Each unexplained error line (a Python exception, a plog ``[ERROR]``, an error code...) becomes a
YAML rule skeleton: its regex is the line's message with the variable parts generalised (numbers,
hex values, paths, versions, ids, ranks, IPs), its example is the line itself, and it is marked
``draft: true`` with a TODO cause and fix and ``confidence: hypothesis``. ``triage rules lint
--rules DIR`` accepts drafts in a user pack with a warning; the built-in base refuses them.
"""

from __future__ import annotations

import re

import yaml

from triage.logformat.normalize import message_of, normalize
from triage.report.models import Unrecognised

#: How much of a message the regex keeps: long tails are usually values that vary.
MAX_CORE = 160

# (pattern of a variable part, its generalisation), applied in order on the escaped text's pieces
_VARIABLE = [
    (re.compile(r"(?:/[\w.@+-]+){2,}/?|[A-Za-z]:\\(?:[\w.@+-]+\\?)+"), r"\S+"),  # paths
    (re.compile(r"\b\d{1,3}(?:\.\d{1,3}){3}(?::\d+)?\b"), r"[\d.:]+"),  # IPs (and ports)
    (re.compile(r"\b0x[0-9a-fA-F]+\b"), r"0x[0-9a-fA-F]+"),  # hex values
    (re.compile(r"\bv?\d+(?:\.\d+){1,3}(?:[-.+]?(?:rc|post|dev|alpha|beta|a|b)\d*)?(?:\+[\w.]+)?\b"), r"[\w.+-]+"),
    (re.compile(r"\b[0-9a-f]{8,}\b"), r"[0-9a-f]+"),  # ids, hashes
    (re.compile(r"\d+"), r"\d+"),  # numbers, ranks, device ids, ports
]


def message(line: str) -> str:
    """The message of a raw log line: prefixes (container, vLLM, Ray) and the plog header removed."""
    return message_of(normalize(line)).strip()


def generalise(text: str) -> str:
    """A Python regex matching ``text`` with its variable parts (numbers, hex, paths, IPs,
    versions, ids) replaced by tolerant pieces; everything else escaped literally."""
    pieces: list[tuple[int, int, str]] = []
    taken = [False] * len(text)
    for rx, repl in _VARIABLE:
        for m in rx.finditer(text):
            if any(taken[m.start():m.end()]):
                continue
            pieces.append((m.start(), m.end(), repl))
            for i in range(m.start(), m.end()):
                taken[i] = True
    out, pos = [], 0
    for start, end, repl in sorted(pieces):
        out.append(_escape(text[pos:start]))
        out.append(repl)
        pos = end
    out.append(_escape(text[pos:]))
    return "".join(out)


_META = re.compile(r"[.^$*+?{}\[\]\\|()]")


def _escape(text: str) -> str:
    """``text`` as a literal regex: only the regex metacharacters escaped (``re.escape`` would also
    escape spaces and punctuation, which is noisy in a rule file)."""
    return _META.sub(lambda m: "\\" + m.group(0), text)


def core(text: str) -> str:
    """The first :data:`MAX_CORE` characters of a message, cut at a word end."""
    if len(text) <= MAX_CORE:
        return text
    cut = text.rfind(" ", 0, MAX_CORE)
    return text[: cut if cut > 40 else MAX_CORE]


def _slug(text: str) -> str:
    words = re.findall(r"[A-Za-z][A-Za-z]+", text)
    slug = "-".join(w.lower() for w in words[:6]) or "unexplained-line"
    return slug[:60].strip("-")


def skeleton(line: Unrecognised, prefix: str = "local") -> dict:
    """The draft rule (a plain dict, in rule-file order) for one unexplained line."""
    from triage.scan.summary import SUnrecognised
    from triage.scan.unexplained import component_and_layer

    msg = message(line.text)
    quoted = msg.replace("{", "(").replace("}", ")")  # braces would read as placeholders
    component, layer = component_and_layer(SUnrecognised(file=0, line=line.line, text=line.text, kind=line.kind,
                                                         key=""))
    return {
        "id": f"{prefix}.{_slug(msg)}",
        "title": f"TODO: say what went wrong, in a few words ({quoted[:60]})",
        "layer": layer,
        "component": component,
        "severity": "error",
        "priority": 50,
        "draft": True,
        "confidence": "hypothesis",
        "match": {"any": [{"regex": generalise(core(msg))}]},
        "cause": f"TODO: why this happens (from the source that prints it or a resolved thread). The line: {quoted}",
        "fix": ["TODO: the command, setting, environment variable or release that fixes it"],
        "references": [],
        "examples": {"match": [line.text.strip()], "no_match": []},
    }


#: Stable words (three letters or more, not the exception's class) a message needs to be drafted from:
#: fewer would give a pattern that matches every line of its kind (``regex: RuntimeError``).
MIN_STABLE_WORDS = 2
_WORD = re.compile(r"[A-Za-z][A-Za-z_]{2,}")
_EXC = re.compile(r"^(?:[A-Za-z_]\w*\.)*[A-Za-z_]\w*(?:Error|Exception|Failure|Interrupt):?\s*")


def stable_words(line: Unrecognised) -> list[str]:
    """The words of a line's message a draft can keep: letters only (numbers, hex, paths and ids
    vary), without the exception's class name."""
    msg = _EXC.sub("", message(line.text), count=1)
    msg = _VARIABLE[0][0].sub(" ", msg)  # paths vary
    return [w for w in _WORD.findall(msg) if not re.fullmatch(r"[0-9a-f]{8,}", w)]


def draftable(lines: list[Unrecognised]) -> tuple[list[Unrecognised], list[Unrecognised]]:
    """(lines a rule can be drafted from, lines whose message has too few stable words)."""
    good = [u for u in lines if len(stable_words(u)) >= MIN_STABLE_WORDS]
    return good, [u for u in lines if u not in good]


def suggest(lines: list[Unrecognised], prefix: str = "local") -> str:
    """A rule file (YAML text) with one draft rule per distinct unexplained line that states enough
    stable words (see :func:`draftable`); ids made unique."""
    rules, seen_ids, seen_regex = [], set(), set()
    for line in draftable(lines)[0]:
        rule = skeleton(line, prefix)
        regex = rule["match"]["any"][0]["regex"]
        if regex in seen_regex:
            continue
        seen_regex.add(regex)
        base, n = rule["id"], 2
        while rule["id"] in seen_ids:
            rule["id"] = f"{base}-{n}"
            n += 1
        seen_ids.add(rule["id"])
        rules.append(rule)
    header = ("# Draft rules from `triage rules suggest`: fill in each TODO (title, cause, fix, references,\n"
              "# a near miss under examples.no_match), then remove `draft: true`. Check with:\n"
              "#   triage rules lint --rules <this file>   and   triage rules test --rules <this file>\n")
    return header + yaml.safe_dump({"rules": rules}, sort_keys=False, allow_unicode=True, width=1000)
