"""The query side: sessions and messages projected into MongoDB by query-sync."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.asynchronous.database import AsyncDatabase

from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.events.conversation import FeedbackState


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _message(doc: dict[str, Any]) -> StoredMessage:
    return StoredMessage(
        message_id=doc["message_id"],
        session_id=doc["session_id"],
        role=doc["role"],
        content=doc["content"],
        sequence_number=int(doc["sequence_number"]),
        token_count=int(doc.get("token_count") or 0),
        sources=list(doc.get("sources") or []),
        created_at=_utc(doc["created_at"]),
        parent_message_id=doc.get("parent_message_id"),
    )


def feedback_of(doc: dict[str, Any]) -> FeedbackState | None:
    """The rating projected into a message's document (`feedback`, snake_case), or None."""
    found = doc.get("feedback")
    return FeedbackState.model_validate(found) if found else None


def _session(doc: dict[str, Any]) -> SessionState:
    return SessionState(
        session_id=doc["session_id"],
        user_id=str(doc["user_id"]),
        title=doc["title"],
        created_at=_utc(doc["created_at"]),
        last_message_at=_utc(doc["last_message_at"]),
        is_active=bool(doc["is_active"]),
        message_count=int(doc["message_count"]),
        version=int(doc["version"]),
        path=tuple(doc.get("path") or ()),
    )


class MongoReadModel:
    """Reads of conversation_sessions and conversation_messages."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]]) -> None:
        self._sessions = db["conversation_sessions"]
        self._messages = db["conversation_messages"]

    async def messages_by_ids(self, session_id: str, ids: list[str]
                              ) -> list[tuple[StoredMessage, FeedbackState | None]]:
        """The projected messages among `ids` (a stretch of the session's path), with their
        ratings; a document holding only a rating (its message not projected yet) is left out."""
        cursor = self._messages.find(
            {"session_id": session_id, "message_id": {"$in": ids}, "role": {"$exists": True}},
            sort=[("sequence_number", ASCENDING)],
        )
        return [(_message(doc), feedback_of(doc)) async for doc in cursor]

    async def list_sessions(
        self, user_id: str, *, is_active: bool | None, offset: int, limit: int
    ) -> tuple[list[SessionState], int]:
        """The user's live sessions, most recent activity first, and how many there are."""
        query: dict[str, Any] = {"user_id": user_id, "is_deleted": {"$ne": True}}
        if is_active is not None:
            query["is_active"] = is_active
        total = await self._sessions.count_documents(query)
        cursor = self._sessions.find(
            query,
            sort=[("last_message_at", DESCENDING), ("session_id", DESCENDING)],
            skip=offset,
            limit=limit,
        )
        return [_session(doc) async for doc in cursor], total
