"""The OpenAI-compatible client's own rules: what it sends, what it retries, what it reports.

The provider is replaced at the HTTP transport (httpx.MockTransport); the end-to-end fault cases (500s,
a hanging server, a dropped connection) run against a real local server in
tests/reliability/test_model_faults.py.
"""

from __future__ import annotations

import json
from collections.abc import Callable

import httpx
import pytest

from chatbot_api.adapters import llm
from chatbot_api.adapters.llm import OpenAIChatModel
from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.settings import ChatbotSettings
from techai_shared.errors import LlmTimeout, LlmUnavailable

TURNS = [ChatTurn("system", "너는 도우미야"), ChatTurn("user", "안녕?")]


def completion(text: str) -> dict[str, object]:
    return {"id": "c1", "object": "chat.completion", "model": "m",
            "choices": [{"index": 0, "message": {"role": "assistant", "content": text},
                         "finish_reason": "stop"}],
            "usage": {"prompt_tokens": 21, "completion_tokens": 3, "total_tokens": 24}}


def sse(*chunks: dict[str, object]) -> bytes:
    return b"".join(f"data: {json.dumps(c)}\n\n".encode() for c in chunks) + b"data: [DONE]\n\n"


def delta(text: str) -> dict[str, object]:
    return {"choices": [{"index": 0, "delta": {"content": text}, "finish_reason": None}]}


def model(handler: Callable[[httpx.Request], httpx.Response], retries: int = 2) -> OpenAIChatModel:
    settings = ChatbotSettings(openai_api_key="sk-test", openai_base_url="http://provider/v1/",
                               openai_model="gpt-4o-mini", openai_max_retries=retries,
                               openai_timeout_seconds=1, openai_total_timeout_seconds=5)
    return OpenAIChatModel(settings, transport=httpx.MockTransport(handler))


@pytest.fixture(autouse=True)
def no_backoff(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(llm, "BACKOFF_FIRST", 0.0)


async def test_complete_sends_the_turns_and_reads_the_answer_and_usage() -> None:
    seen: list[httpx.Request] = []

    def handler(request: httpx.Request) -> httpx.Response:
        seen.append(request)
        return httpx.Response(200, json=completion("반가워요"))

    reply = await model(handler).complete(TURNS)
    assert (reply.text, reply.input_tokens, reply.output_tokens) == ("반가워요", 21, 3)
    request = seen[0]
    assert str(request.url) == "http://provider/v1/chat/completions"
    assert request.headers["authorization"] == "Bearer sk-test"
    body = json.loads(request.content)
    assert body["messages"] == [{"role": "system", "content": "너는 도우미야"},
                                {"role": "user", "content": "안녕?"}]
    assert body["model"] == "gpt-4o-mini" and body["max_completion_tokens"] == 800
    assert "stream" not in body


async def test_retryable_statuses_are_retried_and_retry_after_is_honoured() -> None:
    statuses = iter([429, 503])

    def handler(request: httpx.Request) -> httpx.Response:
        status = next(statuses, 200)
        if status != 200:
            return httpx.Response(status, headers={"Retry-After": "0"}, json={"error": {"message": "x"}})
        return httpx.Response(200, json=completion("됐어요"))

    assert (await model(handler, retries=2).complete(TURNS)).text == "됐어요"


async def test_retries_are_bounded_then_503() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(500, json={"error": {"message": "boom"}})

    with pytest.raises(LlmUnavailable):
        await model(handler, retries=2).complete(TURNS)
    assert calls == 3  # the first try and two retries


async def test_a_client_error_is_not_retried() -> None:
    calls = 0

    def handler(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        return httpx.Response(400, json={"error": {"message": "bad request"}})

    with pytest.raises(LlmUnavailable):
        await model(handler, retries=2).complete(TURNS)
    assert calls == 1


async def test_a_read_timeout_is_a_504() -> None:
    def handler(request: httpx.Request) -> httpx.Response:
        raise httpx.ReadTimeout("slow", request=request)

    with pytest.raises(LlmTimeout):
        await model(handler, retries=1).complete(TURNS)


async def test_an_answer_without_a_message_is_a_503() -> None:
    with pytest.raises(LlmUnavailable):
        await model(lambda r: httpx.Response(200, json={"choices": []})).complete(TURNS)


async def test_stream_hands_on_each_piece_and_reads_the_usage_chunk() -> None:
    usage = {"choices": [], "usage": {"prompt_tokens": 30, "completion_tokens": 2}}

    def handler(request: httpx.Request) -> httpx.Response:
        body = json.loads(request.content)
        assert body["stream"] is True and body["stream_options"] == {"include_usage": True}
        return httpx.Response(200, content=sse(delta("안녕"), delta("하세요"), usage),
                              headers={"Content-Type": "text/event-stream"})

    pieces: list[str] = []

    async def on_delta(text: str) -> None:
        pieces.append(text)

    reply = await model(handler).stream(TURNS, on_delta)
    assert pieces == ["안녕", "하세요"]
    assert (reply.text, reply.input_tokens, reply.output_tokens) == ("안녕하세요", 30, 2)


async def test_a_stream_is_retried_before_its_first_piece_but_never_after() -> None:
    calls = 0

    def refused_then_ok(request: httpx.Request) -> httpx.Response:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise httpx.ConnectError("refused", request=request)
        return httpx.Response(200, content=sse(delta("ok")))

    pieces: list[str] = []

    async def on_delta(text: str) -> None:
        pieces.append(text)

    assert (await model(refused_then_ok).stream(TURNS, on_delta)).text == "ok"
    assert calls == 2 and pieces == ["ok"]

    class CutStream(httpx.AsyncByteStream):
        async def __aiter__(self):  # type: ignore[no-untyped-def]
            yield f"data: {json.dumps(delta('반'))}\n\n".encode()
            raise httpx.ReadError("connection reset")

    cut_calls = 0

    def cut(request: httpx.Request) -> httpx.Response:
        nonlocal cut_calls
        cut_calls += 1
        return httpx.Response(200, stream=CutStream())

    pieces.clear()
    with pytest.raises(LlmUnavailable):
        await model(cut, retries=2).stream(TURNS, on_delta)
    assert cut_calls == 1 and pieces == ["반"]  # the piece already handed on is never repeated
