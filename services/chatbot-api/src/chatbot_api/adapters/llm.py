"""The model port and its adapters: an OpenAI-compatible HTTP client, or none configured.

`OpenAIChatModel` speaks the Chat Completions API directly over one pooled aiohttp session: building
the JSON body and reading the answer is all it does per call. LangChain and the OpenAI SDK spent
about a fifth of the service's CPU on request objects, and httpx about 1.5 ms of CPU a call where
aiohttp takes 0.2 (see README, Measured). It keeps the SDK's behaviour: bounded retries with
exponential backoff and jitter on connection errors, timeouts, 408, 409, 429 and 5xx (honouring
Retry-After), an overall deadline over the whole call, and the provider's token counts
(`stream_options.include_usage` when streaming). A stream is never retried once its first piece of
text has been handed on. Failures map to the envelope's 503 (LLM_UNAVAILABLE) and 504 (LLM_TIMEOUT).
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any, Protocol

import aiohttp
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

    async def aclose(self) -> None:
        """Release connections (at shutdown)."""
        ...


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


DEFAULT_BASE_URL = "https://api.openai.com/v1"
RETRY_STATUSES = frozenset({408, 409, 429}) | frozenset(range(500, 600))
BACKOFF_FIRST, BACKOFF_MAX = 0.5, 8.0


class ProviderError(Exception):
    """An answer the provider gave that is not a completion; `retryable` if trying again may help."""

    def __init__(self, message: str, *, retryable: bool, retry_after: float | None = None) -> None:
        super().__init__(message)
        self.retryable = retryable
        self.retry_after = retry_after


class OpenAIChatModel:
    """gpt-4o-mini, or any OpenAI-compatible endpoint (OPENAI_BASE_URL), over plain HTTP."""

    configured = True

    def __init__(self, settings: ChatbotSettings) -> None:
        self._total_timeout = settings.openai_total_timeout_seconds
        self._max_retries = settings.openai_max_retries
        self.name = (f"{settings.openai_model}|t={settings.openai_temperature}"
                     f"|max={settings.openai_max_output_tokens}")
        self._params: dict[str, Any] = {
            "model": settings.openai_model,
            "temperature": settings.openai_temperature,
            "max_completion_tokens": settings.openai_max_output_tokens,
        }
        base_url = (settings.openai_base_url or DEFAULT_BASE_URL).rstrip("/")
        self._url = base_url + "/chat/completions"
        self._headers = {"Authorization": f"Bearer {settings.openai_api_key}",
                         "Content-Type": "application/json", "Accept": "application/json"}
        # per attempt: connecting, and each wait for more of the answer (a stream's next piece)
        self._timeout = aiohttp.ClientTimeout(total=None, sock_connect=settings.openai_timeout_seconds,
                                              sock_read=settings.openai_timeout_seconds)
        # An idle pooled connection is dropped before the server's own idle timeout can close it
        # under a request (uvicorn-based servers such as vLLM and LiteLLM close after 5 s).
        self._keepalive = settings.openai_keepalive_seconds
        self._session: aiohttp.ClientSession | None = None

    def _http(self) -> aiohttp.ClientSession:
        """The pooled session, made on first use (it belongs to the running event loop)."""
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(
                headers=self._headers, timeout=self._timeout,
                connector=aiohttp.TCPConnector(limit=100, keepalive_timeout=self._keepalive))
        return self._session

    async def aclose(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def complete(self, turns: list[ChatTurn]) -> ModelReply:
        body = self._body(turns, stream=False)
        async with self._call():
            data = await self._with_retries(lambda: self._post(body))
        try:
            text = data["choices"][0]["message"]["content"] or ""
        except (KeyError, IndexError, TypeError) as exc:
            raise LlmUnavailable("the language model gave an answer without a message") from exc
        return _reply(str(text), data.get("usage"))

    async def stream(self, turns: list[ChatTurn], on_delta: OnDelta) -> ModelReply:
        body = self._body(turns, stream=True)
        parts: list[str] = []
        usage: dict[str, Any] | None = None

        async def attempt() -> None:
            nonlocal usage
            async with self._http().post(self._url, data=body) as response:
                if response.status != 200:
                    raise _provider_error(response.status, response.headers, await response.read())
                async for raw in response.content:  # one SSE line at a time
                    line = raw.decode().strip()
                    if not line.startswith("data:"):
                        continue
                    payload = line[5:].strip()
                    if payload == "[DONE]":
                        break
                    chunk = json.loads(payload)
                    usage = chunk.get("usage") or usage
                    for choice in chunk.get("choices") or ():
                        text = (choice.get("delta") or {}).get("content")
                        if text:
                            parts.append(text)
                            await on_delta(text)

        async with self._call():
            # once a piece of text has been handed on, a retry would repeat it: only retry before
            await self._with_retries(attempt, retry_while=lambda: not parts)
        return _reply("".join(parts), usage)

    def _body(self, turns: list[ChatTurn], *, stream: bool) -> bytes:
        body: dict[str, Any] = {**self._params,
                                "messages": [{"role": t.role, "content": t.content} for t in turns]}
        if stream:
            body["stream"] = True
            body["stream_options"] = {"include_usage": True}
        return json.dumps(body, ensure_ascii=False).encode()

    async def _post(self, body: bytes) -> dict[str, Any]:
        async with self._http().post(self._url, data=body) as response:
            content = await response.read()
            if response.status != 200:
                raise _provider_error(response.status, response.headers, content)
        try:
            data: dict[str, Any] = json.loads(content)
        except ValueError as exc:
            raise ProviderError("the provider's answer is not JSON", retryable=True) from exc
        return data

    async def _with_retries(self, attempt: Callable[[], Awaitable[Any]],
                            retry_while: Callable[[], bool] = lambda: True) -> Any:
        """`attempt`, tried again up to max_retries times while failures are worth retrying."""
        tries = 0
        while True:
            try:
                return await attempt()
            except (aiohttp.ClientError, TimeoutError, ProviderError, ValueError) as exc:
                retryable = (exc.retryable if isinstance(exc, ProviderError)
                             else not isinstance(exc, ValueError))
                if not retryable or tries >= self._max_retries or not retry_while():
                    raise
                delay = min(BACKOFF_MAX, BACKOFF_FIRST * 2 ** tries) * (0.75 + random.random() / 4)
                if isinstance(exc, ProviderError) and exc.retry_after is not None:
                    delay = min(BACKOFF_MAX, exc.retry_after)
                tries += 1
                logger.info("model call failed (%s), retry %d/%d in %.2fs", _describe(exc), tries,
                            self._max_retries, delay)
                await asyncio.sleep(delay)

    @asynccontextmanager
    async def _call(self) -> AsyncIterator[None]:
        """The overall deadline, the error mapping and the latency metric of one model call."""
        started = time.perf_counter()
        outcome = "error"
        try:
            async with asyncio.timeout(self._total_timeout):
                yield
            outcome = "ok"
        except TimeoutError as exc:  # the overall deadline, or aiohttp's connect/read ones
            outcome = "timeout"
            logger.warning("model timed out: %s", type(exc).__name__)
            raise LlmTimeout("the language model did not answer in time") from exc
        except (aiohttp.ClientError, ProviderError, ValueError) as exc:
            logger.warning("model failed: %s", _describe(exc))
            raise LlmUnavailable("the language model is unavailable") from exc
        finally:
            MODEL_LATENCY.labels(outcome).observe(time.perf_counter() - started)


def _provider_error(status: int, headers: Mapping[str, str], content: bytes) -> ProviderError:
    retry_after: float | None = None
    header = headers.get("Retry-After")
    if header:
        try:
            retry_after = max(0.0, float(header))
        except ValueError:
            retry_after = None
    try:
        detail = str(json.loads(content).get("error", {}).get("message", ""))[:200]
    except (ValueError, AttributeError):
        detail = content[:200].decode(errors="replace")
    return ProviderError(f"HTTP {status}: {detail}", retryable=status in RETRY_STATUSES,
                         retry_after=retry_after)


def _describe(exc: BaseException) -> str:
    return f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__


def _reply(text: str, usage: Any) -> ModelReply:
    usage = usage or {}
    reply = ModelReply(text=text, input_tokens=usage.get("prompt_tokens"),
                       output_tokens=usage.get("completion_tokens"))
    MODEL_TOKENS.labels("prompt").inc(reply.input_tokens or 0)
    MODEL_TOKENS.labels("completion").inc(reply.output_tokens or 0)
    return reply


def make_model(settings: ChatbotSettings) -> ChatModel:
    """The configured provider, or UnconfiguredModel when OPENAI_API_KEY is not set."""
    if not settings.openai_api_key:
        logger.info("no OPENAI_API_KEY: answering without a language model")
        return UnconfiguredModel()
    return OpenAIChatModel(settings)
