"""Request and response bodies of command-api (camelCase on the wire; either spelling accepted).

Limits mirror the event payloads of techai_shared.events.catalog. Bodies never carry a user id: a
`userId` sent with a bookmark is ignored, the owner is always the token's subject. Request bodies
are validated as their JSON Schema reads (RequestBody): a date-time is RFC 3339 with an offset, a
boolean is true or false.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Path
from pydantic import ConfigDict, Field, WithJsonSchema, model_validator

from techai_shared.envelope import CamelModel, RequestBody
from techai_shared.events.catalog import (
    BookmarkItemType,
    BookmarkPayload,
    ContestPayload,
    ContestStatus,
    NewsArticlePayload,
)
from techai_shared.web.fields import Rfc3339DateTime

# Public ids appear in URLs and as Kafka keys: letters, digits and a few separators.
ID_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9._:-]*$"
PublicId = Annotated[str, Field(min_length=1, max_length=64, pattern=ID_PATTERN)]
PathId = Annotated[str, Path(min_length=1, max_length=64, pattern=ID_PATTERN)]
Tags = Annotated[list[Annotated[str, Field(min_length=1, max_length=100)]], Field(max_length=50)]

# -- requests --------------------------------------------------------------------------------------


class ContestWrite(RequestBody):
    title: str = Field(min_length=1, max_length=300)
    description: str = Field(default="", max_length=20_000)
    start_date: Rfc3339DateTime | None = None
    end_date: Rfc3339DateTime | None = Field(
        default=None, description="not before startDate (400 otherwise)")
    status: ContestStatus = Field(strict=False)
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=list)

    @model_validator(mode="after")
    def _ends_after_start(self) -> ContestWrite:
        if self.start_date and self.end_date and self.end_date < self.start_date:
            raise ValueError("endDate must not be before startDate")
        return self


class ContestCreate(ContestWrite):
    id: PublicId | None = Field(default=None, description="absent or null: one is generated")


class NewsArticleWrite(RequestBody):
    title: str = Field(min_length=1, max_length=300)
    summary: str = Field(default="", max_length=5_000)
    content: str = Field(default="", max_length=200_000)
    published_at: Rfc3339DateTime | None = None
    url: str | None = Field(default=None, max_length=1000)
    source_name: str | None = Field(default=None, max_length=200)
    tags: Tags = Field(default_factory=list)


class NewsArticleCreate(NewsArticleWrite):
    id: PublicId | None = Field(default=None, description="absent or null: one is generated")


class BookmarkCreate(RequestBody):
    """itemTitle/itemSummary default to the item's own title and description."""

    item_type: BookmarkItemType = Field(strict=False)
    item_id: PublicId
    item_title: str | None = Field(default=None, max_length=300)
    item_summary: str | None = Field(default=None, max_length=5_000)
    tag: str | None = Field(default=None, max_length=100)
    memo: str | None = Field(default=None, max_length=2_000)


class BookmarkUpdate(RequestBody):
    """Only the fields sent change; null clears one. At least one of them must be sent."""

    model_config = ConfigDict(json_schema_extra={
        "minProperties": 1, "anyOf": [{"required": ["tag"]}, {"required": ["memo"]}]})

    tag: str | None = Field(default=None, max_length=100)
    memo: str | None = Field(default=None, max_length=2_000)

    @model_validator(mode="after")
    def _something_to_change(self) -> BookmarkUpdate:
        if not self.model_fields_set:
            raise ValueError("send tag and/or memo")
        return self

    def changes(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.model_fields_set}


# -- responses -------------------------------------------------------------------------------------

DateTimeText = Annotated[str, WithJsonSchema({"type": "string", "format": "date-time"})]
"""An instant the service layer already wrote as ISO 8601 text (passed through unchanged)."""


class ContestPublic(ContestPayload):
    """A contest as stored, with the version of its last change."""

    version: int


class NewsArticlePublic(NewsArticlePayload):
    """A news article as stored, with the version of its last change."""

    version: int


class BookmarkPublic(BookmarkPayload):
    """A bookmark as stored, with the version of its last change."""

    version: int


class BookmarkPage(CamelModel):
    """One page of the caller's bookmarks (the numbers after the items, as the API always wrote)."""

    bookmarks: list[BookmarkPublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int


class ImportCountsPublic(CamelModel):
    created: int
    updated: int
    unchanged: int
    failed: int


class JobRunPublic(CamelModel):
    run_id: str
    job_name: str
    scheduled_for: DateTimeText
    trigger: str = Field(description="schedule or manual")
    status: str = Field(description="running, succeeded or failed")
    worker: str
    started_at: DateTimeText
    finished_at: DateTimeText | None
    rows_affected: int | None
    error: str | None


class JobPublic(CamelModel):
    name: str
    description: str
    schedule: str = Field(description="a cron expression")
    timezone: str
    next_fire_time: DateTimeText | None = Field(description="in the schedule's time zone")
    next_fire_time_utc: DateTimeText | None
    running: bool
    running_on: str | None
    last_runs: list[JobRunPublic]


class JobList(CamelModel):
    jobs: list[JobPublic]
