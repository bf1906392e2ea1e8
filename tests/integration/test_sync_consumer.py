"""The sync worker end to end on Tansu and SecantusDB: projection, DLQ, commits, outages.

Each test has its own topic prefix, consumer group and Mongo database; the broker-restart and
store-outage tests start servers of their own, since they stop them.
"""

from __future__ import annotations

import asyncio
import json
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from aiokafka import AIOKafkaConsumer, AIOKafkaProducer, TopicPartition
from aiokafka.admin import AIOKafkaAdminClient
from aiokafka.structs import ConsumerRecord, RecordMetadata
from devstack.servers import free_port, start_secantus, start_tansu
from prometheus_client import REGISTRY

from query_sync.adapters.conversations import MESSAGES, SESSIONS
from query_sync.bootstrap import SyncWorker, bootstrap
from query_sync.entrypoints.compensations import BrokerCompensations, TansuCompensations
from query_sync.errors import ConsumerNotRunning
from query_sync.settings import SyncSettings, dead_letter_topic
from techai_shared.clock import utcnow
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.events.catalog import ContestPayload, ContestStatus
from techai_shared.events.conversation import MessagePayload, SessionPayload
from techai_shared.kafka import ensure_topics
from techai_shared.mongo import make_mongo_client
from techai_shared.settings import CommonSettings
from tests.conftest import eventually, unique

pytestmark = pytest.mark.integration


def _sync_settings(common: CommonSettings, **overrides: Any) -> SyncSettings:
    """The test's settings, with timings short enough for a broker restart to take seconds."""
    fast = {
        "sync_consumer_group": unique("sync-"),
        "sync_port": 0,
        "sync_poll_timeout_ms": 200,
        "sync_heartbeat_interval_ms": 300,
        "sync_session_timeout_ms": 2_000,  # Tansu delays a new group's first join by half of it
        "sync_retry_max_backoff_seconds": 0.5,
        "sync_position_check_interval_seconds": 0.5,
        "sync_topic_check_interval_seconds": 1.0,
    }
    return SyncSettings(**(common.model_dump() | fast | overrides))


@pytest.fixture
async def workers() -> AsyncIterator[list[SyncWorker]]:
    """Workers a test starts; stopped at the end whatever happens."""
    started: list[SyncWorker] = []
    yield started
    for worker in started:
        await worker.stop()


async def _start_worker(settings: SyncSettings, workers: list[SyncWorker]) -> SyncWorker:
    worker = bootstrap(settings)
    await worker.start()
    workers.append(worker)
    return worker


@pytest.fixture
async def producer(request: pytest.FixtureRequest) -> AsyncIterator[dict[str, AIOKafkaProducer]]:
    """Plain producers a test starts (by bootstrap address); stopped at the end."""
    started: dict[str, AIOKafkaProducer] = {}
    yield started
    for p in started.values():
        await p.stop()


async def _producer(started: dict[str, AIOKafkaProducer], bootstrap_servers: str) -> AIOKafkaProducer:
    p = AIOKafkaProducer(bootstrap_servers=bootstrap_servers, enable_idempotence=False)
    await p.start()
    started[f"{bootstrap_servers}/{len(started)}"] = p
    return p


def _conversation(session_id: str, user_id: str = "u1") -> list[EventEnvelope]:
    """What the writer emits for a new session's first exchange: Created, two messages, Updated."""
    now = utcnow()

    def session(message_count: int) -> dict[str, Any]:
        return SessionPayload(session_id=session_id, user_id=user_id, title="첫 질문", created_at=now,
                              last_message_at=now, is_active=True, message_count=message_count).to_payload()

    messages = [MessagePayload(session_id=session_id, message_id=uuid.uuid4().hex, user_id=user_id,
                               role=role, content=text, sequence_number=seq, token_count=3,
                               created_at=now).to_payload()
                for seq, (role, text) in enumerate((("user", "첫 질문"), ("assistant", "답변")), 1)]

    def event(event_type: EventType, version: int, payload: dict[str, Any]) -> EventEnvelope:
        return EventEnvelope(event_type=event_type, aggregate_type=AggregateType.CONVERSATION,
                             aggregate_id=session_id, version=version, occurred_at=now, payload=payload)

    return [
        event(EventType.SESSION_CREATED, 1, session(0)),
        *(event(EventType.MESSAGE_CREATED, 2 + i, m) for i, m in enumerate(messages)),
        event(EventType.SESSION_UPDATED, 4, session(2)),
    ]


async def _publish(p: AIOKafkaProducer, topic: str, events: list[EventEnvelope]) -> None:
    for e in events:
        await p.send_and_wait(topic, e.to_json().encode(), key=e.aggregate_id.encode(),
                              headers=[("event_id", e.event_id.encode())])


async def _session(settings: SyncSettings, session_id: str) -> dict[str, Any] | None:
    client = make_mongo_client(settings)
    try:
        db = client[settings.mongodb_database]
        doc = await db[SESSIONS].find_one({"session_id": session_id})
        if doc is not None:
            doc["messages"] = await db[MESSAGES].count_documents({"session_id": session_id})
        return doc
    finally:
        await client.close()


async def _projected(settings: SyncSettings, session_id: str) -> bool:
    doc = await _session(settings, session_id)
    return doc is not None and doc["version"] == 4 and doc["messages"] == 2


async def _read_all(bootstrap_servers: str, topic: str) -> list[ConsumerRecord[bytes, bytes]]:
    """Every record of `topic` now, without a consumer group."""
    consumer = AIOKafkaConsumer(bootstrap_servers=bootstrap_servers, enable_auto_commit=False,
                                auto_offset_reset="earliest")
    await consumer.start()
    try:
        partitions = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
        if not partitions:
            return []
        consumer.assign(partitions)
        ends = await consumer.end_offsets(partitions)
        records: list[ConsumerRecord[bytes, bytes]] = []
        while any([await consumer.position(tp) < ends[tp] for tp in partitions]):
            for batch in (await consumer.getmany(timeout_ms=500)).values():
                records += batch
        return records
    finally:
        await consumer.stop()


async def _committed(settings: SyncSettings, topic: str) -> dict[int, tuple[int | None, int]]:
    """partition -> (the group's committed offset, the log end)."""
    consumer = AIOKafkaConsumer(bootstrap_servers=settings.kafka_bootstrap_servers,
                                group_id=settings.sync_consumer_group, enable_auto_commit=False)
    await consumer.start()
    try:
        partitions = [TopicPartition(topic, p) for p in consumer.partitions_for_topic(topic) or ()]
        ends = await consumer.end_offsets(partitions)
        return {tp.partition: (await consumer.committed(tp), ends[tp]) for tp in partitions}
    finally:
        await consumer.stop()


def _headers(record: ConsumerRecord[bytes, bytes]) -> dict[str, bytes]:
    return dict(record.headers)


def _metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_worker_projects_events_dead_letters_poison_and_commits(settings, workers, producer):
    sync = _sync_settings(settings)
    topic = sync.conversation_topic
    await ensure_topics(sync)
    p = await _producer(producer, sync.kafka_bootstrap_servers)
    worker = await _start_worker(sync, workers)

    first, second = uuid.uuid4().hex, uuid.uuid4().hex
    await _publish(p, topic, _conversation(first))
    bad_json = await p.send_and_wait(topic, b'{"eventId": "x", "eventType": ', key=first.encode(),
                                     headers=[("event_id", b"x")])
    unknown = json.loads(_conversation(first)[0].to_json()) | {"eventType": "ConversationArchived"}
    unknown_type = await p.send_and_wait(topic, json.dumps(unknown).encode(), key=first.encode())
    contest = EventEnvelope(event_type=EventType.CONTEST_UPSERTED, aggregate_type=AggregateType.CONTEST,
                            aggregate_id=first, version=9, payload={})
    misplaced = await p.send_and_wait(topic, contest.to_json().encode(), key=first.encode())
    await _publish(p, topic, _conversation(second))

    await eventually(lambda: _projected(sync, first))
    await eventually(lambda: _projected(sync, second))
    dlq = dead_letter_topic(topic)
    dead = await eventually(lambda: _dlq_records(sync, dlq, 3))
    _assert_dead_lettered(dead, topic, {bad_json: "InvalidEnvelope", unknown_type: "InvalidEnvelope",
                                        misplaced: "UnknownEvent"})
    assert _headers(dead[0]).get("event_id") == b"x"  # the original headers are kept
    await _assert_ops_routes(worker)

    await worker.stop()
    workers.remove(worker)
    committed = await _committed(sync, topic)
    assert all(done == end or (done is None and end == 0) for done, end in committed.values()), committed

    # A new member of the same group starts after the commits: nothing is processed twice.
    third = uuid.uuid4().hex
    await _start_worker(sync, workers)
    await _publish(p, topic, _conversation(third))
    await eventually(lambda: _projected(sync, third))
    assert len(await _read_all(sync.kafka_bootstrap_servers, dlq)) == 3


async def _dlq_records(settings: SyncSettings, dlq: str, count: int) -> list[ConsumerRecord[bytes, bytes]]:
    records = await _read_all(settings.kafka_bootstrap_servers, dlq)
    assert len(records) <= count, records
    return records if len(records) == count else []


def _assert_dead_lettered(dead: list[ConsumerRecord[bytes, bytes]], topic: str,
                          originals: dict[RecordMetadata, str]) -> None:
    by_origin = {(int(_headers(r)["dlq_original_partition"]), int(_headers(r)["dlq_original_offset"])): r
                 for r in dead}
    for meta, error in originals.items():
        record = by_origin[(meta.partition, meta.offset)]
        headers = _headers(record)
        assert headers["dlq_original_topic"] == topic.encode()
        assert headers["dlq_attempts"] == b"1"
        assert headers["dlq_error"].decode().startswith(f"{error}: ")
        assert record.key is not None


async def _assert_ops_routes(worker: SyncWorker) -> None:
    async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{worker.health.port}") as client:
        assert (await client.get("/healthz")).status_code == 200
        ready = await client.get("/readyz")
        assert ready.status_code == 200, ready.text
        assert set(ready.json()["data"]) == {"mongodb", "kafka", "consumer"}
        metrics = (await client.get("/metrics")).text
    for name in ("sync_events_total", "sync_dead_letters_total", "sync_projection_lag_seconds",
                 "sync_consumer_lag"):
        assert name in metrics


async def _topics(bootstrap_servers: str) -> set[str]:
    admin = AIOKafkaAdminClient(bootstrap_servers=bootstrap_servers)
    await admin.start()
    try:
        return set(await admin.list_topics())
    finally:
        await admin.close()


async def test_consumer_survives_a_broker_restart_that_loses_the_log(
    settings, own_servers, workers, producer, tmp_path: Path
):
    port, log = free_port(), tmp_path / "tansu.log"
    own_servers.append(start_tansu(port, log))
    sync = _sync_settings(settings, kafka_bootstrap_servers=own_servers[0].url)
    topic, dlq = sync.conversation_topic, dead_letter_topic(sync.conversation_topic)
    await _start_worker(sync, workers)
    before = uuid.uuid4().hex
    await _publish(await _producer(producer, sync.kafka_bootstrap_servers), topic, _conversation(before))
    await eventually(lambda: _projected(sync, before))

    own_servers[0].stop()  # memory storage: topics, logs and the group's offsets are gone
    own_servers.append(start_tansu(port, log))

    after = uuid.uuid4().hex
    p = await _producer(producer, sync.kafka_bootstrap_servers)
    await _publish(p, topic, _conversation(after))
    await eventually(lambda: _projected(sync, after), within=30)
    await eventually(lambda: _has_topic(sync.kafka_bootstrap_servers, dlq))  # re-created by us
    await p.send_and_wait(topic, b"not json", key=after.encode())
    await eventually(lambda: _dlq_records(sync, dlq, 1))


async def test_position_past_the_log_end_is_read_again_from_the_beginning(settings, workers, producer):
    """Tansu answers a fetch past the log end with nothing, not OffsetOutOfRange; without the
    position check, a member that outlived the log (before it rejoins) would wait there forever."""
    sync = _sync_settings(settings)
    topic = sync.conversation_topic
    await ensure_topics(sync)
    worker = await _start_worker(sync, workers)
    kafka = await eventually(lambda: _assigned(worker))
    for tp in kafka.assignment():
        kafka.seek(tp, 1_000)  # what a broker restart does to positions, staged on a live broker
    session_id = uuid.uuid4().hex
    await _publish(await _producer(producer, sync.kafka_bootstrap_servers), topic, _conversation(session_id))
    await eventually(lambda: _projected(sync, session_id))


_HOOKS = ("consumer_options", "start", "stop", "broker_failed", "correct_position")


def _spy_on_tansu_hooks(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The names of the TansuCompensations hooks called from now on, in order (they still run)."""
    calls: list[str] = []
    for name in _HOOKS:
        original = getattr(TansuCompensations, name)
        if asyncio.iscoroutinefunction(original):
            async def spy(self: Any, *args: Any, _name: str = name, _original: Any = original) -> Any:
                calls.append(_name)
                return await _original(self, *args)
        else:
            def spy(self: Any, *args: Any, _name: str = name, _original: Any = original) -> Any:
                calls.append(_name)
                return _original(self, *args)
        monkeypatch.setattr(TansuCompensations, name, spy)
    return calls


async def test_with_compensations_off_the_plain_loop_projects_and_no_hook_runs(
    settings, workers, producer, monkeypatch
):
    calls = _spy_on_tansu_hooks(monkeypatch)
    sync = _sync_settings(settings, sync_broker_compensations="none")
    topic = sync.conversation_topic
    await ensure_topics(sync)
    worker = await _start_worker(sync, workers)
    assert type(worker.consumer.compensations) is BrokerCompensations
    p = await _producer(producer, sync.kafka_bootstrap_servers)
    first = uuid.uuid4().hex
    await _publish(p, topic, _conversation(first))
    await eventually(lambda: _projected(sync, first))

    # Tansu's quirk is left alone now: a position past the log end stays there (compare
    # test_position_past_the_log_end_is_read_again_from_the_beginning).
    kafka = await eventually(lambda: _assigned(worker))
    for tp in kafka.assignment():
        kafka.seek(tp, 1_000)
    stuck = uuid.uuid4().hex
    await _publish(p, topic, _conversation(stuck))
    await asyncio.sleep(4 * sync.sync_position_check_interval_seconds)
    assert not await _projected(sync, stuck)
    assert calls == []

    # The spies do see the default compensations at work (a new group reads from the start).
    await _start_worker(_sync_settings(settings), workers)
    await eventually(lambda: _projected(sync, stuck))
    await eventually(lambda: _async_true("correct_position" in calls))
    assert {"consumer_options", "start"} <= set(calls)


async def _assigned(worker: SyncWorker) -> AIOKafkaConsumer | None:
    kafka = worker.consumer._consumer  # the test stages a broker's amnesia on the real consumer
    return kafka if kafka is not None and kafka.assignment() else None


async def _has_topic(bootstrap_servers: str, topic: str) -> bool:
    return topic in await _topics(bootstrap_servers)


async def test_store_outage_is_retried_in_place_without_skipping(
    settings, own_servers, workers, producer, tmp_path: Path
):
    port = free_port()
    data, log = tmp_path / "secantus", tmp_path / "secantus.log"
    own_servers.append(start_secantus(port, data, log))
    sync = _sync_settings(settings, mongodb_uri=own_servers[0].url)
    topic = sync.conversation_topic
    await ensure_topics(sync)
    worker = await _start_worker(sync, workers)
    await eventually(lambda: _consuming(worker))

    own_servers[0].stop()
    retries_before = _metric("sync_retries_total", topic=topic, kind="transient")
    session_id = uuid.uuid4().hex
    await _publish(await _producer(producer, sync.kafka_bootstrap_servers), topic, _conversation(session_id))
    await eventually(lambda: _async_true(
        _metric("sync_retries_total", topic=topic, kind="transient") > retries_before), within=30)

    own_servers.append(start_secantus(port, data, log))
    await eventually(lambda: _projected(sync, session_id), within=30)
    assert await _read_all(sync.kafka_bootstrap_servers, dead_letter_topic(topic)) == []


async def _consuming(worker: SyncWorker) -> bool:
    try:
        await worker.consumer.check()
    except ConsumerNotRunning:
        return False
    return True


async def _async_true(value: bool) -> bool:
    return value


# -- a bulk catalog import does not hold up conversations ------------------------------------------
# query-sync projects the cheap topics of a batch first and, past its time budget, fetches again
# instead of embedding the whole backlog first.

CONTESTS = 96


def _contests() -> list[EventEnvelope]:
    now = utcnow()
    return [EventEnvelope(
        event_type=EventType.CONTEST_UPSERTED, aggregate_type=AggregateType.CONTEST,
        aggregate_id=f"c-bulk-{i:03d}", version=1, occurred_at=now,
        payload=ContestPayload(
            id=f"c-bulk-{i:03d}", title=f"대학생 알고리즘 경진대회 {i}회", status=ContestStatus.ONGOING,
            description="알고리즘 문제 풀이 대회입니다. " * 20, tags=["algorithm"],
            created_at=now, updated_at=now).model_dump(mode="json", by_alias=True))
        for i in range(CONTESTS)]


async def _contests_projected(settings: SyncSettings) -> int:
    client = make_mongo_client(settings)
    try:
        return await client[settings.mongodb_database]["contests"].count_documents({})
    finally:
        await client.close()


async def test_a_conversation_is_projected_while_a_catalog_backlog_is_embedded(settings, workers,
                                                                              producer):
    """An exchange written while the worker embeds a bulk import is projected before the import is
    done (each of the import's runs of 32 documents takes seconds on two cores)."""
    cfg = _sync_settings(settings, sync_batch_time_budget_seconds=1.0)
    await ensure_topics(cfg)
    p = await _producer(producer, cfg.kafka_bootstrap_servers)
    await _start_worker(cfg, workers)
    await _publish(p, cfg.topic(AggregateType.CONTEST.value), _contests())

    async def embedding() -> bool:
        return await _contests_projected(cfg) > 0

    await eventually(embedding, within=120, interval=0.05)
    session_id = str(uuid.uuid4())
    await _publish(p, cfg.conversation_topic, _conversation(session_id))
    await eventually(lambda: _projected(cfg, session_id), within=240)
    assert await _contests_projected(cfg) < CONTESTS  # the import was still being embedded

    async def all_contests() -> bool:
        return await _contests_projected(cfg) == CONTESTS

    await eventually(all_contests, within=240, interval=0.5)
