"""Request and response bodies (camelCase on the wire, ids as strings).

Request bodies state every rule the API enforces on them, so a client that trusts the OpenAPI
document is not refused: lengths, ranges, and the pattern of a text that must keep a character once
cleaned (CONTENT_CHARACTER). Responses are what the routes declare inside `Envelope[...]`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import date, datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal

from pydantic import Field, PlainSerializer, WithJsonSchema

from chatbot_api.domain.conversation import CONTENT_CHARACTER, MAX_MESSAGE_CHARS, MAX_TITLE_CHARS
from techai_shared.clock import iso
from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.envelope import CamelModel, ErrorEnvelope, RequestBody
from techai_shared.events.conversation import FEEDBACK_REASONS, MAX_FEEDBACK_COMMENT, FeedbackState
from techai_shared.web.fields import JsonInt

if TYPE_CHECKING:
    from chatbot_api.adapters.usage import UsageRow
    from chatbot_api.service_layer.budget import BudgetStatus
    from chatbot_api.service_layer.ports import SessionMatch
    from chatbot_api.service_layer.sessions import MessageView

# -- requests --------------------------------------------------------------------------------------


class ChatOptions(RequestBody):
    include_contests: bool = True
    include_news: bool = True
    include_bookmarks: bool = False
    max_results: JsonInt = Field(default=5, ge=1, le=20)
    min_similarity_score: float = Field(default=0.7, ge=0.0, le=1.0)


class ChatRequest(RequestBody):
    message: str = Field(
        min_length=1, max_length=MAX_MESSAGE_CHARS, pattern=CONTENT_CHARACTER,
        description="The question, 1..500 characters with at least one letter, digit, mark, "
                    "punctuation or symbol. Control and format characters are removed and "
                    "whitespace is collapsed before it is stored and answered.")
    conversation_id: str | None = Field(
        default=None, min_length=1, max_length=64,
        description="A session of the caller to continue; absent or null starts a new one.")
    options: ChatOptions = Field(default_factory=ChatOptions)


class RegenerateRequest(RequestBody):
    options: ChatOptions = Field(default_factory=ChatOptions)


class EditRequest(RequestBody):
    message: str = Field(
        min_length=1, max_length=MAX_MESSAGE_CHARS, pattern=CONTENT_CHARACTER,
        description="The question's new version; the same rules as a chat message.")
    options: ChatOptions = Field(default_factory=ChatOptions)


class LeafUpdate(RequestBody):
    message_id: str = Field(
        min_length=1, max_length=64,
        description="Any message of the session: its branch (down to its deepest descendant "
                    "along the latest versions) becomes the history shown and continued.")


class FeedbackRequest(RequestBody):
    rating: Literal["up", "down"] = Field(description="up or down")
    comment: str | None = Field(
        default=None, max_length=MAX_FEEDBACK_COMMENT,
        description="What was wrong or good, at most 1,000 characters (control characters are "
                    "removed and whitespace is collapsed; empty means none).")
    reasons: list[Literal["wrong", "outdated", "irrelevant-sources", "incomplete", "other"]] = Field(
        default_factory=list, max_length=len(FEEDBACK_REASONS),
        description="Why, from a fixed set; repeats count once.")


class TitleUpdate(RequestBody):
    title: str = Field(
        min_length=1, max_length=MAX_TITLE_CHARS, pattern=CONTENT_CHARACTER,
        description="1..200 characters with at least one letter, digit, mark, punctuation or "
                    "symbol; cleaned as a message is (control and format characters such as NUL "
                    "removed, whitespace collapsed).")


# -- responses -------------------------------------------------------------------------------------

Timestamp = Annotated[
    datetime,
    PlainSerializer(iso, return_type=str, when_used="json"),
    WithJsonSchema({"type": "string", "format": "date-time"}, mode="serialization"),
]
"""An instant in UTC with milliseconds, e.g. 2026-11-23T09:00:00.000Z."""

Number = Annotated[float | int, WithJsonSchema({"type": "number"})]
"""A JSON number kept as computed: an int stays an int on the wire (0, not 0.0)."""


class SessionInfo(CamelModel):
    title: str
    created_at: Timestamp
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
    status: str | None = None  # a contest's UPCOMING, ONGOING or ENDED; null for other items


class SuggestionPublic(CamelModel):
    """A verified answer near the question that was not served ("did you mean"): asking its
    `question` is answered with it."""

    answer_id: str
    question: str = Field(description="the answer's phrasing in the question's language")


class ChatPublic(CamelModel):
    response: str
    conversation_id: str
    sources: list[SourcePublic]
    session_info: SessionInfo
    token_usage: TokenUsagePublic
    mode: str
    message_id: str = Field(description="The answer's message id (to rate it: .../feedback).")
    suggestions: list[SuggestionPublic] = Field(
        default_factory=list, description="Verified answers close to the question that were not "
        "served (at most 3, closest first); empty when none is close.")


class FeedbackPublic(CamelModel):
    """A rating of an answer."""

    feedback_id: str
    rating: str
    reasons: list[str]
    comment: str | None
    created_at: Timestamp
    updated_at: Timestamp

    @classmethod
    def of(cls, f: FeedbackState | None) -> FeedbackPublic | None:
        return None if f is None else cls.of_state(f)

    @classmethod
    def of_state(cls, f: FeedbackState) -> FeedbackPublic:
        return cls(feedback_id=f.feedback_id, rating=f.rating, reasons=list(f.reasons),
                   comment=f.comment, created_at=f.created_at, updated_at=f.updated_at)


class SessionPublic(CamelModel):
    session_id: str
    title: str
    created_at: Timestamp
    last_message_at: Timestamp
    is_active: bool
    message_count: int = Field(description="Messages on the current path (what history shows).")
    leaf_message_id: str | None = Field(
        default=None, description="The last message of the current path; null before the first.")

    @classmethod
    def of(cls, s: SessionState) -> SessionPublic:
        return cls(session_id=s.session_id, title=s.title, created_at=s.created_at,
                   last_message_at=s.last_message_at, is_active=s.is_active,
                   message_count=s.message_count, leaf_message_id=s.leaf_message_id)


class MessagePublic(CamelModel):
    message_id: str
    session_id: str
    role: str
    content: str
    sequence_number: int
    token_count: int
    created_at: Timestamp
    sources: list[dict[str, Any]]
    feedback: FeedbackPublic | None = Field(
        description="The caller's rating of this answer; null when none (and on questions).")
    parent_message_id: str | None = Field(
        default=None, description="The message it follows; null for a first question.")
    sibling_ids: list[str] = Field(
        default_factory=list,
        description="Its versions, oldest first, itself among them: the other answers to the same "
                    "question (regenerate) or the other versions of a question (edit).")
    sibling_position: int = Field(default=1, description="Its 1-based place in siblingIds.")

    @classmethod
    def of(cls, m: StoredMessage, feedback: FeedbackState | None = None,
           siblings: list[str] | None = None) -> MessagePublic:
        siblings = siblings or [m.message_id]
        return cls(message_id=m.message_id, session_id=m.session_id, role=m.role,
                   content=m.content, sequence_number=m.sequence_number,
                   token_count=m.token_count, created_at=m.created_at, sources=m.sources,
                   feedback=FeedbackPublic.of(feedback), parent_message_id=m.parent_message_id,
                   sibling_ids=siblings,
                   sibling_position=siblings.index(m.message_id) + 1
                   if m.message_id in siblings else 1)


def _page_numbers(total: int, page: int, size: int) -> dict[str, int]:
    return {"total_elements": total, "total_pages": math.ceil(total / size) if size else 0,
            "current_page": page, "page_size": size}


class SessionPage(CamelModel):
    """One page of the caller's sessions (the numbers after the items, as the API always wrote)."""

    sessions: list[SessionPublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int

    @classmethod
    def of(cls, sessions: Sequence[SessionState], total: int, page: int, size: int) -> SessionPage:
        return cls(sessions=[SessionPublic.of(s) for s in sessions], **_page_numbers(total, page, size))


class MessagePage(CamelModel):
    """One page of a session's messages, oldest first."""

    messages: list[MessagePublic]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int

    @classmethod
    def of(cls, messages: Sequence[MessageView], total: int, page: int, size: int) -> MessagePage:
        return cls(messages=[MessagePublic.of(v.message, v.feedback, v.siblings) for v in messages],
                   **_page_numbers(total, page, size))


class ConversationExport(CamelModel):
    """GET .../export?format=json: the session and every message of its current path, as the
    API shows them (sources and ratings included)."""

    exported_at: Timestamp
    session: SessionPublic
    messages: list[MessagePublic]


class HighlightPublic(CamelModel):
    start: int = Field(description="Offset in the snippet's text, in characters (code points).")
    length: int


class SnippetPublic(CamelModel):
    text: str = Field(description="About 160 characters around the first matched word; an "
                                  "ellipsis (…) marks where the message was cut.")
    highlights: list[HighlightPublic] = Field(description="Where the matched words are in `text`.")
    message_id: str | None = Field(description="The message shown; null when it is the title.")


class SessionSearchHit(CamelModel):
    session: SessionPublic
    matching_message_ids: list[str] = Field(
        description="Messages holding every word (or, if none does, any of them), newest first, "
                    "at most 20; on any branch of the session, not only the current path.")
    snippet: SnippetPublic

    @classmethod
    def of(cls, match: SessionMatch) -> SessionSearchHit:
        s = match.snippet
        return cls(session=SessionPublic.of(match.session), matching_message_ids=match.message_ids,
                   snippet=SnippetPublic(text=s.text, message_id=s.message_id, highlights=[
                       HighlightPublic(start=a, length=n) for a, n in s.highlights]))


class SessionSearchPage(CamelModel):
    """One page of the caller's sessions that a search found, best first."""

    query: str
    results: list[SessionSearchHit]
    total_elements: int
    total_pages: int
    current_page: int
    page_size: int

    @classmethod
    def of(cls, query: str, matches: Sequence[SessionMatch], total: int, page: int, size: int
           ) -> SessionSearchPage:
        return cls(query=query, results=[SessionSearchHit.of(m) for m in matches],
                   **_page_numbers(total, page, size))


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


class UsageTotalPublic(CamelModel):
    requests: int
    input_tokens: int
    output_tokens: int
    total_tokens: int
    estimated_cost: Number


class BudgetPublic(CamelModel):
    """Today's token budget (Asia/Seoul day): model tokens only; answers made without the model
    (retrieval-only, verified, cached) cost none and are never refused."""

    daily_tokens: int | None = Field(description="The budget; null when there is none.")
    own: bool = Field(description="Set for this user by an administrator (else the default).")
    used_tokens: int = Field(description="Model tokens spent today.")
    remaining_tokens: int | None = Field(description="What is left today; null without a budget.")
    resets_at: Timestamp = Field(description="The next midnight in Asia/Seoul.")

    @classmethod
    def of(cls, b: BudgetStatus) -> BudgetPublic:
        return cls(daily_tokens=b.daily_tokens, own=b.own, used_tokens=b.used_tokens,
                   remaining_tokens=b.remaining_tokens, resets_at=b.resets_at)


class UsagePublic(CamelModel):
    """The caller's usage per day and model over [from, to] (Asia/Seoul days), and its total;
    and today's token budget."""

    first: date = Field(alias="from")
    last: date = Field(alias="to")
    days: list[UsageDayPublic]
    total: UsageTotalPublic
    budget: BudgetPublic | None = None

    @classmethod
    def of(cls, first: date, last: date, days: list[UsageDayPublic],
           budget: BudgetStatus | None = None) -> UsagePublic:
        total = UsageTotalPublic(
            requests=sum(d.requests for d in days),
            input_tokens=sum(d.input_tokens for d in days),
            output_tokens=sum(d.output_tokens for d in days),
            total_tokens=sum(d.total_tokens for d in days),
            estimated_cost=round(sum(d.estimated_cost for d in days), 8),
        )
        return cls(first=first, last=last, days=days, total=total,
                   budget=None if budget is None else BudgetPublic.of(budget))


# -- the event stream ------------------------------------------------------------------------------


class StreamMetadata(CamelModel):
    conversation_id: str
    message_id: str = Field(description="The answer's id: GET .../messages/{messageId}/stream "
                                        "with Last-Event-ID resumes a stream that was cut.")
    mode: str


class StreamDelta(CamelModel):
    text: str


class StreamSuggestions(CamelModel):
    suggestions: list[SuggestionPublic]


class StreamSources(CamelModel):
    sources: list[SourcePublic]


class StreamDone(CamelModel):
    message_id: str
    conversation_id: str
    mode: str
    token_usage: TokenUsagePublic


STREAM_EVENTS: dict[str, Any] = {
    "metadata": StreamMetadata,
    "delta": StreamDelta,
    "suggestions": StreamSuggestions,  # only when there are some, before sources
    "sources": StreamSources,
    "done": StreamDone,
    "error": ErrorEnvelope,  # a failure after the first byte, e.g. 5041 when the model timed out
}
