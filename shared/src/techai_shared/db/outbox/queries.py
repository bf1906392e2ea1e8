"""The outbox table's statements: events added in the writer's transaction, and the queries of
the relay's metrics and of the maintenance jobs (purge, aggregates in flight)."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from prometheus_client import Gauge
from sqlalchemy import delete, func, insert, or_, select
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope

BACKLOG = Gauge("outbox_backlog", "Unpublished outbox rows")
OLDEST_AGE = Gauge("outbox_oldest_unpublished_age_seconds", "Age of the oldest unpublished row")


async def add_events(conn: AsyncConnection, events: Sequence[EventEnvelope]) -> None:
    """Insert events into the outbox inside the caller's transaction."""
    if not events:
        return
    now = utcnow()
    await conn.execute(
        insert(outbox_events),
        [
            {
                "event_id": e.event_id,
                "aggregate_type": e.aggregate_type.value,
                "aggregate_id": e.aggregate_id,
                "event_type": e.event_type.value,
                "version": e.version,
                "body": e.to_json(),
                "created_at": now,
            }
            for e in events
        ],
    )


async def purge_published(engine: AsyncEngine, published_before: datetime, limit: int) -> int:
    """Delete up to `limit` rows published before the cutoff, oldest first; returns how many.

    Selecting the ids first keeps it portable (SQLite has no DELETE ... LIMIT) and the delete
    repeats the condition, so a row is only ever removed once it is published and old enough.
    """
    async with engine.begin() as conn:
        ids: Sequence[Any] = (await conn.execute(
            select(outbox_events.c.id)
            .where(outbox_events.c.published_at.is_not(None),
                   outbox_events.c.published_at < published_before)
            .order_by(outbox_events.c.id).limit(limit)
        )).scalars().all()
        if not ids:
            return 0
        deleted = await conn.execute(
            delete(outbox_events).where(outbox_events.c.id.in_(list(ids)),
                                        outbox_events.c.published_at < published_before)
        )
    return int(deleted.rowcount)


async def in_flight_aggregates(engine: AsyncEngine, aggregate_type: str,
                               published_since: datetime) -> set[str]:
    """Ids of the aggregates of this type with a row unpublished or published since the cutoff.

    Both conditions are ranges of the (published_at, id) index, so the cost is the size of the
    answer (recent rows), not of the outbox.
    """
    published = outbox_events.c.published_at
    async with engine.connect() as conn:
        ids: Sequence[Any] = (await conn.execute(
            select(outbox_events.c.aggregate_id).distinct()
            .where(outbox_events.c.aggregate_type == aggregate_type,
                   or_(published.is_(None), published >= published_since))
        )).scalars().all()
        await conn.commit()
    return set(ids)


async def outbox_backlog(engine: AsyncEngine) -> tuple[int, float]:
    """Unpublished row count and the age in seconds of the oldest one (for metrics and ops)."""
    async with engine.connect() as conn:
        row = (
            await conn.execute(
                select(func.count(), func.min(outbox_events.c.created_at)).where(
                    outbox_events.c.published_at.is_(None)
                )
            )
        ).one()
        await conn.commit()
    count, oldest = row
    age = (utcnow() - oldest).total_seconds() if oldest is not None else 0.0
    BACKLOG.set(count)
    OLDEST_AGE.set(age)
    return int(count), age
