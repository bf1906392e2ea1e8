"""Payload -> MongoDB document mapping for the conversation projection: plain Python, no I/O.

Writers put the full camelCase state of the changed entity in each event (see
techai_shared.conversations: SessionState.payload, StoredMessage.payload); the query side keeps
snake_case fields and BSON datetimes (UTC, millisecond precision like the writers' ISO strings).
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from query_sync.errors import InvalidPayload
from techai_shared.events import EventEnvelope, EventType


def as_utc(value: datetime) -> datetime:
    """Aware UTC; a naive value is taken as UTC, as the writers' clock does."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _SessionScoped(BaseModel):
    """A payload about one session; its sessionId must be the event's aggregate id."""

    model_config = ConfigDict(extra="ignore", frozen=True)

    session_id: str = Field(alias="sessionId", min_length=1)

    @field_validator("*", mode="after")
    @classmethod
    def _utc(cls, value: Any) -> Any:
        return as_utc(value) if isinstance(value, datetime) else value


class SessionPayload(_SessionScoped):
    """The full session state carried by ConversationSessionCreated/Updated/Deleted."""

    user_id: str = Field(alias="userId", min_length=1)
    title: str
    created_at: datetime = Field(alias="createdAt")
    last_message_at: datetime = Field(alias="lastMessageAt")
    is_active: bool = Field(alias="isActive")
    message_count: int = Field(alias="messageCount", ge=0)
    deleted_at: datetime | None = Field(alias="deletedAt", default=None)


class MessagePayload(_SessionScoped):
    """The message carried by ConversationMessageCreated."""

    message_id: str = Field(alias="messageId", min_length=1)
    user_id: str = Field(alias="userId", min_length=1)
    role: str = Field(min_length=1)
    content: str
    sequence_number: int = Field(alias="sequenceNumber", ge=1)
    token_count: int = Field(alias="tokenCount", ge=0)
    sources: list[dict[str, Any]] = Field(default_factory=list)
    created_at: datetime = Field(alias="createdAt")

    @field_validator("sources", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return [] if value is None else value


_P = TypeVar("_P", bound=_SessionScoped)


def parse_payload(model: type[_P], event: EventEnvelope) -> _P:
    """The event's payload as `model`, or InvalidPayload (a poison event, never retried)."""
    try:
        payload = model.model_validate(event.payload)
    except ValidationError as exc:
        raise InvalidPayload(f"{event.event_type.value} payload: {exc}") from exc
    if payload.session_id != event.aggregate_id:
        raise InvalidPayload(
            f"payload sessionId {payload.session_id!r} is not the aggregate id {event.aggregate_id!r}"
        )
    return payload


def session_document(event: EventEnvelope, now: datetime) -> dict[str, Any]:
    """The conversation_sessions document as of this event; `now` is the projection write time."""
    state = parse_payload(SessionPayload, event)
    deleted = event.event_type is EventType.SESSION_DELETED or state.deleted_at is not None
    return {
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
    }


def message_document(event: EventEnvelope) -> dict[str, Any]:
    """The conversation_messages document of a ConversationMessageCreated event (immutable)."""
    message = parse_payload(MessagePayload, event)
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
        "version": event.version,
    }
