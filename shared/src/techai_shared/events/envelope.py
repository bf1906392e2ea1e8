"""The domain event envelope and types: the contract between the writers and query-sync."""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any, TypeVar

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from techai_shared.clock import iso, utcnow
from techai_shared.ids import new_id

SCHEMA_VERSION = 1


class AggregateType(StrEnum):
    CONVERSATION = "conversation"
    CONTEST = "contest"
    NEWS = "news"
    BOOKMARK = "bookmark"
    VERIFIED_ANSWER = "verified-answer"


class EventType(StrEnum):
    SESSION_CREATED = "ConversationSessionCreated"
    SESSION_UPDATED = "ConversationSessionUpdated"
    SESSION_DELETED = "ConversationSessionDeleted"
    MESSAGE_CREATED = "ConversationMessageCreated"
    CONTEST_UPSERTED = "ContestUpserted"
    CONTEST_DELETED = "ContestDeleted"
    NEWS_UPSERTED = "NewsArticleUpserted"
    NEWS_DELETED = "NewsArticleDeleted"
    BOOKMARK_UPSERTED = "BookmarkUpserted"
    BOOKMARK_DELETED = "BookmarkDeleted"
    FEEDBACK_CHANGED = "ConversationMessageFeedbackChanged"
    VERIFIED_ANSWER_UPSERTED = "VerifiedAnswerUpserted"
    VERIFIED_ANSWER_DELETED = "VerifiedAnswerDeleted"


class EventEnvelope(BaseModel):
    """{"eventId", "eventType", "aggregateType", "aggregateId", "version", "occurredAt",
    "schemaVersion", "payload"}; unknown fields are kept so newer producers do not break us."""

    model_config = ConfigDict(populate_by_name=True, extra="allow")

    event_id: str = Field(alias="eventId", default_factory=new_id)
    event_type: EventType = Field(alias="eventType")
    aggregate_type: AggregateType = Field(alias="aggregateType")
    aggregate_id: str = Field(alias="aggregateId", min_length=1)
    version: int = Field(ge=1)
    occurred_at: datetime = Field(alias="occurredAt", default_factory=utcnow)
    schema_version: int = Field(alias="schemaVersion", default=SCHEMA_VERSION)
    payload: dict[str, Any]
    request_id: str | None = Field(alias="requestId", default=None)

    def to_json(self) -> str:
        body = self.model_dump(mode="json", by_alias=True, exclude_none=True)
        body["occurredAt"] = iso(self.occurred_at)
        return json.dumps(body, ensure_ascii=False, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: bytes | str) -> EventEnvelope:
        """Parse a Kafka value; raises ValueError (pydantic ValidationError) on a malformed one."""
        return cls.model_validate_json(raw)


class ContractViolation(ValueError):
    """A payload that does not match its contract: no retry can make it applicable."""


M = TypeVar("M", bound=BaseModel)


def parse_payload(model: type[M], event: EventEnvelope, *, key: str) -> M:
    """The event's payload as `model`, whose field `key` must be the event's aggregate id."""
    try:
        payload = model.model_validate(event.payload)
    except ValidationError as exc:
        raise ContractViolation(f"{event.event_type.value} payload: {exc}") from exc
    if getattr(payload, key) != event.aggregate_id:
        raise ContractViolation(
            f"payload {key} {getattr(payload, key)!r} is not the aggregate id {event.aggregate_id!r}")
    return payload
