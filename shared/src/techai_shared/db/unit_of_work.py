"""The unit of work: one connection and one transaction on the command store, the repositories a
use case writes through, and the outbox beside them.

    async with uow_factory() as uow:
        session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
        session.rename(user_id, title, now)
        await uow.sessions.save(session)
        await uow.commit()

Nothing is written unless `commit()` is called: leaving the block without it rolls back. After a
commit that added events, the outbox relay is woken so it publishes them at once rather than at
its next poll. Each service subclasses `UnitOfWork` to bind the repositories its use cases need.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from types import TracebackType
from typing import Protocol, Self

from prometheus_client import Histogram
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.db.engine import CheckoutGate, checkout_gate
from techai_shared.db.outbox import add_events
from techai_shared.events import EventEnvelope

_SECONDS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60)
STORE_WAIT = Histogram("command_store_wait_seconds",
                       "Time a unit of work waited for a command-store connection", buckets=_SECONDS)
STORE_HOLD = Histogram("command_store_hold_seconds",
                       "Time a unit of work held its command-store connection", buckets=_SECONDS)


class Wakeable(Protocol):
    def wake(self) -> None: ...


class Outbox:
    """Events added in the unit of work's transaction."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn
        self.added = 0

    async def add(self, events: Sequence[EventEnvelope]) -> None:
        await add_events(self._conn, events)
        self.added += len(events)


class UnitOfWork:
    """Base of each service's unit of work; `_bind` creates its repositories on the connection."""

    outbox: Outbox

    def __init__(self, engine: AsyncEngine, relay: Wakeable | None = None) -> None:
        self._engine = engine
        self._relay = relay
        self._conn: AsyncConnection | None = None
        self._held_since = 0.0
        self._gate: CheckoutGate | None = None

    async def __aenter__(self) -> Self:
        # The transaction begins with the first statement (SQLAlchemy's autobegin), and again after
        # a commit if the block goes on.
        if self._conn is not None:
            raise RuntimeError("a unit of work is entered once at a time")
        gate = checkout_gate(self._engine)
        asked = time.perf_counter()
        try:  # a wait that times out is observed too: it is the one an operator must see
            if gate is not None:
                await gate.acquire()
            try:
                conn = await self._engine.connect()
            except BaseException:
                if gate is not None:
                    gate.release()
                raise
        finally:
            self._held_since = time.perf_counter()
            STORE_WAIT.observe(self._held_since - asked)
        self._gate, self._conn = gate, conn
        try:
            self.outbox = Outbox(conn)
            self._bind(conn)
        except BaseException:
            await self.__aexit__(None, None, None)  # the connection and its slot go back
            raise
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        conn, self._conn = self._conn, None
        gate, self._gate = self._gate, None
        if conn is None:
            return
        try:
            if conn.in_transaction():
                await conn.rollback()
        finally:
            try:
                await conn.close()
            finally:
                if gate is not None:
                    gate.release()
                STORE_HOLD.observe(time.perf_counter() - self._held_since)

    def _bind(self, conn: AsyncConnection) -> None:
        """Create the repositories of this unit of work on `conn` (subclasses)."""

    async def commit(self) -> None:
        """Commit everything written so far; wakes the relay if events were added."""
        if self._conn is None:
            raise RuntimeError("commit() outside `async with`")
        await self._conn.commit()
        if self.outbox.added and self._relay is not None:
            self._relay.wake()
        self.outbox.added = 0

    async def rollback(self) -> None:
        if self._conn is not None and self._conn.in_transaction():
            await self._conn.rollback()
        self.outbox.added = 0
