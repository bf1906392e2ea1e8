"""A client's view: conversations over HTTP flow command side -> outbox -> Kafka -> MongoDB."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest
from pymongo import AsyncMongoClient
from sqlalchemy import select

from techai_shared.auth import mint_token
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import conversation_messages
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack

pytestmark = pytest.mark.e2e


def headers(user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, CommonSettings())}"}


def mongo_messages(stack: Stack):  # type: ignore[no-untyped-def]
    client: AsyncMongoClient = AsyncMongoClient(stack.env["MONGODB_URI"])
    return client, client[stack.env["MONGODB_DATABASE"]]["conversation_messages"]


async def chat(client: httpx.AsyncClient, stack: Stack, user: str, message: str,
               sid: str | None = None) -> dict:  # type: ignore[type-arg]
    body = {"message": message, **({"conversationId": sid} if sid else {})}
    resp = await client.post(stack.url("chatbot") + "/api/v1/chatbot", json=body, headers=headers(user),
                             timeout=30)
    assert resp.status_code == 200, resp.text
    return resp.json()["data"]


async def test_three_turns_reach_mongodb_in_order_and_prompt_has_history(stack, llm):
    user = uuid.uuid4().hex
    async with httpx.AsyncClient() as client:
        sid = (await chat(client, stack, user, "대학생 AI 해커톤 있어?"))["conversationId"]
        await chat(client, stack, user, "그거 신청 마감은 언제야?", sid)
        before = len(llm.requests)
        await chat(client, stack, user, "Any prize money?", sid)
        prompt = llm.requests[before]["messages"]
        assert [m["content"] for m in prompt[1:]] == [
            "대학생 AI 해커톤 있어?", "echo: 대학생 AI 해커톤 있어?",
            "그거 신청 마감은 언제야?", "echo: 그거 신청 마감은 언제야?", "Any prize money?",
        ]
        mongo, coll = mongo_messages(stack)
        try:
            async def projected() -> bool:
                return await coll.count_documents({"session_id": sid}) == 6

            await eventually(projected, within=10)
        finally:
            await mongo.close()
        page = await client.get(f"{stack.url('chatbot')}/api/v1/chatbot/sessions/{sid}/messages",
                                headers=headers(user))
        messages = page.json()["data"]["messages"]
        assert [m["sequenceNumber"] for m in messages] == [1, 2, 3, 4, 5, 6]
        assert [m["role"] for m in messages] == ["user", "assistant"] * 3
        assert messages[4]["content"] == "Any prize money?"
        sessions = await client.get(f"{stack.url('chatbot')}/api/v1/chatbot/sessions", headers=headers(user))
        listed = sessions.json()["data"]
        assert listed["totalElements"] == 1 and listed["sessions"][0]["sessionId"] == sid
        assert listed["sessions"][0]["messageCount"] == 6


async def test_twenty_concurrent_messages_to_one_session_are_contiguous_everywhere(stack):
    user = uuid.uuid4().hex
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=40)) as client:
        sid = (await chat(client, stack, user, "start"))["conversationId"]
        await asyncio.gather(*(chat(client, stack, user, f"concurrent {i}", sid) for i in range(19)))
    engine = make_engine(CommonSettings(mysql_url=stack.env["MYSQL_URL"]))
    try:
        async with engine.connect() as conn:
            rows = (await conn.execute(
                select(conversation_messages.c.message_id, conversation_messages.c.sequence_number,
                       conversation_messages.c.content)
                .where(conversation_messages.c.session_id == sid)
                .order_by(conversation_messages.c.sequence_number))).all()
    finally:
        await engine.dispose()
    assert [r.sequence_number for r in rows] == list(range(1, 41))
    mongo, coll = mongo_messages(stack)
    try:
        async def projected() -> list:  # type: ignore[type-arg]
            docs = await coll.find({"session_id": sid}, sort=[("sequence_number", 1)]).to_list(None)
            return docs if len(docs) == 40 else []

        docs = await eventually(projected, within=15)
    finally:
        await mongo.close()
    assert [(d["message_id"], d["sequence_number"], d["content"]) for d in docs] == [
        (r.message_id, r.sequence_number, r.content) for r in rows
    ]
