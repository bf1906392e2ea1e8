"""What the reliability suite compares: the command store (MariaDB) against the read model (MongoDB).

`command_view` and `mongo_view` render both sides in the same shape, so a test asserts equality
of the whole conversation state instead of sampling it; `assert_contiguous` checks the sequence
numbers of every session (1..n, no gap, no duplicate).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient
from sqlalchemy import select

from techai_shared.db.engine import make_engine
from techai_shared.db.schema import conversation_messages, conversation_sessions
from techai_shared.settings import CommonSettings

SESSIONS = "conversation_sessions"
MESSAGES = "conversation_messages"


@dataclass(frozen=True)
class View:
    """sessions: session_id -> (user_id, message_count, version, deleted);
    messages: message_id -> (session_id, sequence_number, role, content)."""

    sessions: dict[str, tuple[str, int, int, bool]]
    messages: dict[str, tuple[str, int, str, str]]
    duplicates: list[str]  # message ids stored more than once (only MongoDB can show any)

    def sequences(self) -> dict[str, list[int]]:
        seqs: dict[str, list[int]] = {}
        for session_id, seq, _, _ in self.messages.values():
            seqs.setdefault(session_id, []).append(seq)
        return {sid: sorted(values) for sid, values in seqs.items()}


async def command_view(mysql_url: str, user_ids: list[str] | None = None) -> View:
    engine = make_engine(CommonSettings(mysql_url=mysql_url))
    s, m = conversation_sessions.c, conversation_messages.c
    try:
        async with engine.connect() as conn:
            query = select(s.session_id, s.user_id, s.message_count, s.version, s.deleted_at)
            if user_ids is not None:
                query = query.where(s.user_id.in_(user_ids))
            sessions = {r.session_id: (r.user_id, r.message_count, r.version, r.deleted_at is not None)
                        for r in await conn.execute(query)}
            rows = [] if not sessions else list(await conn.execute(
                select(m.message_id, m.session_id, m.sequence_number, m.role, m.content)
                .where(m.session_id.in_(list(sessions)))))
    finally:
        await engine.dispose()
    messages = {r.message_id: (r.session_id, r.sequence_number, r.role, r.content) for r in rows}
    return View(sessions, messages, [])


async def mongo_view(uri: str, database: str, session_ids: list[str]) -> View:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri, serverSelectionTimeoutMS=3000)
    try:
        db = client[database]
        sessions = {d["session_id"]: (d["user_id"], d["message_count"], d["version"],
                                      bool(d.get("is_deleted")))
                    async for d in db[SESSIONS].find({"session_id": {"$in": session_ids}})}
        docs = await db[MESSAGES].find({"session_id": {"$in": session_ids}}).to_list(None)
    finally:
        await client.close()
    counts = Counter(d["message_id"] for d in docs)
    messages = {d["message_id"]: (d["session_id"], d["sequence_number"], d["role"], d["content"])
                for d in docs}
    return View(sessions, messages, sorted(k for k, n in counts.items() if n > 1))


def assert_contiguous(view: View) -> None:
    """Every session's messages are numbered 1..message_count, without gaps or duplicates."""
    seqs = view.sequences()
    for session_id, (_, count, _, deleted) in view.sessions.items():
        if deleted:
            continue
        assert seqs.get(session_id, []) == list(range(1, count + 1)), (session_id, seqs.get(session_id))


async def converged(mysql_url: str, mongo_uri: str, database: str,
                    user_ids: list[str] | None = None) -> tuple[View, View] | None:
    """Both views when MongoDB holds exactly what the command store holds, else None."""
    command = await command_view(mysql_url, user_ids)
    mongo = await mongo_view(mongo_uri, database, list(command.sessions))
    if mongo.sessions == command.sessions and mongo.messages == command.messages and not mongo.duplicates:
        return command, mongo
    return None
