"""Async engine factory for MySQL/MariaDB (asyncmy) and SQLite (aiosqlite), and the gate that
hands a MySQL engine's pooled connections to units of work in the order they asked."""

from __future__ import annotations

import asyncio
import time
import weakref
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, event, exc, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from techai_shared.settings import CommonSettings


def make_engine(settings: CommonSettings) -> AsyncEngine:
    """The command store's engine; SQLite gets WAL and BEGIN IMMEDIATE so writers serialise."""
    url = make_url(settings.mysql_url)
    if url.get_backend_name() == "sqlite":
        return _sqlite_engine(settings.mysql_url)
    if "charset" not in url.query:
        url = url.update_query_dict({"charset": "utf8mb4"})
    engine = create_async_engine(
        url,
        pool_size=settings.mysql_pool_size,
        # as many again, and room for the checkouts the gate below does not count: the outbox
        # relay's reads and writes, its leader's lock, the backlog gauge and the readiness probe
        max_overflow=settings.mysql_pool_size + OUTSIDE_THE_GATE,
        pool_pre_ping=settings.mysql_ping_after_idle_seconds == 0,
        pool_recycle=1800,
        pool_timeout=settings.mysql_pool_timeout_seconds,
    )
    if settings.mysql_ping_after_idle_seconds > 0:
        _ping_when_idle(engine, settings.mysql_ping_after_idle_seconds)
    _GATES[engine.sync_engine] = CheckoutGate(2 * settings.mysql_pool_size,
                                              settings.mysql_pool_timeout_seconds)
    return engine


OUTSIDE_THE_GATE = 4  # connections a process holds besides its units of work (see make_engine)


class CheckoutGate:
    """At most twice MYSQL_POOL_SIZE units of work hold a connection, and the others get one in
    the order they asked, each waiting at most the pool timeout. The pool holds OUTSIDE_THE_GATE
    connections more than the gate admits, for the outbox relay and the probes, so a unit of work
    the gate let through finds a connection free.

    SQLAlchemy's asyncio pool is not first come, first served: its queue hands a connection that
    was just given back to whoever asks next, before the waiter it woke has run, and a waiter
    that lost that race queues again at the back. On a busy event loop (two hundred chat turns
    at once on two cores) such a race is lost often enough that two requests in a thousand
    wait past the pool timeout while the median wait is under a millisecond. Behind this gate the
    pool never has a queue: the waiting happens here, in arrival order. Past the timeout the
    caller gets the pool's own `sqlalchemy.exc.TimeoutError` (503 at the edge), so both waits end
    the same way.
    """

    def __init__(self, capacity: int, timeout_seconds: float) -> None:
        self._slots = asyncio.Semaphore(capacity)  # asyncio's semaphore wakes waiters in order
        self._timeout = timeout_seconds

    async def acquire(self) -> None:
        try:
            async with asyncio.timeout(self._timeout):
                await self._slots.acquire()
        except TimeoutError:
            raise exc.TimeoutError(
                f"no command-store connection within {self._timeout:g} s: every pooled connection "
                "stayed busy") from None

    def release(self) -> None:
        self._slots.release()


_GATES: weakref.WeakKeyDictionary[Engine, CheckoutGate] = weakref.WeakKeyDictionary()


def checkout_gate(engine: AsyncEngine) -> CheckoutGate | None:
    """The gate of an engine make_engine built for MySQL; None for SQLite and other engines."""
    return _GATES.get(engine.sync_engine)


def _ping_when_idle(engine: AsyncEngine, idle_seconds: float) -> None:
    """pool_pre_ping, but only for a connection that sat in the pool for `idle_seconds` or more.

    A connection handed back moments ago is alive; pinging it costs a round trip on every checkout
    (two per chat request). One that idled may have been closed by the server or a proxy, so it is
    pinged and, if dead, replaced before anyone uses it. A connection that dies while busy still
    fails its statement, and SQLAlchemy then invalidates the pool, as with pool_pre_ping.
    """
    dialect = engine.sync_engine.dialect

    @event.listens_for(engine.sync_engine.pool, "checkin")
    def _checked_in(dbapi_connection: Any, record: Any) -> None:
        record.info["checked_in_at"] = time.monotonic()

    @event.listens_for(engine.sync_engine.pool, "checkout")
    def _checked_out(dbapi_connection: Any, record: Any, proxy: Any) -> None:
        since = record.info.get("checked_in_at")
        if since is None or time.monotonic() - since < idle_seconds:
            return  # new, or back in the pool only moments ago
        try:
            alive = dialect.do_ping(dbapi_connection)
        except Exception:
            alive = False
        if not alive:
            raise exc.DisconnectionError("pooled connection failed its ping")


def _sqlite_engine(url: str) -> AsyncEngine:
    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).parent.mkdir(parents=True, exist_ok=True)
    engine = create_async_engine(url, connect_args={"timeout": 30})

    @event.listens_for(engine.sync_engine, "connect")
    def _on_connect(dbapi_connection: Any, _: Any) -> None:
        # Hand transaction control to the "begin" hook below (pysqlite's own BEGIN is deferred,
        # which lets two writers read the same row and then fail on upgrade to a write lock).
        dbapi_connection.isolation_level = None
        cursor = dbapi_connection.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute("PRAGMA busy_timeout=30000")
        cursor.execute("PRAGMA foreign_keys=ON")
        cursor.execute("PRAGMA synchronous=NORMAL")
        cursor.close()

    @event.listens_for(engine.sync_engine, "begin")
    def _on_begin(conn: Any) -> None:
        conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


async def check_database(engine: AsyncEngine) -> None:
    """Readiness probe: one round trip."""
    async with engine.connect() as conn:
        await conn.execute(text("SELECT 1"))
