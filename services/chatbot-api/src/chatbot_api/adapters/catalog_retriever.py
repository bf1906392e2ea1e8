"""CatalogRetriever: the Retriever of docs/architecture.md, Retrieval over the catalog collections.

The query is embedded once (or its vector is given); the requested collections are searched
concurrently by the strategy the deployment supports (probed once, at start: `$vectorSearch` on
Atlas, the in-memory catalog index elsewhere, retrieval/index.py); the hits are merged,
deduplicated, ordered and cut. Ended contests are searched like the others; the fusion ranks
them below active ones unless the question asks about the past (retrieval/fusion.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from prometheus_client import Histogram
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure

from chatbot_api.adapters.atlas_search import AtlasStrategy
from chatbot_api.adapters.catalog_index import CatalogIndex
from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.keyword import latin_names
from chatbot_api.retrieval.model import Collection, SearchFilters, SearchHit, SearchStrategy
from techai_shared.clock import Clock, utcnow
from techai_shared.embeddings import Embedder
from techai_shared.tasks import cancel_and_wait

logger = logging.getLogger(__name__)

# Reciprocal-rank fusion values: a first rank on one side is worth about 1/(RRF_K + 1).
TOP_FUSED = Histogram("chatbot_top_fused_score", "Fused ranking value of a search's best hit",
                      buckets=(0.005, 0.01, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1))
TOP_SIMILARITY = Histogram("chatbot_top_similarity", "Similarity (1 + cosine) / 2 of a search's "
                           "best hit", buckets=(0.8, 0.82, 0.84, 0.86, 0.88, 0.9, 0.92, 0.94, 0.96))

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
    """The Atlas strategy where `$vectorSearch` runs, elsewhere the in-memory catalog index (loaded
    before it is returned); logs the choice."""
    if await supports_vector_search(db, embedder.dimensions):
        logger.info("catalog search uses the Atlas strategy ($vectorSearch)")
        return AtlasStrategy(db)
    logger.info("catalog search uses the in-memory catalog index ($vectorSearch is not supported here)")
    index = CatalogIndex(db, embedder.model_name, dimensions=embedder.dimensions)
    await index.load()
    return index


class CatalogRetriever:
    """Retriever over contests, news articles and the caller's bookmarks."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], embedder: Embedder,
                 strategy_factory: StrategyFactory | None = None,
                 sample: CatalogSample | None = None, clock: Clock = utcnow) -> None:
        self._embedder = embedder
        self._clock = clock  # contests' statuses are derived as of it (SearchFilters.as_of)
        self.sample = sample  # when given, its name lexicon adds other-script spellings
        self._factory = strategy_factory or (lambda: probe_strategy(db, embedder))
        self._strategy: SearchStrategy | None = None
        self._lock = asyncio.Lock()
        self._starting: asyncio.Task[SearchStrategy] | None = None

    def start(self) -> None:
        """Probe the strategy (and load the catalog index) now, in the background: readiness waits
        for it (`ready`); a search before it ends waits for it too. Called again after a failed
        start (MongoDB unreachable), it tries again."""
        if self._strategy is None and (self._starting is None or self._starting.done()):
            self._starting = asyncio.get_running_loop().create_task(self._start())
            self._starting.add_done_callback(_log_failure)

    async def _start(self) -> SearchStrategy:
        strategy = await self.strategy()
        if self.sample is not None:  # read the catalog sample now rather than on a first question
            await self.sample.sample()
        return strategy

    @property
    def ready(self) -> bool:
        return self._strategy is not None

    async def close(self) -> None:
        await cancel_and_wait(self._starting)

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
        query_vector: Sequence[float] | None = None,
    ) -> list[SearchHit]:
        """Hits across `collections`, best first, at most `max_results`, each with score >= min_score;
        `query_vector` is the query's embedding when the caller has it already."""
        wanted = list(dict.fromkeys(collections))
        if not wanted or max_results <= 0 or not query.strip():
            return []
        filters = filters or SearchFilters()
        strategy = await self.strategy()
        # names in the other script join the keyword side's query; the question is not embedded
        # again with them (a second embedding per question cost 100 ms of p95 at 10 users in
        # make bench for one question more found on validation 1: docs/retrieval-quality.md)
        extra = await self.sample.spellings(query) if self.sample is not None else []
        text = " ".join([query, *extra])
        vector = (query_vector if query_vector is not None
                  else await self._embedder.embed_query(query))
        filters = dataclasses.replace(filters, names=tuple(
            {*latin_names(query), *(w.lower() for w in extra)}), as_of=self._clock())
        found = await asyncio.gather(*(
            strategy.search(collection, vector, text, user_id, max_results, min_score, filters)
            for collection in wanted))
        tops = [hits[0] for hits in found if hits]
        if tops:  # what the best candidate scored: a drift in the catalog or the questions shows
            TOP_FUSED.observe(max(h.rank_value for h in tops))
            TOP_SIMILARITY.observe(max(h.score for h in tops))
        hits = [hit for part in found for hit in part]
        return merge_hits(hits, user_id, max_results, bookmarks_first=read_intent(query).wants_saved)


def _log_failure(task: asyncio.Task[SearchStrategy]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("catalog search could not start (retried by the readiness check): %s",
                       task.exception())


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
