"""Version strings as the Ascend stack prints them, made comparable.

Python packages follow PEP 440 (``0.9.1rc1``, ``2.5.1.post1.dev20250619``, ``2.7.1+cpu``) and are
parsed with :mod:`packaging`. CANN prints ``8.1.RC1``, ``8.0.RC3.alpha002``, ``8.2.0`` and the driver
``24.1.rc2``: their ``RCn`` is a release candidate of that version, so it is rewritten to PEP 440
before parsing (``8.1.RC1`` -> ``8.1rc1``, ``24.1.rc2.2`` -> ``24.1rc2.post2``; an ``alphaN``/``betaN``
tail of an RC is dropped (CANN's alphas are compatible with their RC); on a final release it is a
pre-release of it).
"""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

_CANN = re.compile(r"^(\d+(?:\.\d+)*)(?:\.(?:RC|rc)(\d+)(?:\.(\d+))?)?"
                   r"(?:\.(alpha|beta|T)(\d+))?(?:\.SPC\d+)?(?:\.[Bb]\d+)?$")
_PRE = {"alpha": "a", "beta": "b", "T": "a"}  # MindIE's T (test) builds precede its RCs, like alphas


def parse_version(text: str) -> Version | None:
    """``text`` as a :class:`packaging.version.Version`, or None when it is not a version.

    Accepts PEP 440 and CANN/driver/MindIE forms (``8.1.RC1``, ``24.1.rc2.2``, ``8.5.0.alpha001``,
    ``2.0.T3.B010``); a leading ``v`` is ignored; text over 64 characters is not a version.
    """
    text = text.strip()
    if text[:1] in "vV":
        text = text[1:]
    if len(text) > 64:
        return None
    m = _CANN.match(text)
    if m:
        base, rc, rc_patch, pre, pre_n = m.groups()
        if rc:
            # a patch of a release candidate (driver 24.1.rc2.2, CANN 8.0.RC2.2) follows that candidate;
            # an alpha of a candidate (8.0.RC3.alpha002) counts as the candidate
            text = base + f"rc{rc}" + (f".post{rc_patch}" if rc_patch else "")
        elif pre:
            text = base + f"{_PRE[pre]}{int(pre_n)}"  # 8.5.0.alpha001 is a pre-release of 8.5.0
        else:
            text = base
    try:
        return Version(text)
    except (InvalidVersion, ValueError):  # ValueError: a number past int's digit limit
        return None


def release_of(text: str) -> Version | None:
    """The release a build belongs to: local label and dev/post tags dropped
    (``2.5.1.post1.dev20250619`` -> ``2.5.1.post1``, ``2.7.1+cpu`` -> ``2.7.1``)."""
    v = parse_version(text)
    if v is None:
        return None
    base = v.base_version
    if v.pre:
        base += f"{v.pre[0]}{v.pre[1]}"
    if v.post is not None:
        base += f".post{v.post}"
    return Version(base)


def is_dev_build(text: str) -> bool:
    """True for a build from an untagged commit (``0.9.2rc2.dev255+gcf96366``, ``0.1.dev1+gd6bfae8``):
    its code lies between releases, so release tables cannot judge it."""
    v = parse_version(text)
    return v is None or v.dev is not None and v.local is not None or str(v).startswith("0.1.dev")


def same_release(found: str, wanted: str) -> bool:
    """True when ``found`` is a build of release ``wanted`` (local labels and dev tags ignored;
    ``wanted`` without a post-release matches any post-release of it)."""
    f, w = release_of(found), release_of(wanted)
    if f is None or w is None:
        return False
    if f == w:
        return True
    return w.post is None and Version(f.base_version + (f"{f.pre[0]}{f.pre[1]}" if f.pre else "")) == w


def at_least(found: str, minimum: str) -> bool | None:
    """``found >= minimum`` by release (a pre-release of ``minimum`` counts as older); None when
    either is not a version."""
    f, m = release_of(found), release_of(minimum)
    if f is None or m is None:
        return None
    return f >= m


def same_minor(found: str, wanted: str) -> bool:
    """True when both are versions of the same major.minor.micro release (``2.5.1.post1`` ~ ``2.5.1``,
    ``2.8`` ~ ``2.8.0``)."""
    f, w = parse_version(found), parse_version(wanted)
    if f is None or w is None:
        return False
    return (f.release + (0, 0, 0))[:3] == (w.release + (0, 0, 0))[:3]
