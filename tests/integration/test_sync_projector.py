"""The conversation projector against SecantusDB: idempotent, monotonic, order-independent.

The event stream comes from the real writer (the session aggregate and its repository on
MariaDB), read back from the outbox exactly as the relay would publish it.
"""

from __future__ import annotations

import random
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase
from sqlalchemy import select

from query_sync.adapters.conversations import MESSAGES, SESSIONS, ConversationProjector
from query_sync.errors import InvalidPayload, UnknownEvent
from query_sync.projection import Outcome
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.schema import outbox_events
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.mongo import make_mongo_client
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration

PROJECTION_TIME_FIELDS = {"_id", "updated_at"}


@pytest.fixture
async def mongo(settings) -> AsyncIterator[AsyncMongoClient[dict[str, Any]]]:
    client = make_mongo_client(settings)
    yield client
    await client.close()


async def _projector(mongo, name: str) -> tuple[ConversationProjector, AsyncDatabase[dict[str, Any]]]:
    db = mongo[name]
    projector = ConversationProjector(db)
    await projector.prepare()
    return projector, db


def _pair(text: str) -> tuple[NewMessage, NewMessage]:
    return (NewMessage("user", text, 5),
            NewMessage("assistant", f"{text}에 대한 답변", 9, [{"type": "contest", "id": text}]))


async def _writer_events(engine, *, with_delete: bool) -> list[EventEnvelope]:
    """Two sessions written through the command layer; one renamed, one (optionally) deleted."""
    store = Conversations(engine)
    user = uuid.uuid4().hex
    kept = (await store.append_exchange(user, None, *_pair("다음 달 AI 해커톤"), utcnow())).session
    for i in range(2):
        await store.append_exchange(user, kept.session_id, *_pair(f"질문 {i}"), utcnow())
    await store.rename(kept.session_id, user, "해커톤 일정")
    other = (await store.append_exchange(user, None, *_pair("news"), utcnow())).session
    await store.append_exchange(user, other.session_id, *_pair("more news"), utcnow())
    if with_delete:
        await store.delete(other.session_id, user, utcnow())
    return await _outbox_events(engine, [kept.session_id, other.session_id])


async def _outbox_events(engine, session_ids: list[str]) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        bodies = (await conn.execute(
            select(outbox_events.c.body)
            .where(outbox_events.c.aggregate_id.in_(session_ids))
            .order_by(outbox_events.c.id)
        )).scalars().all()
    return [EventEnvelope.from_json(body) for body in bodies]


async def _snapshot(db: AsyncDatabase[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Both collections, without what differs by when the projection ran."""
    snapshot = {}
    for name, key in ((SESSIONS, "session_id"), (MESSAGES, "message_id")):
        docs = await db[name].find({}).sort(key, 1).to_list()
        snapshot[name] = [{k: v for k, v in d.items() if k not in PROJECTION_TIME_FIELDS} for d in docs]
    return snapshot


@pytest.mark.parametrize("with_delete", [False, True], ids=["live", "deleted"])
async def test_shuffled_duplicated_delivery_gives_the_same_projection_as_ordered(
    engine, mongo, settings, with_delete
):
    events = await _writer_events(engine, with_delete=with_delete)
    ordered, ordered_db = await _projector(mongo, settings.mongodb_database)
    for event in events:
        assert await ordered.apply(event) is Outcome.APPLIED
    expected = await _snapshot(ordered_db)

    for seed in (1, 7, 42):
        shuffled, shuffled_db = await _projector(mongo, f"{settings.mongodb_database}_s{seed}")
        stream = events * 2
        random.Random(seed).shuffle(stream)
        for event in stream:
            await shuffled.apply(event)
        assert await _snapshot(shuffled_db) == expected, f"seed {seed}"

    sessions = {d["title"]: d for d in expected[SESSIONS]}
    kept, other = sessions["해커톤 일정"], sessions["news"]
    assert (kept["message_count"], kept["version"], kept["is_deleted"]) == (6, 11, False)
    assert other["is_deleted"] is with_delete
    kept_messages = [m for m in expected[MESSAGES] if m["session_id"] == kept["session_id"]]
    assert [m["sequence_number"] for m in sorted(kept_messages, key=lambda m: m["version"])] == [
        1, 2, 3, 4, 5, 6]
    other_messages = [m for m in expected[MESSAGES] if m["session_id"] == other["session_id"]]
    assert len(other_messages) == (0 if with_delete else 4)


async def test_a_branched_conversation_projects_its_tree_and_replays_change_nothing(
        engine, mongo, settings):
    """Regenerated answers, an edited question and a switch back: the current path and every
    message's parent reach MongoDB, and the same events again, duplicated or in another order,
    one by one or in bulk, leave it exactly as it is."""
    store = Conversations(engine)
    user = uuid.uuid4().hex
    first = await store.append_exchange(user, None, *_pair("해커톤 있어?"), utcnow())
    sid = first.session.session_id
    second = await store.append_exchange(user, sid, *_pair("마감은?"), utcnow())
    again = await store.regenerate(user, sid, second.assistant_message.message_id,
                                   NewMessage("assistant", "다시 한 답변", 3), utcnow())
    edited = await store.edit(user, sid, second.user_message.message_id, *_pair("상금은?"), utcnow())
    back = await store.switch(user, sid, second.user_message.message_id)
    events = await _outbox_events(engine, [sid])

    ordered, db = await _projector(mongo, settings.mongodb_database)
    for event in events:
        assert await ordered.apply(event) is Outcome.APPLIED
    expected = await _snapshot(db)
    session = expected[SESSIONS][0]
    assert session["path"] == list(back.path) == [
        first.user_message.message_id, first.assistant_message.message_id,
        second.user_message.message_id, again.message_id]
    assert session["leaf_message_id"] == again.message_id and session["message_count"] == 4
    parents = {m["message_id"]: m["parent_message_id"] for m in expected[MESSAGES]}
    assert parents[again.message_id] == parents[second.assistant_message.message_id] == (
        second.user_message.message_id)
    assert parents[edited.user_message.message_id] == first.assistant_message.message_id
    assert len(parents) == 7

    for event in events:  # replayed: nothing new
        assert await ordered.apply(event) in (Outcome.STALE, Outcome.DUPLICATE)
    assert await _snapshot(db) == expected
    for seed in (3, 11):
        other, other_db = await _projector(mongo, f"{settings.mongodb_database}_tree{seed}")
        stream = events * 2
        random.Random(seed).shuffle(stream)
        for start in range(0, len(stream), 5):
            await other.apply_many(stream[start:start + 5])
        assert await _snapshot(other_db) == expected, f"seed {seed}"


@pytest.mark.parametrize("with_delete", [False, True], ids=["live", "deleted"])
async def test_apply_many_in_any_chunks_gives_the_projection_of_apply_in_order(
    engine, mongo, settings, with_delete
):
    """The bulk path (what the consumer uses for a fetched run) against the one-by-one path: the same
    documents for the ordered stream and for shuffled, duplicated streams cut into runs of any size."""
    events = await _writer_events(engine, with_delete=with_delete)
    ordered, ordered_db = await _projector(mongo, f"{settings.mongodb_database}_one")
    for event in events:
        await ordered.apply(event)
    expected = await _snapshot(ordered_db)

    bulk, bulk_db = await _projector(mongo, f"{settings.mongodb_database}_bulk")
    assert await bulk.apply_many(events) == [Outcome.APPLIED] * len(events)  # as apply() says
    assert await _snapshot(bulk_db) == expected
    again = await bulk.apply_many(events)  # a redelivered run changes nothing, and says so
    assert Outcome.APPLIED not in again
    assert {o for e, o in zip(events, again, strict=True)
            if e.event_type is EventType.MESSAGE_CREATED} <= {Outcome.DUPLICATE, Outcome.SKIPPED}
    assert await _snapshot(bulk_db) == expected
    half = len(events) // 2  # a run overlapping what is stored: the older half is stale
    tail, tail_db = await _projector(mongo, f"{settings.mongodb_database}_tail")
    for event in events[:half]:
        await tail.apply(event)
    one_by_one = [await ordered.apply(e) for e in events]  # reference outcomes on a full store
    assert Outcome.APPLIED not in one_by_one
    mixed = await tail.apply_many(events)
    assert Outcome.APPLIED not in mixed[:half]
    assert await _snapshot(tail_db) == expected

    for seed in (3, 11):
        shuffled, shuffled_db = await _projector(mongo, f"{settings.mongodb_database}_m{seed}")
        stream = events * 2
        rng = random.Random(seed)
        rng.shuffle(stream)
        while stream:
            size = rng.randint(1, 9)
            await shuffled.apply_many(stream[:size])
            stream = stream[size:]
        assert await _snapshot(shuffled_db) == expected, f"seed {seed}"


async def test_apply_many_skips_messages_after_a_tombstone_in_the_same_run(engine, mongo, settings):
    events = await _writer_events(engine, with_delete=True)
    deleted = next(e for e in events if e.event_type is EventType.SESSION_DELETED)
    late = [e for e in events if e.aggregate_id == deleted.aggregate_id
            and e.event_type is EventType.MESSAGE_CREATED]
    projector, db = await _projector(mongo, f"{settings.mongodb_database}_late")
    outcomes = await projector.apply_many([deleted, *late])
    assert outcomes == [Outcome.APPLIED] + [Outcome.SKIPPED] * len(late)
    assert await db[MESSAGES].count_documents({"session_id": deleted.aggregate_id}) == 0


def _session_event(event_type: EventType, version: int, title: str, session_id: str,
                   **extra: Any) -> EventEnvelope:
    now = utcnow().isoformat()
    payload = {"sessionId": session_id, "userId": "u1", "title": title, "createdAt": now,
               "lastMessageAt": now, "isActive": True, "messageCount": 2 * (version // 3),
               "deletedAt": None, **extra}
    return EventEnvelope(event_type=event_type, aggregate_type=AggregateType.CONVERSATION,
                         aggregate_id=session_id, version=version, payload=payload)


def _message_event(session_id: str, version: int) -> EventEnvelope:
    payload = {"messageId": uuid.uuid4().hex, "sessionId": session_id, "userId": "u1",
               "role": "user", "content": "hi", "sequenceNumber": version - 1, "tokenCount": 1,
               "sources": [], "createdAt": utcnow().isoformat()}
    return EventEnvelope(event_type=EventType.MESSAGE_CREATED, aggregate_type=AggregateType.CONVERSATION,
                         aggregate_id=session_id, version=version, payload=payload)


async def test_stale_event_does_not_regress_session(mongo, settings):
    projector, db = await _projector(mongo, settings.mongodb_database)
    sid = uuid.uuid4().hex
    newest = _session_event(EventType.SESSION_UPDATED, 7, "newest", sid)
    assert await projector.apply(newest) is Outcome.APPLIED
    before = await db[SESSIONS].find_one({"session_id": sid})

    for stale in (_session_event(EventType.SESSION_UPDATED, 4, "older", sid),
                  _session_event(EventType.SESSION_CREATED, 1, "first", sid),
                  newest):
        assert await projector.apply(stale) is Outcome.STALE
    assert await db[SESSIONS].find_one({"session_id": sid}) == before  # updated_at included
    assert await db[SESSIONS].count_documents({"session_id": sid}) == 1


async def test_deleted_session_stays_deleted_and_takes_no_messages(mongo, settings):
    projector, db = await _projector(mongo, settings.mongodb_database)
    sid = uuid.uuid4().hex
    await projector.apply(_message_event(sid, 2))
    deleted = _session_event(EventType.SESSION_DELETED, 9, "gone", sid, isActive=False,
                             deletedAt=utcnow().isoformat())
    assert await projector.apply(deleted) is Outcome.APPLIED
    assert await db[MESSAGES].count_documents({"session_id": sid}) == 0

    assert await projector.apply(_session_event(EventType.SESSION_UPDATED, 8, "back?", sid)) is Outcome.STALE
    assert await projector.apply(_message_event(sid, 3)) is Outcome.SKIPPED
    doc = await db[SESSIONS].find_one({"session_id": sid})
    assert doc is not None
    assert (doc["is_deleted"], doc["is_active"], doc["version"], doc["title"]) == (True, False, 9, "gone")


async def test_duplicate_message_changes_nothing(mongo, settings):
    projector, db = await _projector(mongo, settings.mongodb_database)
    event = _message_event(uuid.uuid4().hex, 2)
    assert await projector.apply(event) is Outcome.APPLIED
    before = await db[MESSAGES].find_one({"message_id": event.payload["messageId"]})
    changed = event.model_copy(update={"payload": event.payload | {"content": "edited"}})
    assert await projector.apply(changed) is Outcome.DUPLICATE
    assert await db[MESSAGES].find_one({"message_id": event.payload["messageId"]}) == before


async def test_events_of_other_aggregates_and_bad_payloads_are_refused(mongo, settings):
    projector, _ = await _projector(mongo, settings.mongodb_database)
    contest = EventEnvelope(event_type=EventType.CONTEST_UPSERTED, aggregate_type=AggregateType.CONTEST,
                            aggregate_id="c1", version=1, payload={"contestId": "c1"})
    with pytest.raises(UnknownEvent):
        await projector.apply(contest)
    future = _session_event(EventType.SESSION_CREATED, 1, "x", "s9").model_copy(update={"schema_version": 2})
    with pytest.raises(UnknownEvent):
        await projector.apply(future)
    with pytest.raises(InvalidPayload):
        await projector.apply(_session_event(EventType.SESSION_CREATED, 1, "x", "s9", sessionId="s8"))


async def test_indexes_are_declared_idempotently_and_ttl_follows_settings(mongo, settings):
    db = mongo[settings.mongodb_database]
    for ttl in (100, 100, 200):
        await ConversationProjector(db, sessions_ttl_seconds=ttl, messages_ttl_seconds=3 * ttl).prepare()
    sessions = {ix["name"]: ix async for ix in await db[SESSIONS].list_indexes()}
    messages = {ix["name"]: ix async for ix in await db[MESSAGES].list_indexes()}
    assert sessions["uq_session_id"]["unique"] is True
    assert dict(sessions["ix_user_active_last_message"]["key"]) == {
        "user_id": 1, "is_active": 1, "last_message_at": -1}
    assert sessions["ttl_last_message_at"]["expireAfterSeconds"] == 200
    assert messages["uq_message_id"]["unique"] is True
    assert dict(messages["ix_session_sequence"]["key"]) == {"session_id": 1, "sequence_number": 1}
    assert messages["ttl_created_at"]["expireAfterSeconds"] == 600


async def test_default_ttls_are_90_and_365_days(mongo, settings):
    db = mongo[settings.mongodb_database]
    await ConversationProjector(db).prepare()
    sessions = {ix["name"]: ix async for ix in await db[SESSIONS].list_indexes()}
    messages = {ix["name"]: ix async for ix in await db[MESSAGES].list_indexes()}
    assert sessions["ttl_last_message_at"]["expireAfterSeconds"] == 7_776_000
    assert messages["ttl_created_at"]["expireAfterSeconds"] == 31_536_000
