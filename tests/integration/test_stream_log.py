"""The stream log of streamed answers (adapters.stream_log) on the real Redis: what a resuming
client reads, a generation that died, and a Redis that is down."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from redis.asyncio import Redis

from chatbot_api.adapters.stream_log import RedisStreamLog
from chatbot_api.service_layer.ports import StreamEvent, StreamOwner

pytestmark = pytest.mark.integration


@pytest.fixture
async def redis(redis_url: str):  # type: ignore[no-untyped-def]
    client = Redis.from_url(redis_url, socket_timeout=1.0)
    yield client
    await client.aclose()


async def test_a_follower_gets_the_events_after_its_id_then_the_live_ones_until_done(redis):
    prefix = f"t{uuid.uuid4().hex}"
    log = RedisStreamLog(redis, ttl_seconds=600, idle_seconds=30, prefix=prefix)
    answer = uuid.uuid4().hex
    await log.open(answer, StreamOwner("u1", "s1"))
    for event in (StreamEvent("1.0", "metadata", {"messageId": answer}),
                  StreamEvent("2.3", "delta", {"text": "abc"}),
                  StreamEvent("3.5", "delta", {"text": "de"})):
        assert await log.append(answer, event)
    assert await log.owner(answer) == StreamOwner("u1", "s1")

    async def rest() -> list[StreamEvent]:
        return [e async for e in log.follow(answer, after=2)]

    reader = asyncio.ensure_future(rest())
    await asyncio.sleep(0.3)  # the reader is waiting for more
    assert not reader.done()
    await log.append(answer, StreamEvent("4.5", "done", {"messageId": answer}))
    got = await asyncio.wait_for(reader, 5)
    assert [(e.id, e.name) for e in got] == [("3.5", "delta"), ("4.5", "done")]
    assert 0 < await redis.ttl(f"{prefix}:{answer}") <= 600


async def test_a_generation_that_stopped_without_its_end_gives_the_follower_an_error(redis):
    prefix = f"t{uuid.uuid4().hex}"
    log = RedisStreamLog(redis, ttl_seconds=600, idle_seconds=30, prefix=prefix)
    answer = uuid.uuid4().hex
    await log.open(answer, StreamOwner("u1", "s1"))
    await log.append(answer, StreamEvent("1.0", "metadata", {}))
    await log.append(answer, StreamEvent("2.4", "delta", {"text": "half"}))
    await redis.delete(f"{prefix}:{answer}:alive")  # its process was killed
    got = [e async for e in log.follow(answer, after=1)]
    assert [(e.id, e.name) for e in got] == [("2.4", "delta"), ("3.4", "error")]
    assert got[-1].data["code"] == "5032"  # SERVICE_UNAVAILABLE


async def test_a_redis_that_is_down_keeps_nothing_and_fails_nothing():
    down = Redis.from_url("redis://127.0.0.1:1", socket_connect_timeout=0.5, socket_timeout=0.5)
    try:
        log = RedisStreamLog(down, ttl_seconds=600, idle_seconds=30)
        await log.open("a", StreamOwner("u1", "s1"))
        assert await log.append("a", StreamEvent("1.0", "metadata", {})) is False
        assert await log.owner("a") is None
    finally:
        await down.aclose()
