"""A contest's status is a function of its dates and the clock, not a value frozen when it was
written (docs/decisions/0025-contest-status-from-dates.md).

UPCOMING before its start, ONGOING from its start to its end (both included), ENDED after its end.
A contest missing a date keeps what can still be told: one without an end that has started is
ONGOING, one without a start that has not ended keeps the status it was given (ONGOING if that
says ENDED), and one with neither keeps the given status.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from techai_shared.events.catalog import ContestStatus

ACTIVE = (ContestStatus.UPCOMING.value, ContestStatus.ONGOING.value)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def contest_status(start: datetime | None, end: datetime | None, now: datetime,
                   given: str | None = None) -> ContestStatus:
    """The status of a contest running from `start` to `end`, as of `now` (naive values: UTC)."""
    now = _aware(now)
    if end is not None and now > _aware(end):
        return ContestStatus.ENDED
    if start is not None:
        return ContestStatus.UPCOMING if now < _aware(start) else ContestStatus.ONGOING
    if given in ACTIVE:
        return ContestStatus(given)
    return ContestStatus.ONGOING if end is not None or given is None else ContestStatus(given)


def document_status(doc: dict[str, Any], now: datetime) -> str:
    """The status of a contest's read-model document (snake_case dates) as of `now`."""
    return contest_status(doc.get("start_date"), doc.get("end_date"), now, doc.get("status")).value
