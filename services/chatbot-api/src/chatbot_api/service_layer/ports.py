"""What chatbot-api's use cases need from the outside, named as Protocols.

The adapters (MySQL, MongoDB, Redis, the model provider) implement these; bootstrap wires them;
the unit tests use in-memory fakes of the same Protocols (tests/unit/fakes.py). The values that
cross a port (a model's reply, a quota, a cached answer) are defined here too.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import AsyncIterator, Awaitable, Callable, Sequence
from dataclasses import asdict, dataclass, field
from datetime import date, datetime
from types import TracebackType
from typing import Any, NamedTuple, Protocol, Self

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.routing import Route
from chatbot_api.domain.session_search import Snippet
from chatbot_api.domain.time_words import Window
from chatbot_api.retrieval.model import SearchHit
from chatbot_api.verified.match import Verdict
from techai_shared.conversation.model import (
    HistoryMessage,
    Session,
    SessionState,
    StoredMessage,
)
from techai_shared.conversation.tree import Tree
from techai_shared.events.conversation import FeedbackState
from techai_shared.korean import QueryTerm

OnDelta = Callable[[str], Awaitable[None]]


# -- the command store --------------------------------------------------------------------------


class Tokens(Protocol):
    """The model's token counts of texts and chat messages (adapters.tokens for OpenAI's)."""

    REPLY_PRIMING: int  # the tokens every reply is primed with

    def count(self, text: str) -> int: ...

    def count_message(self, role: str, content: str) -> int: ...


class SessionRepository(Protocol):
    async def get(self, session_id: str, *, for_update: bool = False) -> Session | None:
        """The session, deleted or not, or None."""
        ...

    async def get_owned(self, session_id: str, user_id: str, *, for_update: bool = False
                        ) -> Session: ...

    async def get_owned_with_recent(self, session_id: str, user_id: str, count: int
                                    ) -> tuple[Session, list[HistoryMessage]]: ...

    async def save(self, session: Session) -> None:
        """Raises ConcurrentChange if the stored session is no longer at the loaded version."""
        ...

    async def messages(self, session_id: str, *, ids: Sequence[str] | None = None
                       ) -> list[StoredMessage]: ...

    async def history(self, session_id: str, ids: Sequence[str]) -> list[HistoryMessage]: ...

    async def tree(self, session_id: str) -> Tree: ...

    async def list_for_user(self, user_id: str, *, is_active: bool | None, offset: int, limit: int
                            ) -> tuple[list[SessionState], int]: ...

    async def set_thread_key(self, session_id: str, key: str | None) -> None: ...

    async def session_of_thread(self, user_id: str, key: str) -> str | None: ...


@dataclass(frozen=True)
class UsageRow:
    day: date
    model: str
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float


class UsageRepository(Protocol):
    async def add(self, user_id: str, day: date, model: str, prompt_tokens: int,
                  completion_tokens: int, cost_usd: float, requests: int = 1) -> None:
        """Add to the user's totals of that day and model."""
        ...

    async def between(self, user_id: str, first: date, last: date) -> list[UsageRow]: ...

    async def model_tokens(self, user_id: str, day: date, *, not_models: tuple[str, ...]) -> int:
        """The user's tokens of that day, but those counted under `not_models`."""
        ...

    async def budget_of(self, user_id: str) -> int | None:
        """The user's own daily token budget; None: the default applies."""
        ...


class BudgetGate(Protocol):
    """The day's spent tokens and the holds of turns in flight, changed atomically
    (adapters.budget_gate); see service_layer.budget."""

    async def hold(self, user_id: str, day: date, *, spent: Callable[[], Awaitable[int]],
                   budget: int, tokens: int, seconds: int) -> str | None:
        """Hold `tokens` for `seconds` unless spent + held would reach `budget`: the hold's id, or
        None (refused). `spent()` (the command store's count) seeds the day's count when the gate
        has none."""
        ...

    async def release(self, user_id: str, day: date, hold_id: str, used: int) -> None:
        """Drop the hold and add `used` to the day's spent tokens."""
        ...


class FeedbackRepository(Protocol):
    async def message(self, session_id: str, message_id: str) -> StoredMessage | None: ...

    async def get(self, message_id: str) -> FeedbackState | None: ...

    async def for_messages(self, message_ids: list[str]) -> dict[str, FeedbackState]: ...

    async def put(self, message: StoredMessage, user_id: str, rating: str, reasons: list[str],
                  comment: str | None, now: datetime) -> FeedbackState: ...

    async def remove(self, message_id: str, now: datetime) -> bool: ...


SERVED, SUGGESTED = "served", "suggested"


@dataclass(frozen=True)
class VerifiedUse:
    """A verified answer served (on the rules, or on the model's yes: `judged`) or suggested for
    a question."""

    answer_id: str
    kind: str  # SERVED | SUGGESTED
    judged: bool = False


class VerifiedUseRepository(Protocol):
    async def add(self, uses: list[VerifiedUse], question: str, message_id: str, user_id: str,
                  now: datetime) -> None:
        """Record what the verified answers did for `question`, which `message_id` answers."""
        ...


class ChatUnitOfWork(Protocol):
    """One transaction: nothing is written unless commit() is called inside the block."""

    @property
    def sessions(self) -> SessionRepository: ...

    @property
    def usage(self) -> UsageRepository: ...

    @property
    def feedback(self) -> FeedbackRepository: ...

    @property
    def verified_uses(self) -> VerifiedUseRepository: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None: ...

    async def commit(self) -> None: ...


UnitOfWorkFactory = Callable[[], ChatUnitOfWork]


# -- the read model -----------------------------------------------------------------------------


class ReadModel(Protocol):
    """The conversation projection (MongoDB); its methods raise on an outage, as PyMongo does."""

    async def messages_by_ids(self, session_id: str, ids: list[str]) -> list[StoredMessage]:
        """The projected messages among `ids`."""
        ...

    async def list_sessions(self, user_id: str, *, is_active: bool | None, offset: int, limit: int
                            ) -> tuple[list[SessionState], int]: ...

    async def search_sessions(self, user_id: str, terms: list[QueryTerm], offset: int, limit: int
                              ) -> tuple[list[SessionMatch], int]:
        """The user's sessions holding every word, best first, and how many there are."""
        ...


@dataclass(frozen=True)
class SessionMatch:
    """A session a search found: the messages holding the words (newest first) and a snippet."""

    session: SessionState
    message_ids: list[str]
    snippet: Snippet


# -- the model ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class ModelReply:
    text: str
    input_tokens: int | None
    output_tokens: int | None


class ChatModel(Protocol):
    """Answers a list of chat turns (system first)."""

    @property
    def configured(self) -> bool: ...

    @property
    def name(self) -> str:
        """The model and the parameters that change its answers (part of the cache key)."""
        ...

    async def complete(self, turns: list[ChatTurn]) -> ModelReply: ...

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        """Like complete(), handing each piece of text to `on_delta` as it arrives."""
        ...

    async def aclose(self) -> None:
        """Release connections (at shutdown)."""
        ...


# -- the catalog --------------------------------------------------------------------------------


@dataclass(frozen=True)
class Previous:
    """The last exchange of the session: its question and the items its answer cited."""

    question: str = ""
    sources: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class Found:
    hits: list[SearchHit]
    failed: bool = False
    how: str = "search"  # explicit | follow-up | follow-up-search | search | outside | none
    window: Window | None = None  # the dates the question named, which filtered the search

    @property
    def outside(self) -> bool:
        """The relevance gate found nothing in the catalog about the question."""
        return self.how == "outside"


class CatalogSearch(Protocol):
    async def find(self, question: str, user_id: str, route: Route, previous: Previous | None,
                   max_results: int, min_score: float) -> Found:
        """The hits for a question; a failure is reported in Found.failed, never raised."""
        ...

    async def items(self, item_ids: Sequence[str], question: str) -> list[SearchHit]:
        """The live contests and news articles with these public ids, in that order, scored
        against the question."""
        ...


class VerifiedAnswerLookup(Protocol):
    async def assess(self, question: str) -> Verdict:
        """The published, currently valid verified answer for `question`, or the answers near
        it ("did you mean" suggestions)."""
        ...


# -- Redis --------------------------------------------------------------------------------------


class StreamEvent(NamedTuple):
    """One Server-Sent Event of a streamed answer. `id` is "<n>.<chars>": its number in the answer's
    stream and how many characters of the answer text the deltas up to it hold, so a resumption
    from the stored answer knows where to go on."""

    id: str
    name: str
    data: dict[str, Any]

    @property
    def number(self) -> int:
        return int(self.id.split(".", 1)[0])


class StreamOwner(NamedTuple):
    user_id: str
    session_id: str


class StreamLog(Protocol):
    """Where a streamed answer's events are kept for a while (adapters.stream_log)."""

    async def open(self, message_id: str, owner: StreamOwner) -> None: ...

    async def beat(self, message_id: str) -> None:
        """The generation of this answer is still running (every few seconds while it does)."""
        ...

    async def append(self, message_id: str, event: StreamEvent) -> bool:
        """Keep the event; False when it could not be (logged, never raised)."""
        ...

    async def owner(self, message_id: str) -> StreamOwner | None: ...

    def follow(self, message_id: str, after: int) -> AsyncIterator[StreamEvent]:
        """The events numbered after `after`, then the new ones until the answer ends."""
        ...


@dataclass(frozen=True)
class Quota:
    limit: int
    remaining: int
    reset_seconds: int
    window_seconds: int = 60

    def headers(self) -> dict[str, str]:
        """IETF draft RateLimit headers, plus the older X- names many clients read."""
        return {
            "RateLimit-Limit": str(self.limit),
            "RateLimit-Remaining": str(self.remaining),
            "RateLimit-Reset": str(self.reset_seconds),
            "RateLimit": f"limit={self.limit}, remaining={self.remaining}, reset={self.reset_seconds}",
            "RateLimit-Policy": f"{self.limit};w={self.window_seconds}",
        }


class RateLimiter(Protocol):
    async def hit(self, user_id: str) -> Quota | None:
        """Count one request; raise RateLimited over the limit; None when off or failed open."""
        ...


KEY_VERSION = "chat-answer-v1"


@dataclass(frozen=True)
class CachedAnswer:
    answer: str
    mode: str
    sources: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class CacheKeyParts:
    question: str
    options: dict[str, Any]
    model: str
    prompt_version: str
    user_id: str | None = None  # set whenever bookmarks can be involved
    bookmarks_fingerprint: str | None = None
    # the Seoul day the answer is made on: time words and contests' statuses follow the clock
    day: str = ""

    def key(self, prefix: str) -> str:
        raw = json.dumps({"v": KEY_VERSION, **asdict(self)}, sort_keys=True, ensure_ascii=False)
        return f"{prefix}:{hashlib.sha256(raw.encode()).hexdigest()}"


class AnswerCache(Protocol):
    async def key_for(self, parts: CacheKeyParts) -> str | None:
        """The key of an answer with these parts, or None when it must not be cached."""
        ...

    async def get(self, key: str) -> CachedAnswer | None: ...

    async def put(self, key: str, answer: CachedAnswer, ttl_seconds: int | None = None) -> None:
        """Keep the answer for the cache's lifetime, or `ttl_seconds` when shorter."""
        ...
