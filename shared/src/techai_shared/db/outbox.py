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
import fcntl
import logging
from collections.abc import Sequence
from datetime import datetime
from typing import IO, Any

from aiokafka import AIOKafkaProducer
from prometheus_client import Counter, Gauge
from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope
from techai_shared.kafka import ensure_topics, make_producer
from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)

PUBLISHED = Counter("outbox_events_published_total", "Outbox events published to Kafka")
PUBLISH_FAILURES = Counter("outbox_publish_failures_total", "Failed outbox publish attempts")
BACKLOG = Gauge("outbox_backlog", "Unpublished outbox rows")
OLDEST_AGE = Gauge("outbox_oldest_unpublished_age_seconds", "Age of the oldest unpublished row")
IS_LEADER = Gauge("outbox_relay_leader", "1 while this process holds the relay lock")

LOCK_PREFIX = "techai_outbox_relay"
BACKLOG_REFRESH_SECONDS = 5.0


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


async def write_events(engine: AsyncEngine, events: Sequence[EventEnvelope]) -> None:
    """Insert events into the outbox in a transaction of their own (republished snapshots)."""
    if events:
        async with engine.begin() as conn:
            await add_events(conn, events)


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


async def changed_aggregates(engine: AsyncEngine, aggregate_type: str, since: datetime,
                             until: datetime, after: str, limit: int) -> list[str]:
    """Ids of the aggregates with an outbox row created in [since, until), above `after`, in order."""
    async with engine.connect() as conn:
        ids: Sequence[Any] = (await conn.execute(
            select(outbox_events.c.aggregate_id).distinct()
            .where(outbox_events.c.aggregate_type == aggregate_type,
                   outbox_events.c.created_at >= since, outbox_events.c.created_at < until,
                   outbox_events.c.aggregate_id > after)
            .order_by(outbox_events.c.aggregate_id).limit(limit)
        )).scalars().all()
        await conn.commit()
    return list(ids)


class _LeaderLock:
    """Leader election for the relays of one command store.

    MySQL/MariaDB: a named lock (GET_LOCK) held on a dedicated connection and re-verified before each
    batch; it is released by the server if the process or its connection dies. SQLite: an exclusive
    flock on a file beside the database, released by the kernel when the process dies.
    """

    def __init__(self, engine: AsyncEngine, name: str) -> None:
        self._engine = engine
        self._name = name
        self._conn: AsyncConnection | None = None
        self._file: IO[bytes] | None = None
        self._sqlite = engine.dialect.name == "sqlite"

    async def hold(self) -> bool:
        if self._sqlite:
            return self._hold_file()
        try:
            if self._conn is not None:
                row = await self._conn.execute(
                    text("SELECT IS_USED_LOCK(:n) = CONNECTION_ID()"), {"n": self._name}
                )
                if row.scalar():
                    return True
                await self.release()
            self._conn = await self._engine.connect()
            got = (
                await self._conn.execute(text("SELECT GET_LOCK(:n, 0)"), {"n": self._name})
            ).scalar()
            await self._conn.commit()  # end the implicit transaction; the lock is per session
            if got == 1:
                logger.info("outbox relay: this process is now the publisher")
                return True
            await self.release()
            return False
        except Exception:
            logger.warning("outbox relay: lock check failed", exc_info=True)
            await self.release()
            return False

    def _hold_file(self) -> bool:
        if self._file is not None:
            return True
        database = self._engine.url.database
        if not database or database == ":memory:":
            return True  # a private in-memory database has exactly one writer
        handle = open(f"{database}.relay.lock", "ab")  # noqa: SIM115 - held while leader
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._file = handle
        logger.info("outbox relay: this process is now the publisher")
        return True

    async def release(self) -> None:
        if self._file is not None:
            handle, self._file = self._file, None
            handle.close()  # closing the descriptor drops the flock
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                await conn.execute(text("SELECT RELEASE_LOCK(:n)"), {"n": self._name})
            except Exception:  # the connection may already be gone, and the lock with it
                logger.debug("outbox relay: release failed", exc_info=True)
            try:
                await conn.close()
            except Exception:
                logger.debug("outbox relay: close failed", exc_info=True)


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
        self._lock = _LeaderLock(engine, f"{LOCK_PREFIX}:{engine.url.database}"[:64])
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
