"""The per-user rate limit on the real Redis: atomic counting, headers, fail-open."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.asyncio import Redis

from chatbot_api.adapters.rate_limit import RedisRateLimiter
from techai_shared.errors import RateLimited

pytestmark = pytest.mark.integration


async def test_concurrent_hits_never_exceed_the_limit(redis_url):
    redis = Redis.from_url(redis_url)
    limiter = RedisRateLimiter(redis, limit=5, prefix=f"test:{uuid.uuid4().hex}")
    results = await asyncio.gather(*(limiter.hit("u1") for _ in range(12)), return_exceptions=True)
    allowed = [r for r in results if not isinstance(r, Exception)]
    refused = [r for r in results if isinstance(r, RateLimited)]
    assert len(allowed) == 5 and len(refused) == 7
    assert sorted(q.remaining for q in allowed) == [0, 1, 2, 3, 4]
    headers = refused[0].headers
    assert 1 <= int(headers["Retry-After"]) <= 60 and headers["RateLimit-Remaining"] == "0"
    assert (await limiter.hit("another-user")) is not None  # per user
    await redis.aclose()


async def test_redis_down_fails_open():
    redis = Redis.from_url("redis://127.0.0.1:1/0", socket_connect_timeout=0.2)
    limiter = RedisRateLimiter(redis, limit=1)
    assert await limiter.hit("u1") is None
    assert await limiter.hit("u1") is None
    await redis.aclose()
