"""query-sync killed with SIGKILL in the middle of a stream of 1,000 events, then restarted: MongoDB
ends identical to the command store, without duplicates and without gaps."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from devstack.servers import free_port
from pymongo import AsyncMongoClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.schema import outbox_events
from techai_shared.kafka import ensure_topics
from techai_shared.settings import CommonSettings
from tests.conftest import eventually, unique
from tests.reliability.support import MESSAGES, assert_contiguous, converged
from tests.support.conversations import Conversations

pytestmark = [pytest.mark.integration, pytest.mark.slow]

USERS, EXCHANGES = 40, 8  # one session each: 1 + 3 * 8 = 25 events, 1,000 in all
EVENTS = USERS * (1 + 3 * EXCHANGES)


@pytest.fixture
def processes() -> Iterator[list[subprocess.Popen[bytes]]]:
    procs: list[subprocess.Popen[bytes]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)


def _start_sync(settings: CommonSettings, group: str, port: int, log: Path) -> subprocess.Popen[bytes]:
    env = {**os.environ, "ENVIRONMENT": "test", "MYSQL_URL": settings.mysql_url,
           "KAFKA_BOOTSTRAP_SERVERS": settings.kafka_bootstrap_servers,
           "KAFKA_TOPIC_PREFIX": settings.kafka_topic_prefix, "MONGODB_URI": settings.mongodb_uri,
           "MONGODB_DATABASE": settings.mongodb_database, "SYNC_CONSUMER_GROUP": group,
           "SYNC_PORT": str(port), "SYNC_SESSION_TIMEOUT_MS": "3000",
           "SYNC_HEARTBEAT_INTERVAL_MS": "500", "SYNC_POLL_TIMEOUT_MS": "200",
           "SYNC_BATCH_MAX_RECORDS": "50", "LOG_LEVEL": "INFO"}
    with open(log, "ab") as handle:
        return subprocess.Popen([sys.executable, "-m", "query_sync"], env=env, stdout=handle,
                                stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)


async def _ready(port: int) -> bool:
    try:
        async with httpx.AsyncClient() as client:
            return (await client.get(f"http://127.0.0.1:{port}/readyz", timeout=2)).status_code == 200
    except httpx.HTTPError:
        return False


async def _projected_messages(settings: CommonSettings) -> int:
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(settings.mongodb_uri)
    try:
        return await client[settings.mongodb_database][MESSAGES].count_documents({})
    finally:
        await client.close()


async def test_sigkill_of_query_sync_mid_stream_then_restart_converges_exactly(
    settings: CommonSettings, engine: AsyncEngine, processes: list[subprocess.Popen[bytes]],
    tmp_path: Path,
):
    await ensure_topics(settings)
    group, port, log = unique("sync-"), free_port(), tmp_path / "query-sync.log"
    processes.append(_start_sync(settings, group, port, log))
    await eventually(lambda: _ready(port), within=60, interval=0.2)

    relay = OutboxRelay(engine, settings)
    relay.start()
    store = Conversations(engine, relay)
    users = [uuid.uuid4().hex for _ in range(USERS)]

    async def converse(user: str) -> None:
        sid = None
        for turn in range(EXCHANGES):
            exchange = await store.append_exchange(user, sid, NewMessage("user", f"{user} q{turn}", 3),
                                                   NewMessage("assistant", f"{user} a{turn}", 3), utcnow())
            sid = exchange.session.session_id
            await asyncio.sleep(0.4)  # a stream that lasts a few seconds, so the kill lands inside it

    try:
        writers = asyncio.gather(*(converse(u) for u in users))
        async def flowing() -> bool:
            return await _projected_messages(settings) >= 100

        await eventually(flowing, within=60, interval=0.05)
        processes[0].send_signal(signal.SIGKILL)
        await asyncio.to_thread(processes[0].wait, 10)
        at_kill = await _projected_messages(settings)
        assert not writers.done() and at_kill < 2 * USERS * EXCHANGES, at_kill  # mid-stream
        await writers
        await eventually(lambda: _all_published(engine), within=60)
    finally:
        await relay.stop()
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(outbox_events))).scalar_one() == EVENTS

    processes.append(_start_sync(settings, group, port, log))  # the same group: resumes from commits
    command, mongo = await eventually(
        lambda: converged(settings.mysql_url, settings.mongodb_uri, settings.mongodb_database, users),
        within=90, interval=0.5)
    assert len(command.sessions) == USERS and len(command.messages) == 2 * USERS * EXCHANGES
    assert mongo.duplicates == [] and await _projected_messages(settings) == len(command.messages)
    assert_contiguous(command)
    assert_contiguous(mongo)


async def _all_published(engine: AsyncEngine) -> bool:
    async with engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(outbox_events)
                                   .where(outbox_events.c.published_at.is_(None)))).scalar_one() == 0
