"""Per-user rate limit in Redis: one atomic script per request, fail-open when Redis is down."""

from __future__ import annotations

import logging
import time

from prometheus_client import Counter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from chatbot_api.service_layer.ports import Quota
from techai_shared.errors import RateLimited

logger = logging.getLogger(__name__)

REJECTIONS = Counter("chatbot_rate_limit_rejections_total", "Requests refused by the rate limit")
FAIL_OPEN = Counter("chatbot_rate_limit_fail_open_total", "Requests let through because Redis failed")

# Fixed window: INCR and set the expiry on the first hit, in one round trip.
_SCRIPT = """
local count = redis.call('INCR', KEYS[1])
if count == 1 then redis.call('PEXPIRE', KEYS[1], ARGV[1]) end
return {count, redis.call('PTTL', KEYS[1])}
"""


class RedisRateLimiter:
    """`limit` requests per user per window."""

    def __init__(self, redis: Redis, limit: int, window_seconds: int = 60,
                 prefix: str = "ratelimit:chat") -> None:
        self._redis = redis
        self._limit = limit
        self._window_ms = window_seconds * 1000
        self._prefix = prefix
        self._script = redis.register_script(_SCRIPT)

    async def hit(self, user_id: str) -> Quota | None:
        """Count one request; raise RateLimited over the limit; None when the limit is off or failed open."""
        if self._limit <= 0:
            return None
        window = int(time.time() * 1000) // self._window_ms
        key = f"{self._prefix}:{user_id}:{window}"
        try:
            count, ttl_ms = await self._script(keys=[key], args=[self._window_ms])
        except (RedisError, OSError) as exc:
            FAIL_OPEN.inc()
            logger.warning("rate limit skipped, Redis failed: %s", exc)
            return None
        reset = max(1, -(-int(ttl_ms) // 1000))
        quota = Quota(self._limit, max(0, self._limit - int(count)), reset, self._window_ms // 1000)
        if int(count) > self._limit:
            REJECTIONS.inc()
            raise RateLimited(
                f"at most {self._limit} requests per {self._window_ms // 1000}s",
                headers={**quota.headers(), "Retry-After": str(reset)},
            )
        return quota
