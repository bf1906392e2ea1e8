"""Ratings of answers through chatbot-api in process (ASGI) on the real MariaDB, SecantusDB and
Redis: who may rate what, validation, replacement and removal, each change with its event."""

from __future__ import annotations

import uuid
from typing import Any

import pytest
from sqlalchemy import func, select

from techai_shared.db.schema import message_feedback, outbox_events
from techai_shared.events import EventEnvelope, EventType
from tests.support.chat import auth, chat_client, chat_settings

pytestmark = pytest.mark.integration


@pytest.fixture
async def client(settings):
    async with chat_client(chat_settings(settings), catalog=False) as (http, _):
        yield http


async def _exchange(client, settings, user: str) -> tuple[str, str, str]:
    """A new session of `user` with one exchange: (session id, question id, answer id)."""
    resp = await client.post("/api/v1/chatbot", json={"message": "다음 달 해커톤 알려줘"},
                             headers=auth(settings, user))
    assert resp.status_code == 200, resp.text
    data = resp.json()["data"]
    history = await client.get(f"/api/v1/chatbot/sessions/{data['conversationId']}/messages",
                               headers=auth(settings, user))
    question, answer = history.json()["data"]["messages"]
    assert answer["messageId"] == data["messageId"] and answer["role"] == "assistant"
    return data["conversationId"], question["messageId"], answer["messageId"]


async def _feedback_events(engine, session_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        bodies = (await conn.execute(select(outbox_events.c.body).where(
            outbox_events.c.aggregate_id == session_id,
            outbox_events.c.event_type == EventType.FEEDBACK_CHANGED.value)
            .order_by(outbox_events.c.id))).scalars().all()
    return [EventEnvelope.from_json(b) for b in bodies]


async def _rows(engine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(select(func.count()).select_from(message_feedback))).scalar_one()


def _path(session_id: str, message_id: str) -> str:
    return f"/api/v1/chatbot/sessions/{session_id}/messages/{message_id}/feedback"


async def test_rating_replacing_and_removing_an_answer_each_emit_the_full_state(client, settings,
                                                                                engine):
    user = uuid.uuid4().hex
    sid, _, answer = await _exchange(client, settings, user)
    down = {"rating": "down", "comment": "  마감일이\n틀렸어요 ", "reasons": ["wrong", "wrong", "outdated"]}
    first = await client.put(_path(sid, answer), json=down, headers=auth(settings, user))
    assert first.status_code == 200, first.text
    rated = first.json()["data"]
    assert (rated["rating"], rated["reasons"], rated["comment"]) == (
        "down", ["wrong", "outdated"], "마감일이 틀렸어요")
    second = await client.put(_path(sid, answer), json={"rating": "up"}, headers=auth(settings, user))
    assert second.json()["data"]["feedbackId"] == rated["feedbackId"]
    assert (second.json()["data"]["rating"], second.json()["data"]["comment"]) == ("up", None)
    removed = await client.delete(_path(sid, answer), headers=auth(settings, user))
    assert removed.status_code == 200 and removed.json()["data"] is None
    again = await client.delete(_path(sid, answer), headers=auth(settings, user))
    assert again.status_code == 200

    events = await _feedback_events(engine, sid)
    assert [e.version for e in events] == [1, 2, 3]  # the second removal changed nothing
    assert [(e.payload["feedback"] or {}).get("rating") for e in events] == ["down", "up", None]
    assert {e.payload["messageId"] for e in events} == {answer}
    assert events[0].payload["userId"] == user
    # history read from the command store (no query-sync here) shows the rating, then none
    await client.put(_path(sid, answer), json=down, headers=auth(settings, user))
    history = await client.get(f"/api/v1/chatbot/sessions/{sid}/messages",
                               headers=auth(settings, user))
    question_doc, answer_doc = history.json()["data"]["messages"]
    assert question_doc["feedback"] is None
    assert answer_doc["feedback"]["rating"] == "down"
    assert answer_doc["feedback"]["reasons"] == ["wrong", "outdated"]


async def test_only_the_owner_rates_and_only_answers_of_live_sessions(client, settings, engine):
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    sid, question, answer = await _exchange(client, settings, owner)
    before = await _rows(engine)
    body = {"rating": "down"}
    stranger = await client.put(_path(sid, answer), json=body, headers=auth(settings, other))
    assert (stranger.status_code, stranger.json()["code"]) == (403, "4031")
    stranger_delete = await client.delete(_path(sid, answer), headers=auth(settings, other))
    assert stranger_delete.status_code == 403
    on_question = await client.put(_path(sid, question), json=body, headers=auth(settings, owner))
    assert (on_question.status_code, on_question.json()["code"]) == (400, "4001")
    missing_message = await client.put(_path(sid, str(uuid.uuid4())), json=body,
                                       headers=auth(settings, owner))
    assert (missing_message.status_code, missing_message.json()["code"]) == (404, "4044")
    missing_session = await client.put(_path(str(uuid.uuid4()), answer), json=body,
                                       headers=auth(settings, owner))
    assert (missing_session.status_code, missing_session.json()["code"]) == (404, "4041")
    await client.delete(f"/api/v1/chatbot/sessions/{sid}", headers=auth(settings, owner))
    deleted = await client.put(_path(sid, answer), json=body, headers=auth(settings, owner))
    assert (deleted.status_code, deleted.json()["code"]) == (404, "4041")
    assert await _rows(engine) == before and await _feedback_events(engine, sid) == []


@pytest.mark.parametrize("body", [
    {},
    {"rating": "meh"},
    {"rating": "UP"},
    {"rating": "down", "comment": "x" * 1001},
    {"rating": "down", "reasons": ["boring"]},
    {"rating": "down", "reasons": "wrong"},
    {"rating": 1},
    {"rating": "down", "extra": {"userId": "someone-else"}, "comment": 5},
])
async def test_invalid_ratings_are_400_and_store_nothing(client, settings, engine, body: Any):
    user = uuid.uuid4().hex
    sid, _, answer = await _exchange(client, settings, user)
    resp = await client.put(_path(sid, answer), json=body, headers=auth(settings, user))
    assert (resp.status_code, resp.json()["code"]) == (400, "4001"), resp.text
    assert await _feedback_events(engine, sid) == []


async def test_a_comment_of_a_thousand_characters_is_kept_whole(client, settings):
    user = uuid.uuid4().hex
    sid, _, answer = await _exchange(client, settings, user)
    comment = "가" * 1000
    resp = await client.put(_path(sid, answer), json={"rating": "down", "comment": comment},
                            headers=auth(settings, user))
    assert resp.status_code == 200 and resp.json()["data"]["comment"] == comment


async def test_feedback_needs_a_token(client):
    resp = await client.put(_path(str(uuid.uuid4()), str(uuid.uuid4())), json={"rating": "up"})
    assert (resp.status_code, resp.json()["code"]) == (401, "4011")
