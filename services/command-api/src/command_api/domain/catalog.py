"""Catalog items (contests, news articles, bookmarks): their public ids, their payload models, and
what a write of one produces.

An item's state is its event payload (techai_shared.events.catalog): every event of an item carries
its full state. A write ends in one of four outcomes; an UNCHANGED write stored nothing and emitted
nothing.
"""

from __future__ import annotations

import uuid
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from techai_shared.events import AggregateType
from techai_shared.events.catalog import CATALOG_EVENTS, CatalogItem

ID_PREFIXES = {AggregateType.CONTEST: "c-", AggregateType.NEWS: "n-", AggregateType.BOOKMARK: "b-"}


def new_id(aggregate_type: AggregateType) -> str:
    """A generated public id, e.g. c-1f0c3a9e5b7d4e21."""
    return f"{ID_PREFIXES[aggregate_type]}{uuid.uuid4().hex[:16]}"


def item_model(aggregate_type: AggregateType) -> type[CatalogItem]:
    """The payload model of the aggregate type (ContestPayload, NewsArticlePayload, BookmarkPayload)."""
    return CATALOG_EVENTS[aggregate_type][0]


def new_item(aggregate_type: AggregateType, fields: dict[str, Any],
             item_id: str | None = None) -> CatalogItem:
    """An item of these fields under `item_id`, or under a generated id when it is None."""
    return item_model(aggregate_type).model_validate(
        {**fields, "id": item_id or new_id(aggregate_type)})


class Outcome(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    DELETED = "deleted"


@dataclass(frozen=True)
class WriteResult:
    """An item as a write left it (or as read: UNCHANGED), with its version."""

    outcome: Outcome
    item: CatalogItem
    version: int

    def public(self) -> dict[str, Any]:
        """The item in camelCase with its version, as the API shows it."""
        return {**self.item.model_dump(mode="json", by_alias=True), "version": self.version}
