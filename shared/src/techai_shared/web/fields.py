"""Request field types validated exactly as their JSON Schema reads, where pydantic's parsing would
accept more (lax) or less (strict): an integer may be written 7.0; a date is `YYYY-MM-DD` (not `0`,
a Unix time); a date-time is RFC 3339 with an offset (not `1700000000`, nor a naive
`2026-12-01T09:00:00`, which the command store cannot place in UTC)."""

from __future__ import annotations

import re
from datetime import date, datetime
from typing import Annotated, Any

from pydantic import BeforeValidator, TypeAdapter, WithJsonSchema

_DATE = re.compile(r"[0-9]{4}-[0-9]{2}-[0-9]{2}")
# RFC 3339 section 5.6 date-time; years 1900-2999, so that every offset keeps the instant in the
# range of the stores (and of Python's datetime) once converted to UTC.
DATE_TIME_PATTERN = r"^(19|2[0-9])[0-9]{2}-"
_DATE_TIME = re.compile(
    r"(19|2[0-9])[0-9]{2}-[0-9]{2}-[0-9]{2}[Tt][0-9]{2}:[0-9]{2}:[0-9]{2}(\.[0-9]+)?"
    r"([Zz]|[+-][0-9]{2}:[0-9]{2})"
)
_PARSE_DATE_TIME: TypeAdapter[datetime] = TypeAdapter(datetime)


def _iso_date(value: Any) -> Any:
    if isinstance(value, str) and not _DATE.fullmatch(value):
        raise ValueError("must be a date, YYYY-MM-DD")
    return value


def _rfc3339(value: Any) -> Any:
    if isinstance(value, datetime) and value.tzinfo is not None:  # built in Python, not sent
        return value
    if not isinstance(value, str):
        raise ValueError("must be a date-time string")
    if not _DATE_TIME.fullmatch(value):
        raise ValueError("must be an RFC 3339 date-time with an offset, years 1900-2999, "
                         "e.g. 2026-12-01T09:00:00+09:00")
    return _PARSE_DATE_TIME.validate_python(value)


def _integral(value: Any) -> Any:
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


JsonInt = Annotated[int, BeforeValidator(_integral)]
"""An integer as JSON Schema reads one in a strict body: 7 or 7.0, never "7" or true."""

IsoDate = Annotated[date, BeforeValidator(_iso_date)]
"""A calendar day, `YYYY-MM-DD` (JSON Schema: string, format date)."""

Rfc3339DateTime = Annotated[
    datetime,
    BeforeValidator(_rfc3339),
    WithJsonSchema({"type": "string", "format": "date-time", "pattern": DATE_TIME_PATTERN,
                    "description": "RFC 3339 date-time with an offset (Z or ±hh:mm), years 1900-2999"}),
]
"""An instant, `2026-12-01T09:00:00+09:00` (JSON Schema: string, format date-time, the year range
as a pattern)."""
