"""In-memory fakes of chatbot-api's ports (chatbot_api.service_layer.ports), for unit tests of the
use cases. They keep the ports' contracts: the unit of work writes nothing until commit(), a save
of a session that changed since it was loaded raises ConcurrentChange, the rate limiter raises
RateLimited over its limit, search failures come back as Found(failed=True)."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import date
from types import TracebackType
from typing import Any, Self

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.routing import Route
from chatbot_api.retrieval.model import Collection, SearchHit
from chatbot_api.service_layer.ports import (
    CachedAnswer,
    CacheKeyParts,
    Found,
    ModelReply,
    OnDelta,
    Previous,
    Quota,
    UsageRow,
)
from techai_shared.conversation.events import to_envelope
from techai_shared.conversation.model import (
    ConcurrentChange,
    HistoryMessage,
    MessageAdded,
    Session,
    SessionState,
    StoredMessage,
)
from techai_shared.conversation.tree import Node, Tree
from techai_shared.errors import LlmUnavailable, RateLimited, SessionNotFound
from techai_shared.events import EventEnvelope


@dataclass
class FakeDatabase:
    """What the command store holds: committed rows and outbox events."""

    sessions: dict[str, SessionState] = field(default_factory=dict)
    messages: dict[str, list[StoredMessage]] = field(default_factory=dict)
    usage: list[tuple[str, date, str, int, int, float, int]] = field(default_factory=list)
    outbox: list[EventEnvelope] = field(default_factory=list)
    thread_keys: dict[str, str] = field(default_factory=dict)  # session id -> transcript key
    budgets: dict[str, int] = field(default_factory=dict)  # user id -> their own daily budget
    commits: int = 0
    # Sessions that another writer changes between a turn's read and its write, once each.
    changed_under_reader: set[str] = field(default_factory=set)


class FakeSessionRepository:
    def __init__(self, db: FakeDatabase, pending: list[Session]) -> None:
        self._db = db
        self._pending = pending
        self.thread_keys: dict[str, str] = {}  # set in this unit of work, kept on commit

    async def get(self, session_id: str, *, for_update: bool = False) -> Session | None:
        state = self._db.sessions.get(session_id)
        return None if state is None else Session(state, thread_key=self._db.thread_keys.get(session_id))

    async def get_owned(self, session_id: str, user_id: str, *, for_update: bool = False) -> Session:
        session = await self.get(session_id)
        if session is None:
            raise SessionNotFound(f"session {session_id} not found")
        session.check_owner(user_id)
        return session

    async def set_thread_key(self, session_id: str, key: str | None) -> None:
        self.thread_keys[session_id] = key  # type: ignore[assignment]

    async def session_of_thread(self, user_id: str, key: str) -> str | None:
        mine = [s for s in self._db.sessions.values() if s.user_id == user_id
                and s.deleted_at is None and self._db.thread_keys.get(s.session_id) == key]
        return max(mine, key=lambda s: s.last_message_at).session_id if mine else None

    async def get_owned_with_recent(self, session_id: str, user_id: str, count: int
                                    ) -> tuple[Session, list[HistoryMessage]]:
        session = await self.get_owned(session_id, user_id)
        path = session.state.path
        return session, await self.history(session_id, path[-count:] if count else ())

    async def history(self, session_id: str, ids: Sequence[str]) -> list[HistoryMessage]:
        by_id = {m.message_id: m for m in self._db.messages.get(session_id, [])}
        return [HistoryMessage(m.role, m.content, m.sources) for i in ids if (m := by_id.get(i))]

    async def tree(self, session_id: str) -> Tree:
        return Tree(Node(m.message_id, m.parent_message_id, m.role, m.version or 0)
                    for m in self._db.messages.get(session_id, []))

    async def save(self, session: Session) -> None:
        if session.session_id in self._db.changed_under_reader:
            self._db.changed_under_reader.discard(session.session_id)
            stored = self._db.sessions[session.session_id]
            self._db.sessions[session.session_id] = SessionState(
                **{**stored.__dict__, "title": "renamed meanwhile", "version": stored.version + 1})
        stored_version = (self._db.sessions[session.session_id].version
                          if session.session_id in self._db.sessions else 0)
        if stored_version != session.persisted_version:
            raise ConcurrentChange(f"session {session.session_id} changed")
        self._pending.append(session)

    async def messages(self, session_id: str, *, ids: Sequence[str] | None = None
                       ) -> list[StoredMessage]:
        found = self._db.messages.get(session_id, [])
        return [m for m in found if ids is None or m.message_id in ids]

    async def list_for_user(self, user_id: str, *, is_active: bool | None, offset: int, limit: int
                            ) -> tuple[list[SessionState], int]:
        mine = [s for s in self._db.sessions.values()
                if s.user_id == user_id and s.deleted_at is None
                and (is_active is None or s.is_active == is_active)]
        mine.sort(key=lambda s: s.last_message_at, reverse=True)
        return mine[offset:offset + limit], len(mine)


class FakeUsageRepository:
    def __init__(self, db: FakeDatabase, pending: list[tuple[Any, ...]]) -> None:
        self._db = db
        self._pending = pending

    async def add(self, user_id: str, day: date, model: str, prompt_tokens: int,
                  completion_tokens: int, cost_usd: float, requests: int = 1) -> None:
        self._pending.append((user_id, day, model, prompt_tokens, completion_tokens, cost_usd,
                              requests))

    async def between(self, user_id: str, first: date, last: date) -> list[UsageRow]:
        return [UsageRow(d, m, r, p, c, cost) for (u, d, m, p, c, cost, r) in self._db.usage
                if u == user_id and first <= d <= last]

    async def model_tokens(self, user_id: str, day: date, *, not_models: tuple[str, ...]) -> int:
        return sum(p + c for (u, d, m, p, c, _, _) in self._db.usage
                   if u == user_id and d == day and m not in not_models)

    async def budget_of(self, user_id: str) -> int | None:
        return self._db.budgets.get(user_id)


class FakeUnitOfWork:
    def __init__(self, db: FakeDatabase) -> None:
        self._db = db
        self._sessions: list[Session] = []
        self._usage: list[tuple[Any, ...]] = []
        self.sessions = FakeSessionRepository(db, self._sessions)
        self.usage = FakeUsageRepository(db, self._usage)

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self._sessions.clear()  # what was not committed is rolled back
        self._usage.clear()
        self.sessions.thread_keys.clear()

    async def commit(self) -> None:
        for session in self._sessions:
            for event in session.events:
                if isinstance(event, MessageAdded):
                    self._db.messages.setdefault(session.session_id, []).append(event.message)
                self._db.outbox.append(to_envelope(event))
            session.events.clear()
            session.persisted_version = session.state.version
            self._db.sessions[session.session_id] = session.state
        self._db.usage += self._usage  # type: ignore[arg-type]
        self._db.thread_keys.update(self.sessions.thread_keys)
        self.sessions.thread_keys.clear()
        self._sessions.clear()
        self._usage.clear()
        self._db.commits += 1


class FakeModel:
    """Answers `reply` (word by word when streaming), or raises `fail`; records every call."""

    def __init__(self, reply: str = "An answer from the model.", *, configured: bool = True,
                 fail: Exception | None = None, usage: tuple[int, int] | None = (120, 30),
                 delay: float = 0.0) -> None:
        self.reply, self.configured, self.fail, self.usage = reply, configured, fail, usage
        self.delay = delay
        self.name = "fake-model|t=0"
        self.calls: list[list[ChatTurn]] = []

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        return await self._answer(turns, None)

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        return await self._answer(turns, on_delta)

    async def _answer(self, turns: list[ChatTurn], on_delta: OnDelta | None) -> ModelReply:
        self.calls.append(turns)
        if not self.configured:
            raise LlmUnavailable("no language model is configured")
        if self.fail is not None:
            raise self.fail
        for word in self.reply.split(" "):
            await asyncio.sleep(self.delay)
            if on_delta is not None:
                await on_delta(word + " ")
        tokens = self.usage or (None, None)
        return ModelReply(self.reply, tokens[0], tokens[1])

    async def aclose(self) -> None:
        return None


def hit(document_id: str = "c-0001", title: str = "AI 해커톤 2026", score: float = 0.9) -> SearchHit:
    return SearchHit(document_id, Collection.CONTESTS, title, f"{title} 설명", None, score,
                     {"status": "ONGOING"})


class FakeSearch:
    """Returns `hits` for every question, or reports a failure; records the questions."""

    def __init__(self, hits: list[SearchHit] | None = None, *, fail: bool = False) -> None:
        self.hits = hits if hits is not None else [hit()]
        self.fail = fail
        self.questions: list[tuple[str, Previous | None]] = []

    async def find(self, question: str, user_id: str, route: Route, previous: Previous | None,
                   max_results: int, min_score: float) -> Found:
        self.questions.append((question, previous))
        if self.fail:
            return Found([], failed=True, how="none")
        return Found([h for h in self.hits if h.score >= min_score][:max_results])


class FakeRateLimiter:
    def __init__(self, limit: int = 100) -> None:
        self.limit = limit
        self.hits: dict[str, int] = {}

    async def hit(self, user_id: str) -> Quota | None:
        self.hits[user_id] = self.hits.get(user_id, 0) + 1
        if self.hits[user_id] > self.limit:
            raise RateLimited("too many requests", headers={"Retry-After": "60"})
        return Quota(self.limit, self.limit - self.hits[user_id], 60)


class FakeAnswerCache:
    def __init__(self) -> None:
        self.entries: dict[str, CachedAnswer] = {}
        self.lookups = 0
        self.ttls: dict[str, int | None] = {}

    async def key_for(self, parts: CacheKeyParts) -> str | None:
        return parts.key("test")

    async def get(self, key: str) -> CachedAnswer | None:
        self.lookups += 1
        return self.entries.get(key)

    async def put(self, key: str, answer: CachedAnswer, ttl_seconds: int | None = None) -> None:
        self.ttls[key] = ttl_seconds
        if ttl_seconds is None or ttl_seconds > 0:
            self.entries[key] = answer
