"""The conversation projection: topic `<prefix>.conversation` -> conversation_sessions and
conversation_messages in MongoDB (PyMongo's async API).

Idempotent and monotonic, whatever the delivery order or how often an event comes:
- a session document changes only through a conditional upsert on `version`; when a document with
  this version or a newer one exists, the filter misses, the upsert's insert hits the unique
  `session_id` index, and the DuplicateKeyError means "stale event";
- a message is inserted if absent ($setOnInsert on the unique `message_id`), never updated;
- ConversationSessionDeleted leaves a tombstone (is_deleted, version kept) and removes the
  session's messages; a message arriving after its session's tombstone is not inserted, so any
  order of the same events ends in the same documents.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from query_sync.adapters.indexes import IndexSpec, ensure_indexes
from query_sync.adapters.versioned import upsert_if_newer
from query_sync.documents import message_document, session_document
from query_sync.errors import UnknownEvent
from query_sync.projection import Outcome
from techai_shared.clock import Clock, utcnow
from techai_shared.events import SCHEMA_VERSION, AggregateType, EventEnvelope, EventType

logger = logging.getLogger(__name__)

SESSIONS = "conversation_sessions"
MESSAGES = "conversation_messages"
DEFAULT_SESSIONS_TTL_SECONDS = 90 * 24 * 3600
DEFAULT_MESSAGES_TTL_SECONDS = 365 * 24 * 3600


def session_indexes(ttl_seconds: int) -> list[IndexSpec]:
    return [
        IndexSpec("uq_session_id", (("session_id", 1),), unique=True),
        IndexSpec("ix_user_active_last_message",
                  (("user_id", 1), ("is_active", 1), ("last_message_at", -1))),
        IndexSpec("ttl_last_message_at", (("last_message_at", 1),), expire_after_seconds=ttl_seconds),
    ]


def message_indexes(ttl_seconds: int) -> list[IndexSpec]:
    return [
        IndexSpec("uq_message_id", (("message_id", 1),), unique=True),
        IndexSpec("ix_session_sequence", (("session_id", 1), ("sequence_number", 1))),
        IndexSpec("ttl_created_at", (("created_at", 1),), expire_after_seconds=ttl_seconds),
    ]


class ConversationProjector:
    """Applies conversation events to the two collections; see the module docstring."""

    def __init__(
        self,
        db: AsyncDatabase[dict[str, Any]],
        *,
        sessions_ttl_seconds: int = DEFAULT_SESSIONS_TTL_SECONDS,
        messages_ttl_seconds: int = DEFAULT_MESSAGES_TTL_SECONDS,
        clock: Clock = utcnow,
    ) -> None:
        self._sessions = db[SESSIONS]
        self._messages = db[MESSAGES]
        self._sessions_ttl = sessions_ttl_seconds
        self._messages_ttl = messages_ttl_seconds
        self._clock = clock
        self._handlers: dict[EventType, Callable[[EventEnvelope], Awaitable[Outcome]]] = {
            EventType.SESSION_CREATED: self._upsert_session,
            EventType.SESSION_UPDATED: self._upsert_session,
            EventType.SESSION_DELETED: self._delete_session,
            EventType.MESSAGE_CREATED: self._insert_message,
        }

    async def prepare(self) -> None:
        """Create the indexes; the stale-event check relies on the unique session_id index."""
        await ensure_indexes(self._sessions, session_indexes(self._sessions_ttl))
        await ensure_indexes(self._messages, message_indexes(self._messages_ttl))

    async def apply(self, event: EventEnvelope) -> Outcome:
        """Apply one conversation event; UnknownEvent for anything this projector does not own."""
        handler = self._handlers.get(event.event_type)
        if handler is None or event.aggregate_type is not AggregateType.CONVERSATION:
            raise UnknownEvent(
                f"{event.aggregate_type.value}/{event.event_type.value} is not a conversation event"
            )
        if event.schema_version != SCHEMA_VERSION:
            raise UnknownEvent(f"schemaVersion {event.schema_version} is not supported")
        return await handler(event)

    async def _upsert_session(self, event: EventEnvelope) -> Outcome:
        document = session_document(event, self._clock())
        return await upsert_if_newer(
            self._sessions, "session_id", event.aggregate_id, event.version, document
        )

    async def _delete_session(self, event: EventEnvelope) -> Outcome:
        outcome = await self._upsert_session(event)
        # Always, even when stale: a crash between the tombstone and this line must heal on redelivery.
        await self._messages.delete_many({"session_id": event.aggregate_id})
        return outcome

    async def _insert_message(self, event: EventEnvelope) -> Outcome:
        document = message_document(event)
        if await self._is_deleted(event.aggregate_id):
            return Outcome.SKIPPED
        try:
            result = await self._messages.update_one(
                {"message_id": document["message_id"]}, {"$setOnInsert": document}, upsert=True
            )
        except DuplicateKeyError:  # a concurrent insert of the same message won
            return Outcome.DUPLICATE
        return Outcome.APPLIED if result.upserted_id is not None else Outcome.DUPLICATE

    async def _is_deleted(self, session_id: str) -> bool:
        found = await self._sessions.find_one(
            {"session_id": session_id, "is_deleted": True}, {"_id": 1}
        )
        return found is not None
