"""The write-to-read path the operations tests drive: command store (MariaDB) -> outbox relay ->
Tansu -> query-sync worker -> SecantusDB, with the jobs wired on an injectable clock."""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, TypeVar

from pymongo.asynchronous.database import AsyncDatabase
from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.adapters.unit_of_work import SqlCommandUnitOfWork
from command_api.bootstrap import Operations, operations, unit_of_work
from command_api.service_layer.ports import JobRepository, UnitOfWorkFactory
from command_api.settings import CommandSettings
from query_sync.bootstrap import SyncWorker, bootstrap
from query_sync.settings import SyncSettings
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage, SessionState
from techai_shared.db.engine import make_engine
from techai_shared.db.outbox import OutboxRelay, outbox_backlog
from techai_shared.kafka import ensure_topics
from techai_shared.mongo import make_mongo_client
from techai_shared.settings import CommonSettings
from tests.conftest import unique
from tests.support.catalog import CountingEmbedder
from tests.support.conversations import Conversations, Written

T = TypeVar("T")


class FakeClock:
    """The jobs' clock, moved by the test."""

    def __init__(self, now: datetime) -> None:
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def set(self, moment: datetime) -> None:
        self.now = moment


def command_settings(settings: CommonSettings, **changes: Any) -> CommandSettings:
    return CommandSettings(**{**settings.model_dump(), **changes})


async def with_jobs(engine: AsyncEngine, use: Callable[[JobRepository], Awaitable[T]]) -> T:
    """One step on the job claims and leases, committed, as another worker would take it."""
    async with SqlCommandUnitOfWork(engine) as uow:
        result = await use(uow.jobs)
        await uow.commit()
    return result


@dataclass
class Pipeline:
    settings: CommandSettings
    engine: AsyncEngine
    relay: OutboxRelay
    worker: SyncWorker
    clock: FakeClock
    ops: Operations
    store: Conversations
    uow: UnitOfWorkFactory  # command-api's, waking the relay: the catalog's use cases write through it
    db: AsyncDatabase[dict[str, Any]]

    async def exchange(self, user: str, session_id: str | None, text: str,
                       at: datetime) -> Written:
        return await self.store.append_exchange(
            user, session_id, NewMessage("user", text, 3), NewMessage("assistant", f"re: {text}", 5),
            at,
        )

    async def session_row(self, session_id: str) -> SessionState:
        """The session as the command store holds it now, deleted or not."""
        async with self.uow() as uow:
            (state,) = await uow.sessions.by_ids([session_id])
        return state

    async def session_doc(self, session_id: str) -> dict[str, Any] | None:
        return await self.db["conversation_sessions"].find_one({"session_id": session_id})

    async def message_count(self, session_id: str) -> int:
        return await self.db["conversation_messages"].count_documents({"session_id": session_id})

    async def drained(self) -> bool:
        backlog, _ = await outbox_backlog(self.engine)
        return backlog == 0


@asynccontextmanager
async def pipeline(settings: CommonSettings, **changes: Any) -> AsyncIterator[Pipeline]:
    cmd = command_settings(settings, **changes)
    sync = SyncSettings(**{**settings.model_dump(), "sync_port": 0,
                           "sync_consumer_group": unique("ops-sync-")})
    await ensure_topics(cmd)
    engine = make_engine(cmd)
    relay = OutboxRelay(engine, cmd)
    relay.start()
    worker = bootstrap(sync, embedder=CountingEmbedder())
    await worker.start()
    clock = FakeClock(utcnow())
    ops = operations(cmd, engine, relay, clock=clock)
    mongo = make_mongo_client(cmd)
    try:
        yield Pipeline(cmd, engine, relay, worker, clock, ops, Conversations(engine, relay),
                       unit_of_work(engine, relay, clock), mongo[cmd.mongodb_database])
    finally:
        await mongo.close()
        await ops.close()
        await worker.stop()
        await relay.stop()
        await engine.dispose()


def minutes(n: float) -> timedelta:
    return timedelta(minutes=n)
