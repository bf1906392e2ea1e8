"""Operators' review of ratings on command-api, from the read model: the list with its filters and
pages, a draft verified answer from a rating, the JSONL export, and the counts in /metrics."""

from __future__ import annotations

import argparse
import json
import uuid
from datetime import timedelta

import httpx
import pytest
from prometheus_client import REGISTRY
from sqlalchemy import select

from chatbot_api.adapters.unit_of_work import SqlChatUnitOfWork
from command_api.bootstrap import operations, unit_of_work
from command_api.entrypoints.app import create_app
from command_api.entrypoints.ops_cli import export_feedback
from command_api.service_layer.feedback_metrics import FeedbackMetrics
from command_api.settings import CommandSettings
from query_sync.adapters.conversations import ConversationProjector
from techai_shared.auth import mint_token
from techai_shared.clock import SEOUL, utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.schema import outbox_events
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.mongo import make_mongo_client
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


async def _rated(engine, db, rating: str, question: str) -> tuple[str, str]:
    """An exchange whose answer (citing a contest and a bookmark) is rated, projected into MongoDB:
    (the user, the answer's message id)."""
    user = uuid.uuid4().hex
    sources = [{"documentId": "c-0030", "collection": "contests", "title": "Agentic AI Build Week"},
               {"documentId": "b-0001", "collection": "bookmarks", "title": "내 북마크"}]
    written = await Conversations(engine).append_exchange(
        user, None, NewMessage("user", question, 5), NewMessage("assistant", "답변입니다", 3, sources),
        utcnow())
    async with SqlChatUnitOfWork(engine) as uow:
        await uow.feedback.put(written.assistant_message, user, rating, ["wrong"], "틀렸어요", utcnow())
        await uow.commit()
    async with engine.connect() as conn:
        bodies = (await conn.execute(select(outbox_events.c.body).where(
            outbox_events.c.aggregate_type == AggregateType.CONVERSATION.value,
            outbox_events.c.aggregate_id == written.session.session_id)
            .order_by(outbox_events.c.id))).scalars()
        events = [EventEnvelope.from_json(b) for b in bodies]
    projector = ConversationProjector(db)
    await projector.prepare()
    await projector.apply_many(events)
    return user, written.assistant_message.message_id


@pytest.fixture
async def db(settings):
    client = make_mongo_client(settings)
    yield client[settings.mongodb_database]
    await client.close()


async def test_review_draft_export_and_metrics(settings, engine, db, tmp_path):
    down_user, down_id = await _rated(engine, db, "down", "Agentic AI Build Week 상금은?")
    _, up_id = await _rated(engine, db, "up", "캠퍼스 AI 윈터 해커톤 언제야?")
    admin = {"Authorization": f"Bearer {mint_token('ops-1', settings, role='ADMIN')}"}
    today = utcnow().astimezone(SEOUL).date()
    app = create_app(CommandSettings(**settings.model_dump()))
    async with app.router.lifespan_context(app), httpx.AsyncClient(
            transport=httpx.ASGITransport(app=app), base_url="http://command-api") as api:
        downs = (await api.get(f"/api/v1/admin/feedback?rating=down&from={today}&to={today}",
                               headers=admin)).json()["data"]
        assert (downs["totalElements"], downs["pageSize"]) == (1, 20)
        entry = downs["feedback"][0]
        assert (entry["messageId"], entry["userId"], entry["rating"]) == (down_id, down_user, "down")
        assert (entry["question"], entry["answer"], entry["comment"], entry["reasons"]) == (
            "Agentic AI Build Week 상금은?", "답변입니다", "틀렸어요", ["wrong"])
        every = (await api.get("/api/v1/admin/feedback?size=1&page=1", headers=admin)).json()["data"]
        assert (every["totalElements"], every["totalPages"], len(every["feedback"])) == (2, 2, 1)
        assert every["feedback"][0]["messageId"] == down_id  # newest first: the down came first
        yesterday = today - timedelta(days=1)
        none = (await api.get(f"/api/v1/admin/feedback?to={yesterday}", headers=admin)).json()
        assert none["data"]["totalElements"] == 0
        backwards = await api.get(f"/api/v1/admin/feedback?from={today}&to={yesterday}",
                                  headers=admin)
        assert (backwards.status_code, backwards.json()["code"]) == (400, "4001")

        draft = await api.post(f"/api/v1/admin/feedback/{entry['feedbackId']}/verified-answer",
                               headers=admin)
        assert draft.status_code == 201, draft.text
        drafted = draft.json()["data"]
        # the contest only if it exists in the command store (it does not here), never a bookmark
        assert (drafted["status"], drafted["questions"], drafted["answer"], drafted["sources"],
                drafted["feedbackId"]) == ("draft", ["Agentic AI Build Week 상금은?"], "답변입니다",
                                           [], entry["feedbackId"])
        assert up_id

    ops = operations(CommandSettings(**settings.model_dump()), engine)
    try:
        out = tmp_path / "down.jsonl"
        args = argparse.Namespace(first=today, last=today, rating="down", out=str(out))
        assert await export_feedback(ops, args) == 0
        lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
        assert [line["messageId"] for line in lines] == [down_id]
    finally:
        await ops.close()

    await FeedbackMetrics(unit_of_work(engine), utcnow).refresh()
    day = utcnow().date().isoformat()
    for rating in ("down", "up"):
        assert REGISTRY.get_sample_value("feedback_ratings", {"rating": rating, "day": day}) == 1
