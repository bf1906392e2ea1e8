"""Ratings projected into the messages' documents on SecantusDB: in any order, once, never older.

Events come from the real writers: an exchange through the command layer, ratings through
chatbot-api's feedback repository, both read back from the outbox as the relay publishes them.
"""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import select

from chatbot_api.adapters.unit_of_work import SqlChatUnitOfWork
from query_sync.adapters.conversations import MESSAGES, ConversationProjector
from query_sync.projection import Outcome
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope, EventType
from techai_shared.mongo import make_mongo_client
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


@pytest.fixture
async def db(settings):
    client = make_mongo_client(settings)
    yield client[settings.mongodb_database]
    await client.close()


async def _events(engine, session_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        bodies = (await conn.execute(select(outbox_events.c.body).where(
            outbox_events.c.aggregate_id == session_id).order_by(outbox_events.c.id))).scalars()
        return [EventEnvelope.from_json(b) for b in bodies]


async def _rated_exchange(engine) -> tuple[str, str, list[EventEnvelope]]:
    """An exchange, then its answer rated down, up, and the rating removed: (session id, answer
    id, every event of the session in outbox order)."""
    user = uuid.uuid4().hex
    written = await Conversations(engine).append_exchange(
        user, None, NewMessage("user", "AI 해커톤 상금은?", 5),
        NewMessage("assistant", "1,000만 원입니다.", 7, [{"documentId": "c-0030"}]), utcnow())
    answer = written.assistant_message
    for change in ("down", "up", None):
        async with SqlChatUnitOfWork(engine) as uow:
            if change is None:
                assert await uow.feedback.remove(answer.message_id, utcnow())
            else:
                await uow.feedback.put(answer, user, change, ["wrong"], "틀림", utcnow())
            await uow.commit()
    return answer.session_id, answer.message_id, await _events(engine, answer.session_id)


def _ratings(events: list[EventEnvelope]) -> list[EventEnvelope]:
    return [e for e in events if e.event_type is EventType.FEEDBACK_CHANGED]


async def _doc(db, message_id: str) -> dict[str, Any] | None:
    return await db[MESSAGES].find_one({"message_id": message_id}, {"_id": 0})


async def test_a_rating_before_its_message_is_kept_and_the_message_fills_the_document(db, engine):
    projector = ConversationProjector(db)
    await projector.prepare()
    _, mid, events = await _rated_exchange(engine)
    _, up, removed = _ratings(events)
    assert await projector.apply(up) is Outcome.APPLIED  # before the session and its messages
    early = await _doc(db, mid)
    assert early is not None and early["feedback"]["rating"] == "up" and "role" not in early
    outcomes = [await projector.apply(e) for e in events if e not in (up,)]
    assert outcomes.count(Outcome.STALE) == 1  # the older rating ("down") never overwrites "up"
    doc = await _doc(db, mid)
    assert doc is not None
    assert (doc["role"], doc["content"], doc["sequence_number"]) == ("assistant", "1,000만 원입니다.", 2)
    assert doc["feedback"] is None and doc["feedback_version"] == removed.version  # removal applied


async def test_duplicates_and_replays_change_nothing(db, engine):
    projector = ConversationProjector(db)
    await projector.prepare()
    _, mid, events = await _rated_exchange(engine)
    down, up, _ = _ratings(events)
    for event in events[:-1]:  # everything but the removal
        await projector.apply(event)
    first = await _doc(db, mid)
    assert first is not None and first["feedback"]["rating"] == "up"
    assert [await projector.apply(e) for e in (up, down, up)] == [Outcome.STALE] * 3
    messages = [e for e in events if e.event_type is EventType.MESSAGE_CREATED]
    assert [await projector.apply(e) for e in messages] == [Outcome.DUPLICATE] * 2
    assert await _doc(db, mid) == first
    replay = await projector.apply_many(events)
    assert replay[-1] is Outcome.APPLIED  # the removal, new
    assert Outcome.APPLIED not in await projector.apply_many(events)  # all of it again: nothing
    final = await _doc(db, mid)
    assert final is not None and final["feedback"] is None and final["role"] == "assistant"


async def test_a_batch_gives_the_documents_of_one_by_one(db, engine, settings):
    _, _, events = await _rated_exchange(engine)
    one = ConversationProjector(db.client[settings.mongodb_database + "_one"])
    many = ConversationProjector(db.client[settings.mongodb_database + "_many"])
    for p in (one, many):
        await p.prepare()
    for event in events:
        await one.apply(event)
    await many.apply_many(events)
    strip = {"_id": 0}
    docs_one = [d async for d in one._messages.find({}, strip).sort("message_id")]
    docs_many = [d async for d in many._messages.find({}, strip).sort("message_id")]
    assert docs_one == docs_many and len(docs_one) == 2
    await db.client.drop_database(settings.mongodb_database + "_one")
    await db.client.drop_database(settings.mongodb_database + "_many")


async def test_a_rating_after_its_session_was_deleted_is_not_written(db, engine):
    projector = ConversationProjector(db)
    await projector.prepare()
    sid, _, events = await _rated_exchange(engine)
    user = events[0].payload["userId"]
    await Conversations(engine).delete(sid, user, utcnow())
    everything = await _events(engine, sid)
    deletion = everything[-1]
    assert deletion.event_type is EventType.SESSION_DELETED
    await projector.apply(deletion)
    assert [await projector.apply(e) for e in _ratings(everything)] == [Outcome.SKIPPED] * 3
    assert await db[MESSAGES].count_documents({"session_id": sid}) == 0
