"""Catalog payload -> MongoDB document mapping and the embedding text: plain Python, no I/O.

The payload contract is techai_shared.catalog (full camelCase state, public id as `id` and as the
aggregate id). Documents keep every payload field in snake_case, dates as BSON datetimes (UTC),
the public id as `document_id`, and what search needs: `embedding_text` (DESIGN.md section 6) and
`embedding_hash`, the sha256 of the model name and that text, so an update that changes neither
is not embedded again (the vector itself is added by the projector).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from typing import Any, TypeAlias

from pydantic import ValidationError

from query_sync.adapters.indexes import IndexSpec
from query_sync.documents import as_utc
from query_sync.errors import InvalidPayload
from techai_shared.catalog import (
    CATALOG_EVENTS,
    BookmarkPayload,
    ContestPayload,
    NewsArticlePayload,
)
from techai_shared.events import AggregateType, EventEnvelope, EventType

CatalogItem: TypeAlias = ContestPayload | NewsArticlePayload | BookmarkPayload

NEWS_CONTENT_CHARS = 2_000  # DESIGN.md section 6: news = title + summary + content[:2000]


def contest_text(item: ContestPayload) -> str:
    return _join(item.title, item.description, " ".join(item.tags))


def news_text(item: NewsArticlePayload) -> str:
    return _join(item.title, item.summary, item.content[:NEWS_CONTENT_CHARS])


def bookmark_text(item: BookmarkPayload) -> str:
    return _join(item.item_title, item.item_summary, item.tag, item.memo)


def _join(*parts: str | None) -> str:
    """Non-empty parts, stripped, one per line: the line breaks keep a title apart from its body."""
    return "\n".join(part.strip() for part in parts if part and part.strip())


def embedding_hash(text: str, model_name: str) -> str:
    """sha256 over the model and the text: a new model re-embeds even unchanged text."""
    return hashlib.sha256(f"{model_name}\n{text}".encode()).hexdigest()


@dataclass(frozen=True)
class CatalogKind:
    """What differs between contests, news articles and bookmarks; the projector is shared."""

    aggregate_type: AggregateType
    collection: str
    upserted: EventType
    deleted: EventType
    payload_model: type[ContestPayload] | type[NewsArticlePayload] | type[BookmarkPayload]
    text: Callable[[Any], str]
    filter_indexes: tuple[IndexSpec, ...]

    def parse(self, event: EventEnvelope) -> CatalogItem:
        """The event's payload, or InvalidPayload (a poison event, never retried)."""
        try:
            item = self.payload_model.model_validate(event.payload)
        except ValidationError as exc:
            raise InvalidPayload(f"{event.event_type.value} payload: {exc}") from exc
        if item.id != event.aggregate_id:
            raise InvalidPayload(f"payload id {item.id!r} is not the aggregate id {event.aggregate_id!r}")
        return item

    def indexes(self) -> list[IndexSpec]:
        return [IndexSpec("uq_document_id", (("document_id", 1),), unique=True), *self.filter_indexes]


def _kind(aggregate_type: AggregateType, collection: str,
          model: type[ContestPayload] | type[NewsArticlePayload] | type[BookmarkPayload],
          text: Callable[[Any], str], *filter_indexes: IndexSpec) -> CatalogKind:
    _, upserted, deleted = CATALOG_EVENTS[aggregate_type]  # the contract names the event types
    return CatalogKind(aggregate_type, collection, upserted, deleted, model, text, filter_indexes)


CONTESTS = _kind(AggregateType.CONTEST, "contests", ContestPayload, contest_text,
                 IndexSpec("ix_status_end_date", (("status", 1), ("end_date", 1))))
NEWS_ARTICLES = _kind(AggregateType.NEWS, "news_articles", NewsArticlePayload, news_text,
                      IndexSpec("ix_published_at", (("published_at", -1),)))
BOOKMARKS = _kind(AggregateType.BOOKMARK, "bookmarks", BookmarkPayload, bookmark_text,
                  IndexSpec("ix_user_item_type", (("user_id", 1), ("item_type", 1))))
CATALOG_KINDS = (CONTESTS, NEWS_ARTICLES, BOOKMARKS)


def _bson(value: Any) -> Any:
    if isinstance(value, datetime):
        return as_utc(value)
    return value.value if isinstance(value, Enum) else value


def item_fields(item: CatalogItem) -> dict[str, Any]:
    """Every payload field in snake_case (`id` becomes `document_id`), datetimes in UTC."""
    fields = {name: _bson(value) for name, value in item if name != "id"}
    return {"document_id": item.id, **fields}


def catalog_document(kind: CatalogKind, item: CatalogItem, model_name: str) -> dict[str, Any]:
    """The searchable document of an upserted item, without its vector (the projector adds it)."""
    text = kind.text(item)
    return {
        **item_fields(item),
        "embedding_text": text,
        "embedding_model": model_name,
        "embedding_hash": embedding_hash(text, model_name),
    }
