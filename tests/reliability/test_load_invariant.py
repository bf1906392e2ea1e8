"""Load invariant: 50 users x 20 messages at once, over four sessions each, every session shared by
concurrent requests (all services processes). Afterwards the command store and MongoDB hold exactly
1,000 exchanges (2,000 messages), each session numbered 1..n without gaps or duplicates, and every
message is in the read model. The rate limit is raised for it in the stack's settings (conftest)."""

from __future__ import annotations

import asyncio
import uuid

import httpx
import pytest
from pymongo import AsyncMongoClient

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack
from tests.reliability.support import MESSAGES, SESSIONS, assert_contiguous, command_view, converged

pytestmark = [pytest.mark.e2e, pytest.mark.slow]

# Below uvicorn's keep-alive timeout (5 s): a pooled connection the server has just closed would be
# a client-side ReadError, a race of HTTP keep-alive, not a failure of the service.
KEEPALIVE = 2.0
USERS, MESSAGES_PER_USER, SESSIONS_PER_USER = 50, 20, 4


def _unhandled(stack: Stack) -> str:
    """chatbot-api's log from its first unhandled error on (its traceback names the cause of a 500;
    the log goes with the test session's temporary folder)."""
    text = stack.log("chatbot").read_text(encoding="utf-8", errors="replace")
    first = text.find("unhandled error")
    return "no unhandled error in chatbot-api's log" if first < 0 else text[first:first + 6000]


async def _all_documents(stack: Stack) -> tuple[int, int]:
    client: AsyncMongoClient[dict[str, object]] = AsyncMongoClient(stack.env["MONGODB_URI"])
    try:
        db = client[stack.env["MONGODB_DATABASE"]]
        return await db[SESSIONS].count_documents({}), await db[MESSAGES].count_documents({})
    finally:
        await client.close()


async def test_fifty_users_times_twenty_messages_hold_the_invariant(own_stack: Stack):
    stack = own_stack
    url = stack.url("chatbot") + "/api/v1/chatbot"
    users = [uuid.uuid4().hex for _ in range(USERS)]
    failures: list[str] = []

    async def chat(client: httpx.AsyncClient, user: str, message: str, sid: str | None) -> str | None:
        body = {"message": message, **({"conversationId": sid} if sid else {})}
        headers = {"Authorization": f"Bearer {mint_token(user, CommonSettings())}"}
        try:
            r = await client.post(url, json=body, headers=headers, timeout=120)
        except httpx.HTTPError as exc:
            failures.append(f"{message}: {type(exc).__name__}: {exc}")
            return None
        if r.status_code != 200:
            failures.append(f"{message}: {r.status_code} {r.text[:200]}")
            return None
        return str(r.json()["data"]["conversationId"])

    async def user_load(client: httpx.AsyncClient, user: str) -> None:
        # the first message of each session at once, then the other 16 at once over the 4 sessions
        sids = await asyncio.gather(*(chat(client, user, f"{user} m{i}", None)
                                      for i in range(SESSIONS_PER_USER)))
        await asyncio.gather(*(chat(client, user, f"{user} m{i}", sids[i % SESSIONS_PER_USER])
                               for i in range(SESSIONS_PER_USER, MESSAGES_PER_USER)))

    limits = httpx.Limits(max_connections=200, keepalive_expiry=KEEPALIVE)
    async with httpx.AsyncClient(limits=limits) as client:
        await asyncio.gather(*(user_load(client, u) for u in users))
    assert failures == [], f"{len(failures)} failed: {failures[:5]}\n{_unhandled(stack)}"

    command = await command_view(stack.env["MYSQL_URL"])  # the whole (fresh) command store
    assert len(command.sessions) == USERS * SESSIONS_PER_USER
    assert len(command.messages) == 2 * USERS * MESSAGES_PER_USER  # 1,000 exchanges
    assert sum(count for _, count, _, _ in command.sessions.values()) == len(command.messages)
    assert_contiguous(command)
    asked = {content for _, _, role, content in command.messages.values() if role == "user"}
    assert asked == {f"{u} m{i}" for u in users for i in range(MESSAGES_PER_USER)}

    _, mongo = await eventually(
        lambda: converged(stack.env["MYSQL_URL"], stack.env["MONGODB_URI"],
                          stack.env["MONGODB_DATABASE"]), within=120, interval=1.0)
    assert mongo.duplicates == []
    assert_contiguous(mongo)
    assert await _all_documents(stack) == (USERS * SESSIONS_PER_USER, 2 * USERS * MESSAGES_PER_USER)
