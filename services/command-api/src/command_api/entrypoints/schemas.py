"""Request bodies of command-api (camelCase on the wire; either spelling accepted).

Limits mirror the event payloads of techai_shared.catalog. Bodies never carry a user id: a
`userId` sent with a bookmark is ignored, the owner is always the token's subject.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

from fastapi import Path
from pydantic import Field, model_validator

from techai_shared.catalog import BookmarkItemType, ContestStatus
from techai_shared.envelope import CamelModel

# Public ids appear in URLs and as Kafka keys: letters, digits and a few separators.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]*$"
PublicId = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
PathId = Annotated[str, Path(min_length=1, max_length=64, pattern=ID_PATTERN)]
Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=50)]


class ContestWrite(CamelModel):
    title: str = Field(min_length=1, max_length=300)
    description: str = Field(default="", max_length=20_000)
    start_date: datetime | None = None
    end_date: datetime | None = None
    status: ContestStatus
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=list)

    @model_validator(mode="after")
    def _ends_after_start(self) -> ContestWrite:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValueError("endDate must not be before startDate")
        return self


class ContestCreate(ContestWrite):
    id: PublicId | None = None


class NewsArticleWrite(CamelModel):
    title: str = Field(min_length=1, max_length=300)
    summary: str = Field(default="", max_length=5_000)
    content: str = Field(default="", max_length=200_000)
    published_at: datetime | None = None
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=list)


class NewsArticleCreate(NewsArticleWrite):
    id: PublicId | None = None


class BookmarkCreate(CamelModel):
    """itemTitle/itemSummary default to the item's own title and description."""

    item_type: BookmarkItemType
    item_id: PublicId
    item_title: str | None = Field(default=None, max_length=300)
    item_summary: str | None = Field(default=None, max_length=5_000)
    tag: str | None = Field(default=None, max_length=100)
    memo: str | None = Field(default=None, max_length=2_000)


class BookmarkUpdate(CamelModel):
    """Only the fields sent change; null clears one."""

    tag: str | None = Field(default=None, max_length=100)
    memo: str | None = Field(default=None, max_length=2_000)

    @model_validator(mode="after")
    def _something_to_change(self) -> BookmarkUpdate:
        if not self.model_fields_set:
            raise ValueError("send tag and/or memo")
        return self

    def changes(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.model_fields_set}
