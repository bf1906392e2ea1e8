"""The outbox relay on MariaDB and Tansu: order, keys and headers, broker outages, one publisher."""

from __future__ import annotations

import json
import uuid
from collections.abc import AsyncIterator, Iterator
from typing import Any

import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from devstack.servers import Server, free_port, start_tansu
from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.engine import make_engine
from techai_shared.db.outbox import OutboxRelay, add_events
from techai_shared.db.outbox.leader import LeaderLock
from techai_shared.db.outbox.relay import PUBLISH_FAILURES
from techai_shared.db.schema import outbox_events
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.kafka import ensure_topics
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


@pytest.fixture
async def relays() -> AsyncIterator[list[OutboxRelay]]:
    """Relays a test starts; stopped at the end whatever happens."""
    started: list[OutboxRelay] = []
    yield started
    for relay in started:
        await relay.stop()


@pytest.fixture
def broker_port() -> int:
    return free_port()


@pytest.fixture
def own_broker() -> Iterator[dict[str, Server]]:
    """A Tansu only this test uses, started and stopped by the test; stopped at the end."""
    holder: dict[str, Server] = {}
    yield holder
    if "server" in holder:
        holder["server"].stop()


def _event(aggregate_id: str, version: int) -> EventEnvelope:
    return EventEnvelope(
        eventType=EventType.SESSION_UPDATED if version > 1 else EventType.SESSION_CREATED,
        aggregateType=AggregateType.CONVERSATION,
        aggregateId=aggregate_id,
        version=version,
        payload={"sessionId": aggregate_id, "messageCount": version},
    )


async def _write(engine: AsyncEngine, events: list[EventEnvelope]) -> None:
    async with engine.begin() as conn:
        await add_events(conn, events)


async def _published(engine: AsyncEngine, event_ids: list[str]) -> dict[str, bool]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(outbox_events.c.event_id, outbox_events.c.published_at).where(
                outbox_events.c.event_id.in_(event_ids)
            )
        )
        return {row.event_id: row.published_at is not None for row in rows}


async def _all_published(engine: AsyncEngine, event_ids: list[str]) -> bool:
    state = await _published(engine, event_ids)
    return len(state) == len(event_ids) and all(state.values())


async def _outbox_order(engine: AsyncEngine, event_ids: list[str]) -> list[str]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(outbox_events.c.event_id)
            .where(outbox_events.c.event_id.in_(event_ids))
            .order_by(outbox_events.c.id)
        )
        return list(rows.scalars())


async def _consume(settings: CommonSettings, topic: str, event_ids: set[str]) -> list[Any]:
    """Every record of the topic that carries one of these events, in partition order."""
    consumer = AIOKafkaConsumer(
        bootstrap_servers=settings.kafka_bootstrap_servers, enable_auto_commit=False,
        auto_offset_reset="earliest",
        # a topic the broker made after the consumer's first look is seen on its next refresh
        metadata_max_age_ms=200,
    )
    await consumer.start()
    try:
        await eventually(lambda: _known(consumer, topic), within=15)
        partitions = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or []]
        consumer.assign(partitions)
        await consumer.seek_to_beginning(*partitions)
        records: list[Any] = []

        async def collect() -> bool:
            batches = await consumer.getmany(timeout_ms=200)
            for batch in batches.values():
                records.extend(r for r in batch if dict(r.headers)["event_id"].decode() in event_ids)
            return len(records) >= len(event_ids)

        await eventually(collect, within=15)
        return records
    finally:
        await consumer.stop()


async def _known(consumer: AIOKafkaConsumer, topic: str) -> bool:
    return bool(consumer.partitions_for_topic(topic))


async def test_relay_publishes_in_id_order_with_key_and_event_id_header(engine, settings, relays):
    sessions = [uuid.uuid4().hex for _ in range(3)]
    events = [_event(sid, version) for version in range(1, 5) for sid in sessions]
    for start in range(0, len(events), 4):  # several transactions, interleaving the aggregates
        await _write(engine, events[start : start + 4])
    ids = [e.event_id for e in events]

    relay = OutboxRelay(engine, settings)
    relays.append(relay)
    relay.start()
    await eventually(lambda: _all_published(engine, ids))

    records = await _consume(settings, settings.topic("conversation"), set(ids))
    assert len(records) == len(ids)
    in_outbox_order = await _outbox_order(engine, ids)
    for sid in sessions:
        mine = [r for r in records if r.key == sid.encode()]
        assert len({r.partition for r in mine}) == 1  # one key, one partition, one order
        received = [dict(r.headers)["event_id"].decode() for r in mine]
        assert received == [i for i in in_outbox_order if i in set(received)]
        assert [json.loads(r.value)["version"] for r in mine] == [1, 2, 3, 4]
        assert all(json.loads(r.value)["aggregateId"] == sid for r in mine)


async def test_writes_succeed_while_kafka_is_down_and_are_published_once_it_is_up(
    own_broker, engine, settings, relays, broker_port, tmp_path
):
    settings = settings.model_copy(update={"kafka_bootstrap_servers": f"127.0.0.1:{broker_port}"})
    store = Conversations(engine)
    relay = OutboxRelay(engine, settings, max_backoff=0.5)
    relays.append(relay)
    relay.start()
    failures = _failures()
    user = uuid.uuid4().hex

    async def write_exchange(session_id: str | None) -> str:
        exchange = await store.append_exchange(
            user, session_id, NewMessage("user", "다음 달 해커톤 있어?", 5),
            NewMessage("assistant", "네, 있어요", 4), utcnow(),
        )
        return exchange.session.session_id

    session_id = await write_exchange(None)  # the write succeeds with the broker down
    ids = await _session_event_ids(engine, session_id)
    await eventually(lambda: _failed_since(failures))  # the relay tried, and could not publish
    assert not any((await _published(engine, ids)).values())

    own_broker["server"] = start_tansu(broker_port, tmp_path / "tansu.log")
    await eventually(lambda: _all_published(engine, ids), within=20)

    own_broker["server"].stop()  # memory storage: its topics are gone when it comes back
    failures = _failures()
    await write_exchange(session_id)
    ids_while_down = [i for i in await _session_event_ids(engine, session_id) if i not in ids]
    await eventually(lambda: _failed_since(failures), within=20)
    assert not any((await _published(engine, ids_while_down)).values())

    own_broker["server"] = start_tansu(broker_port, tmp_path / "tansu.log")
    await eventually(lambda: _all_published(engine, ids_while_down), within=20)
    records = await _consume(settings, settings.topic("conversation"), set(ids_while_down))
    assert {r.key for r in records} == {session_id.encode()}


def _failures() -> float:
    return float(PUBLISH_FAILURES._value.get())


async def _failed_since(count: float) -> bool:
    return _failures() > count


async def _session_event_ids(engine: AsyncEngine, session_id: str) -> list[str]:
    async with engine.connect() as conn:
        rows = await conn.execute(
            select(outbox_events.c.event_id)
            .where(outbox_events.c.aggregate_id == session_id)
            .order_by(outbox_events.c.id)
        )
        return list(rows.scalars())


class CountingProducer(AIOKafkaProducer):
    """A real producer that counts what it sends, to tell which relay did the publishing."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.sent = 0

    async def send(self, *args: Any, **kwargs: Any) -> Any:
        self.sent += 1
        return await super().send(*args, **kwargs)


async def test_only_one_of_two_relays_publishes_and_the_other_takes_over(engine, settings, relays):
    await ensure_topics(settings)
    producers = [CountingProducer(bootstrap_servers=settings.kafka_bootstrap_servers) for _ in range(2)]
    for producer in producers:
        await producer.start()
    try:
        first, second = (OutboxRelay(engine, settings, producer=p) for p in producers)
        relays.extend([first, second])
        first.start()
        second.start()
        batch = [_event(uuid.uuid4().hex, 1) for _ in range(20)]
        for event in batch:
            await _write(engine, [event])
        await eventually(lambda: _all_published(engine, [e.event_id for e in batch]))
        leader, follower = sorted(zip((first, second), producers, strict=True), key=lambda rp: -rp[1].sent)
        assert leader[1].sent >= len(batch)
        assert follower[1].sent == 0

        await leader[0].stop()  # releases the lock: the other relay becomes the publisher
        more = [_event(uuid.uuid4().hex, 1) for _ in range(5)]
        await _write(engine, more)
        await eventually(lambda: _all_published(engine, [e.event_id for e in more]))
        assert follower[1].sent >= len(more)
    finally:
        for producer in producers:
            await producer.stop()


async def test_only_one_relay_publishes_on_sqlite(tmp_path):
    settings = CommonSettings(mysql_url=f"sqlite+aiosqlite:///{tmp_path}/relay.db")
    engines = [make_engine(settings), make_engine(settings)]
    locks = [LeaderLock(e, "relay") for e in engines]
    try:
        assert await locks[0].hold() is True
        assert await locks[1].hold() is False
        assert await locks[0].hold() is True  # still the leader
        await locks[0].release()
        assert await locks[1].hold() is True  # the other takes over
    finally:
        for lock in locks:
            await lock.release()
        for engine in engines:
            await engine.dispose()
