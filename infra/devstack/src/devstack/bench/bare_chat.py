"""The chat baseline: a bare FastAPI endpoint doing the store calls of one chat exchange.

Per request: one history read (the session's newest 100 messages), the model call (the same stand-in
model server chatbot-api calls), then one transaction with the session row lock (conditional
UPDATE, then its new state), the insert of the two messages and one outbox insert of the three
events. No auth, routing, budgets, rate limit, usage or cache: what chatbot-api adds is what the
throughput ratio measures. It calls the model with the HTTP client chatbot-api uses (aiohttp), so
the client's own cost is on both sides. `python -m devstack.bench.bare_chat --port N` (MYSQL_URL, MODEL_URL).
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime
from typing import Any

import aiohttp
from fastapi import FastAPI, Request
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import create_async_engine

from devstack.bench.model_server import serve
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.db.schema import outbox_events

engine = create_async_engine(os.environ["MYSQL_URL"] + "?charset=utf8mb4", pool_size=10, max_overflow=10)
model_url = os.environ["MODEL_URL"]
app = FastAPI()
http: dict[str, aiohttp.ClientSession] = {}


def client() -> aiohttp.ClientSession:
    if "session" not in http:  # made inside the server's event loop
        http["session"] = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=30))
    return http["session"]


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
    async with engine.connect() as conn:
        history = (await conn.execute(
            select(messages_t.c.role, messages_t.c.content)
            .where(messages_t.c.session_id == session_id)
            .order_by(messages_t.c.sequence_number.desc()).limit(100))).all()
        await conn.commit()
    turns = [{"role": r.role, "content": r.content} for r in reversed(history)]
    async with client().post(model_url, json={"model": "bench", "messages": [
            *turns, {"role": "user", "content": question}]}) as reply:
        answer = (await reply.json())["choices"][0]["message"]["content"]
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
    return {"response": answer, "conversationId": session_id}


def main() -> None:
    serve(app)


if __name__ == "__main__":
    main()
