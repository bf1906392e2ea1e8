"""MongoDB and Redis stopped under a running chatbot-api (in process, on servers this test owns).

MongoDB: chats are still answered, with the history read from the command store, retrieval reported
unavailable and the answer in general mode; /readyz names MongoDB; when it returns, query-sync
catches the projection up. Redis: answered anyway (rate limit fails open, the cache is bypassed),
with warnings in the log and the fail-open and bypass counters rising.
tests/integration/test_rag_stream_limits.py::test_requests_are_answered_when_redis_is_stopped has
the retrieval-only case; tests/integration/test_sync_consumer.py::
test_store_outage_is_retried_in_place_without_skipping the worker's side of a MongoDB outage.
"""

from __future__ import annotations

import asyncio
import logging
import uuid
from collections.abc import AsyncIterator, Awaitable
from pathlib import Path
from typing import Any, TypeVar

import pytest
from devstack.servers import Server, free_port, start_redis, start_secantus
from prometheus_client import REGISTRY
from pymongo import AsyncMongoClient

from query_sync.bootstrap import SyncWorker, bootstrap
from query_sync.settings import SyncSettings
from techai_shared.settings import CommonSettings
from tests.conftest import eventually, unique
from tests.reliability.support import converged
from tests.support.chat import auth, chat_client, chat_settings
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.integration

T = TypeVar("T")

QUESTION = "쿠버네티스 챌린지 있어?"  # a catalog question: answered with retrieval when it can be


@pytest.fixture
async def worker_of() -> AsyncIterator[list[SyncWorker]]:
    started: list[SyncWorker] = []
    yield started
    for worker in started:
        await worker.stop()


async def step(work: Awaitable[T], seconds: float, what: str) -> T:
    """`work`, or a failure naming the step that did not finish in `seconds` (not a silent hang)."""
    try:
        return await asyncio.wait_for(work, seconds)
    except TimeoutError:
        raise AssertionError(f"{what} did not finish within {seconds}s") from None


async def catalog_indexed(uri: str, database: str) -> bool:
    """Whether the worker has created the unique index of every catalog collection."""
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(uri)
    try:
        for name in ("contests", "news_articles", "bookmarks"):
            if "uq_document_id" not in await client[database][name].index_information():
                return False
        return True
    finally:
        await client.close()


def _metric(name: str, **labels: str) -> float:
    return REGISTRY.get_sample_value(name, labels) or 0.0


async def test_mongodb_stopped_chats_are_answered_generally_and_the_projection_catches_up(
    settings: CommonSettings, llm: FakeLlm, own_servers: list[Server], worker_of: list[SyncWorker],
    tmp_path: Path,
):
    llm.mode, llm.delay, llm.reply = "ok", 0.0, None
    port, data, log = free_port(), tmp_path / "secantus", tmp_path / "secantus.log"
    own_servers.append(start_secantus(port, data, log))
    cfg = chat_settings(settings, mongodb_uri=own_servers[0].url, openai_api_key="k",
                        openai_base_url=llm.base_url, mongodb_server_selection_timeout_ms=1_500)
    sync = SyncSettings(**(cfg.model_dump() | {
        "sync_consumer_group": unique("sync-"), "sync_port": 0, "sync_poll_timeout_ms": 200,
        "sync_session_timeout_ms": 2_000, "sync_heartbeat_interval_ms": 300,
        "sync_retry_max_backoff_seconds": 0.5, "sync_search_index_timeout_seconds": 20}))
    worker = bootstrap(sync)
    worker_of.append(worker)
    await step(worker.start(), 60, "the sync worker's start")
    # SecantusDB can livelock when a collection is created by createIndexes while another client
    # inserts into it (seen here: the worker's projectors preparing while chat_client loads the
    # catalog). The worker's indexes first, then the catalog.
    await eventually(lambda: catalog_indexed(cfg.mongodb_uri, cfg.mongodb_database), within=60)
    user = uuid.uuid4().hex
    h = auth(settings, user)

    def caught_up():  # type: ignore[no-untyped-def]
        return converged(cfg.mysql_url, cfg.mongodb_uri, cfg.mongodb_database, [user])

    async with chat_client(cfg) as (api, _):
        first = await step(api.post("/api/v1/chatbot", json={"message": QUESTION}, headers=h), 60,
                           "the first chat")
        assert first.status_code == 200 and first.json()["data"]["mode"] == "rag", first.text
        sid = first.json()["data"]["conversationId"]
        await eventually(caught_up, within=30)

        own_servers[0].stop()
        failures = _metric("chatbot_retrieval_failures_total")
        before = len(llm.requests)
        down = await step(api.post("/api/v1/chatbot", headers=h,
                                   json={"message": f"{QUESTION} 2", "conversationId": sid}),
                          60, "the chat while MongoDB is down")
        assert down.status_code == 200, down.text
        assert down.json()["data"]["mode"] == "general" and down.json()["data"]["sources"] == [], down.text
        assert _metric("chatbot_retrieval_failures_total") >= failures + 1
        # the history came from the command store: MongoDB could not have given it
        prompt = [m["content"] for m in llm.requests[before]["messages"] if m["role"] != "system"]
        assert prompt == [QUESTION, first.json()["data"]["response"], f"{QUESTION} 2"]
        ready = await api.get("/readyz")
        assert ready.status_code == 503 and "mongodb" in ready.json()["message"], ready.text

        own_servers.append(start_secantus(port, data, log))
        command, mongo = await eventually(caught_up, within=60, interval=0.5)
        assert len(command.messages) == 4 and mongo.sessions[sid][1] == 4
        assert (await api.get("/readyz")).status_code == 200


async def test_redis_stopped_requests_are_answered_with_warnings_and_metrics(
    settings: CommonSettings, llm: FakeLlm, own_servers: list[Server], tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
):
    llm.mode, llm.delay, llm.reply = "ok", 0.0, None
    port = free_port()
    own_servers.append(start_redis(port, tmp_path / "redis", tmp_path / "redis.log"))
    cfg = chat_settings(settings, redis_url=f"redis://127.0.0.1:{port}/0", openai_api_key="k",
                        openai_base_url=llm.base_url, chatbot_rate_limit_per_minute=3)
    h = auth(settings, uuid.uuid4().hex)
    async with chat_client(cfg) as (api, _):
        calls = len(llm.requests)
        for _ in range(2):  # Redis up: the repeated question is a cache hit (one model call)
            r = await api.post("/api/v1/chatbot", json={"message": QUESTION}, headers=h)
            assert r.status_code == 200 and r.json()["data"]["mode"] == "rag", r.text
        assert len(llm.requests) == calls + 1

        own_servers[0].stop()
        fail_open = _metric("chatbot_rate_limit_fail_open_total")
        bypass = _metric("chatbot_cache_requests_total", result="bypass")
        calls = len(llm.requests)
        caplog.clear()
        with caplog.at_level(logging.WARNING):
            for _ in range(4):  # 6 requests in the minute, over the limit of 3: counted by nobody
                r = await api.post("/api/v1/chatbot", json={"message": QUESTION}, headers=h)
                assert r.status_code == 200 and r.json()["data"]["mode"] == "rag", r.text
        assert len(llm.requests) == calls + 4  # no cache: the model answered each
        assert _metric("chatbot_rate_limit_fail_open_total") >= fail_open + 4
        assert _metric("chatbot_cache_requests_total", result="bypass") >= bypass + 4
        warnings = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
        assert any(w.startswith("rate limit skipped, Redis failed") for w in warnings), warnings
        assert any(w.startswith("response cache bypassed") for w in warnings), warnings
        ready = await api.get("/readyz")
        assert ready.status_code == 503 and "redis" in ready.json()["message"], ready.text
        metrics = (await api.get("/metrics")).text
        assert "chatbot_rate_limit_fail_open_total" in metrics
