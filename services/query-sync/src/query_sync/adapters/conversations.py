"""The conversation projection: topic `<prefix>.conversation` -> conversation_sessions and
conversation_messages in MongoDB (PyMongo's async API).

Idempotent and monotonic, whatever the delivery order or how often an event comes:
- a session document changes only through a conditional upsert on `version`; when a document with
  this version or a newer one exists, the filter misses, the upsert's insert hits the unique
  `session_id` index, and the DuplicateKeyError means "stale event";
- a message is inserted if absent ($setOnInsert on the unique `message_id`), never updated
  afterwards, except to fill in a document that a rating created before its message (one without
  a `role`): a second, conditional update, only where the insert found a document;
- a rating (ConversationMessageFeedbackChanged) is set on its message's document only if newer
  than the rating there (`feedback_version`, the rating's own version); a rating that arrives
  before its message creates the document with the rating alone, and the message fills it in;
- ConversationSessionDeleted leaves a tombstone (is_deleted, version kept) and removes the
  session's messages; a message or a rating arriving after its session's tombstone is not
  written, so any order of the same events ends in the same documents.

apply_many() gives the same documents and outcomes as apply() on each event in order, in three round
trips per run of events between deletions instead of about five per exchange: one read of the run's
sessions (version, tombstone), one unordered bulk write of the newest version of each session, one
of the messages. Ratings are applied one by one in their place (they are rare). A lower version of a
session superseded within the run is reported as apply() would have reported it: APPLIED if it is
newer than the stored version, STALE otherwise. A deletion (any session event that leaves a
tombstone) is applied on its own, in its place, so the messages after it see its tombstone.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from datetime import datetime
from typing import Any

from pymongo import UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError, DuplicateKeyError

from query_sync.adapters.indexes import IndexSpec, ensure_indexes
from query_sync.adapters.versioned import upsert_if_newer
from query_sync.documents import feedback_document, message_document, session_document
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
        IndexSpec("ix_session_parent", (("session_id", 1), ("parent_message_id", 1))),
        IndexSpec("ttl_created_at", (("created_at", 1),), expire_after_seconds=ttl_seconds),
        IndexSpec("ix_feedback_updated", (("feedback.updated_at", -1),)),  # operators' review
    ]


DUPLICATE_KEY = 11000


class ConversationProjector:
    """Applies conversation events to the two collections; see the module docstring."""

    max_batch = 200  # events the consumer hands to apply_many() at once

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
            EventType.FEEDBACK_CHANGED: self._set_feedback,
        }

    async def prepare(self) -> None:
        """Create the indexes; the stale-event check relies on the unique session_id index."""
        await ensure_indexes(self._sessions, session_indexes(self._sessions_ttl))
        await ensure_indexes(self._messages, message_indexes(self._messages_ttl))

    async def apply(self, event: EventEnvelope) -> Outcome:
        """Apply one conversation event; UnknownEvent for anything this projector does not own."""
        return await self._handler(event)(event)

    def _handler(self, event: EventEnvelope) -> Callable[[EventEnvelope], Awaitable[Outcome]]:
        handler = self._handlers.get(event.event_type)
        if handler is None or event.aggregate_type is not AggregateType.CONVERSATION:
            raise UnknownEvent(
                f"{event.aggregate_type.value}/{event.event_type.value} is not a conversation event"
            )
        if event.schema_version != SCHEMA_VERSION:
            raise UnknownEvent(f"schemaVersion {event.schema_version} is not supported")
        return handler

    async def apply_many(self, events: Sequence[EventEnvelope]) -> list[Outcome]:
        """apply() on each event in order, in bulk (see the module docstring). Raises like apply()
        (poison, invalid payload, store errors); the consumer then applies the run one by one."""
        for event in events:
            self._handler(event)
        outcomes: list[Outcome] = []
        run: list[EventEnvelope] = []
        for event in events:
            if event.event_type in (EventType.SESSION_DELETED, EventType.FEEDBACK_CHANGED) or (
                    event.event_type is not EventType.MESSAGE_CREATED
                    and event.payload.get("deletedAt")):  # a tombstone however it comes
                outcomes += await self._apply_run(run)
                run = []
                outcomes.append(await self.apply(event))
            else:
                run.append(event)
        outcomes += await self._apply_run(run)
        return outcomes

    async def _apply_run(self, events: Sequence[EventEnvelope]) -> list[Outcome]:
        """Session upserts and message inserts with no deletion among them."""
        if not events:
            return []
        now = self._clock()
        stored = {doc["session_id"]: doc async for doc in self._sessions.find(
            {"session_id": {"$in": sorted({e.aggregate_id for e in events})}},
            {"session_id": 1, "version": 1, "is_deleted": 1, "_id": 0})}
        outcomes: list[Outcome | None] = [None] * len(events)
        newest: dict[str, int] = {}  # session id -> index of its highest version in the run
        messages: list[tuple[int, dict[str, Any]]] = []
        for i, event in enumerate(events):
            if event.event_type is EventType.MESSAGE_CREATED:
                messages.append((i, message_document(event)))
                continue
            session_document(event, now)  # validates the payload before anything is written
            best = newest.get(event.aggregate_id)
            if best is None or events[best].version < event.version:
                if best is not None:  # superseded within the run
                    outcomes[best] = self._superseded(events[best], stored)
                newest[event.aggregate_id] = i
            else:
                outcomes[i] = self._superseded(event, stored)
        for i, outcome in zip(newest.values(), await self._upsert_sessions(
                [events[i] for i in newest.values()], now), strict=True):
            outcomes[i] = outcome
        deleted = {sid for sid, doc in stored.items() if doc.get("is_deleted")}
        for (i, _), outcome in zip(messages, await self._insert_messages(events, messages, deleted),
                                   strict=True):
            outcomes[i] = outcome
        return [o if o is not None else Outcome.APPLIED for o in outcomes]

    async def _upsert_sessions(self, events: list[EventEnvelope], now: datetime) -> list[Outcome]:
        """The newest version of each session, as upsert_if_newer() would write it."""
        if not events:
            return []
        requests = [UpdateOne({"session_id": e.aggregate_id, "version": {"$lt": e.version}},
                              {"$set": session_document(e, now)}, upsert=True) for e in events]
        outcomes = [Outcome.APPLIED] * len(events)
        try:
            await self._sessions.bulk_write(requests, ordered=False)
        except BulkWriteError as exc:
            for error in exc.details.get("writeErrors", []):
                if error.get("code") != DUPLICATE_KEY:
                    raise
                # stale, or a concurrent first insert: decided as the single upsert decides it
                outcomes[error["index"]] = await self._upsert_session(events[error["index"]])
        return outcomes

    @staticmethod
    def _superseded(event: EventEnvelope, stored: dict[str, dict[str, Any]]) -> Outcome:
        """What apply() would have said of a session event a newer one in the run replaces."""
        before = stored.get(event.aggregate_id, {}).get("version", 0)
        return Outcome.APPLIED if event.version > before else Outcome.STALE

    async def _insert_messages(self, events: Sequence[EventEnvelope],
                               messages: list[tuple[int, dict[str, Any]]],
                               deleted: set[str]) -> list[Outcome]:
        """Insert-if-absent of each message whose session has no tombstone; where a document was
        there already, fill it in if it holds only a rating."""
        if not messages:
            return []
        live = [(n, doc) for n, (i, doc) in enumerate(messages)
                if events[i].aggregate_id not in deleted]
        outcomes = [Outcome.SKIPPED] * len(messages)
        if not live:
            return outcomes
        for n, _ in live:
            outcomes[n] = Outcome.DUPLICATE
        requests = [UpdateOne({"message_id": doc["message_id"]}, {"$setOnInsert": doc}, upsert=True)
                    for _, doc in live]
        try:
            result = await self._messages.bulk_write(requests, ordered=False)
            upserted = set(result.upserted_ids or {})
        except BulkWriteError as exc:
            if any(e.get("code") != DUPLICATE_KEY for e in exc.details.get("writeErrors", [])):
                raise
            upserted = {u["index"] for u in exc.details.get("upserted", [])}
        for k, (n, doc) in enumerate(live):
            if k in upserted or await self._fill_in(doc):
                outcomes[n] = Outcome.APPLIED
        return outcomes

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
                {"message_id": document["message_id"]}, {"$setOnInsert": document}, upsert=True)
        except DuplicateKeyError:  # a concurrent insert of the same message won
            return Outcome.DUPLICATE
        if result.upserted_id is not None or await self._fill_in(document):
            return Outcome.APPLIED
        return Outcome.DUPLICATE

    async def _fill_in(self, document: dict[str, Any]) -> bool:
        """Write the message into a document that holds only its rating (the rating's event came
        first); False when the message was there already (a duplicate event)."""
        result = await self._messages.update_one(
            {"message_id": document["message_id"], "role": {"$exists": False}}, {"$set": document})
        return result.modified_count > 0

    async def _set_feedback(self, event: EventEnvelope) -> Outcome:
        """The rating's state on its message's document, if newer than the one there."""
        session_id, message_id, feedback = feedback_document(event)
        if await self._is_deleted(session_id):
            return Outcome.SKIPPED
        try:
            await self._messages.update_one(
                {"message_id": message_id, "$or": [{"feedback_version": {"$exists": False}},
                                                   {"feedback_version": {"$lt": event.version}}]},
                {"$set": {"session_id": session_id, "feedback": feedback,
                          "feedback_version": event.version}},
                upsert=True)
        except DuplicateKeyError:  # this rating or a newer one is there
            return Outcome.STALE
        return Outcome.APPLIED

    async def _is_deleted(self, session_id: str) -> bool:
        found = await self._sessions.find_one(
            {"session_id": session_id, "is_deleted": True}, {"_id": 1}
        )
        return found is not None
