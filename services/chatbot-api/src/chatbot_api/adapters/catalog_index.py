"""The in-memory catalog index over MongoDB: contests and news read in full at start, then what
query-sync wrote since, into the held shards of retrieval/index.py (which say why and how they
rank); bookmarks read per question, as ExactStrategy reads them."""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Sequence
from datetime import datetime
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.exact_search import ExactStrategy
from chatbot_api.retrieval.fusion import FusionWeights
from chatbot_api.retrieval.index import (
    EPOCH,
    INDEXED,
    NOT_READ,
    REFRESH_OVERLAP,
    TOMBSTONES,
    Shard,
    search_shard,
)
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters, SearchHit
from techai_shared.clock import Clock, utcnow

logger = logging.getLogger(__name__)


class CatalogIndex:
    """SearchStrategy over contests and news held in memory, bookmarks read per question."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], model_name: str,
                 weights: FusionWeights | None = None, dimensions: int = 384,
                 refresh_seconds: float = 0.5, *, clock: Clock = utcnow) -> None:
        self._db = db
        self._clock = clock  # when a read began: the next resume point is taken from it
        self._model_name = model_name
        self._weights = weights or FusionWeights()
        self._dimensions = dimensions
        self._refresh_seconds = refresh_seconds
        self._shards = {c: Shard(c, dimensions) for c in INDEXED}
        self._bookmarks = ExactStrategy(db, model_name, self._weights)
        self._since = EPOCH  # the next refresh reads what was projected from here on
        self._refreshed_at = 0.0
        self._refreshing = asyncio.Lock()
        self._loading = asyncio.Lock()
        self.ready = False

    async def load(self) -> None:
        """Read contests and news in full (readiness waits for this)."""
        began = time.perf_counter()
        started = self._clock()
        self._shards = {c: Shard(c, self._dimensions) for c in INDEXED}
        for collection in INDEXED:
            await self._read(collection, {})
            # Then every tombstone, however old its stamp: a document read above may be one whose
            # tombstone is written and that query-sync has yet to remove. Reading the documents
            # alone, a process that loaded at that moment held the deleted item until it restarted.
            await self._read_tombstones(collection, EPOCH)
        self._since = started - REFRESH_OVERLAP
        self._refreshed_at = time.monotonic()
        self.ready = True
        logger.info("catalog index loaded: %s in %.1f s",
                    ", ".join(f"{len(s)} {c.value}" for c, s in self._shards.items()),
                    time.perf_counter() - began)

    async def refresh(self) -> int:
        """Apply what the read model changed since the last load or refresh; returns how many.

        A write stamped before the previous read began minus the overlap had committed by then, so
        it was read then or earlier: each refresh reads from the previous one's start minus the
        overlap (which also absorbs clock skew between query-sync's hosts and this one)."""
        async with self._refreshing:
            started = self._clock()
            changed = 0
            for collection in INDEXED:
                changed += await self._read(collection, {"projected_at": {"$gte": self._since}})
                changed += await self._read_tombstones(collection, self._since)
            self._since = started - REFRESH_OVERLAP
            self._refreshed_at = time.monotonic()
            if changed:
                logger.debug("catalog index: %d changes applied", changed)
            return changed

    def put(self, collection: Collection, doc: dict[str, Any]) -> bool:
        """Hold a read-model document of contests or news (a version not newer than the held one
        changes nothing); what load and refresh do with each document they read."""
        return self._shards[collection].put(doc, self._model_name)

    async def _read(self, collection: Collection, query: dict[str, Any]) -> int:
        changed = 0
        async for doc in self._db[collection.value].find(query, NOT_READ):
            changed += self.put(collection, doc)
        return changed

    async def _read_tombstones(self, collection: Collection, since: datetime) -> int:
        shard = self._shards[collection]
        changed = 0
        query = {"collection": collection.value, "projected_at": {"$gte": since}}
        async for tombstone in self._db[TOMBSTONES].find(query, {"_id": 0}):
            changed += shard.remove(str(tombstone["document_id"]), int(tombstone["version"]))
        return changed

    async def _fresh(self) -> None:
        if not self.ready:
            async with self._loading:
                if not self.ready:
                    await self.load()
        elif (time.monotonic() - self._refreshed_at >= self._refresh_seconds
              and not self._refreshing.locked()):
            await self.refresh()

    def memory_bytes(self) -> int:
        return sum(s.memory_bytes() for s in self._shards.values())

    def __len__(self) -> int:
        return sum(len(s) for s in self._shards.values())

    async def search(
        self,
        collection: Collection,
        query_vector: Sequence[float],
        query_text: str,
        user_id: str,
        limit: int,
        min_score: float,
        filters: SearchFilters,
    ) -> list[SearchHit]:
        if collection is Collection.BOOKMARKS:
            return await self._bookmarks.search(collection, query_vector, query_text, user_id, limit,
                                                min_score, filters)
        await self._fresh()
        shard = self._shards[collection]
        if shard.foreign_models:
            others = ", ".join(sorted(set(shard.foreign_models.values())))
            raise RetrievalError(
                f"{collection.value} holds documents embedded with {others}, not with the query's "
                f"model {self._model_name}: re-embed them (python -m query_sync.entrypoints.reembed)")
        if len(query_vector) != self._dimensions:
            raise RetrievalError(f"a query vector of {len(query_vector)} dimensions, not "
                                 f"{self._dimensions}")
        if limit <= 0:
            return []
        return search_shard(shard, np.asarray(query_vector, dtype=np.float64), query_text, limit,
                       min_score, filters, self._weights)
