"""The chat baseline: a bare FastAPI endpoint doing the store calls of one chat exchange.

Per request: one history read (the session's newest 100 messages), the model call with those of
them that fit the same 2,000-token window chatbot-api gives a prompt's history (so the model client
gets as many messages on both sides), then one
transaction with the session row lock (conditional UPDATE, then its new state), the insert of the
two messages and one outbox insert of the three events. No auth, routing, budgets, rate limit, usage
or cache: what chatbot-api adds is what the throughput ratio measures. It calls the model through
the same LangChain chat model chatbot-api builds (chatbot_api.adapters.llm.build_chat_model, from
the same CHATBOT_PROVIDER / OPENAI_* / ANTHROPIC_* environment), so the client's own cost is on both
sides. `python -m devstack.bench.bare_chat --port N` (MYSQL_URL and the model's variables).
"""

from __future__ import annotations

import json
import os
import uuid
from datetime import UTC, datetime
from typing import Any

from fastapi import FastAPI, Request
from sqlalchemy import insert, select, update
from sqlalchemy.ext.asyncio import create_async_engine

from chatbot_api.adapters.llm import build_chat_model, to_messages
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import ChatTurn, window_history
from chatbot_api.settings import ChatbotSettings
from devstack.bench.model_server import serve
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.db.schema import outbox_events

engine = create_async_engine(os.environ["MYSQL_URL"] + "?charset=utf8mb4", pool_size=10, max_overflow=10)
settings = ChatbotSettings()
model = build_chat_model(settings)
one_system = settings.chatbot_provider == "anthropic"
tokens = TokenCounter()
app = FastAPI()


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
    window = window_history([ChatTurn(r.role, r.content) for r in reversed(history)],
                            settings.chatbot_history_token_window,
                            lambda t: tokens.count_message(t.role, t.content))
    turns = [*window, ChatTurn("user", question)]
    answer = (await model.ainvoke(to_messages(turns, one_system=one_system))).text
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
