"""Kafka down: writes still succeed, the outbox keeps the events, MongoDB catches up afterwards."""

from __future__ import annotations

import uuid

import httpx
import pytest
from pymongo import AsyncMongoClient
from sqlalchemy import func, select

from techai_shared.db.engine import make_engine
from techai_shared.db.schema import outbox_events
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.test_conversation_flow import chat

pytestmark = pytest.mark.e2e


async def _unpublished(mysql_url: str, session_ids: list[str]) -> int:
    engine = make_engine(CommonSettings(mysql_url=mysql_url))
    try:
        async with engine.connect() as conn:
            return (await conn.execute(
                select(func.count()).select_from(outbox_events).where(
                    outbox_events.c.published_at.is_(None),
                    outbox_events.c.aggregate_id.in_(session_ids)))).scalar_one()
    finally:
        await engine.dispose()


async def test_exchanges_written_while_kafka_is_down_reach_mongodb_after_it_returns(stack):
    user = uuid.uuid4().hex
    async with httpx.AsyncClient() as client:
        sid = (await chat(client, stack, user, "before the outage"))["conversationId"]
        stack.kafka.stop()
        sessions = {sid}
        for i in range(10):
            data = await chat(client, stack, user, f"during the outage {i}", sid if i % 2 else None)
            sessions.add(data["conversationId"])
        assert await _unpublished(stack.env["MYSQL_URL"], sorted(sessions)) > 0
        stack.restart_kafka()
    mongo: AsyncMongoClient = AsyncMongoClient(stack.env["MONGODB_URI"])
    coll = mongo[stack.env["MONGODB_DATABASE"]]["conversation_messages"]
    try:
        async def caught_up() -> bool:
            texts = {d["content"] async for d in coll.find({"session_id": {"$in": sorted(sessions)},
                                                            "role": "user"})}
            return {f"during the outage {i}" for i in range(10)} <= texts

        await eventually(caught_up, within=60, interval=0.5)
    finally:
        await mongo.close()
    assert await _unpublished(stack.env["MYSQL_URL"], sorted(sessions)) == 0
