"""The outbox relay killed (SIGKILL) after Kafka acknowledged a batch and before it marked the rows:
the next relay publishes the batch again, and those duplicates change nothing in MongoDB.

tests/integration/test_relay.py covers order, outages and the leader lock; this is the crash window.
"""

from __future__ import annotations

import asyncio
import os
import signal
import sys
import textwrap
import uuid
from asyncio.subprocess import PIPE
from collections.abc import AsyncIterator
from typing import Any

import pytest
from prometheus_client import REGISTRY
from pymongo import AsyncMongoClient
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from query_sync.bootstrap import SyncWorker, bootstrap
from query_sync.settings import SyncSettings
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.schema import outbox_events
from techai_shared.kafka import ensure_topics
from techai_shared.settings import CommonSettings
from tests.conftest import eventually, unique
from tests.integration.test_sync_consumer import _read_all
from tests.reliability.support import MESSAGES, SESSIONS, converged
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration

# A relay that dies the moment it would mark the acknowledged rows as published.
KILLED_RELAY = textwrap.dedent("""
    import asyncio, os, signal
    from techai_shared.db.engine import make_engine
    from techai_shared.db.outbox import OutboxRelay
    from techai_shared.settings import CommonSettings

    async def die(ids):
        print(f"published {len(ids)}, killed before marking", flush=True)
        os.kill(os.getpid(), signal.SIGKILL)

    async def main():
        settings = CommonSettings()
        relay = OutboxRelay(make_engine(settings), settings)
        relay._mark_published = die
        await relay.publish_pending()

    asyncio.run(main())
""")


@pytest.fixture
async def started() -> AsyncIterator[list[Any]]:
    things: list[Any] = []
    yield things
    for thing in reversed(things):
        await thing.stop()


def _outcomes(topic: str) -> dict[str, float]:
    totals: dict[str, float] = {}
    for metric in REGISTRY.collect():
        for sample in metric.samples:
            if sample.name == "sync_events_total" and sample.labels.get("topic") == topic:
                outcome = sample.labels["outcome"]
                totals[outcome] = totals.get(outcome, 0.0) + sample.value
    return totals


async def _unpublished(engine: AsyncEngine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(outbox_events)
                                   .where(outbox_events.c.published_at.is_(None)))).scalar_one()


async def _documents(settings: CommonSettings) -> dict[str, list[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(settings.mongodb_uri)
    try:
        db = client[settings.mongodb_database]
        return {name: await db[name].find({}, sort=[("_id", 1)]).to_list(None)
                for name in (SESSIONS, MESSAGES)}
    finally:
        await client.close()


async def test_duplicates_from_a_relay_killed_before_marking_change_nothing(
    settings: CommonSettings, engine: AsyncEngine, started: list[Any]
):
    await ensure_topics(settings)
    store = Conversations(engine)
    users = [uuid.uuid4().hex for _ in range(3)]
    for user in users:
        sid = None
        for turn in range(3):
            exchange = await store.append_exchange(user, sid, NewMessage("user", f"q{turn}", 2),
                                                   NewMessage("assistant", f"a{turn}", 2), utcnow())
            sid = exchange.session.session_id
    events = 3 * (1 + 3 * 3)  # per session: Created, then two messages and Updated per exchange
    assert await _unpublished(engine) == events

    env = {**os.environ, "MYSQL_URL": settings.mysql_url,
           "KAFKA_BOOTSTRAP_SERVERS": settings.kafka_bootstrap_servers,
           "KAFKA_TOPIC_PREFIX": settings.kafka_topic_prefix, "ENVIRONMENT": "test"}
    killed = await asyncio.create_subprocess_exec(sys.executable, "-c", KILLED_RELAY, env=env,
                                                  stdout=PIPE, stderr=PIPE)
    out, err = await asyncio.wait_for(killed.communicate(), 60)
    assert killed.returncode == -signal.SIGKILL, err.decode()
    assert f"published {events}, killed before marking" in out.decode()
    topic = settings.topic("conversation")
    assert len(await _read_all(settings.kafka_bootstrap_servers, topic)) == events
    assert await _unpublished(engine) == events  # nothing marked: the next relay sends all again

    sync = SyncSettings(**(settings.model_dump() | {
        "sync_consumer_group": unique("sync-"), "sync_port": 0, "sync_poll_timeout_ms": 200,
        "sync_session_timeout_ms": 2_000, "sync_heartbeat_interval_ms": 300,
        # the search indexer would clear its marks between the two snapshots compared below
        "sync_search_indexing": False}))
    worker: SyncWorker = bootstrap(sync)
    await worker.start()
    started.append(worker)
    await eventually(lambda: converged(settings.mysql_url, settings.mongodb_uri,
                                       settings.mongodb_database, users), within=30)
    assert _outcomes(topic) == {"applied": events}
    before = await _documents(settings)

    relay = OutboxRelay(engine, settings)
    relay.start()
    started.append(relay)

    async def all_consumed() -> dict[str, float]:
        outcomes = _outcomes(topic)
        return outcomes if sum(outcomes.values()) >= 2 * events else {}

    outcomes = await eventually(all_consumed, within=30)
    assert await _unpublished(engine) == 0
    assert len(await _read_all(settings.kafka_bootstrap_servers, topic)) == 2 * events
    assert outcomes["applied"] == events  # every redelivery was recognised as already applied
    assert outcomes.get("stale", 0) + outcomes.get("duplicate", 0) == events, outcomes
    assert await _documents(settings) == before  # not one field rewritten, not one document added
    assert await converged(settings.mysql_url, settings.mongodb_uri, settings.mongodb_database, users)
