"""When a statement is true: validity intervals of facts, and the window a question asks about (`--as-of`).

A fact may carry `valid_from` and `valid_to`, either end open. Internally an interval is half-open,
[valid_from, valid_to): the instant `valid_to` is the first at which the fact no longer holds. People write
inclusive dates ("valid_to 2019-12-31" means it still held on the 31st), so a date, a month or a year given as an
end is stored as the start of the next day, month or year, and shown back as the date before it. A question's
time is a window too: `--as-of 2010` is the whole year, `--as-of 2010-05-03` the whole day, a date-time one
instant. A fact holds in a window when the two overlap.

Reference: the valid-time dimension of temporal databases (Snodgrass, "Developing Time-Oriented Database
Applications in SQL", 1999): closed-open periods so that successive periods meet without overlapping.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from kgbrain.errors import InputError

_YEAR = re.compile(r"^[+]?(\d{4})$")
_MONTH = re.compile(r"^(\d{4})-(\d{2})$")
_DAY = re.compile(r"^(\d{4})-(\d{2})-(\d{2})$")
# An overlap of at most a day between date-only ends is a hand-over ("until 2020-01-01", "from 2020-01-01"),
# not two values at once: the day a successor starts is commonly written as its predecessor's last day.
HANDOVER = timedelta(days=1)


class InvalidTime(InputError):
    """A date or date-time that cannot be read."""


@dataclass(frozen=True, slots=True)
class Window:
    """A span of time [start, end) that a question is about; a single instant has end = start + 1 µs."""

    start: datetime
    end: datetime
    text: str = ""  # how the caller wrote it ("2010", "2026-12-02"), for the answer's wording

    @staticmethod
    def at(instant: datetime, text: str = "") -> Window:
        """The window of one instant."""
        instant = utc(instant)
        return Window(instant, instant + timedelta(microseconds=1), text or instant.isoformat())

    @staticmethod
    def now() -> Window:
        """The present instant (the default of every `--as-of`)."""
        return Window.at(datetime.now(timezone.utc), "now")

    @staticmethod
    def always() -> Window:
        """All time: no fact is outside it (a question about when a statement holds reads every interval)."""
        return Window(datetime.min.replace(tzinfo=timezone.utc), datetime.max.replace(tzinfo=timezone.utc), "any time")

    @staticmethod
    def parse(text: str) -> Window:
        """`2010` (the year), `2010-05` (the month), `2010-05-03` (the day), an ISO date-time (that instant) or `now`.

        Raises:
            InvalidTime: the text is none of those.
        """
        text = text.strip()
        if text.casefold() in ("now", "today", "сейчас"):
            return Window.now()
        start, end = _period(text)
        return Window(start, end, text)

    @property
    def is_instant(self) -> bool:
        """One instant rather than a period."""
        return self.end - self.start <= timedelta(microseconds=1)


def _period(text: str) -> tuple[datetime, datetime]:
    """The period a written time covers, as [start, end)."""
    if m := _YEAR.match(text):
        y = int(m.group(1))
        return _utc_date(y, 1, 1), _utc_date(y + 1, 1, 1)
    if m := _MONTH.match(text):
        y, mo = int(m.group(1)), int(m.group(2))
        _check_date(text, y, mo, 1)
        return _utc_date(y, mo, 1), _utc_date(y + mo // 12, mo % 12 + 1, 1)
    if m := _DAY.match(text):
        y, mo, d = int(m.group(1)), int(m.group(2)), int(m.group(3))
        _check_date(text, y, mo, d)
        start = _utc_date(y, mo, d)
        return start, start + timedelta(days=1)
    try:
        instant = datetime.fromisoformat(text.replace("Z", "+00:00").replace("z", "+00:00"))
    except ValueError:
        raise InvalidTime(
            f"{text[:60]!r} is not a date or date-time (use YYYY, YYYY-MM, YYYY-MM-DD or an ISO date-time "
            "such as 2010-05-03T12:00:00Z)"
        ) from None
    instant = utc(instant)
    return instant, instant + timedelta(microseconds=1)


def _check_date(text: str, y: int, mo: int, d: int) -> None:
    try:
        date(y, mo, d)
    except ValueError:
        raise InvalidTime(f"{text!r} is not a calendar date") from None


def _utc_date(y: int, mo: int, d: int) -> datetime:
    return datetime(y, mo, d, tzinfo=timezone.utc)


def utc(stamp: datetime) -> datetime:
    """An aware UTC datetime (a naive one is taken as UTC: Kùzu's TIMESTAMP has no zone)."""
    return stamp.replace(tzinfo=timezone.utc) if stamp.tzinfo is None else stamp.astimezone(timezone.utc)


def parse_from(text: str) -> datetime:
    """A `valid_from`: the first instant of the written date, month or year (or the date-time itself).

    Raises:
        InvalidTime: not a date or date-time.
    """
    return _period(text.strip())[0]


def parse_to(text: str) -> datetime:
    """A `valid_to`, stored exclusive: the instant after the written date, month or year (a date-time: itself).

    Raises:
        InvalidTime: not a date or date-time.
    """
    start, end = _period(text.strip())
    return start if end - start <= timedelta(microseconds=1) else end


def _midnight(stamp: datetime) -> bool:
    return stamp.hour == stamp.minute == stamp.second == stamp.microsecond == 0


def render_from(stamp: datetime) -> str:
    """A `valid_from` as people write it: a date at midnight UTC, else the ISO date-time."""
    stamp = utc(stamp)
    return stamp.date().isoformat() if _midnight(stamp) else stamp.isoformat().replace("+00:00", "Z")


def render_to(stamp: datetime) -> str:
    """A stored (exclusive) `valid_to` as people write it: at midnight UTC, the last day it held."""
    stamp = utc(stamp)
    if _midnight(stamp):
        return (stamp - timedelta(days=1)).date().isoformat()
    return stamp.isoformat().replace("+00:00", "Z")


def interval_key(valid_from: datetime | None, valid_to: datetime | None) -> str:
    """How an interval enters a fact id ("" without one, so facts without intervals keep their ids)."""
    if valid_from is None and valid_to is None:
        return ""
    start = utc(valid_from).isoformat() if valid_from is not None else ""
    end = utc(valid_to).isoformat() if valid_to is not None else ""
    return f"{start}/{end}"


def holds(valid_from: datetime | None, valid_to: datetime | None, window: Window) -> bool:
    """The interval overlaps the window (open ends reach forever)."""
    if valid_from is not None and utc(valid_from) >= window.end:
        return False
    return valid_to is None or utc(valid_to) > window.start


def overlap(a: tuple[datetime | None, datetime | None], b: tuple[datetime | None, datetime | None]) -> bool:
    """Two intervals share time (more than a date-only hand-over day; see HANDOVER)."""
    lo = max((utc(x) for x in (a[0], b[0]) if x is not None), default=None)
    hi = min((utc(x) for x in (a[1], b[1]) if x is not None), default=None)
    if lo is None or hi is None:  # an open end on each side meets the other interval
        return True
    if hi <= lo:
        return False
    return not (hi - lo <= HANDOVER and _midnight(lo) and _midnight(hi))


def handover(first: tuple[datetime | None, datetime | None], then: tuple[datetime | None, datetime | None]) -> bool:
    """`then` starts on the last day `first` holds (date-only ends, an overlap of at most HANDOVER)."""
    end, start = first[1], then[0]
    if end is None or start is None or not (utc(start) < utc(end) <= utc(start) + HANDOVER):
        return False
    later = then[1] is None or utc(then[1]) > utc(end)
    return later and _midnight(utc(end)) and _midnight(utc(start))


def describe(valid_from: datetime | None, valid_to: datetime | None) -> str:
    """The interval in words-free notation: `2019-01-01..2023-12-31`, `2023-02-01..`, `..2005-12-31` ("" if none)."""
    if valid_from is None and valid_to is None:
        return ""
    start = render_from(valid_from) if valid_from is not None else ""
    end = render_to(valid_to) if valid_to is not None else ""
    return f"{start}..{end}"
