"""The token budget's admission state in Redis (service_layer.budget): per user and Asia/Seoul day,
the tokens spent (a counter) and the holds of turns in flight (a sorted set scored by expiry, each
member "<hold id>:<tokens>"). One Lua script decides and holds, one releases: Redis runs a script
at a time, so no two admissions interleave."""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import date

from redis.asyncio import Redis

# KEYS: holds, spent. ARGV: now ms, seed (-1: none), budget, tokens, expiry ms, hold id, keys' ttl ms
_HOLD = """
redis.call('ZREMRANGEBYSCORE', KEYS[1], '-inf', ARGV[1])
local spent = redis.call('GET', KEYS[2])
if not spent then
  if tonumber(ARGV[2]) < 0 then return {-1} end
  spent = ARGV[2]
  redis.call('SET', KEYS[2], spent, 'PX', ARGV[7])
end
local held = 0
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  held = held + tonumber(string.match(member, ':(%d+)$'))
end
if tonumber(spent) + held >= tonumber(ARGV[3]) then return {0} end
redis.call('ZADD', KEYS[1], ARGV[5], ARGV[6] .. ':' .. ARGV[4])
redis.call('PEXPIRE', KEYS[1], ARGV[7])
return {1}
"""

# KEYS: holds, spent. ARGV: hold id, used tokens
_RELEASE = """
for _, member in ipairs(redis.call('ZRANGE', KEYS[1], 0, -1)) do
  if string.sub(member, 1, string.len(ARGV[1]) + 1) == ARGV[1] .. ':' then
    redis.call('ZREM', KEYS[1], member)
  end
end
if redis.call('EXISTS', KEYS[2]) == 1 then redis.call('INCRBY', KEYS[2], ARGV[2]) end
return 1
"""

_KEYS_TTL_MS = 2 * 24 * 3600 * 1000  # a day's keys outlive the day


class RedisBudgetGate:
    def __init__(self, redis: Redis, prefix: str = "budget") -> None:
        self._prefix = prefix
        self._hold = redis.register_script(_HOLD)
        self._release = redis.register_script(_RELEASE)

    def _keys(self, user_id: str, day: date) -> list[str]:
        base = f"{self._prefix}:{user_id}:{day.isoformat()}"
        return [f"{base}:holds", f"{base}:spent"]

    async def hold(self, user_id: str, day: date, *, spent: Callable[[], Awaitable[int]],
                   budget: int, tokens: int, seconds: int) -> str | None:
        hold_id = uuid.uuid4().hex
        now = int(time.time() * 1000)
        args: list[str | int] = [now, -1, budget, tokens, now + seconds * 1000, hold_id, _KEYS_TTL_MS]
        keys = self._keys(user_id, day)
        (outcome, *_) = await self._hold(keys=keys, args=args)
        if int(outcome) == -1:  # the day's count is not here (a new day, or Redis lost it): seed it
            args[1] = await spent()
            (outcome, *_) = await self._hold(keys=keys, args=args)
        return hold_id if int(outcome) == 1 else None

    async def release(self, user_id: str, day: date, hold_id: str, used: int) -> None:
        await self._release(keys=self._keys(user_id, day), args=[hold_id, max(0, used)])
