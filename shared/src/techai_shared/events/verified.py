"""The verified answers' event payloads, on topic `<prefix>.verified-answer` (key = public id).

VerifiedAnswerUpserted carries the answer's full state after the write; VerifiedAnswerDeleted the
last state with `deletedAt` set. Drafts travel too (`status` "draft"): the projection keeps them
out of what chatbot-api serves, and publishing one is an ordinary upsert.
"""

from __future__ import annotations

from datetime import datetime
from typing import Literal

from pydantic import Field

from techai_shared.envelope import CamelModel

MAX_PHRASINGS = 10
MAX_PHRASING_CHARS = 500
MAX_ANSWER_CHARS = 4_000
MAX_SOURCES = 10


def public_id(row_id: int) -> str:
    """v-0001, v-0002, ..., v-10000: the id operators and events use."""
    return f"v-{row_id:04d}"


def row_id(public: str) -> int | None:
    """The row id of a public id, or None when it is not one."""
    if not public.startswith("v-") or not public[2:].isdigit() or len(public) > 24:
        return None
    return int(public[2:])


class VerifiedAnswerPayload(CamelModel):
    id: str = Field(min_length=3, max_length=24)
    status: Literal["draft", "published"]
    questions: list[str] = Field(min_length=1, max_length=MAX_PHRASINGS)
    answer: str = Field(min_length=1, max_length=MAX_ANSWER_CHARS)
    sources: list[str] = Field(default_factory=list, max_length=MAX_SOURCES)
    valid_from: datetime | None = None
    valid_until: datetime | None = None
    feedback_id: str | None = None
    created_at: datetime | None = None
    updated_at: datetime | None = None
    deleted_at: datetime | None = None
