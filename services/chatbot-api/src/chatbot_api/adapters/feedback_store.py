"""Ratings of answers on the command store (table message_feedback), with their events.

One row per rated message. A rating, a replacement and a removal each advance the row's `version`
and add a ConversationMessageFeedbackChanged with the rating's full state to the outbox, in the
caller's transaction. The caller holds the session's row lock (SessionRepository.get_owned with
for_update), so two changes to ratings of one session never interleave.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from techai_shared.conversation.events import feedback_event
from techai_shared.conversation.model import StoredMessage
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import message_feedback as feedback_t
from techai_shared.db.unit_of_work import Outbox
from techai_shared.events.conversation import FeedbackState
from techai_shared.ids import new_id


def _state(row: Row[Any]) -> FeedbackState:
    return FeedbackState(feedback_id=row.feedback_id, rating=row.rating, reasons=list(row.reasons),
                         comment=row.comment, created_at=row.created_at, updated_at=row.updated_at)


class SqlFeedbackRepository:
    def __init__(self, conn: AsyncConnection, outbox: Outbox) -> None:
        self._conn = conn
        self._outbox = outbox

    async def message(self, session_id: str, message_id: str) -> StoredMessage | None:
        """The session's message with this id, or None."""
        row = (await self._conn.execute(select(messages_t).where(
            messages_t.c.message_id == message_id, messages_t.c.session_id == session_id))).first()
        if row is None:
            return None
        return StoredMessage(message_id=row.message_id, session_id=row.session_id, role=row.role,
                             content=row.content, sequence_number=row.sequence_number,
                             token_count=row.token_count, sources=list(row.sources or []),
                             created_at=row.created_at, version=row.version)

    async def get(self, message_id: str) -> FeedbackState | None:
        """The message's live rating, or None."""
        row = await self._row(message_id)
        return _state(row) if row is not None and row.deleted_at is None else None

    async def for_messages(self, message_ids: list[str]) -> dict[str, FeedbackState]:
        """The live ratings of these messages, by message id."""
        if not message_ids:
            return {}
        rows = (await self._conn.execute(select(feedback_t).where(
            feedback_t.c.message_id.in_(message_ids), feedback_t.c.deleted_at.is_(None)))).all()
        return {r.message_id: _state(r) for r in rows}

    async def put(self, message: StoredMessage, user_id: str, rating: str, reasons: list[str],
                  comment: str | None, now: datetime) -> FeedbackState:
        """Rate the message, replacing its rating if it has one."""
        row = await self._row(message.message_id)
        values: dict[str, Any] = {"rating": rating, "reasons": reasons, "comment": comment, "updated_at": now,
                  "deleted_at": None}
        if row is None:
            values |= {"feedback_id": new_id(), "message_id": message.message_id,
                       "session_id": message.session_id, "user_id": user_id, "version": 1,
                       "created_at": now}
            await self._conn.execute(insert(feedback_t).values(values))
        else:
            if row.deleted_at is not None:  # rated again after a removal: a new rating
                values["created_at"] = now
            values["version"] = row.version + 1
            await self._conn.execute(update(feedback_t).where(
                feedback_t.c.message_id == message.message_id).values(values))
        stored = await self._row(message.message_id)
        assert stored is not None
        await self._outbox.add([feedback_event(stored._asdict(), now)])
        return _state(stored)

    async def remove(self, message_id: str, now: datetime) -> bool:
        """Remove the message's rating; False when it had none."""
        row = await self._row(message_id)
        if row is None or row.deleted_at is not None:
            return False
        await self._conn.execute(update(feedback_t).where(feedback_t.c.message_id == message_id)
                                 .values(deleted_at=now, updated_at=now, version=row.version + 1))
        stored = await self._row(message_id)
        assert stored is not None
        await self._outbox.add([feedback_event(stored._asdict(), now)])
        return True

    async def _row(self, message_id: str) -> Row[Any] | None:
        return (await self._conn.execute(
            select(feedback_t).where(feedback_t.c.message_id == message_id))).first()
