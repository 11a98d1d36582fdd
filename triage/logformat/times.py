"""Timestamps of log lines, so that the first failure of a multi-rank incident can be found.

Each time is read with its *family*: ``utc`` (docker / kubectl RFC 3339 prefixes with a zone),
``local`` (CANN plog ``2025-12-04-14:46:07.911.312``, torch_npu, Python logging, MindIE
``[2025-05-13 02:25:58.64217]``) and ``yearless`` (vLLM ``ERROR 08-28 02:33:28``, glog
``W1014 05:56:18.123``). Times of one family compare directly. Where a line carries both a
``utc`` prefix and a ``local`` time, the offset between the two is learned (rounded to 15 minutes)
and ``utc`` times are then compared as local ones; a ``yearless`` time borrows the year of the
input's ``local`` times when there are any. Without comparable times, the correlator orders
causes before symptoms (see docs/bundles.md).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime, timedelta

_UTC = re.compile(r"^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?(Z|[+-]\d\d:?\d\d) ")
_PLOG = re.compile(r"(?<!\d)(20\d\d)-(\d\d)-(\d\d)-(\d\d):(\d\d):(\d\d)(?:\.(\d{1,6}))?(?:\.(\d{1,3}))?")
_SPACE = re.compile(r"(?<!\d)(20\d\d)-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:[.,](\d{1,9}))?(?![\d:])")
_VLLM = re.compile(r"(?:^|\s|\))(?:DEBUG|INFO|WARNING|WARN|ERROR|CRITICAL) "
                   r"(\d\d)-(\d\d) (\d\d):(\d\d):(\d\d)(?:[.,](\d+))?")
# glog ([E0107 ...], microseconds) and torch's c10 logger ([E107 ...] month*100+day unpadded, then
# 9 digits of CLOCK_MONOTONIC nanoseconds: not a fraction of the wall-clock second, so dropped)
_GLOG = re.compile(r"(?:^|[\s\[:\]])[IWEF](\d{1,2})(\d\d) (\d\d):(\d\d):(\d\d)\.(\d{1,6}|\d{9})\b")


@dataclass(frozen=True)
class LineTime:
    """A time read from a line: naive ``when`` in its family's clock (UTC for ``utc``), the
    ``family`` and, for a line that carries two clocks, the ``local`` reading beside the UTC one."""

    when: datetime
    family: str
    local: datetime | None = None


def _micro(frac: str | None) -> int:
    if not frac:
        return 0
    return int((frac + "000000")[:6])


def _local_time(text: str) -> tuple[datetime, str] | None:
    m = _PLOG.search(text)
    if m:
        y, mo, d, h, mi, s, f1, f2 = m.groups()
        # plog: ".911.312" is milliseconds then microseconds; one fraction is a decimal fraction
        micro = int(f1[:3].ljust(3, "0")) * 1000 + int(f2.ljust(3, "0")) if f2 is not None else _micro(f1)
        return _safe(int(y), int(mo), int(d), int(h), int(mi), int(s), min(micro, 999999)), "local"
    m = _SPACE.search(text)
    if m:
        y, mo, d, h, mi, s, frac = m.groups()
        return _safe(int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(frac)), "local"
    m = _VLLM.search(text[:200])
    if m:
        mo, d, h, mi, s, frac = m.groups()
        return _safe(NO_YEAR, int(mo), int(d), int(h), int(mi), int(s), _micro(frac)), "yearless"
    m = _GLOG.search(text[:200])
    if m:
        mo, d, h, mi, s, frac = m.groups()
        micro = 0 if len(frac) == 9 else _micro(frac)
        return _safe(NO_YEAR, int(mo), int(d), int(h), int(mi), int(s), micro), "yearless"
    return None


def _safe(*parts: int) -> datetime | None:
    try:
        return datetime(*parts)
    except ValueError:
        return None


def time_of_line(raw: str) -> LineTime | None:
    """The time a line carries, or None. A docker/kubectl RFC 3339 prefix wins (UTC, the
    container runtime's clock); the local time inside such a line is kept as ``local``."""
    m = _UTC.match(raw)
    if m:
        y, mo, d, h, mi, s, frac, zone = m.groups()
        when = _safe(int(y), int(mo), int(d), int(h), int(mi), int(s), _micro(frac))
        if when is None:
            return None
        if zone != "Z":
            sign = 1 if zone[0] == "+" else -1
            digits = zone[1:].replace(":", "")
            when -= sign * timedelta(hours=int(digits[:2]), minutes=int(digits[2:]))
        inner = _local_time(raw[m.end():])
        local = inner[0] if inner and inner[1] == "local" and inner[0] is not None else None
        return LineTime(when, "utc", local)
    found = _local_time(raw)
    if found is None or found[0] is None:
        return None
    return LineTime(found[0], found[1])


class Clock:
    """Puts times of different families on one clock where the input allows it.

    Feed it every :class:`LineTime` seen (:meth:`see`); :meth:`comparable` then gives a naive
    datetime on the local clock, or None when the family cannot be compared with the others.
    """

    def __init__(self) -> None:
        self.offsets: dict[int, int] = {}  # learned (local - utc) in minutes -> votes
        self.years: dict[int, int] = {}
        self.families: set[str] = set()

    def see(self, t: LineTime) -> None:
        self.families.add(t.family)
        if t.family == "utc" and t.local is not None:
            minutes = round((t.local - t.when).total_seconds() / 900) * 15
            if abs(minutes) <= 14 * 60:
                self.offsets[minutes] = self.offsets.get(minutes, 0) + 1
        if t.family == "local":
            self.years[t.when.year] = self.years.get(t.when.year, 0) + 1

    @property
    def offset(self) -> timedelta | None:
        if not self.offsets:
            return None
        return timedelta(minutes=max(self.offsets, key=lambda k: (self.offsets[k], -abs(k))))

    def comparable(self, t: LineTime | None) -> datetime | None:
        """``t`` on the local clock, or None when it cannot be compared with other families."""
        if t is None:
            return None
        if t.family == "local":
            return t.when
        if t.family == "utc":
            if self.offset is not None:
                return t.when + self.offset
            return t.when if self.families <= {"utc"} else None
        if t.family == "yearless":
            if self.years:
                year = max(self.years, key=self.years.get)
                try:
                    return t.when.replace(year=year)
                except ValueError:
                    return None
            return t.when if self.families <= {"yearless"} else None
        return None


#: The placeholder year of a time read without one (vLLM, glog) that no other time dated.
NO_YEAR = 1900


def iso(when: datetime | None) -> str | None:
    """ISO 8601 text of a naive time (microseconds only when present), or None. A time whose year
    is unknown is written in ISO 8601's truncated form without it: ``--08-28T02:33:28``."""
    if when is None:
        return None
    text = when.isoformat(timespec="microseconds" if when.microsecond else "seconds")
    return "--" + text[5:] if when.year == NO_YEAR else text


def parse_iso(text: str | None) -> datetime | None:
    """The naive datetime of :func:`iso` text (None passes through; a year-less ``--MM-DD...``
    gets the placeholder year)."""
    if not text:
        return None
    if text.startswith("--"):
        text = f"{NO_YEAR}-{text[2:]}"
    return datetime.fromisoformat(text).replace(tzinfo=None)


