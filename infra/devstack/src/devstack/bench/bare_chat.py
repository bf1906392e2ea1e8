"""The chat baseline: a bare FastAPI endpoint making the store calls and the model call of one chat
exchange, as chatbot-api makes them.

Per request: the rate limit's one Redis script call; one history read (the session's newest 100
messages); the model call with those that fit the same 2,000-token window chatbot-api gives a
prompt's history (so the model client gets as many messages on both sides); then one transaction
with the session's conditional UPDATE and its new state, the insert of the two messages, one
outbox insert of the three events and the day's usage upsert; and an outbox relay in the process
publishing those events to Kafka (on topics nothing consumes), as chatbot-api's relay does. No
auth, routing, validation, budgets, envelope or metrics: what chatbot-api adds is what the
throughput ratio measures. It calls the model through the same LangChain chat model chatbot-api
builds (chatbot_api.adapters.llm.build_chat_model, from the same CHATBOT_PROVIDER / OPENAI_* /
ANTHROPIC_* environment), so the client's own cost is on both sides.
`python -m devstack.bench.bare_chat --port N` (MYSQL_URL, REDIS_URL, KAFKA_*, the model's variables).
"""

from __future__ import annotations

import json
import os
import time
import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from redis.asyncio import Redis
from sqlalchemy import insert, select, update
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.ext.asyncio import create_async_engine

from chatbot_api.adapters.llm import build_chat_model, to_messages
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import ChatTurn, window_history
from chatbot_api.settings import ChatbotSettings
from devstack.bench.model_server import serve
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.db.schema import outbox_events, usage_daily

engine = create_async_engine(os.environ["MYSQL_URL"] + "?charset=utf8mb4", pool_size=10, max_overflow=10)
settings = ChatbotSettings()
model = build_chat_model(settings)
one_system = settings.chatbot_provider == "anthropic"
tokens = TokenCounter()
redis = Redis.from_url(settings.redis_url)
# the rate limit's fixed window, one round trip (as chatbot-api's RedisRateLimiter)
hit = redis.register_script("""
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
""")
usage = mysql_insert(usage_daily)
usage = usage.on_duplicate_key_update(
    requests=usage_daily.c.requests + usage.inserted.requests,
    prompt_tokens=usage_daily.c.prompt_tokens + usage.inserted.prompt_tokens,
    completion_tokens=usage_daily.c.completion_tokens + usage.inserted.completion_tokens,
    cost_usd=usage_daily.c.cost_usd + usage.inserted.cost_usd)
relay = OutboxRelay(engine, settings)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    relay.start()
    try:
        yield
    finally:
        await relay.stop()


app = FastAPI(lifespan=lifespan)


@app.post("/session")
async def new_session(request: Request) -> dict[str, Any]:
    body = await request.json()
    now = datetime.now(UTC)
    session_id = uuid.uuid4().hex
    async with engine.begin() as conn:
        await conn.execute(insert(sessions_t).values(
            session_id=session_id, user_id=body["userId"], title="bench", created_at=now,
            last_message_at=now, is_active=True, message_count=0, version=1))
    return {"conversationId": session_id}


@app.post("/chat")
async def chat(request: Request) -> dict[str, Any]:
    body = await request.json()
    session_id, user_id, question = body["conversationId"], body["userId"], body["message"]
    window_ms = 60_000
    await hit(keys=[f"ratelimit:bare:{user_id}:{int(time.time() * 1000) // window_ms}"], args=[window_ms])
    async with engine.connect() as conn:
        history = (await conn.execute(
            select(messages_t.c.role, messages_t.c.content)
            .where(messages_t.c.session_id == session_id)
            .order_by(messages_t.c.sequence_number.desc()).limit(100))).all()
        await conn.commit()
    window = window_history([ChatTurn(r.role, r.content) for r in reversed(history)],
                            settings.chatbot_history_token_window,
                            lambda t: tokens.count_message(t.role, t.content))
    turns = [*window, ChatTurn("user", question)]
    reply = await model.ainvoke(to_messages(turns, one_system=one_system))
    answer = reply.text
    counted = getattr(reply, "usage_metadata", None) or {}
    now = datetime.now(UTC)
    async with engine.begin() as conn:
        await conn.execute(
            update(sessions_t)
            .where(sessions_t.c.session_id == session_id, sessions_t.c.user_id == user_id)
            .values(message_count=sessions_t.c.message_count + 2, version=sessions_t.c.version + 3,
                    last_message_at=now))
        row = (await conn.execute(select(sessions_t).where(sessions_t.c.session_id == session_id))).one()
        rows = [{"message_id": uuid.uuid4().hex, "session_id": session_id, "role": role, "content": text,
                 "sequence_number": row.message_count - 1 + i, "token_count": len(text),
                 "sources": None, "created_at": now, "version": row.version - 2 + i}
                for i, (role, text) in enumerate((("user", question), ("assistant", answer)))]
        await conn.execute(insert(messages_t), rows)
        events = [{"event_id": uuid.uuid4().hex, "aggregate_type": "conversation",
                   "aggregate_id": session_id, "event_type": kind, "version": row.version - 2 + i,
                   "body": json.dumps({"payload": rows[min(i, 1)]}, default=str), "created_at": now}
                  for i, kind in enumerate(("ConversationMessageCreated", "ConversationMessageCreated",
                                            "ConversationSessionUpdated"))]
        await conn.execute(insert(outbox_events), events)
        await conn.execute(usage.values(
            user_id=user_id, day=now.date(), model=settings.model_name, requests=1,
            prompt_tokens=counted.get("input_tokens", 0),
            completion_tokens=counted.get("output_tokens", 0), cost_usd=0))
    relay.wake()
    return {"response": answer, "conversationId": session_id}


def main() -> None:
    serve(app)


if __name__ == "__main__":
    main()
