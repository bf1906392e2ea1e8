"""Request and response bodies (camelCase on the wire, ids as strings)."""

from __future__ import annotations

import math
from datetime import date, datetime
from typing import TYPE_CHECKING, Any

from pydantic import Field, field_serializer

from techai_shared.clock import iso
from techai_shared.conversations import SessionState, StoredMessage
from techai_shared.envelope import CamelModel

if TYPE_CHECKING:
    from chatbot_api.adapters.usage import UsageRow


class ChatOptions(CamelModel):
    include_contests: bool = True
    include_news: bool = True
    include_bookmarks: bool = False
    max_results: int = Field(default=5, ge=1, le=20)
    min_similarity_score: float = Field(default=0.7, ge=0.0, le=1.0)


class ChatRequest(CamelModel):
    # The length rule (1..500 characters) applies after normalisation, in the domain; this cap only
    # keeps absurd inputs away from it.
    message: str = Field(max_length=20_000)
    conversation_id: str | None = Field(default=None, min_length=1, max_length=64)
    options: ChatOptions = Field(default_factory=ChatOptions)


class TitleUpdate(CamelModel):
    title: str = Field(max_length=2_000)


class _Timestamps(CamelModel):
    @field_serializer("*", when_used="json")
    def _iso(self, value: Any) -> Any:
        return iso(value) if isinstance(value, datetime) else value


class SessionInfo(_Timestamps):
    title: str
    created_at: datetime
    message_count: int


class TokenUsagePublic(CamelModel):
    input_tokens: int
    output_tokens: int
    total_tokens: int
    estimated_cost: float


class SourcePublic(CamelModel):
    document_id: str
    collection: str
    title: str
    snippet: str
    url: str | None = None
    score: float


class ChatPublic(CamelModel):
    response: str
    conversation_id: str
    sources: list[SourcePublic]
    session_info: SessionInfo
    token_usage: TokenUsagePublic
    mode: str


class SessionPublic(_Timestamps):
    session_id: str
    title: str
    created_at: datetime
    last_message_at: datetime
    is_active: bool
    message_count: int

    @classmethod
    def of(cls, s: SessionState) -> SessionPublic:
        return cls(session_id=s.session_id, title=s.title, created_at=s.created_at,
                   last_message_at=s.last_message_at, is_active=s.is_active,
                   message_count=s.message_count)


class MessagePublic(_Timestamps):
    message_id: str
    session_id: str
    role: str
    content: str
    sequence_number: int
    token_count: int
    created_at: datetime
    sources: list[dict[str, Any]]

    @classmethod
    def of(cls, m: StoredMessage) -> MessagePublic:
        return cls(message_id=m.message_id, session_id=m.session_id, role=m.role,
                   content=m.content, sequence_number=m.sequence_number,
                   token_count=m.token_count, created_at=m.created_at, sources=m.sources)


class Page(CamelModel):
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int

    @staticmethod
    def numbers(total: int, page: int, size: int) -> dict[str, int]:
        return {"totalElements": total, "totalPages": math.ceil(total / size) if size else 0,
                "currentPage": page, "pageSize": size}


class UsageDayPublic(CamelModel):
    day: date
    model: str
    requests: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    estimated_cost: float

    @classmethod
    def of(cls, r: UsageRow) -> UsageDayPublic:
        return cls(day=r.day, model=r.model, requests=r.requests, input_tokens=r.prompt_tokens,
                   output_tokens=r.completion_tokens,
                   total_tokens=r.prompt_tokens + r.completion_tokens,
                   estimated_cost=round(r.cost_usd, 8))
