"""The chat use case: one question in, one grounded answer out, both stored with the session change.

A question follows the session's current path; prepare_branch() answers a question again
(regenerate) or a new version of one (edit), as siblings in the message tree
(techai_shared.conversation.tree), with the history up to the question they replace. A streamed
answer's events are kept in the stream log, so resume() can send the rest to a client whose
connection dropped.

prepare() does everything that can refuse a request (input, rate limit, session ownership, token
budget) and everything the answer is made of (route, verified answer, retrieval, prompt, cache
look-up), so both
the JSON endpoint and the stream fail with the same envelope before their first byte. The model is
called before the write transaction, so a slow model never holds a row lock and a failed model
call stores nothing; the write then appends both messages, their sources and the day's usage
atomically.

A question that matches a published verified answer (chatbot_api.verified) is answered with it:
mode `verified`, its sources, no retrieval, no model call, zero model tokens, never cached (so a
withdrawn answer stops at once); the exchange is stored like any other.
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from prometheus_client import Counter

from chatbot_api.domain.compose import (
    nothing_in_window_answer,
    outside_catalog_answer,
    retrieval_only_answer,
    small_talk_answer,
    sources_footer,
)
from chatbot_api.domain.context import (
    Budget,
    context_block,
    day,
    fit_prompt,
    source_of,
    still_true_for,
)
from chatbot_api.domain.conversation import (
    ChatTurn,
    is_korean,
    normalize_message,
    reading_form,
    window_history,
)
from chatbot_api.domain.routing import Route, RouteKind, RouteOptions, route
from chatbot_api.domain.thread import EMPTY, after_exchange, transcript_key
from chatbot_api.domain.time_words import Window
from chatbot_api.domain.usage import NO_MODEL, VERIFIED, Pricing, TokenUsage, usage_day
from chatbot_api.retrieval.model import SearchHit
from chatbot_api.service_layer.budget import Hold, TokenBudgets
from chatbot_api.service_layer.ports import (
    SERVED,
    SUGGESTED,
    AnswerCache,
    CachedAnswer,
    CacheKeyParts,
    CatalogSearch,
    ChatModel,
    Previous,
    Quota,
    RateLimiter,
    StreamEvent,
    StreamLog,
    StreamOwner,
    Tokens,
    UnitOfWorkFactory,
    VerifiedAnswerLookup,
    VerifiedUse,
)
from chatbot_api.service_layer.titles import TitleWriter
from chatbot_api.service_layer.verified_judge import VerifiedJudge
from chatbot_api.settings import ChatbotSettings
from chatbot_api.verified.match import Match, Suggestion
from techai_shared.auth import Principal
from techai_shared.clock import Clock
from techai_shared.conversation.exchange import append_exchange, apply_and_save
from techai_shared.conversation.model import (
    HistoryMessage,
    NewMessage,
    Session,
    SessionState,
    StoredMessage,
    title_from,
)
from techai_shared.errors import (
    AppError,
    ErrorCode,
    Forbidden,
    InvalidInput,
    MessageNotFound,
    SessionNotFound,
    TokenBudgetExceeded,
)
from techai_shared.ids import new_id

logger = logging.getLogger(__name__)

# What a judgement of a near match holds of the user's token budget while it runs: its prompt (the
# instructions, the question and up to three phrasings) and a one-number reply fit well within it.
JUDGE_HOLD_TOKENS = 1_000
VERIFIED_DECISIONS = Counter(
    "chatbot_verified_decisions_total",
    "What the verified answers did for a question that came near them: served (by the rules), "
    "judged-yes / judged-no (by the model), suggested, judge-failed, judge-over-budget",
    ["decision"])
ANSWERS = Counter("chatbot_answers_total",
                  "Chat answers by mode: rag, retrieval-only, general, verified", ["mode"])

PROMPTS = Path(__file__).resolve().parent.parent / "prompts"
BEAT_SECONDS = 5.0  # how often a streamed answer's generation tells the stream log it is alive
# StreamEvent.id, as Last-Event-ID sends it back; a bare number (not an id this API sends) is read
# as that event with the characters it delivered unknown
EVENT_ID_PATTERN = r"^[0-9]{1,9}(\.[0-9]{1,9})?$"
GENERAL = "general"


def load_prompt(name: str, version: str) -> str:
    """A versioned template, prompts/<name>_<version>.txt."""
    return (PROMPTS / f"{name}_{version}.txt").read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class ChatOptions:
    include_contests: bool = True
    include_news: bool = True
    include_bookmarks: bool = False
    max_results: int = 5
    min_similarity_score: float = 0.7
    # End an answer that cites items with their list (sources_footer), for a client that shows only
    # the text; the footer is part of the stored answer, so history shows what the client saw.
    sources_in_text: bool = False


@dataclass(frozen=True)
class Transcript:
    """What a client that keeps the conversation itself sent before its question (the
    OpenAI-compatible endpoint): its user and assistant messages, oldest first."""

    turns: tuple[ChatTurn, ...]

    @classmethod
    def of(cls, turns: list[ChatTurn]) -> Transcript:
        return cls(tuple(t for t in turns if t.role in ("user", "assistant")))

    @property
    def key(self) -> str:
        return transcript_key(self.turns)


@dataclass(frozen=True)
class Branch:
    """A turn that grows the message tree sideways: `regenerate` answers the question of the
    answer `message_id` again; `edit` answers a new version of the question `message_id`. Either
    way the new messages are siblings of those they replace, and their branch becomes current."""

    kind: Literal["regenerate", "edit"]
    message_id: str


def usage_public(usage: TokenUsage) -> dict[str, Any]:
    """tokenUsage as the API shows it."""
    return {"inputTokens": usage.input_tokens, "outputTokens": usage.output_tokens,
            "totalTokens": usage.total_tokens, "estimatedCost": usage.estimated_cost}


@dataclass
class Prepared:
    """A question ready to be answered: everything but the answer."""

    user_id: str
    question: str
    korean: bool
    session: Session | None  # the caller's session as read, None for a first question
    session_id: str
    route: Route
    turns: list[ChatTurn]
    sources: list[dict[str, Any]] = field(default_factory=list)
    hits: list[SearchHit] = field(default_factory=list)
    retrieval_failed: bool = False
    outside: bool = False  # the relevance gate found nothing in the catalog about the question
    window: Window | None = None  # the dates the question named (they filtered the search)
    cache_key: str | None = None
    cached: CachedAnswer | None = None
    verified: Match | None = None
    judged: bool = False  # the verified answer was served on the model's yes
    judge_usage: TokenUsage | None = None  # the model's judgement of a near match, when asked
    suggestions: tuple[Suggestion, ...] = ()  # verified answers near the question, not served
    quota: Quota | None = None
    sources_in_text: bool = False
    # The transcript key the exchange extends, for a client that resends its transcript
    # (domain.thread); None for the envelope endpoints, which name their session.
    thread_base: str | None = None
    # The answer's id, known before it is written, so a stream can announce it first.
    answer_id: str = field(default_factory=new_id)
    branch: Branch | None = None
    hold: Hold | None = None  # the turn's hold on the user's token budget (service_layer.budget)
    base: tuple[str, ...] = ()  # the path the branch's messages follow
    replaced_first: str | None = None  # the first question an edit replaces (the title follows it)

    @property
    def reading(self) -> str:
        """The question as the engine reads it (domain.conversation.reading_form)."""
        return reading_form(self.question)


@dataclass(frozen=True)
class ChatResult:
    answer: str
    mode: str
    session: SessionState
    message: StoredMessage  # the answer as stored
    created_session: bool
    usage: TokenUsage
    sources: list[dict[str, Any]]
    quota: Quota | None
    suggestions: tuple[Suggestion, ...] = ()


OnDelta = Callable[[str], Awaitable[None]]


async def deliver_nothing(_: str) -> None:
    """An on_delta for an answer nobody streams."""
    return None


_ignore = deliver_nothing


class ChatService:
    def __init__(
        self,
        settings: ChatbotSettings,
        uow: UnitOfWorkFactory,
        model: ChatModel,
        limiter: RateLimiter,
        tokens: Tokens,
        clock: Clock,
        finder: CatalogSearch,
        cache: AnswerCache,
        pricing: Pricing,
        titles: TitleWriter | None = None,
        verified: VerifiedAnswerLookup | None = None,
        stream_log: StreamLog | None = None,
        budgets: TokenBudgets | None = None,
        judge: VerifiedJudge | None = None,
    ) -> None:
        self._settings = settings
        self._uow = uow
        self._pricing = pricing
        self._model = model
        self._limiter = limiter
        self._tokens = tokens
        self._clock = clock
        self._finder = finder
        self._cache = cache
        self._titles = titles
        self._verified = verified
        self._stream_log = stream_log
        self._budgets = budgets
        self._judge = judge
        version = settings.chatbot_system_prompt_version
        self._prompt_version = version
        self._system_prompt = load_prompt("system", version)
        self._context_template = load_prompt("context", version)
        self._block_template = load_prompt("context_block", version)
        self._budget = Budget(settings.chatbot_context_token_budget, settings.chatbot_prompt_token_budget)
        self._background: set[asyncio.Task[Any]] = set()

    @property
    def stream_keepalive_seconds(self) -> float:
        """How often a stream sends a keep-alive while the model thinks (CHATBOT_STREAM_KEEPALIVE_SECONDS)."""
        return self._settings.chatbot_stream_keepalive_seconds

    # -- the two ways to answer -------------------------------------------------------------

    async def chat(self, principal: Principal, raw_message: str, conversation_id: str | None,
                   options: ChatOptions | None = None) -> ChatResult:
        """Answer one question in a new or existing session of the caller."""
        prepared = await self.prepare(principal, raw_message, conversation_id, options or ChatOptions())
        return await self.answer(prepared, streaming=False, on_delta=_ignore)

    async def stream(self, prepared: Prepared) -> AsyncIterator[StreamEvent]:
        """SSE events of a prepared question: metadata (with the answer's id), delta..., sources,
        done (or error). The answer is produced and stored by a task of its own, so a client that
        goes away mid-stream cancels only this reader, never the answer; every event is also kept
        in the stream log, so the client can come back for the rest (resume())."""
        queue: asyncio.Queue[StreamEvent | None] = asyncio.Queue()
        count, chars = 0, 0
        answer_id = prepared.answer_id
        keeping = self._stream_log is not None  # until the log fails once: then not resumable

        async def emit(name: str, data: dict[str, Any]) -> None:
            nonlocal count, chars, keeping
            count += 1
            if name == "delta":
                chars += len(data["text"])
            event = StreamEvent(f"{count}.{chars}", name, data)
            queue.put_nowait(event)
            if keeping and self._stream_log is not None:
                keeping = await self._stream_log.append(answer_id, event)

        async def delta(text: str) -> None:
            await emit("delta", {"text": text})

        async def beat() -> None:
            assert self._stream_log is not None
            while True:
                await asyncio.sleep(BEAT_SECONDS)
                await self._stream_log.beat(answer_id)

        async def produce() -> None:
            heart = asyncio.ensure_future(beat()) if self._stream_log is not None else None
            try:
                result = await self.answer(prepared, streaming=True, on_delta=delta)
                if result.suggestions:
                    await emit("suggestions", {"suggestions": suggestions_public(result.suggestions)})
                await emit("sources", {"sources": result.sources})
                await emit("done", {
                    "messageId": result.message.message_id,
                    "conversationId": result.session.session_id, "mode": result.mode,
                    "tokenUsage": usage_public(result.usage)})
            except AppError as exc:
                await emit("error", _error(exc.error_code, exc.message))
            except Exception:
                logger.exception("streamed answer failed")
                await emit("error", _error(ErrorCode.INTERNAL_SERVER_ERROR, "unexpected error"))
            finally:
                if heart is not None:
                    heart.cancel()
                queue.put_nowait(None)

        if self._stream_log is not None:
            await self._stream_log.open(answer_id, StreamOwner(prepared.user_id, prepared.session_id))
        await emit("metadata", {"conversationId": prepared.session_id, "messageId": answer_id,
                                "mode": self._mode_before(prepared)})
        self._spawn(produce())
        while (event := await queue.get()) is not None:
            yield event

    async def resume(self, principal: Principal, session_id: str, message_id: str,
                     last_event_id: str | None) -> AsyncIterator[StreamEvent]:
        """The events of a streamed answer after `last_event_id` (all of them without one): from
        the stream log while it keeps them (the live generation, or a finished one for
        CHATBOT_STREAM_RESUME_SECONDS), else from the stored answer. Checks everything before the
        first event: the caller's session (Forbidden, SessionNotFound), the answer in it
        (MessageNotFound), a well-formed id (InvalidInput)."""
        after, delivered = _parse_event_id(last_event_id)
        kept = await self._stream_log.owner(message_id) if self._stream_log is not None else None
        if kept is not None and kept.session_id != session_id:
            kept = None
        async with self._uow() as uow:
            session = await uow.sessions.get(session_id)
            if session is not None:
                session.check_owner(principal.user_id)
                stored = await uow.sessions.messages(session_id, ids=[message_id])
            elif kept is None:  # a first question's session exists once its answer is stored
                raise SessionNotFound(f"session {session_id} not found")
            elif kept.user_id != principal.user_id:
                raise Forbidden("this session belongs to another user")
        if kept is not None:
            assert self._stream_log is not None
            return self._stream_log.follow(message_id, after)
        if stored and stored[0].role == "assistant":
            return _replay(stored[0], after, delivered)
        raise MessageNotFound(f"no answer {message_id} in this session")

    # -- preparing -------------------------------------------------------------------------

    async def prepare(self, principal: Principal, raw_message: str, conversation_id: str | None,
                      options: ChatOptions, transcript: Transcript | None = None) -> Prepared:
        """Validate, count the request, find the session, route, retrieve, build the prompt.

        With a `transcript` (a client that resends the conversation) and no session named, the
        session is the caller's one whose latest exchange ends that transcript; if there is none,
        a new session starts and the transcript is the history its first answer is given."""
        question = normalize_message(raw_message)
        quota = await self._limiter.hit(principal.user_id)
        client_key = transcript.key if transcript is not None else EMPTY  # hashed once
        if transcript is not None and transcript.turns and conversation_id is None:
            conversation_id = await self._session_of_thread(principal.user_id, client_key)
        session, stored, history = (
            await self._session_and_history(conversation_id, principal.user_id)
            if conversation_id else (None, [], []))
        previous = _previous(stored)
        thread_base = None
        if transcript is not None:
            thread_base = client_key if session is None else (session.thread_key or EMPTY)
            if session is None:
                history = window_history(list(transcript.turns),
                                         self._settings.chatbot_history_token_window, self._cost)
                previous = _previous([HistoryMessage(t.role, t.content, None)
                                      for t in transcript.turns])
        p = await self._prepared(principal, question, quota, session, history, previous,
                                 options, thread_base=thread_base)
        await self._admit(p)
        return p

    async def prepare_branch(self, principal: Principal, session_id: str, branch: Branch,
                             raw_message: str | None, options: ChatOptions) -> Prepared:
        """Like prepare(), for a regenerated answer (the question of the answer `branch.message_id`
        again) or an edited question (`raw_message` instead of the question `branch.message_id`):
        the history is the path up to the question's parent; the cache is never read."""
        question = normalize_message(raw_message) if raw_message is not None else None
        quota = await self._limiter.hit(principal.user_id)
        async with self._uow() as uow:
            session = await uow.sessions.get_owned(session_id, principal.user_id)
            tree = await uow.sessions.tree(session_id)
            target = tree.nodes.get(branch.message_id)
            if target is None:
                raise MessageNotFound(f"message {branch.message_id} not found in this session")
            wanted = "assistant" if branch.kind == "regenerate" else "user"
            if target.role != wanted:
                what, done = (("an answer", "regenerated") if wanted == "assistant"
                              else ("a question", "edited"))
                raise InvalidInput(f"only {what} can be {done}",
                                   data={"messageId": f"must be {what}"})
            parent = target.parent_message_id
            base = tree.path_to(parent) if parent is not None else ()
            before = base[:-1] if branch.kind == "regenerate" else base
            limit = self._settings.chatbot_history_max_messages
            stored = await uow.sessions.history(session_id, before[max(0, len(before) - limit):])
            if question is None:  # regenerate: the question it answered
                question = (await uow.sessions.history(session_id, base[-1:]))[0].content
            elif not base:  # the first question edited: the title may follow it
                replaced = (await uow.sessions.history(session_id, (branch.message_id,)))[0].content
        stored, window = self._windowed(stored)
        p = await self._prepared(principal, question, quota, session, window, _previous(stored),
                                 options, cache=False)
        p.branch, p.base = branch, base
        if branch.kind == "edit" and not base:
            p.replaced_first = replaced
        await self._admit(p)
        return p

    async def _admit(self, p: Prepared) -> None:
        """The token budget, for a turn that will call the model (raises TokenBudgetExceeded
        before any call); answers made without one are never refused."""
        if self._budgets is not None and self._calls_model(p):
            p.hold = await self._budgets.admit(p.user_id)

    async def _prepared(self, principal: Principal, question: str, quota: Quota | None,
                        session: Session | None, history: list[ChatTurn],
                        previous: Previous | None, options: ChatOptions, *,
                        thread_base: str | None = None, cache: bool = True) -> Prepared:
        """Route, verified answer, cache, retrieval and prompt of a question in its context."""
        the_route = route(reading_form(question),
                          RouteOptions(options.include_contests, options.include_news,
                                       options.include_bookmarks),
                          has_previous=previous is not None)
        p = Prepared(principal.user_id, question, is_korean(question), session,
                     session.session_id if session else new_id(), the_route, [], quota=quota,
                     sources_in_text=options.sources_in_text, thread_base=thread_base)
        self._check_question_fits(question)
        if await self._answer_verified(p, the_route):
            return p
        if cache and session is None and not history:  # an answer in context is nobody else's
            p.cache_key = await self._cache.key_for(self._cache_parts(p, options))
            p.cached = await self._cache.get(p.cache_key) if p.cache_key else None
            if p.cached is not None:
                return p
        if the_route.kind is RouteKind.CATALOG:
            found = await self._finder.find(p.reading, principal.user_id, the_route, previous,
                                            options.max_results, options.min_similarity_score)
            p.hits, p.retrieval_failed, p.outside = found.hits, found.failed, found.outside
            p.window = found.window
        fitted = fit_prompt(ChatTurn("system", self._system_prompt), history, p.hits,
                            ChatTurn("user", question), self._render_context, self._cost, self._budget,
                            self._tokens.REPLY_PRIMING)
        p.turns, p.hits = fitted.turns, fitted.hits
        p.sources = [source_of(h) for h in p.hits]
        return p

    async def _answer_verified(self, p: Prepared, the_route: Route) -> bool:
        """Whether a verified answer answers the question (then with its sources): one the rules
        serve, or, with a model, one the model picks among the near ones; the near ones not
        served are kept as suggestions. Small talk and a question that refers back to the
        conversation are never matched; a failure of the check is logged and the question
        answered as usual."""
        if (self._verified is None or the_route.kind is RouteKind.SMALL_TALK
                or the_route.follow_up):
            return False
        try:
            verdict = await self._verified.assess(p.reading)
            judging = (bool(verdict.suggestions) and self._judge is not None
                       and self._judge.configured)
            if verdict.match is not None and (verdict.match.sure or not judging):
                p.verified = verdict.match
                VERIFIED_DECISIONS.labels("served").inc()
            elif judging:
                p.verified = await self._judged(p, verdict.suggestions, verdict.match)
            if p.verified is None and verdict.suggestions:
                p.suggestions = verdict.suggestions
                VERIFIED_DECISIONS.labels("suggested").inc()
            if p.verified is None:
                return False
            hits = await self._finder.items(p.verified.answer.sources, p.reading)
        except Exception as exc:  # the store or the embedder: answer without it
            logger.warning("verified answers not checked: %s: %s", type(exc).__name__, exc)
            p.verified, p.judged = None, False
            return False
        p.hits = hits
        p.sources = [source_of(h) for h in hits]
        return True

    async def _judged(self, p: Prepared, suggestions: tuple[Suggestion, ...],
                      unsure: Match | None) -> Match | None:
        """The near answer the model says the question is; None on its no. When the user's token
        budget is spent or the call fails, the rules decide as they do without a model (`unsure`,
        their match with a foreign term, or nothing). The call's tokens are the user's."""
        assert self._judge is not None
        try:
            hold = (await self._budgets.admit(p.user_id, tokens=JUDGE_HOLD_TOKENS)
                    if self._budgets is not None else None)
        except TokenBudgetExceeded:
            VERIFIED_DECISIONS.labels("judge-over-budget").inc()
            return unsure
        used = 0
        try:
            judgement = await self._judge.judge(p.reading, suggestions)
            # the call's usage is written now, whatever becomes of the turn (refused by the
            # budget, a failed model), so the day's usage and the budget always hold it
            now = self._clock()
            async with self._uow() as uow:
                await uow.usage.add(p.user_id, usage_day(now), self._pricing.model,
                                    judgement.usage.input_tokens, judgement.usage.output_tokens,
                                    judgement.usage.estimated_cost, requests=0)
                await uow.commit()
        except Exception as exc:  # the provider or the store: the rules decide
            logger.warning("verified judge failed: %s: %s", type(exc).__name__, exc)
            VERIFIED_DECISIONS.labels("judge-failed").inc()
            return unsure
        else:
            p.judge_usage, used = judgement.usage, judgement.usage.total_tokens
            p.judged = judgement.chosen is not None
            VERIFIED_DECISIONS.labels("judged-yes" if p.judged else "judged-no").inc()
            return judgement.chosen
        finally:
            if hold is not None and self._budgets is not None:
                await self._budgets.settle(hold, used)

    def _check_question_fits(self, question: str) -> None:
        fit_prompt(ChatTurn("system", self._system_prompt), [], [], ChatTurn("user", question),
                   self._render_context, self._cost, self._budget, self._tokens.REPLY_PRIMING)

    async def _session_of_thread(self, user_id: str, key: str) -> str | None:
        async with self._uow() as uow:
            return await uow.sessions.session_of_thread(user_id, key)

    async def _session_and_history(self, session_id: str, user_id: str
                                   ) -> tuple[Session, list[HistoryMessage], list[ChatTurn]]:
        """The caller's session and the newest messages that fit the history window, stored and as
        turns. A turn is a command: it reads its history from the command store, so it sees the
        previous turn even while the projection trails."""
        async with self._uow() as uow:
            session, stored = await uow.sessions.get_owned_with_recent(
                session_id, user_id, self._settings.chatbot_history_max_messages)
        return session, *self._windowed(stored)

    def _windowed(self, stored: list[HistoryMessage]) -> tuple[list[HistoryMessage], list[ChatTurn]]:
        """The newest stored messages that fit the history window, stored and as turns."""
        window = window_history([ChatTurn(m.role, m.content) for m in stored],
                                self._settings.chatbot_history_token_window, self._cost)
        return (stored[len(stored) - len(window):] if window else []), window

    def _cache_parts(self, p: Prepared, options: ChatOptions) -> CacheKeyParts:
        personal = p.route.bookmarks_involved
        return CacheKeyParts(
            question=p.question,
            options={"c": options.include_contests, "n": options.include_news,
                     "b": options.include_bookmarks, "k": options.max_results,
                     "s": options.min_similarity_score},
            model=self._model.name,
            prompt_version=self._prompt_version,
            user_id=p.user_id if personal else None,
            day=day(self._clock()) or "",
        )

    def _render_context(self, hits: Any) -> ChatTurn | None:
        if not hits:
            return None
        blocks = "\n\n".join(context_block(self._block_template, i, h) for i, h in enumerate(hits, 1))
        return ChatTurn("system", self._context_template.format(blocks=blocks))

    def _cost(self, turn: ChatTurn) -> int:
        return self._tokens.count_message(turn.role, turn.content)

    # -- answering -------------------------------------------------------------------------

    def _mode_before(self, p: Prepared) -> str:
        if p.verified is not None:
            return VERIFIED
        if p.cached is not None:
            return p.cached.mode
        if not p.sources and self._outside_catalog(p):
            return GENERAL
        if not self._model.configured or self._empty_window(p):
            return NO_MODEL
        return "rag" if p.sources else GENERAL

    @staticmethod
    def _empty_window(p: Prepared) -> bool:
        """A catalog question naming dates that hold nothing: said so without a model, so that
        nothing outside them is offered as if it matched."""
        return p.window is not None and not p.hits and not p.retrieval_failed

    @staticmethod
    def _outside_catalog(p: Prepared) -> bool:
        """A question the relevance gate found nothing in the catalog about: answered as a
        general one (a catalog question that found nothing is answered as such)."""
        return p.outside and not p.hits

    def _calls_model(self, p: Prepared) -> bool:
        """Whether answer() will call the model (the branches it takes, in its order)."""
        return (p.verified is None and p.cached is None and not self._empty_window(p)
                and self._model.configured)

    async def answer(self, p: Prepared, *, streaming: bool, on_delta: OnDelta) -> ChatResult:
        """Produce the answer (cache, model or composed), store it, and start the title; then
        release the turn's hold on the token budget, counting what it used."""
        used = 0
        try:
            result = await self._answer(p, streaming=streaming, on_delta=on_delta)
            used = (result.usage.total_tokens - _tokens_of(p.judge_usage)
                    if self._calls_model(p) else 0)
            return result
        finally:
            if p.hold is not None and self._budgets is not None:
                await self._budgets.settle(p.hold, used)

    async def _answer(self, p: Prepared, *, streaming: bool, on_delta: OnDelta) -> ChatResult:
        mode = self._mode_before(p)
        sources = p.sources
        if p.verified is not None:
            text, usage = p.verified.answer.answer, TokenUsage(0, 0, 0.0)
            await deliver_in_parts(text, on_delta)
        elif p.cached is not None:
            text, sources = p.cached.answer, p.cached.sources
            usage = TokenUsage(0, 0, 0.0)
            await deliver_in_parts(text, on_delta)
        elif self._empty_window(p) and p.window is not None:
            text = nothing_in_window_answer(p.window.label(p.korean), p.korean)
            usage = TokenUsage(self._cost(ChatTurn("user", p.question)), self._tokens.count(text), 0.0)
            await deliver_in_parts(text, on_delta)
        elif self._model.configured:
            reply = (await self._model.stream(p.turns, on_delta) if streaming
                     else await self._model.complete(p.turns))
            text = reply.text
            usage = self._usage(p.turns, text, reply.input_tokens, reply.output_tokens)
        else:
            text = (outside_catalog_answer(p.korean) if self._outside_catalog(p)
                    else retrieval_only_answer(p.hits, p.korean) if p.route.kind is RouteKind.CATALOG
                    else small_talk_answer(p.korean))
            usage = TokenUsage(self._cost(ChatTurn("user", p.question)), self._tokens.count(text), 0.0)
            await deliver_in_parts(text, on_delta)
        shown = text
        if p.sources_in_text and sources and mode != NO_MODEL:  # retrieval-only lists them itself
            footer = sources_footer(sources, p.korean)
            await on_delta(footer)
            shown = text + footer
        session, stored = await self._store_exchange(p, shown, sources, usage, mode)
        ANSWERS.labels(mode).inc()
        if p.judge_usage is not None:  # the turn's tokens include the judgement's
            usage = _plus(usage, p.judge_usage)
        if p.cache_key and p.cached is None and self._worth_caching(p):
            await self._cache.put(p.cache_key, CachedAnswer(text, mode, sources),
                                  still_true_for(p.hits, self._clock()))
        created = p.session is None
        first_changed = p.replaced_first is not None and session.title == title_from(p.question)
        if ((created or first_changed) and self._titles is not None and self._model.configured
                and mode != VERIFIED):
            self._spawn(self._titles.retitle(session, p.question))
        return ChatResult(shown, mode, session, stored, created, usage, sources, p.quota,
                          p.suggestions)

    @staticmethod
    def _worth_caching(p: Prepared) -> bool:
        """Whether the answer may serve the same first question for a while: not when retrieval
        failed, nor when a catalog question found nothing (the catalog changes: the item it asks
        for may be added the next minute, and "nothing found" must not outlive that)."""
        return not p.retrieval_failed and (bool(p.hits) or p.route.kind is not RouteKind.CATALOG)

    async def _store_exchange(self, p: Prepared, text: str, sources: list[dict[str, Any]],
                              usage: TokenUsage, mode: str) -> tuple[SessionState, StoredMessage]:
        """The messages, the session change and the day's usage, in one transaction."""
        now = self._clock()
        question = NewMessage("user", p.question, self._tokens.count(p.question))
        answer = NewMessage("assistant", text, self._tokens.count(text), sources, p.answer_id)
        # answers made without a model count under their mode, so a token budget leaves them out
        model = (VERIFIED if mode == VERIFIED
                 else NO_MODEL if mode == NO_MODEL or not self._model.configured
                 else self._pricing.model)
        async with self._uow() as uow:
            session = p.session or Session.start(p.session_id, p.user_id, p.question, now)
            stored: StoredMessage
            if p.branch is None:
                session, exchange = await append_exchange(uow.sessions, session, p.user_id,
                                                          question, answer, now)
                stored = exchange.assistant_message
            elif p.branch.kind == "edit":
                session, exchange = await apply_and_save(
                    uow.sessions, session, p.user_id,
                    lambda s: s.branch_exchange(p.user_id, p.base, question, answer, now))
                stored = exchange.assistant_message
                if p.replaced_first is not None and session.state.title == title_from(p.replaced_first):
                    session.rename(p.user_id, title_from(p.question), now)  # still the automatic one
                    await uow.sessions.save(session)
            else:
                session, stored = await apply_and_save(
                    uow.sessions, session, p.user_id,
                    lambda s: s.add_answer(p.user_id, p.base, answer, now))
            if p.thread_base is not None:
                await uow.sessions.set_thread_key(session.session_id,
                                                  after_exchange(p.thread_base, p.question, text))
            elif p.branch is not None:  # the transcript a stateless client holds is not this one
                await uow.sessions.set_thread_key(session.session_id, None)
            await uow.usage.add(p.user_id, usage_day(now), model, usage.input_tokens,
                                usage.output_tokens, usage.estimated_cost)
            uses = ([VerifiedUse(p.verified.answer.answer_id, SERVED, p.judged)]
                    if p.verified is not None else [])
            uses += [VerifiedUse(s.answer.answer_id, SUGGESTED) for s in p.suggestions]
            if uses:
                await uow.verified_uses.add(uses, p.question, stored.message_id, p.user_id, now)
            await uow.commit()
        return session.state, stored

    def _usage(self, turns: list[ChatTurn], answer: str, reported_in: int | None,
               reported_out: int | None) -> TokenUsage:
        inp = reported_in if reported_in is not None else (
            sum(self._cost(t) for t in turns) + self._tokens.REPLY_PRIMING
        )
        out = reported_out if reported_out is not None else self._tokens.count(answer)
        return self._pricing.usage(inp, out)

    # -- background work -------------------------------------------------------------------

    def _spawn(self, work: Awaitable[Any]) -> None:
        task: asyncio.Task[Any] = asyncio.ensure_future(work)
        self._background.add(task)
        task.add_done_callback(self._background.discard)

    async def drain(self, within: float = 10.0) -> None:
        """Wait for streamed answers and titles still being produced (at shutdown)."""
        if self._background:
            await asyncio.wait(set(self._background), timeout=within)


def suggestions_public(suggestions: tuple[Suggestion, ...]) -> list[dict[str, Any]]:
    """Suggestions as the API shows them (the JSON response and the SSE event)."""
    return [{"answerId": s.answer.answer_id, "question": s.question} for s in suggestions]


def _tokens_of(usage: TokenUsage | None) -> int:
    return usage.total_tokens if usage is not None else 0


def _plus(a: TokenUsage, b: TokenUsage) -> TokenUsage:
    return TokenUsage(a.input_tokens + b.input_tokens, a.output_tokens + b.output_tokens,
                      round(a.estimated_cost + b.estimated_cost, 8))


async def deliver_in_parts(text: str, on_delta: OnDelta) -> None:
    """A ready answer (cached or composed) as one delta per paragraph, so a stream shows its first
    item at once; the parts joined are exactly `text`."""
    for part in re.split(r"(?<=\n\n)", text):
        if part:
            await on_delta(part)


def _previous(stored: list[HistoryMessage]) -> Previous | None:
    """The last question and the sources of its answer, from the stored history."""
    for i in range(len(stored) - 1, 0, -1):
        if stored[i].role == "assistant" and stored[i - 1].role == "user":
            return Previous(stored[i - 1].content, list(stored[i].sources or []))
    return None


def _parse_event_id(value: str | None) -> tuple[int, int | None]:
    """The number and the characters delivered of a `Last-Event-ID` (StreamEvent.id); (0, 0)
    without one, None for the characters of a bare number."""
    if value is None:
        return 0, 0
    if not re.fullmatch(EVENT_ID_PATTERN, value):
        raise InvalidInput("Last-Event-ID must be the id of an event of this stream",
                           data={"Last-Event-ID": "must look like 3.120"})
    number, _, chars = value.partition(".")
    return int(number), int(chars) if chars else None


async def _replay(message: StoredMessage, after: int, delivered: int | None
                  ) -> AsyncIterator[StreamEvent]:
    """The rest of a stored answer after event `after`, which had delivered `delivered`
    characters of it: the text not yet delivered as one delta, its sources, done. When what was
    delivered is unknown, the answer starts again (metadata, then all of its text)."""
    number, text = after, message.content
    if delivered is None:
        delivered = after = 0
    if after == 0:
        number += 1
        yield StreamEvent(f"{number}.0", "metadata", {"conversationId": message.session_id,
                                                       "messageId": message.message_id})
    if delivered < len(text):
        number += 1
        yield StreamEvent(f"{number}.{len(text)}", "delta", {"text": text[delivered:]})
    number += 1
    yield StreamEvent(f"{number}.{len(text)}", "sources", {"sources": message.sources})
    number += 1
    yield StreamEvent(f"{number}.{len(text)}", "done", {
        "messageId": message.message_id, "conversationId": message.session_id})


def _error(code: ErrorCode, message: str) -> dict[str, Any]:
    return {"code": code.code, "messageCode": {"code": code.name_code, "text": code.text},
            "message": message, "data": None}
