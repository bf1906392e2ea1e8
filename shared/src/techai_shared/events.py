"""Domain event envelope and types (DESIGN.md section 5): the contract between writers and query-sync."""

from __future__ import annotations

import json
from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from techai_shared.clock import iso, utcnow
from techai_shared.ids import new_id

SCHEMA_VERSION = 1


class AggregateType(StrEnum):
    CONVERSATION = "conversation"
    CONTEST = "contest"
    NEWS = "news"
    BOOKMARK = "bookmark"


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
