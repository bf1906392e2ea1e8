"""Wall-clock access behind one function so tests and jobs can inject time."""

from __future__ import annotations

from collections.abc import Callable
from datetime import UTC, datetime

Clock = Callable[[], datetime]


def utcnow() -> datetime:
    """The current time, timezone-aware UTC, truncated to microseconds like the stores keep it."""
    return datetime.now(UTC)


def iso(value: datetime) -> str:
    """ISO 8601 with an explicit UTC offset; naive values are taken as UTC."""
    if value.tzinfo is None:
        value = value.replace(tzinfo=UTC)
    return value.astimezone(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")
