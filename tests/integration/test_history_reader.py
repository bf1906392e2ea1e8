"""History reads: MongoDB for what is projected, the command store for the rest, MySQL if Mongo is down."""

from __future__ import annotations

import uuid

import pytest
from sqlalchemy import select

from chatbot_api.adapters.read_model import MongoReadModel
from chatbot_api.bootstrap import unit_of_work
from chatbot_api.service_layer.feedback import FeedbackService
from chatbot_api.service_layer.sessions import SessionService
from query_sync.adapters.conversations import ConversationProjector
from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope
from techai_shared.mongo import make_mongo_client
from techai_shared.settings import CommonSettings
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


async def _events(engine, session_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        bodies = (await conn.execute(select(outbox_events.c.body)
                                     .where(outbox_events.c.aggregate_id == session_id)
                                     .order_by(outbox_events.c.id))).scalars().all()
    return [EventEnvelope.from_json(b) for b in bodies]


async def _first_exchange(engine) -> tuple[Conversations, str, str]:
    """A new user's session with one exchange ("q1", "a1") in the command store."""
    store = Conversations(engine)
    user = uuid.uuid4().hex
    sid = (await store.append_exchange(user, None, NewMessage("user", "q1", 1),
                                       NewMessage("assistant", "a1", 1), utcnow())).session.session_id
    return store, user, sid


async def _projector(db) -> ConversationProjector:
    projector = ConversationProjector(db)
    await projector.prepare()
    return projector


async def test_unprojected_turns_are_read_from_the_command_store(settings, engine):
    store, user, sid = await _first_exchange(engine)
    mongo = make_mongo_client(settings)
    db = mongo[settings.mongodb_database]
    projector = await _projector(db)
    for event in await _events(engine, sid):  # only the first exchange reaches MongoDB
        await projector.apply(event)
    await store.append_exchange(user, sid, NewMessage("user", "q2", 1), NewMessage("assistant", "a2", 1),
                                utcnow())
    try:
        reader = SessionService(unit_of_work(engine), MongoReadModel(db), utcnow)
        session, history = await reader.messages(sid, user, 1, 10)
        assert len(await MongoReadModel(db).messages_by_ids(sid, list(session.path))) == 2
        assert [(v.message.sequence_number, v.message.content, v.feedback) for v in history] == [
            (1, "q1", None), (2, "a1", None), (3, "q2", None), (4, "a2", None)]
        _, page = await reader.messages(sid, user, 2, 3)
        assert [v.message.content for v in page] == ["a1", "q2"]
    finally:
        await mongo.close()


async def test_history_falls_back_to_the_command_store_when_mongodb_is_down(settings, engine):
    _, user, sid = await _first_exchange(engine)
    down = CommonSettings(mongodb_uri="mongodb://127.0.0.1:1", mongodb_server_selection_timeout_ms=200)
    mongo = make_mongo_client(down)
    try:
        reader = SessionService(unit_of_work(engine), MongoReadModel(mongo["x"]), utcnow)
        _, history = await reader.messages(sid, user, 1, 10)
        assert [v.message.content for v in history] == ["q1", "a1"]
        sessions, total = await reader.list_sessions(user, is_active=None, offset=0, limit=10)
        assert total == 1 and sessions[0].session_id == sid
    finally:
        await mongo.close()


async def test_a_page_shows_the_command_stores_rating_whatever_the_read_model_holds(settings, engine):
    """A rating given (or removed) shows in the next read, and a later read never goes back to an
    older one: the read model's copy of a rating may lag behind the command store's."""
    _, user, sid = await _first_exchange(engine)
    mongo = make_mongo_client(settings)
    db = mongo[settings.mongodb_database]
    projector = await _projector(db)
    try:
        reader = SessionService(unit_of_work(engine), MongoReadModel(db), utcnow)
        ratings = FeedbackService(unit_of_work(engine), utcnow)
        _, (_, answer) = await reader.messages(sid, user, 1, 10)
        await ratings.rate(sid, answer.message.message_id, user, "down", ["outdated"], "old")
        for event in await _events(engine, sid):  # the messages and the rating reach MongoDB
            await projector.apply(event)
        await ratings.rate(sid, answer.message.message_id, user, "up", [], None)  # not projected
        _, history = await reader.messages(sid, user, 1, 10)
        assert [(v.message.content, v.feedback and v.feedback.rating) for v in history] == [
            ("q1", None), ("a1", "up")]
        assert await ratings.remove(sid, answer.message.message_id, user)  # not projected either
        _, history = await reader.messages(sid, user, 1, 10)
        assert [(v.message.content, v.feedback) for v in history] == [("q1", None), ("a1", None)]
        projected = await db["conversation_messages"].find_one(
            {"message_id": answer.message.message_id})
        assert projected is not None and projected["feedback"]["rating"] == "down"  # MongoDB lags
    finally:
        await mongo.close()
