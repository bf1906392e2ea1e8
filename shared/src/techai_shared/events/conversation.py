"""The conversation aggregate's event payloads, on topic `techai.conversation` (key = session id).

Every session event (Created, Updated, Deleted) carries the session's full state; a
ConversationMessageCreated carries the message; a ConversationMessageFeedbackChanged carries the
full state of one message's rating (`feedback` null once it is removed). The feedback event's
version is the rating's own (message_feedback.version), not the session's: a rating changes no
session state, so the projector orders ratings by it, per message. Writers build these models and
serialise them with `to_payload`; query-sync parses them with `parse_payload(model, event,
key="session_id")`. Timestamps are UTC ISO 8601 with millisecond precision on the wire; naive values
are read as UTC.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, field_serializer, field_validator

from techai_shared.clock import iso


def as_utc(value: datetime) -> datetime:
    """Aware UTC; a naive value is taken as UTC, as the writers' clock does."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


class _SessionScoped(BaseModel):
    """A payload about one session; its sessionId must be the event's aggregate id."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    session_id: str = Field(alias="sessionId", min_length=1)

    @field_validator("*", mode="after")
    @classmethod
    def _utc(cls, value: Any) -> Any:
        return as_utc(value) if isinstance(value, datetime) else value

    @field_serializer("*", when_used="json")
    def _iso(self, value: Any) -> Any:
        return iso(value) if isinstance(value, datetime) else value

    def to_payload(self) -> dict[str, Any]:
        """The camelCase JSON object an event carries."""
        return self.model_dump(mode="json", by_alias=True)


class SessionPayload(_SessionScoped):
    """The full session state carried by ConversationSessionCreated/Updated/Deleted."""

    user_id: str = Field(alias="userId", min_length=1)
    title: str
    created_at: datetime = Field(alias="createdAt")
    last_message_at: datetime = Field(alias="lastMessageAt")
    is_active: bool = Field(alias="isActive")
    message_count: int = Field(alias="messageCount", ge=0)
    deleted_at: datetime | None = Field(alias="deletedAt", default=None)
    # The current path through the message tree, root first (absent from events written before
    # messages formed a tree: their path is the messages in sequence order).
    path: list[str] | None = None
    leaf_message_id: str | None = Field(alias="leafMessageId", default=None)


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
    # The message it follows; null for a first question (and in events written before the tree)
    parent_message_id: str | None = Field(alias="parentMessageId", default=None)

    @field_validator("sources", mode="before")
    @classmethod
    def _none_is_empty(cls, value: Any) -> Any:
        return [] if value is None else value


FEEDBACK_REASONS = ("wrong", "outdated", "irrelevant-sources", "incomplete", "other")
MAX_FEEDBACK_COMMENT = 1_000


class FeedbackState(BaseModel):
    """A user's rating of one answer, as it stands."""

    model_config = ConfigDict(extra="ignore", frozen=True, populate_by_name=True)

    feedback_id: str = Field(alias="feedbackId", min_length=1)
    rating: Literal["up", "down"]
    reasons: list[Literal["wrong", "outdated", "irrelevant-sources", "incomplete", "other"]] = Field(
        default_factory=list)
    comment: str | None = Field(default=None, max_length=MAX_FEEDBACK_COMMENT)
    created_at: datetime = Field(alias="createdAt")
    updated_at: datetime = Field(alias="updatedAt")

    @field_validator("created_at", "updated_at", mode="after")
    @classmethod
    def _utc(cls, value: datetime) -> datetime:
        return as_utc(value)

    @field_serializer("created_at", "updated_at", when_used="json")
    def _iso(self, value: datetime) -> str:
        return iso(value)


class FeedbackPayload(_SessionScoped):
    """ConversationMessageFeedbackChanged: the rating of `messageId` after the change."""

    message_id: str = Field(alias="messageId", min_length=1)
    user_id: str = Field(alias="userId", min_length=1)
    feedback: FeedbackState | None = None
