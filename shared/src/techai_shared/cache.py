"""Redis client factory (redis-py asyncio)."""

from __future__ import annotations

from redis.asyncio import Redis

from techai_shared.settings import CommonSettings


def make_redis(settings: CommonSettings) -> Redis:
    """A client with short timeouts: Redis is an optimisation and must never stall a request."""
    return Redis.from_url(
        settings.redis_url,
        socket_connect_timeout=1.0,
        socket_timeout=1.0,
        health_check_interval=30,
    )
