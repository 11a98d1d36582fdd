"""Version strings as the Ascend stack prints them, made comparable.

Python packages follow PEP 440 (``0.9.1rc1``, ``2.5.1.post1.dev20250619``, ``2.7.1+cpu``) and are
parsed with :mod:`packaging`. CANN prints ``8.1.RC1``, ``8.0.RC3.alpha002``, ``8.2.0`` and the driver
``24.1.rc2``: their ``RCn`` is a release candidate of that version, so it is rewritten to PEP 440
before parsing (``8.1.RC1`` -> ``8.1rc1``, ``24.1.rc2.2`` -> ``24.1rc2.post2``; an ``alphaN``/``betaN``
tail is a pre-release of the RC and is dropped: CANN's alphas are compatible with their RC).
"""

from __future__ import annotations

import re

from packaging.version import InvalidVersion, Version

_CANN = re.compile(r"^(\d+(?:\.\d+)*)(?:\.(?:RC|rc)(\d+)(?:\.(\d+))?)?"
                   r"(?:\.(?:alpha|beta|T)\d+)?(?:\.SPC\d+)?(?:\.B\d+)?$")


def parse_version(text: str) -> Version | None:
    """``text`` as a :class:`packaging.version.Version`, or None when it is not a version.

    Accepts PEP 440 and CANN/driver forms; a leading ``v`` is ignored.
    """
    text = text.strip()
    if text[:1] in "vV":
        text = text[1:]
    m = _CANN.match(text)
    if m:
        # a patch of a release candidate (driver 24.1.rc2.2, CANN 8.0.RC2.2) follows that candidate
        text = m.group(1) + (f"rc{m.group(2)}" if m.group(2) else "") + (f".post{m.group(3)}" if m.group(3) else "")
    try:
        return Version(text)
    except InvalidVersion:
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
    """True when both are versions with the same major.minor.micro (``2.5.1.post1`` ~ ``2.5.1``)."""
    f, w = parse_version(found), parse_version(wanted)
    return f is not None and w is not None and f.release[:3] == w.release[:3]
