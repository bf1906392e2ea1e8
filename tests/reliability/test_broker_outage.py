"""The broker stopped for 30 s while 50 users chat (every service a process): no chat request fails,
and after the broker returns (Tansu comes back empty: topics, logs and offsets forgotten) every event
reaches MongoDB. tests/e2e/test_kafka_outage.py is the one-user version of this."""

from __future__ import annotations

import asyncio
import time
import uuid

import httpx
import pytest
from sqlalchemy import func, select

from techai_shared.auth import mint_token
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import outbox_events
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack
from tests.reliability.support import assert_contiguous, converged

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# Below uvicorn's keep-alive timeout (5 s): a pooled connection the server has just closed would be
# a client-side ReadError, a race of HTTP keep-alive, not a failure of the service.
KEEPALIVE = 2.0
USERS, OUTAGE_SECONDS = 50, 30.0


async def _unpublished(mysql_url: str) -> int:
    engine = make_engine(CommonSettings(mysql_url=mysql_url))
    try:
        async with engine.connect() as conn:
            return (await conn.execute(select(func.count()).select_from(outbox_events)
                                       .where(outbox_events.c.published_at.is_(None)))).scalar_one()
    finally:
        await engine.dispose()


async def test_fifty_users_chat_through_a_30s_broker_outage_and_every_event_arrives(own_stack: Stack):
    stack = own_stack
    url = stack.url("chatbot") + "/api/v1/chatbot"
    users = [uuid.uuid4().hex for _ in range(USERS)]
    tokens = {u: {"Authorization": f"Bearer {mint_token(u, CommonSettings())}"} for u in users}
    failures: list[str] = []
    answered = 0

    async def chat(client: httpx.AsyncClient, user: str, message: str, sid: str | None) -> str | None:
        nonlocal answered
        body = {"message": message, **({"conversationId": sid} if sid else {})}
        try:
            r = await client.post(url, json=body, headers=tokens[user], timeout=30)
        except httpx.HTTPError as exc:
            failures.append(f"{user}: {type(exc).__name__}: {exc}")
            return None
        if r.status_code != 200:
            failures.append(f"{user}: {r.status_code} {r.text[:200]}")
            return None
        answered += 1
        return str(r.json()["data"]["conversationId"])

    def caught_up():  # type: ignore[no-untyped-def]
        return converged(stack.env["MYSQL_URL"], stack.env["MONGODB_URI"], stack.env["MONGODB_DATABASE"],
                         users)

    limits = httpx.Limits(max_connections=USERS + 10, keepalive_expiry=KEEPALIVE)
    async with httpx.AsyncClient(limits=limits) as client:
        first = await asyncio.gather(*(chat(client, u, "before the outage", None) for u in users))
        assert failures == [] and all(first), failures[:5]
        await eventually(caught_up, within=60, interval=0.5)

        stack.kafka.stop()
        end = time.monotonic() + OUTAGE_SECONDS

        async def keep_chatting(user: str, sid: str) -> None:
            turn = 0
            while time.monotonic() < end:
                # alternate between the existing session and a new one
                await chat(client, user, f"during the outage {turn}", sid if turn % 2 == 0 else None)
                turn += 1
                await asyncio.sleep(1.0)

        await asyncio.gather(*(keep_chatting(u, sid) for u, sid in zip(users, first, strict=True)
                               if sid is not None))
        assert failures == [], f"{len(failures)} failed: {failures[:5]}"
        assert answered >= USERS * 10, answered  # they did chat during the outage
        assert await _unpublished(stack.env["MYSQL_URL"]) > 0  # the outbox held the events
        stack.restart_kafka()

    command, mongo = await eventually(caught_up, within=120, interval=1.0)
    assert len(command.messages) == 2 * answered
    assert await _unpublished(stack.env["MYSQL_URL"]) == 0
    assert_contiguous(mongo)
