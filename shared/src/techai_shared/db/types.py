"""Column types that behave the same on MySQL/MariaDB and SQLite."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from sqlalchemy import BigInteger, DateTime, Integer, Text
from sqlalchemy.dialects import mysql
from sqlalchemy.types import TypeDecorator


class UtcDateTime(TypeDecorator[datetime]):
    """Stores naive UTC with microseconds; always returns timezone-aware UTC."""

    impl = DateTime
    cache_ok = True

    def load_dialect_impl(self, dialect: Any) -> Any:
        if dialect.name in ("mysql", "mariadb"):
            return dialect.type_descriptor(mysql.DATETIME(fsp=6))
        return dialect.type_descriptor(DateTime())

    def process_bind_param(self, value: datetime | None, dialect: Any) -> datetime | None:
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime given to UtcDateTime")
        return value.astimezone(UTC).replace(tzinfo=None)

    def process_result_value(self, value: datetime | None, dialect: Any) -> datetime | None:
        return None if value is None else value.replace(tzinfo=UTC)


# SQLite only auto-increments INTEGER PRIMARY KEY; MySQL gets a BIGINT.
AutoIncrementId = BigInteger().with_variant(Integer(), "sqlite")

# TEXT is 64 KiB on MySQL; news bodies may be longer (MEDIUMTEXT: 16 MiB). SQLite's TEXT has no limit.
LongText = Text().with_variant(mysql.MEDIUMTEXT(), "mysql", "mariadb")
