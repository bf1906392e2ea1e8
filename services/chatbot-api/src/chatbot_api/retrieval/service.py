"""CatalogRetriever: the Retriever of docs/architecture.md, Retrieval over the catalog collections.

The query is embedded once; each requested collection is searched by the strategy the deployment
supports (probed once: `$vectorSearch` on Atlas, the exact strategy elsewhere); the hits are merged,
deduplicated, ordered and cut. A question about finished contests ("already finished", "끝난")
also searches the ENDED ones: the status filter is a default, the question is explicit.
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure

from chatbot_api.retrieval.atlas import AtlasStrategy
from chatbot_api.retrieval.exact import ExactStrategy
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.model import Collection, SearchFilters, SearchHit, SearchStrategy
from techai_shared.embeddings import Embedder

logger = logging.getLogger(__name__)

StrategyFactory = Callable[[], Awaitable[SearchStrategy]]


async def supports_vector_search(db: AsyncDatabase[dict[str, Any]], dimensions: int) -> bool:
    """Whether the deployment runs `$vectorSearch` at all (a missing index answers with no rows on
    Atlas; SecantusDB and community mongod fail the stage, e.g. code 115 CommandNotSupported)."""
    stage = {"index": "probe", "path": "embedding_vector", "queryVector": [0.0] * dimensions,
             "numCandidates": 1, "limit": 1}
    try:
        cursor = await db[Collection.CONTESTS.value].aggregate([{"$vectorSearch": stage}])
        await cursor.to_list()
    except OperationFailure as exc:
        logger.debug("$vectorSearch is not supported here: %s", exc)
        return False
    return True


async def probe_strategy(db: AsyncDatabase[dict[str, Any]], embedder: Embedder) -> SearchStrategy:
    """The Atlas strategy where `$vectorSearch` runs, the exact one elsewhere; logs the choice."""
    if await supports_vector_search(db, embedder.dimensions):
        logger.info("catalog search uses the Atlas strategy ($vectorSearch)")
        return AtlasStrategy(db)
    logger.info("catalog search uses the exact strategy ($vectorSearch is not supported here)")
    return ExactStrategy(db, embedder.model_name)


class CatalogRetriever:
    """Retriever over contests, news articles and the caller's bookmarks."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], embedder: Embedder,
                 strategy_factory: StrategyFactory | None = None) -> None:
        self._embedder = embedder
        self._factory = strategy_factory or (lambda: probe_strategy(db, embedder))
        self._strategy: SearchStrategy | None = None
        self._lock = asyncio.Lock()

    async def strategy(self) -> SearchStrategy:
        """The strategy, probed on first use and kept."""
        async with self._lock:
            if self._strategy is None:
                self._strategy = await self._factory()
            return self._strategy

    async def search(
        self,
        query: str,
        user_id: str,
        collections: Sequence[Collection],
        max_results: int = 5,
        min_score: float = 0.0,
        filters: SearchFilters | None = None,
    ) -> list[SearchHit]:
        """Hits across `collections`, best first, at most `max_results`, each with score >= min_score."""
        wanted = list(dict.fromkeys(collections))
        if not wanted or max_results <= 0 or not query.strip():
            return []
        filters = _with_intent(query, filters or SearchFilters())
        strategy = await self.strategy()
        vector = await self._embedder.embed_query(query)
        hits: list[SearchHit] = []
        for collection in wanted:
            hits += await strategy.search(collection, vector, query, user_id, max_results, min_score,
                                          filters)
        return merge_hits(hits, user_id, max_results, bookmarks_first=read_intent(query).wants_saved)


def _with_intent(query: str, filters: SearchFilters) -> SearchFilters:
    if read_intent(query).wants_ended and not filters.include_ended_contests:
        return dataclasses.replace(filters, include_ended_contests=True)
    return filters


def merge_hits(hits: Sequence[SearchHit], user_id: str, max_results: int,
               bookmarks_first: bool = False) -> list[SearchHit]:
    """Deduplicated hits, best first by the strategies' rank value then score, cut to max_results;
    the caller's bookmarks before the rest when the question asks for saved items.

    A bookmark of another user is dropped here too (and logged): the strategies filter by user id
    already, this is the second lock on the same door.
    """
    seen: set[tuple[Collection, str]] = set()
    merged: list[SearchHit] = []
    def order(hit: SearchHit) -> tuple[bool, float, float]:
        demoted = bookmarks_first and hit.collection is not Collection.BOOKMARKS
        return demoted, -hit.rank_value, -hit.score

    for hit in sorted(hits, key=order):
        key = (hit.collection, hit.document_id)
        if key in seen:
            continue
        owner = hit.metadata.get("user_id")
        if hit.collection is Collection.BOOKMARKS and owner is not None and owner != user_id:
            logger.error("dropped bookmark %s of another user from a search", hit.document_id)
            continue
        seen.add(key)
        merged.append(hit)
    return merged[:max_results]
