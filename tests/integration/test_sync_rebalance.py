"""The rebalance listener on Tansu and SecantusDB: a member that loses partitions mid-batch commits
what it has projected, and nothing more, so the next owner neither skips nor repeats that work."""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import pytest
from aiokafka import AIOKafkaProducer
from aiokafka.structs import RecordMetadata

from query_sync.adapters.conversations import ConversationProjector
from query_sync.adapters.dead_letters import DeadLetterPublisher
from query_sync.entrypoints.consumer import ProjectionConsumer
from query_sync.projection import Outcome
from query_sync.settings import SyncSettings
from techai_shared.events import EventEnvelope
from techai_shared.kafka import ensure_topics
from techai_shared.mongo import make_mongo_client
from tests.conftest import eventually
from tests.integration.test_sync_consumer import _committed, _conversation, _projected, _sync_settings

pytestmark = pytest.mark.integration


class GatedProjector:
    """The real conversation projector, one event at a time (no apply_many, so every record is a
    step of its own), counting the events it wrote; applying the `gate` event waits for `release`
    first, in every member that owns it."""

    def __init__(self, inner: ConversationProjector, gate: str, reached: asyncio.Event,
                 release: asyncio.Event, applied: Counter[str]) -> None:
        self._inner = inner
        self._gate, self._reached, self._release, self._applied = gate, reached, release, applied

    async def prepare(self) -> None:
        await self._inner.prepare()

    async def apply(self, event: EventEnvelope) -> Outcome:
        if event.event_id == self._gate:
            self._reached.set()
            await self._release.wait()
        outcome = await self._inner.apply(event)
        self._applied[event.event_id] += 1
        return outcome


async def _publish(bootstrap_servers: str, topic: str, events: list[EventEnvelope]) -> list[RecordMetadata]:
    producer = AIOKafkaProducer(bootstrap_servers=bootstrap_servers, enable_idempotence=False)
    await producer.start()
    try:
        return [await producer.send_and_wait(topic, e.to_json().encode(), key=e.aggregate_id.encode())
                for e in events]
    finally:
        await producer.stop()


async def test_revoked_partitions_commit_what_was_projected_and_the_next_owner_goes_on_from_there(
    settings,
):
    # A session of 6 s, not the suite's 2 s: on a loaded machine (a second test worker) a member
    # whose heartbeat came late was expired, and the third rebalance handed the gated record to a
    # third waiter.
    sync = _sync_settings(settings, sync_session_timeout_ms=6_000)
    topic = sync.conversation_topic
    await ensure_topics(sync)
    session_id = uuid.uuid4().hex
    events = _conversation(session_id)  # four events, one key: one partition, one batch
    sent = await _publish(sync.kafka_bootstrap_servers, topic, events)
    partition = sent[0].partition
    assert {m.partition for m in sent} == {partition}

    mongo = make_mongo_client(sync)
    consumers: list[ProjectionConsumer] = []
    reached, release, applied = asyncio.Event(), asyncio.Event(), Counter[str]()
    gate = events[2].event_id  # the first two are projected, the third is in flight

    def member(settings: SyncSettings) -> ProjectionConsumer:
        projector = GatedProjector(ConversationProjector(mongo[settings.mongodb_database]), gate,
                                   reached, release, applied)
        consumer = ProjectionConsumer(settings, {topic: projector}, DeadLetterPublisher(settings))
        consumer.start()
        consumers.append(consumer)
        return consumer

    try:
        member(sync)
        await asyncio.wait_for(reached.wait(), timeout=30)
        assert (await _committed(sync, topic))[partition][0] is None  # mid-batch: nothing yet

        # A second member joins: the first one's partitions are revoked while it waits at the gate.
        # It commits the two records it projected, not the one in flight.
        member(sync)
        processed = sent[1].offset + 1
        await eventually(lambda: _committed_is(sync, topic, partition, processed), within=20)

        release.set()
        await eventually(lambda: _projected(sync, session_id), within=20)
        end = sent[-1].offset + 1
        await eventually(lambda: _committed_is(sync, topic, partition, end), within=20)
    finally:
        release.set()
        for consumer in consumers:
            await consumer.stop()
        await mongo.close()

    # The projected records were not projected again by whichever member owns the partition
    # now; only the one in flight at the revocation may have been written twice.
    done_before, in_flight, after = [e.event_id for e in events[:2]], gate, events[3].event_id
    assert [applied[e] for e in done_before] == [1, 1], applied
    assert applied[in_flight] in (1, 2), applied
    assert applied[after] == 1, applied


async def _committed_is(settings: SyncSettings, topic: str, partition: int, offset: int) -> bool:
    committed, _ = (await _committed(settings, topic))[partition]
    assert committed is None or committed <= offset, (committed, offset)  # never past the writes
    return committed == offset
