"""Request and response bodies of command-api (camelCase on the wire; either spelling accepted).

Limits mirror the event payloads of techai_shared.events.catalog. Bodies never carry a user id: a
`userId` sent with a bookmark is ignored, the owner is always the token's subject. Request bodies
are validated as their JSON Schema reads (RequestBody): a date-time is RFC 3339 with an offset, a
boolean is true or false.
"""

from __future__ import annotations

from typing import Annotated, Any, Literal

from fastapi import Path
from pydantic import ConfigDict, Field, WithJsonSchema, model_validator

from command_api.service_layer.ports import UserBudget
from techai_shared.clock import iso
from techai_shared.envelope import CamelModel, RequestBody
from techai_shared.events.catalog import (
    BookmarkItemType,
    BookmarkPayload,
    ContestPayload,
    ContestStatus,
    NewsArticlePayload,
)
from techai_shared.events.verified import (
    MAX_ANSWER_CHARS,
    MAX_PHRASING_CHARS,
    MAX_PHRASINGS,
    MAX_SOURCES,
    VerifiedAnswerPayload,
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


# Any letter, mark, digit, punctuation or symbol: a text that keeps one once cleaned.
CONTENT_CHARACTER = r"[\p{L}\p{M}\p{N}\p{P}\p{S}]"
Phrasing = Annotated[str, Field(min_length=1, max_length=MAX_PHRASING_CHARS, pattern=CONTENT_CHARACTER)]


class VerifiedAnswerWrite(RequestBody):
    """A verified answer's whole state (PUT replaces every field)."""

    questions: list[Phrasing] = Field(
        min_length=1, max_length=MAX_PHRASINGS,
        description="1 to 10 phrasings of the question, each 1..500 characters. A question is "
                    "matched against the phrasings in its own script: give one in Korean and one "
                    "in English to serve both.")
    answer: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS, pattern=CONTENT_CHARACTER,
                        description="Markdown, at most 4,000 characters.")
    sources: list[PublicId] = Field(default_factory=list, max_length=MAX_SOURCES,
                                    description="Public ids of contests or news articles (400 for "
                                                "one that does not exist).")
    valid_from: Rfc3339DateTime | None = Field(default=None, description="served from then on")
    valid_until: Rfc3339DateTime | None = Field(
        default=None, description="served until then (after validFrom; 400 otherwise)")
    status: Literal["draft", "published"] = Field(
        default="published", description="a draft is stored but not served")

    @model_validator(mode="after")
    def _window(self) -> VerifiedAnswerWrite:
        if self.valid_from and self.valid_until and self.valid_until <= self.valid_from:
            raise ValueError("validUntil must be after validFrom")
        return self


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
    trigger: str = Field(description="schedule, manual or startup (the scheduler's start)")
    status: str = Field(description="running, succeeded or failed")
    worker: str
    started_at: DateTimeText
    finished_at: DateTimeText | None
    rows_affected: int | None
    error: str | None
    summary: str | None = Field(default=None, description="what the run found, in one line "
                                "(reconcile-projections: what lagged, per kind)")


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


class AnswerRatingsPublic(CamelModel):
    up: int
    down: int


class AnswerStatsPublic(CamelModel):
    """What a verified answer did for users, counted from the exchanges chatbot-api stored."""

    served: int = Field(description="times chatbot-api answered a question with it")
    judged: int = Field(description="of those, on the model's yes to a near match")
    suggested: int = Field(description="times it was offered as a suggestion (did you mean)")
    ratings: AnswerRatingsPublic = Field(description="users' live ratings of the answers it served")
    last_served_at: DateTimeText | None


class VerifiedAnswerPublic(VerifiedAnswerPayload):
    """A verified answer as stored, with the version of its last change, its author, and what it
    did for users."""

    version: int
    author: str
    stats: AnswerStatsPublic


class AnswerUsePublic(CamelModel):
    """A question a verified answer was served or suggested for, as the user asked it."""

    kind: Literal["served", "suggested"]
    judged: bool = Field(description="served on a model's yes to a near match")
    question: str
    message_id: str = Field(description="the chatbot's answer to the question")
    user_id: str
    created_at: DateTimeText


class AnswerUsePage(CamelModel):
    uses: list[AnswerUsePublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int


class VerifiedAnswerPage(CamelModel):
    verified_answers: list[VerifiedAnswerPublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int


class FeedbackEntryPublic(CamelModel):
    """A user's rating of an answer, with the exchange it rates."""

    feedback_id: str
    rating: str
    reasons: list[str]
    comment: str | None
    question: str | None = Field(description="null while the question is not projected yet")
    answer: str
    sources: list[dict[str, Any]]
    session_id: str
    message_id: str
    user_id: str
    created_at: DateTimeText
    updated_at: DateTimeText = Field(description="when it was last given or changed")


class FeedbackPage(CamelModel):
    feedback: list[FeedbackEntryPublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int


class UserBudgetWrite(RequestBody):
    daily_tokens: int | None = Field(
        ge=0, le=10**12, description="Model tokens per Asia/Seoul day; 0: none for this user; "
                                      "null: the default applies again.")


class UserBudgetPublic(CamelModel):
    user_id: str
    daily_tokens: int | None = Field(description="The user's own budget; null: the default.")
    updated_by: str | None = None
    updated_at: str | None = Field(default=None, description="ISO 8601, UTC")

    @classmethod
    def of(cls, user_id: str, budget: UserBudget | None) -> UserBudgetPublic:
        if budget is None:
            return cls(user_id=user_id, daily_tokens=None)
        return cls(user_id=user_id, daily_tokens=budget.daily_tokens, updated_by=budget.updated_by,
                   updated_at=iso(budget.updated_at))
