"""The conversation aggregate's domain events as wire events: envelopes with contract payloads."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from techai_shared.conversation.model import (
    Change,
    DomainEvent,
    MessageAdded,
    SessionState,
    StoredMessage,
)
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.events.conversation import (
    FeedbackPayload,
    FeedbackState,
    MessagePayload,
    SessionPayload,
)
from techai_shared.logging import request_id_var

_SESSION_EVENTS = {
    Change.CREATED: EventType.SESSION_CREATED,
    Change.UPDATED: EventType.SESSION_UPDATED,
    Change.DELETED: EventType.SESSION_DELETED,
}


def session_payload(s: SessionState) -> SessionPayload:
    return SessionPayload(
        session_id=s.session_id, user_id=s.user_id, title=s.title, created_at=s.created_at,
        last_message_at=s.last_message_at, is_active=s.is_active, message_count=s.message_count,
        deleted_at=s.deleted_at, path=list(s.path), leaf_message_id=s.leaf_message_id)


def message_payload(m: StoredMessage, user_id: str) -> MessagePayload:
    return MessagePayload(
        session_id=m.session_id, message_id=m.message_id, user_id=user_id, role=m.role,
        content=m.content, sequence_number=m.sequence_number, token_count=m.token_count,
        sources=m.sources, created_at=m.created_at, parent_message_id=m.parent_message_id)


def _envelope(event_type: EventType, session_id: str, version: int,
              payload: SessionPayload | MessagePayload, occurred_at: datetime) -> EventEnvelope:
    return EventEnvelope(
        event_type=event_type, aggregate_type=AggregateType.CONVERSATION, aggregate_id=session_id,
        version=version, occurred_at=occurred_at, payload=payload.to_payload(),
        request_id=request_id_var.get())


def to_envelope(event: DomainEvent) -> EventEnvelope:
    """The wire event of a domain event (the request id of the current request, if any)."""
    if isinstance(event, MessageAdded):
        return _envelope(EventType.MESSAGE_CREATED, event.message.session_id, event.version,
                         message_payload(event.message, event.user_id), event.occurred_at)
    return _envelope(_SESSION_EVENTS[event.change], event.state.session_id, event.version,
                     session_payload(event.state), event.occurred_at)


def session_snapshot(session: SessionState, now: datetime) -> EventEnvelope:
    """The session's current state as a new event at its current version: Deleted for a deleted
    session, Updated otherwise. Projecting it is a no-op where the read model is up to date."""
    event_type = EventType.SESSION_DELETED if session.deleted_at else EventType.SESSION_UPDATED
    return _envelope(event_type, session.session_id, session.version, session_payload(session), now)


def message_snapshot(message: StoredMessage, session: SessionState, now: datetime) -> EventEnvelope:
    """The message's ConversationMessageCreated again, at its original version (the session's
    current one for a row that predates migration 0004 and had no outbox row to copy it from)."""
    version = message.version if message.version is not None else session.version
    return _envelope(EventType.MESSAGE_CREATED, session.session_id, version,
                     message_payload(message, session.user_id), now)


def feedback_event(row: dict[str, Any], occurred_at: datetime) -> EventEnvelope:
    """The ConversationMessageFeedbackChanged of a message_feedback row (its columns by name), at
    the row's version; `feedback` is null when the row is deleted."""
    state = None if row["deleted_at"] is not None else FeedbackState(
        feedback_id=row["feedback_id"], rating=row["rating"], reasons=list(row["reasons"]),
        comment=row["comment"], created_at=row["created_at"], updated_at=row["updated_at"])
    payload = FeedbackPayload(session_id=row["session_id"], message_id=row["message_id"],
                              user_id=row["user_id"], feedback=state)
    return EventEnvelope(
        event_type=EventType.FEEDBACK_CHANGED, aggregate_type=AggregateType.CONVERSATION,
        aggregate_id=row["session_id"], version=row["version"], occurred_at=occurred_at,
        payload=payload.to_payload(), request_id=request_id_var.get())
