"""The chat use case: one question in, one answer out, both stored with the session change.

The model is called before the write transaction, so a slow model never holds a row lock and a
failed model call stores nothing. The write then appends both messages atomically.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from chatbot_api.adapters.llm import ChatModel
from chatbot_api.adapters.rate_limit import Quota, RedisRateLimiter
from chatbot_api.domain.conversation import ChatTurn, is_korean, normalize_message, window_history
from chatbot_api.service_layer.history import ConversationReader
from chatbot_api.settings import ChatbotSettings
from techai_shared.auth import Principal
from techai_shared.clock import Clock
from techai_shared.conversations import ConversationStore, Exchange, NewMessage, SessionState
from techai_shared.tokens import TokenCounter

logger = logging.getLogger(__name__)

PROMPTS = Path(__file__).resolve().parent.parent / "prompts"

NO_MODEL_KO = (
    "이 서버에는 언어 모델이 설정되어 있지 않아(OPENAI_API_KEY 미설정) 답변을 생성할 수 없습니다. "
    "질문과 대화 기록은 저장되었습니다. 카탈로그 검색 기반 답변은 검색 기능과 함께 제공됩니다."
)
NO_MODEL_EN = (
    "No language model is configured on this server (OPENAI_API_KEY is not set), so no answer "
    "can be generated. Your question and the conversation were saved; answers drawn from the "
    "catalog come with retrieval."
)


def load_prompt(version: str) -> str:
    """A versioned system prompt from prompts/system_<version>.txt."""
    return (PROMPTS / f"system_{version}.txt").read_text(encoding="utf-8").strip()


@dataclass(frozen=True)
class TokenUsage:
    input_tokens: int
    output_tokens: int
    estimated_cost: float

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class ChatResult:
    answer: str
    mode: str
    exchange: Exchange
    usage: TokenUsage
    sources: list[dict[str, Any]]
    quota: Quota | None

    @property
    def session(self) -> SessionState:
        return self.exchange.session


class ChatService:
    def __init__(
        self,
        settings: ChatbotSettings,
        store: ConversationStore,
        reader: ConversationReader,
        model: ChatModel,
        limiter: RedisRateLimiter,
        tokens: TokenCounter,
        clock: Clock,
    ) -> None:
        self._settings = settings
        self._store = store
        self._reader = reader
        self._model = model
        self._limiter = limiter
        self._tokens = tokens
        self._clock = clock
        self._system_prompt = load_prompt(settings.chatbot_system_prompt_version)

    async def chat(self, principal: Principal, raw_message: str, conversation_id: str | None) -> ChatResult:
        """Answer one question in a new or existing session of the caller."""
        question = normalize_message(raw_message)
        quota = await self._limiter.hit(principal.user_id)
        session = (
            await self._store.get_owned(conversation_id, principal.user_id)
            if conversation_id else None
        )
        turns = await self.prompt_for(session, question)
        if self._model.configured:
            reply = await self._model.complete(turns)
            answer, mode = reply.text, "general"
            usage = self._usage(turns, answer, reply.input_tokens, reply.output_tokens)
        else:
            answer, mode = (NO_MODEL_KO if is_korean(question) else NO_MODEL_EN), "retrieval-only"
            usage = TokenUsage(0, 0, 0.0)
        exchange = await self._store.append_exchange(
            principal.user_id,
            session.session_id if session else None,
            NewMessage("user", question, self._tokens.count(question)),
            NewMessage("assistant", answer, self._tokens.count(answer)),
            self._clock(),
        )
        return ChatResult(answer, mode, exchange, usage, [], quota)

    async def prompt_for(self, session: SessionState | None, question: str) -> list[ChatTurn]:
        """System prompt, then the newest history within the token window, then the question."""
        system = ChatTurn("system", self._system_prompt)
        current = ChatTurn("user", question)
        history: list[ChatTurn] = []
        if session is not None and session.message_count:
            stored = await self._reader.recent(session, self._settings.chatbot_history_max_messages)
            history = window_history(
                [ChatTurn(m.role, m.content) for m in stored],
                self._settings.chatbot_history_token_window,
                self._cost,
            )
        return [system, *history, current]

    def _cost(self, turn: ChatTurn) -> int:
        return self._tokens.count_message(turn.role, turn.content)

    def _usage(self, turns: list[ChatTurn], answer: str, reported_in: int | None,
               reported_out: int | None) -> TokenUsage:
        inp = reported_in if reported_in is not None else (
            sum(self._cost(t) for t in turns) + TokenCounter.REPLY_PRIMING
        )
        out = reported_out if reported_out is not None else self._tokens.count(answer)
        cost = (inp * self._settings.openai_input_price_per_million
                + out * self._settings.openai_output_price_per_million) / 1_000_000
        return TokenUsage(inp, out, round(cost, 8))
