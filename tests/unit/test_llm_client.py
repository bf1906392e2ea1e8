"""The OpenAI-compatible client's own rules: what it sends, what it retries, what it reports.

Each case serves its provider behaviour from a local aiohttp server on a free port; the end-to-end
fault cases through chatbot-api (500s, a hanging server, a dropped connection) are in
tests/reliability/test_model_faults.py.
"""

from __future__ import annotations

import asyncio
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any

import pytest
from aiohttp import web
from aiohttp.test_utils import TestServer

from chatbot_api.adapters import llm
from chatbot_api.adapters.llm import OpenAIChatModel
from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.settings import ChatbotSettings
from techai_shared.errors import LlmTimeout, LlmUnavailable

TURNS = [ChatTurn("system", "너는 도우미야"), ChatTurn("user", "안녕?")]
Handler = Callable[[web.Request], Awaitable[web.StreamResponse]]


def completion(text: str) -> dict[str, Any]:
    return {"id": "c1", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 21, "completion_tokens": 3, "total_tokens": 24}}


def sse_line(chunk: dict[str, Any]) -> bytes:
    return f"data: {json.dumps(chunk)}\n\n".encode()


def delta(text: str) -> dict[str, Any]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}


async def sse(request: web.Request, *chunks: dict[str, Any], done: bool = True) -> web.StreamResponse:
    response = web.StreamResponse(headers={"Content-Type": "text/event-stream"})
    await response.prepare(request)
    for chunk in chunks:
        await response.write(sse_line(chunk))
    if done:
        await response.write(b"data: [DONE]\n\n")
    return response


@asynccontextmanager
async def provider(handler: Handler, retries: int = 2, read_timeout: float = 1.0, **limits: Any
                   ) -> AsyncIterator[OpenAIChatModel]:
    """A local provider answering with `handler`; `server_keepalive` is its idle timeout."""
    app = web.Application()
    app.router.add_post("/v1/chat/completions", handler)
    server = TestServer(app, keepalive_timeout=limits.pop("server_keepalive", 75.0))
    await server.start_server()
    settings = ChatbotSettings(openai_api_key="sk-test", openai_base_url=str(server.make_url("/v1/")),
                               openai_model="gpt-4o-mini", openai_max_retries=retries,
                               openai_timeout_seconds=read_timeout, openai_total_timeout_seconds=5,
                               **limits)
    model = OpenAIChatModel(settings)
    try:
        yield model
    finally:
        await model.aclose()
        await server.close()


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm, "BACKOFF_FIRST", 0.0)


async def test_complete_sends_the_turns_and_reads_the_answer_and_usage() -> None:
    seen: list[tuple[str, dict[str, Any]]] = []

    async def handler(request: web.Request) -> web.StreamResponse:
        seen.append((request.headers["Authorization"], await request.json()))
        return web.json_response(completion("반가워요"))

    async with provider(handler) as model:
        reply = await model.complete(TURNS)
    assert (reply.text, reply.input_tokens, reply.output_tokens) == ("반가워요", 21, 3)
    authorization, body = seen[0]
    assert authorization == "Bearer sk-test"
    assert body["messages"] == [{"role": "system", "content": "너는 도우미야"},
                                {"role": "user", "content": "안녕?"}]
    assert body["model"] == "gpt-4o-mini" and body["max_completion_tokens"] == 800
    assert "stream" not in body


async def test_retryable_statuses_are_retried_and_retry_after_is_honoured() -> None:
    statuses = iter([429, 503])

    async def handler(request: web.Request) -> web.StreamResponse:
        status = next(statuses, 200)
        if status != 200:
            return web.json_response({"error": {"message": "x"}}, status=status,
                                     headers={"Retry-After": "0"})
        return web.json_response(completion("됐어요"))

    async with provider(handler, retries=2) as model:
        assert (await model.complete(TURNS)).text == "됐어요"


async def test_retries_are_bounded_then_503() -> None:
    calls = 0

    async def handler(request: web.Request) -> web.StreamResponse:
        nonlocal calls
        calls += 1
        return web.json_response({"error": {"message": "boom"}}, status=500)

    async with provider(handler, retries=2) as model:
        with pytest.raises(LlmUnavailable):
            await model.complete(TURNS)
    assert calls == 3  # the first try and two retries


async def test_a_client_error_is_not_retried() -> None:
    calls = 0

    async def handler(request: web.Request) -> web.StreamResponse:
        nonlocal calls
        calls += 1
        return web.json_response({"error": {"message": "bad request"}}, status=400)

    async with provider(handler, retries=2) as model:
        with pytest.raises(LlmUnavailable):
            await model.complete(TURNS)
    assert calls == 1


async def test_a_dropped_connection_is_retried() -> None:
    calls = 0

    async def handler(request: web.Request) -> web.StreamResponse:
        nonlocal calls
        calls += 1
        if calls == 1:
            assert request.transport is not None
            request.transport.close()  # no status line at all
            await asyncio.sleep(0.1)
        return web.json_response(completion("다시 됐어요"))

    async with provider(handler, retries=1) as model:
        assert (await model.complete(TURNS)).text == "다시 됐어요"
    assert calls == 2


async def test_an_idle_connection_is_not_reused_after_the_keepalive() -> None:
    """The server closes idle connections after 0.4 s; the client keeps them 0.2 s, so a call after
    a pause opens a new connection instead of writing into one the server is closing (no retries)."""
    peers: list[Any] = []

    async def handler(request: web.Request) -> web.StreamResponse:
        peers.append(request.transport.get_extra_info("peername") if request.transport else None)
        return web.json_response(completion("ok"))

    async with provider(handler, retries=0, server_keepalive=0.4,
                        openai_keepalive_seconds=0.2) as model:
        await model.complete(TURNS)
        await model.complete(TURNS)
        await asyncio.sleep(0.6)
        assert (await model.complete(TURNS)).text == "ok"
    assert peers[0] == peers[1] and peers[2] != peers[1]  # reused at once, replaced after idling


async def test_a_read_timeout_is_a_504() -> None:
    async def handler(request: web.Request) -> web.StreamResponse:
        await asyncio.sleep(2)
        return web.json_response(completion("too late"))

    async with provider(handler, retries=1, read_timeout=0.2) as model:
        with pytest.raises(LlmTimeout):
            await model.complete(TURNS)


async def test_an_answer_without_a_message_is_a_503() -> None:
    async def handler(request: web.Request) -> web.StreamResponse:
        return web.json_response({"choices": []})

    async with provider(handler) as model:
        with pytest.raises(LlmUnavailable):
            await model.complete(TURNS)


async def test_stream_hands_on_each_piece_and_reads_the_usage_chunk() -> None:
    usage = {"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 2}}

    async def handler(request: web.Request) -> web.StreamResponse:
        body = await request.json()
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        return await sse(request, delta("안녕"), delta("하세요"), usage)

    pieces: list[str] = []

    async def on_delta(text: str) -> None:
        pieces.append(text)

    async with provider(handler) as model:
        reply = await model.stream(TURNS, on_delta)
    assert pieces == ["안녕", "하세요"]
    assert (reply.text, reply.input_tokens, reply.output_tokens) == ("안녕하세요", 30, 2)


async def test_a_stream_is_retried_before_its_first_piece_but_never_after() -> None:
    calls = 0

    async def refused_then_ok(request: web.Request) -> web.StreamResponse:
        nonlocal calls
        calls += 1
        if calls == 1:
            return web.json_response({"error": {"message": "busy"}}, status=503)
        return await sse(request, delta("ok"))

    pieces: list[str] = []

    async def on_delta(text: str) -> None:
        pieces.append(text)

    async with provider(refused_then_ok) as model:
        assert (await model.stream(TURNS, on_delta)).text == "ok"
    assert calls == 2 and pieces == ["ok"]

    cut_calls = 0

    async def cut(request: web.Request) -> web.StreamResponse:
        nonlocal cut_calls
        cut_calls += 1
        response = await sse(request, delta("반"), done=False)
        assert request.transport is not None
        request.transport.abort()  # reset mid-stream
        return response

    pieces.clear()
    async with provider(cut, retries=2) as model:
        with pytest.raises(LlmUnavailable):
            await model.stream(TURNS, on_delta)
    assert cut_calls == 1 and pieces == ["반"]  # the piece already handed on is never repeated
