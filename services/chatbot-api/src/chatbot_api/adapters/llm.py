"""The model port and its adapters: LangChain's ChatOpenAI, or none configured.

Provider failures are mapped to the envelope's 503 (LLM_UNAVAILABLE) and 504 (LLM_TIMEOUT) after
the OpenAI client's own bounded retries; an overall deadline bounds the whole call, retries included.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import openai
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI
from prometheus_client import Counter, Histogram

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.settings import ChatbotSettings
from techai_shared.errors import LlmTimeout, LlmUnavailable

logger = logging.getLogger(__name__)

MODEL_LATENCY = Histogram(
    "chatbot_model_latency_seconds", "Model call latency (whole answer) by outcome", ["outcome"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64),
)
MODEL_TOKENS = Counter("chatbot_model_tokens_total", "Tokens the model provider reported", ["kind"])

OnDelta = Callable[[str], Awaitable[None]]


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


class UnconfiguredModel:
    """Stands in when no provider is configured; the service answers without a model."""

    configured = False
    name = "none"

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        raise LlmUnavailable("no language model is configured")

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        raise LlmUnavailable("no language model is configured")


_LC_TYPES: dict[str, type[BaseMessage]] = {
    "system": SystemMessage,
    "user": HumanMessage,
    "assistant": AIMessage,
}


class OpenAIChatModel:
    """gpt-4o-mini (or any OpenAI-compatible endpoint) through langchain-openai."""

    configured = True

    def __init__(self, settings: ChatbotSettings) -> None:
        self._total_timeout = settings.openai_total_timeout_seconds
        self.name = (f"{settings.openai_model}|t={settings.openai_temperature}"
                     f"|max={settings.openai_max_output_tokens}")
        self._llm = ChatOpenAI(
            model=settings.openai_model,
            api_key=settings.openai_api_key,
            base_url=settings.openai_base_url,
            timeout=settings.openai_timeout_seconds,
            max_retries=settings.openai_max_retries,
            temperature=settings.openai_temperature,
            max_completion_tokens=settings.openai_max_output_tokens,
            stream_usage=True,  # the last streamed chunk carries the provider's token counts
        )

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        async with self._call():
            message = await self._llm.ainvoke(_messages(turns))
        return _reply(str(message.content), getattr(message, "usage_metadata", None))

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        parts: list[str] = []
        usage: dict[str, Any] | None = None
        async with self._call():
            async for chunk in self._llm.astream(_messages(turns)):
                text = chunk.content if isinstance(chunk.content, str) else ""
                if text:
                    parts.append(text)
                    await on_delta(text)
                usage = getattr(chunk, "usage_metadata", None) or usage
        return _reply("".join(parts), usage)

    @asynccontextmanager
    async def _call(self) -> AsyncIterator[None]:
        """The overall deadline, the error mapping and the latency metric of one model call."""
        started = time.perf_counter()
        outcome = "error"
        try:
            async with asyncio.timeout(self._total_timeout):
                yield
            outcome = "ok"
        except (TimeoutError, openai.APITimeoutError) as exc:
            outcome = "timeout"
            logger.warning("model timed out: %s", type(exc).__name__)
            raise LlmTimeout("the language model did not answer in time") from exc
        except openai.APIError as exc:
            logger.warning("model failed: %s: %s", type(exc).__name__, exc)
            raise LlmUnavailable("the language model is unavailable") from exc
        finally:
            MODEL_LATENCY.labels(outcome).observe(time.perf_counter() - started)


def _messages(turns: list[ChatTurn]) -> list[BaseMessage]:
    return [_LC_TYPES[t.role](content=t.content) for t in turns]


def _reply(text: str, usage: Any) -> ModelReply:
    usage = usage or {}
    reply = ModelReply(text=text, input_tokens=usage.get("input_tokens"),
                       output_tokens=usage.get("output_tokens"))
    MODEL_TOKENS.labels("prompt").inc(reply.input_tokens or 0)
    MODEL_TOKENS.labels("completion").inc(reply.output_tokens or 0)
    return reply


def make_model(settings: ChatbotSettings) -> ChatModel:
    """The configured provider, or UnconfiguredModel when OPENAI_API_KEY is not set."""
    if not settings.openai_api_key:
        logger.info("no OPENAI_API_KEY: answering without a language model")
        return UnconfiguredModel()
    return OpenAIChatModel(settings)
