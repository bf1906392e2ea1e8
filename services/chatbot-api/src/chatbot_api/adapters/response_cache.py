"""The response cache in Redis: first-turn answers, keyed by everything the answer depends on.

The key is a hash of the normalised question, the options, the model and its parameters and the
prompt version; when bookmarks can be involved it also holds the user id and a fingerprint of that
user's bookmarks as the read model has them (ids and versions), so an entry never outlives the
bookmark state it was built from: a saved, edited or deleted bookmark changes the fingerprint the
moment query-sync projects it, with nothing to invalidate and no race with the projection.
Redis failing is never an error: the request bypasses the cache with a warning and a metric.
"""

from __future__ import annotations

import hashlib
import json
import logging
from dataclasses import asdict
from typing import Any

from prometheus_client import Counter
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError
from redis.asyncio import Redis
from redis.exceptions import RedisError

from chatbot_api.service_layer.ports import CachedAnswer, CacheKeyParts

logger = logging.getLogger(__name__)

CACHE_REQUESTS = Counter("chatbot_cache_requests_total", "Response cache look-ups by result", ["result"])
async def bookmarks_fingerprint(db: AsyncDatabase[dict[str, Any]], user_id: str) -> str:
    """A hash of the user's projected bookmarks (ids and versions); raises PyMongoError."""
    docs = await db["bookmarks"].find({"user_id": user_id},
                                      {"_id": 0, "document_id": 1, "version": 1}).to_list()
    pairs = sorted((str(d.get("document_id")), int(d.get("version") or 0)) for d in docs)
    return hashlib.sha256(json.dumps(pairs).encode()).hexdigest()[:32]


class ResponseCache:
    """Get and put answers by key; every Redis error is a bypass."""

    def __init__(self, redis: Redis, db: AsyncDatabase[dict[str, Any]], ttl_seconds: int,
                 prefix: str = "chatcache") -> None:
        self._redis = redis
        self._db = db
        self._ttl = ttl_seconds
        self._prefix = prefix

    @property
    def enabled(self) -> bool:
        return self._ttl > 0

    async def key_for(self, parts: CacheKeyParts) -> str | None:
        """The key of these parts (with the bookmark fingerprint filled in), None to bypass."""
        if not self.enabled:
            return None
        if parts.user_id is not None:
            try:
                fingerprint = await bookmarks_fingerprint(self._db, parts.user_id)
            except PyMongoError as exc:
                CACHE_REQUESTS.labels("bypass").inc()
                logger.warning("response cache bypassed, bookmarks unreadable: %s", exc)
                return None
            parts = CacheKeyParts(**{**asdict(parts), "bookmarks_fingerprint": fingerprint})
        return parts.key(self._prefix)

    async def get(self, key: str) -> CachedAnswer | None:
        try:
            raw = await self._redis.get(key)
        except (RedisError, OSError) as exc:
            CACHE_REQUESTS.labels("bypass").inc()
            logger.warning("response cache bypassed, Redis failed: %s", exc)
            return None
        CACHE_REQUESTS.labels("hit" if raw else "miss").inc()
        return CachedAnswer(**json.loads(raw)) if raw else None

    async def put(self, key: str, answer: CachedAnswer, ttl_seconds: int | None = None) -> None:
        ttl = self._ttl if ttl_seconds is None else min(self._ttl, ttl_seconds)
        if ttl <= 0:
            return
        try:
            await self._redis.set(key, json.dumps(asdict(answer), ensure_ascii=False), ex=ttl)
        except (RedisError, OSError) as exc:
            logger.warning("response not cached, Redis failed: %s", exc)
