"""chatbot-api answered over both providers' real wire formats, each test once per provider.

The local model server (tests/support/fake_llm.py) speaks the OpenAI Chat Completions API and the
Anthropic Messages API, JSON and SSE, as the providers do; chatbot-api reaches it through the
provider SDKs under LangChain (CHATBOT_PROVIDER=openai with OPENAI_BASE_URL, or anthropic with
ANTHROPIC_BASE_URL). Covered: JSON and stream answers citing their sources, the token usage the
provider reported and its cost, 500s then success, 429 with Retry-After, a hang (504), a dropped
connection (503), a stream cut after its first piece (never retried), keep-alives while the model
thinks, and nothing stored after a failure.
"""

from __future__ import annotations

import time
import uuid
from typing import Any

import pytest

from chatbot_api.settings import ChatbotSettings
from techai_shared.settings import CommonSettings
from tests.support.chat import auth, chat_client, chat_settings, parse_sse, stored_counts
from tests.support.fake_llm import ANTHROPIC, OPENAI, DroppingServer, FakeLlm, anthropic_usage, openai_usage

pytestmark = pytest.mark.integration

PROVIDERS = [OPENAI, ANTHROPIC]
CATALOG_QUESTION = "Kafka로 실시간 앱 만드는 해커톤 있어?"
ANSWER = "Kafka 해커톤이 있습니다. 신청은 다음 주까지입니다. 자세한 내용은 출처를 보세요."
# USD per million tokens of the default models (docs/configuration.md, CHATBOT_MODEL_PRICES)
PRICES = {OPENAI: ("gpt-4o-mini", 0.15, 0.6), ANTHROPIC: ("claude-sonnet-4-6", 3.0, 15.0)}


def provider_settings(settings: CommonSettings, provider: str, server: Any, **overrides: Any
                      ) -> ChatbotSettings:
    """chatbot-api on `provider`'s wire at `server` (a FakeLlm or a DroppingServer)."""
    if provider == OPENAI:
        wire = {"chatbot_provider": OPENAI, "openai_api_key": "sk-test",
                "openai_base_url": server.base_url}
    else:
        wire = {"chatbot_provider": ANTHROPIC, "anthropic_api_key": "sk-ant-test",
                "anthropic_base_url": server.anthropic_base_url}
    limits = {"chatbot_model_timeout_seconds": 1.0, "chatbot_model_max_retries": 2,
              "chatbot_model_total_timeout_seconds": 8.0}
    return chat_settings(settings, **{**wire, **limits, **overrides})


@pytest.fixture
def llm(llm: FakeLlm):
    llm.reset()
    yield llm
    llm.reset()


def reported(provider: str, request: dict[str, Any]) -> tuple[int, int]:
    """The (input, output) tokens the fake reported for `request` on `provider`'s wire."""
    if provider == OPENAI:
        usage = openai_usage(request["messages"])
        return usage["prompt_tokens"], usage["completion_tokens"]
    usage = anthropic_usage(request)
    return usage["input_tokens"], usage["output_tokens"]


def expected_cost(provider: str, tokens: tuple[int, int]) -> float:
    _, inp, out = PRICES[provider]
    return round((tokens[0] * inp + tokens[1] * out) / 1_000_000, 8)


# -- answers --------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_json_answer_cites_its_sources_with_the_providers_token_counts(settings, llm, provider):
    llm.reply = lambda _: ANSWER
    cfg = provider_settings(settings, provider, llm)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg) as (api, _):
        r = await api.post("/api/v1/chatbot", json={"message": CATALOG_QUESTION}, headers=h)
        assert r.status_code == 200, r.text
        data = r.json()["data"]
        usage = (await api.get("/api/v1/chatbot/usage", headers=h)).json()["data"]
    assert data["response"] == ANSWER and data["mode"] == "rag"
    assert "c-0049" in [s["documentId"] for s in data["sources"]]
    assert data["sessionInfo"]["title"] == CATALOG_QUESTION[:50]
    call, request = llm.calls[-1], llm.requests[-1]
    model, _, _ = PRICES[provider]
    assert request["model"] == model and request["temperature"] == 0.7 and not request.get("stream")
    if provider == OPENAI:
        assert call["path"] == "/v1/chat/completions" and request["max_completion_tokens"] == 2000
        assert request["messages"][0]["role"] == "system"
    else:  # the Messages API: one system prompt, the retrieved context in it
        assert call["path"] == "/v1/messages" and request["max_tokens"] == 2000
        assert "anthropic-version" in call["headers"]
        assert [m["role"] for m in request["messages"]] == ["user"]
    prompt = " ".join(m["content"] for m in llm.prompts()[-1])
    assert "c-0049" in prompt or any(s["title"] in prompt for s in data["sources"])
    tokens = reported(provider, request)
    assert data["tokenUsage"] == {"inputTokens": tokens[0], "outputTokens": tokens[1],
                                  "totalTokens": sum(tokens),
                                  "estimatedCost": expected_cost(provider, tokens)}
    assert [(d["model"], d["inputTokens"]) for d in usage["days"]] == [(model, tokens[0])]


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_streamed_answer_cites_its_sources_with_the_providers_token_counts(settings, llm,
                                                                                  provider):
    llm.reply, llm.chunks = (lambda _: ANSWER), 5
    cfg = provider_settings(settings, provider, llm)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg) as (api, _):
        r = await api.post("/api/v1/chatbot/stream", json={"message": CATALOG_QUESTION}, headers=h)
        assert r.status_code == 200 and r.headers["content-type"].startswith("text/event-stream")
        assert r.headers["cache-control"] == "no-cache" and r.headers["x-accel-buffering"] == "no"
        events = parse_sse(r.text)
        sid = events[0][1]["conversationId"]
        page = await api.get(f"/api/v1/chatbot/sessions/{sid}/messages", headers=h)
    names = [n for n, _ in events]
    assert names[0] == "metadata" and names[-2:] == ["sources", "done"] and names.count("delta") >= 3
    assert "".join(d["text"] for n, d in events if n == "delta") == ANSWER
    assert "c-0049" in [s["documentId"] for s in events[-2][1]["sources"]]
    request = llm.requests[-1]
    assert request["stream"] is True
    if provider == OPENAI:  # an OpenAI-compatible server sends the usage only when asked
        assert request["stream_options"] == {"include_usage": True}
    tokens = reported(provider, request)
    done = events[-1][1]
    assert done["mode"] == "rag"
    assert (done["tokenUsage"]["inputTokens"], done["tokenUsage"]["outputTokens"]) == tokens
    assert done["tokenUsage"]["estimatedCost"] == expected_cost(provider, tokens)
    assert [m["content"] for m in page.json()["data"]["messages"]] == [CATALOG_QUESTION, ANSWER]


# -- retries --------------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_500s_then_success_is_answered_by_the_retries(settings, llm, provider):
    cfg = provider_settings(settings, provider, llm)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg, catalog=False) as (api, _):
        before = len(llm.requests)
        llm.fail_next("500", "500")
        r = await api.post("/api/v1/chatbot", json={"message": "안녕하세요"}, headers=h)
        assert r.status_code == 200, r.text
        assert len(llm.requests) - before == 3
        llm.fail_next("500")  # another question: the first one's answer is in the response cache
        s = await api.post("/api/v1/chatbot/stream", json={"message": "반가워요"}, headers=h)
        assert parse_sse(s.text)[-1][0] == "done"
        assert len(llm.requests) - before == 5


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_429_waits_for_retry_after_then_is_answered(settings, llm, provider):
    cfg = provider_settings(settings, provider, llm)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg, catalog=False) as (api, _):
        llm.fail_next("429:1")
        before = len(llm.calls)
        r = await api.post("/api/v1/chatbot", json={"message": "안녕하세요"}, headers=h)
    assert r.status_code == 200, r.text
    first, second = llm.calls[before:]
    assert second["at"] - first["at"] >= 0.9, "the retry waited for Retry-After"


# -- failures: the envelope's 503/504, nothing stored ------------------------------------------------


async def _fails_and_stores_nothing(settings: CommonSettings, cfg: ChatbotSettings, status: int,
                                    code: str, within: float) -> None:
    h = auth(settings, uuid.uuid4().hex)
    before = await stored_counts(cfg.mysql_url)
    async with chat_client(cfg, catalog=False) as (api, _):
        for path in ("/api/v1/chatbot", "/api/v1/chatbot/stream"):
            started = time.monotonic()
            r = await api.post(path, json={"message": "안녕하세요"}, headers=h)
            assert time.monotonic() - started <= within, path
            if path.endswith("/stream"):  # started: the failure is the stream's last event
                events = parse_sse(r.text)
                assert r.status_code == 200 and events[-1][0] == "error", r.text
                assert "done" not in [n for n, _ in events]
                assert events[-1][1]["code"] == code
            else:
                assert r.status_code == status and r.json()["code"] == code, r.text
    assert await stored_counts(cfg.mysql_url) == before


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_hanging_model_is_504_in_time_and_stores_nothing(settings, llm, provider):
    llm.mode = "hang"
    cfg = provider_settings(settings, provider, llm, chatbot_model_max_retries=1,
                            chatbot_model_total_timeout_seconds=3.0)
    await _fails_and_stores_nothing(settings, cfg, 504, "5041", within=3.0 + 1.5)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_dropped_connection_is_503_and_stores_nothing(settings, provider):
    async with DroppingServer() as server:
        cfg = provider_settings(settings, provider, server, chatbot_model_max_retries=1)
        await _fails_and_stores_nothing(settings, cfg, 503, "5031", within=5.0)
    assert server.accepted == 4, "each of the two calls was tried twice"


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_model_failing_every_attempt_is_503_and_stores_nothing(settings, llm, provider):
    llm.mode = "error"
    cfg = provider_settings(settings, provider, llm, chatbot_model_max_retries=1)
    await _fails_and_stores_nothing(settings, cfg, 503, "5031", within=5.0)


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_stream_cut_after_its_first_piece_is_not_retried(settings, llm, provider):
    llm.reply, llm.chunks = (lambda _: ANSWER), 4
    cfg = provider_settings(settings, provider, llm)
    h = auth(settings, uuid.uuid4().hex)
    before = await stored_counts(cfg.mysql_url)
    async with chat_client(cfg, catalog=False) as (api, _):
        calls = len(llm.requests)
        llm.fail_next("drop-after-first")
        r = await api.post("/api/v1/chatbot/stream", json={"message": "안녕하세요"}, headers=h)
    events = parse_sse(r.text)
    names = [n for n, _ in events]
    assert names[0] == "metadata" and "delta" in names and names[-1] == "error", names
    assert events[-1][1]["code"] == "5031"
    assert len(llm.requests) - calls == 1, "text had been handed on: no second attempt"
    assert await stored_counts(cfg.mysql_url) == before


# -- keep-alive -----------------------------------------------------------------------------------


@pytest.mark.parametrize("provider", PROVIDERS)
async def test_a_stream_keeps_alive_while_the_model_thinks(settings, llm, provider):
    llm.reply, llm.chunks, llm.delay, llm.chunk_delay = (lambda _: ANSWER), 3, 1.0, 0.7
    cfg = provider_settings(settings, provider, llm, chatbot_stream_keepalive_seconds=0.25,
                            chatbot_model_timeout_seconds=5.0)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg, catalog=False) as (api, _):
        r = await api.post("/api/v1/chatbot/stream", json={"message": "안녕하세요"}, headers=h)
    blocks = r.text.strip().split("\n\n")
    kinds = ["ping" if b.startswith(":") else
             next(line.removeprefix("event: ") for line in b.split("\n") if line.startswith("event: "))
             for b in blocks]
    first, last = kinds.index("delta"), len(kinds) - 1 - kinds[::-1].index("delta")
    assert "ping" in kinds[1:first], f"no keep-alive while the model was silent: {kinds}"
    assert "ping" in kinds[first:last], f"no keep-alive between the deltas: {kinds}"
    assert [k for k in kinds if k != "ping"][-2:] == ["sources", "done"]
