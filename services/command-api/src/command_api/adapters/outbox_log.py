"""The outbox table as the maintenance jobs and the ops shell see it: published rows to purge, the
aggregates still in flight, the backlog. Each call is a short transaction of its own on the
engine (techai_shared.db.outbox.queries); the events themselves are added through the unit of work.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.db.outbox import (
    in_flight_aggregates,
    outbox_backlog,
    purge_published,
)


class SqlOutboxLog:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def purge_published(self, published_before: datetime, limit: int) -> int:
        return await purge_published(self._engine, published_before, limit)

    async def backlog(self) -> tuple[int, float]:
        return await outbox_backlog(self._engine)

    async def in_flight(self, aggregate_type: str, published_since: datetime) -> set[str]:
        return await in_flight_aggregates(self._engine, aggregate_type, published_since)
