"""The chat baselines: a bare FastAPI endpoint making the store calls and the model call of one chat
exchange, as chatbot-api makes them.

`POST /chat`, a general turn. Per request: the rate limit's one Redis script call; one history read
(the session's newest 100 messages); the model call with those that fit the same 2,000-token
window chatbot-api gives a prompt's history (so the model client gets as many messages on both
sides); then one transaction with the session's conditional UPDATE and its new state, the insert of
the two messages, one outbox insert of the three events and the day's usage upsert; and an outbox
relay in the process publishing those events to Kafka (on topics nothing consumes), as chatbot-api's
relay does. No auth, routing, validation, budgets, envelope or metrics: what chatbot-api adds is
what the throughput ratio measures.

`POST /catalog`, a first-turn catalog question: the rate limit's script call, the question's
embedding (the same embedder chatbot-api builds, techai_shared.embeddings.make_embedder), one
matrix product per collection over the catalog's vectors (contests and news, read from MongoDB at
start) and the best five of each, the model call with them as context, then one transaction with
the new session, the two messages, the outbox insert and the usage upsert.

The model client is BARE_MODEL_CLIENT: `langchain` (default), the same LangChain chat model
chatbot-api builds (chatbot_api.adapters.llm.build_chat_model, from the same CHATBOT_PROVIDER /
OPENAI_* / ANTHROPIC_* environment), so the client's own cost is on both sides; or `sdk`, the
provider's own SDK called directly (`openai.AsyncOpenAI`, OpenAI's wire only), so the report shows
what LangChain's client adds over the SDK it wraps.
`python -m devstack.bench.bare_chat --port N` (MYSQL_URL, REDIS_URL, KAFKA_*, MONGODB_*, the model's
variables).
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

import numpy as np
from fastapi import FastAPI, Request
from openai import AsyncOpenAI
from pymongo import AsyncMongoClient
from redis.asyncio import Redis
from sqlalchemy import insert, select, update
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.ext.asyncio import AsyncConnection, create_async_engine

from chatbot_api.adapters.llm import build_chat_model, to_messages
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import ChatTurn, window_history
from chatbot_api.settings import ChatbotSettings
from devstack.bench.model_server import serve
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.db.schema import outbox_events, usage_daily
from techai_shared.embeddings import make_embedder

engine = create_async_engine(os.environ["MYSQL_URL"] + "?charset=utf8mb4", pool_size=10, max_overflow=10)
settings = ChatbotSettings()
CLIENT = os.environ.get("BARE_MODEL_CLIENT", "langchain")
if CLIENT not in ("langchain", "sdk") or (CLIENT == "sdk" and settings.chatbot_provider != "openai"):
    raise SystemExit(f"BARE_MODEL_CLIENT={CLIENT} with CHATBOT_PROVIDER={settings.chatbot_provider}: "
                     "the SDK baseline is OpenAI's wire only")
model = build_chat_model(settings) if CLIENT == "langchain" else None
sdk = (AsyncOpenAI(api_key=settings.model_api_key, base_url=settings.openai_base_url,
                   timeout=settings.chatbot_model_timeout_seconds,
                   max_retries=settings.chatbot_model_max_retries) if CLIENT == "sdk" else None)
one_system = settings.chatbot_provider == "anthropic"
embedder = make_embedder(settings)
catalog: dict[str, tuple[np.ndarray, list[dict[str, Any]]]] = {}  # collection -> vectors, fields
CATALOG = ("contests", "news_articles")
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


async def load_catalog() -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(settings.mongodb_uri)
    try:
        db = client[settings.mongodb_database]
        for name in CATALOG:
            docs = await db[name].find({}, {"_id": 0, "document_id": 1, "title": 1, "description": 1,
                                            "summary": 1, "url": 1, "embedding_vector": 1}).to_list()
            docs = [d for d in docs if d.get("embedding_vector")]
            matrix = np.asarray([d.pop("embedding_vector") for d in docs], dtype=np.float32)
            catalog[name] = (matrix, docs)
    finally:
        await client.close()


async def call_model(turns: list[ChatTurn]) -> tuple[str, int, int]:
    """The answer and the input and output tokens, through the configured client."""
    if sdk is not None:
        completion = await sdk.chat.completions.create(
            model=settings.model_name, max_tokens=settings.chatbot_model_max_output_tokens,
            temperature=settings.chatbot_model_temperature,
            messages=[{"role": t.role, "content": t.content} for t in turns])  # type: ignore[misc]
        used = completion.usage
        return (completion.choices[0].message.content or "", used.prompt_tokens if used else 0,
                used.completion_tokens if used else 0)
    assert model is not None
    reply = await model.ainvoke(to_messages(turns, one_system=one_system))
    counted = getattr(reply, "usage_metadata", None) or {}
    return reply.text, counted.get("input_tokens", 0), counted.get("output_tokens", 0)


@asynccontextmanager
async def lifespan(app: FastAPI) -> AsyncIterator[None]:
    await load_catalog()
    await embedder.warm_up()
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
    answer, input_tokens, output_tokens = await call_model(turns)
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
        await _events_and_usage(conn, session_id, user_id, rows, row.version - 2, now,
                                ("ConversationMessageCreated", "ConversationMessageCreated",
                                 "ConversationSessionUpdated"), input_tokens, output_tokens)
    relay.wake()
    return {"response": answer, "conversationId": session_id}


async def _events_and_usage(conn: AsyncConnection, session_id: str, user_id: str,
                            rows: list[dict[str, Any]], first_version: int, now: datetime,
                            kinds: tuple[str, ...], input_tokens: int, output_tokens: int) -> None:
    """The turn's events into the outbox (each carrying the message it is about, the last one the
    reply) and the day's usage upsert, in the caller's transaction."""
    events = [{"event_id": uuid.uuid4().hex, "aggregate_type": "conversation",
               "aggregate_id": session_id, "event_type": kind, "version": first_version + i,
               "body": json.dumps({"payload": rows[min(i, 1)]}, default=str), "created_at": now}
              for i, kind in enumerate(kinds)]
    await conn.execute(insert(outbox_events), events)
    await conn.execute(usage.values(
        user_id=user_id, day=now.date(), model=settings.model_name, requests=1,
        prompt_tokens=input_tokens, completion_tokens=output_tokens, cost_usd=0))


@app.post("/catalog")
async def catalog_turn(request: Request) -> dict[str, Any]:
    body = await request.json()
    user_id, question = body["userId"], body["message"]
    window_ms = 60_000
    await hit(keys=[f"ratelimit:bare:{user_id}:{int(time.time() * 1000) // window_ms}"], args=[window_ms])
    query = np.asarray(await embedder.embed_query(question), dtype=np.float32)
    found = []
    for matrix, docs in catalog.values():  # one product per collection, its best five
        scores = matrix @ query
        best = np.argpartition(-scores, min(5, len(docs) - 1))[:5]
        found += [docs[int(i)] for i in best[np.argsort(-scores[best])]]
    context = "\n\n".join(f"[{i + 1}] {d.get('title', '')}\n{d.get('description') or d.get('summary') or ''}"
                           for i, d in enumerate(found))
    turns = [ChatTurn("system", f"Answer from these sources, citing them by number.\n\n{context}"),
             ChatTurn("user", question)]
    answer, input_tokens, output_tokens = await call_model(turns)
    now = datetime.now(UTC)
    session_id = uuid.uuid4().hex
    rows = [{"message_id": uuid.uuid4().hex, "session_id": session_id, "role": role, "content": text,
             "sequence_number": i, "token_count": len(text),
             "sources": [d["document_id"] for d in found] if role == "assistant" else None,
             "created_at": now, "version": 2 + i}
            for i, (role, text) in enumerate((("user", question), ("assistant", answer)))]
    async with engine.begin() as conn:
        await conn.execute(insert(sessions_t).values(
            session_id=session_id, user_id=user_id, title=question[:50], created_at=now,
            last_message_at=now, is_active=True, message_count=2, version=4))
        await conn.execute(insert(messages_t), rows)
        await _events_and_usage(conn, session_id, user_id, rows, 1, now,
                                ("ConversationSessionCreated", "ConversationMessageCreated",
                                 "ConversationMessageCreated"), input_tokens, output_tokens)
    relay.wake()
    return {"response": answer, "conversationId": session_id,
            "sources": [d["document_id"] for d in found]}


def main() -> None:
    serve(app)


if __name__ == "__main__":
    main()
