"""Payload -> MongoDB document mapping for the conversation projection: plain Python, no I/O.

Writers put the full camelCase state of the changed entity in each event (the contract is
techai_shared.events.conversation); the query side keeps
snake_case fields and BSON datetimes (UTC, millisecond precision like the writers' ISO strings).
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, TypeVar

from pydantic import BaseModel

from query_sync.errors import InvalidPayload
from techai_shared.events import ContractViolation, EventEnvelope, EventType, parse_payload
from techai_shared.events.conversation import (
    FeedbackPayload,
    MessagePayload,
    SessionPayload,
    as_utc,
)

_P = TypeVar("_P", bound=BaseModel)

# Marks a document the search index has not caught up with (query_sync.adapters.search_index).
SEARCH_PENDING = "search_pending"


def _parse(model: type[_P], event: EventEnvelope) -> _P:
    """The event's payload as `model`, or InvalidPayload (a poison event, never retried)."""
    try:
        return parse_payload(model, event, key="session_id")
    except ContractViolation as exc:
        raise InvalidPayload(str(exc)) from exc


def session_document(event: EventEnvelope, now: datetime) -> dict[str, Any]:
    """The conversation_sessions document as of this event; `now` is the projection write time."""
    state = _parse(SessionPayload, event)
    deleted = event.event_type is EventType.SESSION_DELETED or state.deleted_at is not None
    tree = {} if state.path is None else {"path": state.path, "leaf_message_id": state.leaf_message_id}
    return {**tree,
        "session_id": state.session_id,
        "user_id": state.user_id,
        "title": state.title,
        "created_at": state.created_at,
        "last_message_at": state.last_message_at,
        "is_active": state.is_active and not deleted,
        "message_count": state.message_count,
        "deleted_at": state.deleted_at or (as_utc(event.occurred_at) if deleted else None),
        "is_deleted": deleted,
        "version": event.version,
        "event_occurred_at": as_utc(event.occurred_at),
        "updated_at": as_utc(now),
        SEARCH_PENDING: True,
    }


def message_document(event: EventEnvelope) -> dict[str, Any]:
    """The conversation_messages document of a ConversationMessageCreated event (immutable)."""
    message = _parse(MessagePayload, event)
    return {
        "message_id": message.message_id,
        "session_id": message.session_id,
        "user_id": message.user_id,
        "role": message.role,
        "content": message.content,
        "sequence_number": message.sequence_number,
        "token_count": message.token_count,
        "sources": message.sources,
        "created_at": message.created_at,
        "parent_message_id": message.parent_message_id,
        "version": event.version,
        SEARCH_PENDING: True,
    }


def feedback_document(event: EventEnvelope) -> tuple[str, str, dict[str, Any] | None]:
    """Session id, message id and the `feedback` field of a ConversationMessageFeedbackChanged
    (None once the rating is removed)."""
    payload = _parse(FeedbackPayload, event)
    state = payload.feedback
    return payload.session_id, payload.message_id, None if state is None else {
        "feedback_id": state.feedback_id,
        "rating": state.rating,
        "reasons": list(state.reasons),
        "comment": state.comment,
        "created_at": state.created_at,
        "updated_at": state.updated_at,
    }
