"""Finding rules by words and ids: the filters of ``rules list`` and the suggestions for an unknown id."""

from __future__ import annotations

import re


def keyword_matches(query: str, rule) -> bool:
    """Whether every word of ``query`` is in the rule's id, title, component or cause (any case, the
    Chinese texts too)."""
    r = rule.rule
    haystack = " ".join([r.id, r.title, r.component, r.cause, *((r.zh.title, r.zh.cause) if r.zh else ())]).lower()
    return all(word in haystack for word in query.lower().split())


def unknown_id(kind: str, rule_id: str, known) -> str:
    """``no rule `x``` with the closest known ids as suggestions ("did you mean ...")."""
    import difflib

    close = difflib.get_close_matches(rule_id, list(known), n=3, cutoff=0.6)
    if not close:  # a word of the id (`ecc` finds `hw.hbm-multi-bit-ecc`)
        close = [k for k in known if rule_id.lower() in k.lower()][:3]
    hint = f"; did you mean {', '.join(f'`{c}`' for c in close)}?" if close else \
        " (`triage rules list --grep WORDS` searches the rules)"
    return f"no {kind} `{rule_id}`{hint}"


def component_matches(query: str, label: str) -> bool:
    """Whether ``query`` names the component ``label``: the whole label or whole words of it, any
    case (``docker`` matches ``docker (driver tool mounts)``; ``torch`` does not match ``torch_npu``)."""
    q, text = " ".join(query.lower().split()), " ".join(label.lower().split())
    return bool(q) and re.search(rf"(?<![\w-]){re.escape(q)}(?![\w-])", text) is not None
