"""Streamed answers kept in Redis for a while, so a client whose connection dropped can resume.

Each event of a streamed answer is appended to the Redis stream `<prefix>:<answer id>` as it goes
out (one XADD, with the key's expiry pushed back to `ttl_seconds` after it), and the first one
records who may read it. A reader that comes back with `Last-Event-ID` gets the events after that
one from the stream, then follows it (XREAD BLOCK) until the answer's `done` or `error`, whether
the generation is still running in this process, in another replica, or finished minutes ago.

Redis failing never fails the answer: an append that fails is logged, the answer's later events are
not appended (so a Redis that hangs delays one event by its timeout, not each), and the live stream
goes on; the resume endpoint then serves what the command store holds once the answer is stored.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import AsyncIterator
from typing import Any

from prometheus_client import Counter
from redis.asyncio import Redis
from redis.exceptions import RedisError

from chatbot_api.service_layer.ports import StreamEvent, StreamOwner
from techai_shared.errors import ErrorCode

logger = logging.getLogger(__name__)

APPEND_FAILURES = Counter("chatbot_stream_log_failures_total",
                          "Stream events not kept for resumption because Redis failed")

FINAL = frozenset(("done", "error"))
BEAT_SECONDS = 5.0  # how often a running generation says it is alive
ALIVE_SECONDS = 15  # how long a follower trusts the last heartbeat


class RedisStreamLog:
    def __init__(self, redis: Redis, ttl_seconds: int, idle_seconds: float,
                 prefix: str = "chat:stream") -> None:
        self._redis = redis
        self._ttl = ttl_seconds
        self._idle = idle_seconds  # how long a follower waits for the next event of a live answer
        self._prefix = prefix

    def _key(self, message_id: str) -> str:
        return f"{self._prefix}:{message_id}"

    async def open(self, message_id: str, owner: StreamOwner) -> None:
        try:
            await self._redis.set(f"{self._key(message_id)}:owner",
                                  json.dumps([owner.user_id, owner.session_id]), ex=self._ttl)
            await self.beat(message_id)
        except RedisError as exc:
            APPEND_FAILURES.inc()
            logger.warning("stream of %s not resumable: %s", message_id, exc)

    async def beat(self, message_id: str) -> None:
        """The generation is alive: a follower waits for its next event while this key lasts."""
        try:
            await self._redis.set(f"{self._key(message_id)}:alive", b"1", ex=ALIVE_SECONDS)
        except RedisError as exc:
            logger.warning("heartbeat of %s not kept: %s", message_id, exc)

    async def append(self, message_id: str, event: StreamEvent) -> bool:
        key = self._key(message_id)
        try:
            async with self._redis.pipeline(transaction=False) as pipe:
                pipe.xadd(key, {"id": event.id, "name": event.name,
                                "data": json.dumps(event.data, ensure_ascii=False)})
                pipe.expire(key, self._ttl)
                pipe.expire(f"{key}:owner", self._ttl)
                await pipe.execute()
        except RedisError as exc:
            APPEND_FAILURES.inc()
            logger.warning("stream event %s of %s not kept: %s", event.id, message_id, exc)
            return False
        return True

    async def owner(self, message_id: str) -> StreamOwner | None:
        """Who the kept stream of this answer belongs to; None when none is kept (or Redis fails)."""
        try:
            raw = await self._redis.get(f"{self._key(message_id)}:owner")
        except RedisError as exc:
            logger.warning("kept stream of %s not readable: %s", message_id, exc)
            return None
        if raw is None:
            return None
        user_id, session_id = json.loads(raw)
        return StreamOwner(user_id, session_id)

    async def follow(self, message_id: str, after: int) -> AsyncIterator[StreamEvent]:
        """The kept events numbered after `after`, then the new ones as they come, until the final
        one. When the generation stops without one (its process died: no heartbeat for
        ALIVE_SECONDS, or nothing for `idle_seconds`), an `error` event ends the stream: the answer
        was never stored, and the question can be asked again."""
        key = self._key(message_id)
        last_entry, number, chars = "0-0", after, 0
        quiet_since = time.monotonic()
        while True:
            # blocks under the client's 1 s socket timeout
            found: Any = await self._redis.xread({key: last_entry}, count=500, block=500)
            entries = found[0][1] if found else []
            if not entries:
                if (time.monotonic() - quiet_since > self._idle
                        or not await self._redis.exists(f"{key}:alive")):
                    yield StreamEvent(f"{number + 1}.{chars}", "error", _interrupted())
                    return
                continue
            quiet_since = time.monotonic()
            for entry_id, fields in entries:
                last_entry = entry_id
                event = StreamEvent(_text(fields[b"id"]), _text(fields[b"name"]),
                                    json.loads(fields[b"data"]))
                number, chars = event.number, int(event.id.partition(".")[2])
                if event.number > after:
                    yield event
                if event.name in FINAL:
                    return


def _interrupted() -> dict[str, Any]:
    code = ErrorCode.SERVICE_UNAVAILABLE
    return {"code": code.code, "messageCode": {"code": code.name_code, "text": code.text},
            "message": "the answer was interrupted before it was complete; ask again", "data": None}


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
