"""Transactional outbox: events are inserted with the domain rows, and a relay publishes them.

Only one relay publishes at a time (MySQL GET_LOCK on a dedicated connection; on SQLite an OS file
lock beside the database), in outbox id order, so the events of one aggregate
reach Kafka in the order their transactions committed (the session row lock serialises them).
A row is marked published only after Kafka acknowledged it; a crash in between re-publishes it,
which consumers tolerate (versions and unique ids make the projection idempotent).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aiokafka import AIOKafkaProducer
from prometheus_client import Counter, Gauge
from sqlalchemy import select, update
from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.db.outbox.leader import LeaderLock
from techai_shared.db.outbox.queries import outbox_backlog
from techai_shared.db.schema import outbox_events
from techai_shared.kafka import ensure_topics, make_producer
from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)

PUBLISHED = Counter("outbox_events_published_total", "Outbox events published to Kafka")
PUBLISH_FAILURES = Counter("outbox_publish_failures_total", "Failed outbox publish attempts")
IS_LEADER = Gauge("outbox_relay_leader", "1 while this process holds the relay lock")

LOCK_PREFIX = "techai_outbox_relay"
BACKLOG_REFRESH_SECONDS = 5.0


class OutboxRelay:
    """Publishes unpublished outbox rows to Kafka; run one per writing process."""

    def __init__(
        self,
        engine: AsyncEngine,
        settings: CommonSettings,
        producer: AIOKafkaProducer | None = None,
        max_backoff: float = 5.0,
    ) -> None:
        self._engine = engine
        self._settings = settings
        self._producer = producer
        self._own_producer = producer is None
        # GET_LOCK names are server-wide: scope them to the database so relays of two databases
        # on one server do not block each other.
        self._lock = LeaderLock(engine, f"{LOCK_PREFIX}:{engine.url.database}"[:64])
        self._wakeup = asyncio.Event()
        self._max_backoff = max_backoff
        self._stopping = False
        self._task: asyncio.Task[None] | None = None
        self._backlog_due = 0.0

    def wake(self) -> None:
        """Tell the relay that new rows were committed, so it need not wait for the next poll."""
        self._wakeup.set()

    def start(self) -> None:
        self._task = asyncio.create_task(self.run(), name="outbox-relay")

    async def stop(self) -> None:
        self._stopping = True
        self._wakeup.set()
        if self._task is not None:
            await asyncio.wait([self._task], timeout=10)
            if not self._task.done():
                self._task.cancel()
        await self._lock.release()
        IS_LEADER.set(0)
        await self._close_producer()

    async def run(self) -> None:
        backoff = 0.2
        while not self._stopping:
            try:
                leader = await self._lock.hold()
                IS_LEADER.set(1 if leader else 0)
                await self._refresh_backlog()
                published = await self.publish_pending() if leader else 0
                backoff = 0.2
                if published >= self._settings.outbox_batch_size:
                    continue  # a full batch: drain the backlog before sleeping
            except Exception as exc:
                PUBLISH_FAILURES.inc()
                logger.warning("outbox relay: publish failed (%s: %s); retrying in %.1fs",
                               type(exc).__name__, exc, backoff)
                await self._close_producer()
                await asyncio.sleep(backoff)
                backoff = min(backoff * 2, self._max_backoff)
                continue
            await self._sleep()

    async def _refresh_backlog(self) -> None:
        """Now and then, the backlog gauges (every relay reports the same, global, figures)."""
        now = asyncio.get_running_loop().time()
        if now < self._backlog_due:
            return
        self._backlog_due = now + BACKLOG_REFRESH_SECONDS
        try:
            await outbox_backlog(self._engine)
        except Exception:  # a metric must never stop the relay; the publish path reports outages
            logger.debug("outbox relay: backlog query failed", exc_info=True)

    async def _sleep(self) -> None:
        """Until a commit wakes the relay (then a short linger gathers that moment's other commits)
        or the poll interval passes. A commit during the last batch has already set the event."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(
                self._wakeup.wait(), timeout=self._settings.outbox_poll_interval_seconds
            )
            if self._settings.outbox_linger_seconds and not self._stopping:
                await asyncio.sleep(self._settings.outbox_linger_seconds)
        self._wakeup.clear()

    async def publish_pending(self) -> int:
        """Publish one batch in id order; returns how many rows were marked published."""
        rows = await self._fetch_batch()
        if not rows:
            return 0
        producer = await self._ensure_producer()
        futures = [
            await producer.send(
                self._settings.topic(row.aggregate_type),
                value=row.body.encode(),
                key=row.aggregate_id.encode(),
                headers=[
                    ("event_id", row.event_id.encode()),
                    ("event_type", row.event_type.encode()),
                ],
            )
            for row in rows
        ]
        done_ids: list[int] = []
        error: BaseException | None = None
        for row, fut in zip(rows, futures, strict=True):
            try:
                await fut
            except Exception as exc:
                error = exc
                break  # keep order: mark only the acknowledged prefix
            done_ids.append(row.id)
        if error is not None:
            # Retrieve the outcome of the sends after the failure so none is left unobserved.
            await asyncio.gather(*futures[len(done_ids) + 1:], return_exceptions=True)
        await self._mark_published(done_ids)
        if error is not None:
            await self._record_failure(rows[len(done_ids)].id, error)
            raise error
        return len(done_ids)

    async def _fetch_batch(self) -> list[Any]:
        async with self._engine.connect() as conn:
            result = await conn.execute(
                select(
                    outbox_events.c.id,
                    outbox_events.c.event_id,
                    outbox_events.c.aggregate_type,
                    outbox_events.c.aggregate_id,
                    outbox_events.c.event_type,
                    outbox_events.c.body,
                )
                .where(outbox_events.c.published_at.is_(None))
                .order_by(outbox_events.c.id)
                .limit(self._settings.outbox_batch_size)
            )
            rows = list(result)
            await conn.commit()
        return rows

    async def _mark_published(self, ids: list[int]) -> None:
        if not ids:
            return
        async with self._engine.begin() as conn:
            await conn.execute(
                update(outbox_events)
                .where(outbox_events.c.id.in_(ids))
                .values(published_at=utcnow(), attempts=outbox_events.c.attempts + 1)
            )
        PUBLISHED.inc(len(ids))

    async def _record_failure(self, row_id: int, error: BaseException) -> None:
        try:
            async with self._engine.begin() as conn:
                await conn.execute(
                    update(outbox_events)
                    .where(outbox_events.c.id == row_id)
                    .values(
                        attempts=outbox_events.c.attempts + 1,
                        last_error=f"{type(error).__name__}: {error}"[:500],
                    )
                )
        except Exception:
            logger.debug("outbox relay: could not record failure", exc_info=True)

    async def _ensure_producer(self) -> AIOKafkaProducer:
        if self._producer is None:
            # Tansu with memory storage forgets topics when it restarts: create them on (re)connect.
            await ensure_topics(self._settings)
            producer = make_producer(self._settings)
            await producer.start()
            self._producer = producer
        return self._producer

    async def _close_producer(self) -> None:
        if self._producer is not None and self._own_producer:
            producer, self._producer = self._producer, None
            try:
                await asyncio.wait_for(producer.stop(), timeout=5)
            except Exception:
                logger.debug("outbox relay: producer stop failed", exc_info=True)
