"""The catalog's event payloads: contests, news articles and bookmarks (docs/architecture.md, Events).

Each payload is the item's full state in camelCase, with its public id (`c-0001`, `n-0001`,
`b-0001`, or one generated at creation) as `id` and as the event's aggregateId. Upserted events
carry the state after the write; Deleted events carry the last state with `deletedAt` set. Fields
mirror the sample catalog in infra/seed/ (copied from shared/data/catalog).
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum

from pydantic import Field

from techai_shared.envelope import CamelModel
from techai_shared.events.envelope import AggregateType, EventType


class ContestStatus(StrEnum):
    UPCOMING = "UPCOMING"
    ONGOING = "ONGOING"
    ENDED = "ENDED"


class BookmarkItemType(StrEnum):
    CONTEST = "CONTEST"
    NEWS_ARTICLE = "NEWS_ARTICLE"


class CatalogItem(CamelModel):
    """What every catalog payload carries: its public id and lifecycle times."""

    id: str = Field(min_length=1, max_length=64)
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None


class ContestPayload(CatalogItem):
    title: str = Field(min_length=1, max_length=300)
    description: str = Field(default="", max_length=20_000)
    start_date: datetime | None = None
    end_date: datetime | None = None
    status: ContestStatus
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: list[str] = Field(default_factory=list)


class NewsArticlePayload(CatalogItem):
    title: str = Field(min_length=1, max_length=300)
    summary: str = Field(default="", max_length=5_000)
    content: str = Field(default="", max_length=200_000)
    published_at: datetime | None = None
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: list[str] = Field(default_factory=list)


class BookmarkPayload(CatalogItem):
    user_id: str = Field(min_length=1, max_length=64)
    item_type: BookmarkItemType
    item_id: str = Field(min_length=1, max_length=64)
    item_title: str = Field(default="", max_length=300)
    item_summary: str = Field(default="", max_length=5_000)
    tag: str | None = Field(default=None, max_length=100)
    memo: str | None = Field(default=None, max_length=2_000)


# aggregate type -> (payload model, upserted event, deleted event)
CATALOG_EVENTS: dict[AggregateType, tuple[type[CatalogItem], EventType, EventType]] = {
    AggregateType.CONTEST: (ContestPayload, EventType.CONTEST_UPSERTED, EventType.CONTEST_DELETED),
    AggregateType.NEWS: (NewsArticlePayload, EventType.NEWS_UPSERTED, EventType.NEWS_DELETED),
    AggregateType.BOOKMARK: (BookmarkPayload, EventType.BOOKMARK_UPSERTED,
                             EventType.BOOKMARK_DELETED),
}
