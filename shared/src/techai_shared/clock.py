"""Wall-clock access behind one function so tests and jobs can inject time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, date, datetime, time, timedelta
from zoneinfo import ZoneInfo

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    """The current time, timezone-aware UTC, truncated to microseconds like the stores keep it."""
    return datetime.now(UTC)


def iso(value: datetime) -> str:
    """ISO 8601 with an explicit UTC offset; naive values are taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


SEOUL = ZoneInfo("Asia/Seoul")


def running_from(moment: datetime) -> Clock:
    """A clock that reads `moment` now and runs on from it: a whole system run "as of" another
    day (tests and evaluations of a catalog written for that day), its times still in order."""
    offset = moment - utcnow()
    return lambda: utcnow() + offset


def day_window(first: date | None, last: date | None, tz: ZoneInfo = SEOUL
               ) -> tuple[datetime | None, datetime | None]:
    """[start of `first`, start of the day after `last`) in `tz` (the portal's days are Seoul's);
    an absent end is open."""
    start = datetime.combine(first, time(), tz) if first else None
    end = datetime.combine(last + timedelta(days=1), time(), tz) if last else None
    return start, end
