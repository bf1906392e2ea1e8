"""The model port over LangChain chat models: OpenAI (or any OpenAI-compatible server) or Anthropic.

`build_chat_model` makes the LangChain chat model CHATBOT_PROVIDER names (langchain-openai's
ChatOpenAI, langchain-anthropic's ChatAnthropic) with the configured model, temperature, output
limit, per-attempt timeout and retries; the bench's bare endpoint calls the same object.
`LangChainChatModel` is the port (service_layer.ports.ChatModel) over it: the domain's turns become
LangChain messages, and everything on the wire is the provider SDK's: the request and its format,
streaming, bounded retries with exponential backoff and jitter on connection errors, timeouts, 408,
409, 429 (honouring Retry-After) and 5xx, and the token counts (usage_metadata; `stream_usage` asks
OpenAI-compatible servers for them when streaming). The SDKs retry a request only until its answer
starts, so a stream is never retried once a piece of text has been handed on.

Here: the overall deadline over a call and its retries, and the failures mapped to the envelope's
504 (LLM_TIMEOUT: the deadline, or the last attempt timing out) and 503 (LLM_UNAVAILABLE: anything
else). Without the chosen provider's key, `UnconfiguredModel` stands in (retrieval-only).
"""

from __future__ import annotations

import asyncio
import importlib
import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from langchain_core.exceptions import ModelTimeoutError
from langchain_core.language_models import BaseChatModel
from langchain_core.messages import AIMessage, BaseMessage, HumanMessage, SystemMessage
from prometheus_client import Counter, Histogram

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.service_layer.ports import ChatModel, ModelReply, OnDelta
from chatbot_api.settings import ChatbotSettings
from techai_shared.errors import LlmTimeout, LlmUnavailable

__all__ = ["ChatModel", "LangChainChatModel", "MissingProviderPackage", "UnconfiguredModel",
           "build_chat_model", "is_timeout", "make_model", "to_messages"]

logger = logging.getLogger(__name__)

MODEL_LATENCY = Histogram(
    "chatbot_model_latency_seconds", "Model call latency (whole answer) by outcome", ["outcome"],
    buckets=(0.1, 0.25, 0.5, 1, 2, 4, 8, 16, 32, 64),
)
MODEL_TOKENS = Counter("chatbot_model_tokens_total", "Tokens the model provider reported", ["kind"])

# provider -> (the module of its LangChain integration, the package that installs it, the class)
PROVIDERS: dict[str, tuple[str, str, str]] = {
    "openai": ("langchain_openai", "langchain-openai", "ChatOpenAI"),
    "anthropic": ("langchain_anthropic", "langchain-anthropic", "ChatAnthropic"),
}


class MissingProviderPackage(RuntimeError):
    """The chosen provider's LangChain integration is not installed (raised at start)."""


class UnconfiguredModel:
    """Stands in when no provider is configured; the service answers without a model."""

    configured = False
    name = "none"

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        raise LlmUnavailable("no language model is configured")

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        raise LlmUnavailable("no language model is configured")

    async def aclose(self) -> None:
        return None


def build_chat_model(settings: ChatbotSettings) -> BaseChatModel:
    """The LangChain chat model of CHATBOT_PROVIDER with the configured parameters.

    MissingProviderPackage names the package when the provider's integration is not installed.
    """
    provider = settings.chatbot_provider
    if provider not in PROVIDERS:
        raise ValueError(f"no chat model for CHATBOT_PROVIDER={provider}")
    module_name, package, class_name = PROVIDERS[provider]
    try:
        module = importlib.import_module(module_name)
    except ImportError as exc:
        raise MissingProviderPackage(
            f"CHATBOT_PROVIDER={provider} needs the {package} package, which is not installed "
            f"(install it, e.g. `uv add {package}` or `pip install {package}`)") from exc
    options: dict[str, Any] = {  # by alias (api_key, base_url, timeout): one spelling for both
        "model": settings.model_name,
        "api_key": settings.model_api_key,
        "max_tokens": settings.chatbot_model_max_output_tokens,
        "timeout": settings.chatbot_model_timeout_seconds,
        "max_retries": settings.chatbot_model_max_retries,
        "stream_usage": True,
    }
    base_url = settings.openai_base_url if provider == "openai" else settings.anthropic_base_url
    if base_url:
        options["base_url"] = base_url
    if provider == "openai":
        # Chat Completions, never the Responses API: it is what OpenAI-compatible servers speak.
        options["use_responses_api"] = False
        # the longest wait for the next piece of a stream, keep-alive comments not counting
        options["stream_chunk_timeout"] = settings.chatbot_model_timeout_seconds
    chat_model = getattr(module, class_name)
    llm: BaseChatModel = chat_model(**options)
    if accepts_temperature(llm):
        llm = chat_model(**options, temperature=settings.chatbot_model_temperature)
    return llm


def accepts_temperature(llm: BaseChatModel) -> bool:
    """Whether to send a temperature: not to a model whose LangChain profile says it takes none
    (OpenAI's reasoning models, Claude Sonnet 5 and later), which would refuse the request."""
    profile = getattr(llm, "profile", None) or {}
    return profile.get("temperature") is not False


def to_messages(turns: list[ChatTurn], *, one_system: bool = False) -> list[BaseMessage]:
    """The domain's turns as LangChain messages. `one_system`: the Messages API has one system
    prompt, before the conversation, so later system turns (the retrieved context) join the first."""
    messages: list[BaseMessage] = []
    if one_system:
        system = "\n\n".join(t.content for t in turns if t.role == "system")
        messages.append(SystemMessage(content=system))
        turns = [t for t in turns if t.role != "system"]
    for turn in turns:
        if turn.role == "system":
            messages.append(SystemMessage(content=turn.content))
        elif turn.role == "assistant":
            messages.append(AIMessage(content=turn.content))
        else:
            messages.append(HumanMessage(content=turn.content))
    return messages


class LangChainChatModel:
    """The ChatModel port over a LangChain chat model; see the module docstring."""

    configured = True

    def __init__(self, llm: BaseChatModel, *, provider: str, model: str, temperature: float | None,
                 max_output_tokens: int, total_timeout: float) -> None:
        self.llm = llm
        self.provider = provider
        self.model = model
        self.name = f"{provider}:{model}|t={temperature}|max={max_output_tokens}"
        self._one_system = provider == "anthropic"
        self._total_timeout = total_timeout

    @classmethod
    def from_settings(cls, settings: ChatbotSettings) -> LangChainChatModel:
        llm = build_chat_model(settings)
        temperature = settings.chatbot_model_temperature if accepts_temperature(llm) else None
        return cls(llm, provider=settings.chatbot_provider, model=settings.model_name,
                   temperature=temperature, max_output_tokens=settings.chatbot_model_max_output_tokens,
                   total_timeout=settings.chatbot_model_total_timeout_seconds)

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        messages = to_messages(turns, one_system=self._one_system)
        async with self._call():
            reply = await self.llm.ainvoke(messages)
        return _reply(reply.text, getattr(reply, "usage_metadata", None))

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        messages = to_messages(turns, one_system=self._one_system)
        parts: list[str] = []
        usage: dict[str, int] = {}
        async with self._call():
            async for chunk in self.llm.astream(messages):
                for key, count in (getattr(chunk, "usage_metadata", None) or {}).items():
                    if key in ("input_tokens", "output_tokens") and isinstance(count, int):
                        usage[key] = usage.get(key, 0) + count
                text = chunk.text
                if text:
                    parts.append(text)
                    await on_delta(text)
        return _reply("".join(parts), usage or None)

    async def aclose(self) -> None:
        """The SDK clients' connection pools are shared by the process and closed with it."""
        return None

    @asynccontextmanager
    async def _call(self) -> AsyncIterator[None]:
        """The overall deadline, the error mapping and the latency metric of one model call."""
        started = time.perf_counter()
        outcome = "error"
        try:
            async with asyncio.timeout(self._total_timeout):
                yield
            outcome = "ok"
        except Exception as exc:  # the provider refused, failed, timed out, or the connection broke
            if is_timeout(exc):
                outcome = "timeout"  # the overall deadline, or the last attempt's own timeout
                logger.warning("model timed out: %s", _describe(exc))
                raise LlmTimeout("the language model did not answer in time") from exc
            logger.warning("model failed: %s", _describe(exc))
            raise LlmUnavailable("the language model is unavailable") from exc
        finally:
            MODEL_LATENCY.labels(outcome).observe(time.perf_counter() - started)


_TIMEOUTS = ("Timeout", "TimeoutError", "TimeoutException")  # APITimeoutError, httpx2.ReadTimeout...


def is_timeout(exc: BaseException) -> bool:
    """A timeout, whoever raised it: the overall deadline (TimeoutError), an SDK's last attempt
    (LangChain's ModelTimeoutError), or the HTTP client under an SDK while a stream is read."""
    if isinstance(exc, TimeoutError | ModelTimeoutError):
        return True
    return any(cls.__name__.endswith(_TIMEOUTS) for cls in type(exc).__mro__)


def _describe(exc: BaseException) -> str:
    text = str(exc)[:300]
    return f"{type(exc).__name__}: {text}" if text else type(exc).__name__


def _reply(text: str, usage: Any) -> ModelReply:
    """The answer with the provider's counts; a count it did not give (0 or missing) is None, and the
    service counts it itself."""
    usage = usage or {}
    reply = ModelReply(text=text, input_tokens=usage.get("input_tokens") or None,
                       output_tokens=usage.get("output_tokens") or None)
    MODEL_TOKENS.labels("prompt").inc(reply.input_tokens or 0)
    MODEL_TOKENS.labels("completion").inc(reply.output_tokens or 0)
    return reply


def make_model(settings: ChatbotSettings) -> ChatModel:
    """The configured provider's model, or UnconfiguredModel without a key for it (or with
    CHATBOT_PROVIDER=none)."""
    provider = settings.chatbot_provider
    if provider == "none":
        logger.info("CHATBOT_PROVIDER=none: answering without a language model")
        return UnconfiguredModel()
    if not settings.model_api_key:
        logger.info("no %s_API_KEY for CHATBOT_PROVIDER=%s: answering without a language model",
                    provider.upper(), provider)
        return UnconfiguredModel()
    model = LangChainChatModel.from_settings(settings)
    logger.info("answering with %s %s", provider, model.model)
    return model
