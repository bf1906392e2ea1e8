"""The Atlas strategy (docs/architecture.md, Retrieval): `$vectorSearch` on a vector index per collection,
fused with `$search` (Atlas Search, BM25) on a text index per collection.

Used where the deployment has search indexes (Atlas, Atlas Local); SecantusDB and community
mongod reject the stage (code 115) and get the exact strategy instead. The pre-filters go inside
the stage (`filter`), so a top-k cut never drops the caller's own results for someone else's:
contests are UPCOMING/ONGOING unless include_ended, news optionally within a publication window,
and bookmarks ALWAYS restricted to the caller's user id.

Hybrid search: the vector side (`$vectorSearch`) and the keyword side (`$search` with the same
pre-filters as `compound.filter`, over the question plus its glossary equivalents) each return
their best candidates; both rankings are fused by reciprocal rank with the same rules as the
exact strategy (retrieval/fusion.py), in this process. Fusing here rather than with `$rankFusion`
keeps it working on every Atlas version and identical to the exact strategy. A keyword-only
candidate gets its similarity from its stored vector, so every hit reports (1 + cosine) / 2, the
score Atlas itself reports as `vectorSearchScore`; min_score applies to it. If the text index is
missing or failing, the search goes on vector-only and says so once in the log.

The pipelines and the index definitions are pure functions, checked against the documented shapes
in the unit tests; query-sync creates the indexes (query_sync.adapters.search_indexes).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError

from chatbot_api.retrieval.fusion import FusionWeights, fused_hits
from chatbot_api.retrieval.glossary import keyword_query
from chatbot_api.retrieval.hits import SNIPPET_CHARS
from chatbot_api.retrieval.model import (
    Collection,
    RetrievalError,
    SearchFilters,
    SearchHit,
    atlas_score,
    cosine,
    prefilter,
)
from techai_shared.search_indexes import (
    TEXT_PATH,
    VECTOR_PATH,
    text_index_name,
    vector_index_name,
)

logger = logging.getLogger(__name__)

CANDIDATES_PER_RESULT = 20  # the documented starting point: numCandidates >= 20 x limit
MIN_CANDIDATES = 100
MAX_CANDIDATES = 10_000  # the stage's upper bound for numCandidates
FUSION_CANDIDATES_PER_RESULT = 4  # each side hands the fusion 4 x limit candidates ...
MIN_FUSION_CANDIDATES = 20  # ... and at least 20

# What each collection shows in a hit: never the vector, the embedding text or the full content.
_DISPLAY_FIELDS: dict[Collection, tuple[str, ...]] = {
    Collection.CONTESTS: ("document_id", "title", "description", "url", "status", "start_date",
                          "end_date", "source_name", "tags", "embedding_model"),
    Collection.NEWS: ("document_id", "title", "summary", "url", "published_at", "source_name",
                      "tags", "embedding_model"),  # and the start of `content`, for the snippet
    Collection.BOOKMARKS: ("document_id", "user_id", "item_type", "item_id", "item_title",
                           "item_summary", "tag", "memo", "embedding_model"),
}


def fusion_candidates(limit: int) -> int:
    """How many candidates each side of the hybrid search returns for a final `limit`."""
    return min(MAX_CANDIDATES, max(FUSION_CANDIDATES_PER_RESULT * limit, MIN_FUSION_CANDIDATES))


def num_candidates(limit: int) -> int:
    """The candidates the ANN search considers: about 20 x limit, at least 100, at most 10,000."""
    return min(MAX_CANDIDATES, max(CANDIDATES_PER_RESULT * limit, MIN_CANDIDATES))


def vector_search_pipeline(
    collection: Collection,
    query_vector: Sequence[float],
    user_id: str,
    limit: int,
    min_score: float = 0.0,
    filters: SearchFilters | None = None,
) -> list[dict[str, Any]]:
    """The aggregation pipeline: $vectorSearch with the pre-filters, then the display fields and
    the score, then the score floor."""
    stage: dict[str, Any] = {
        "index": vector_index_name(collection),
        "path": VECTOR_PATH,
        "queryVector": [float(x) for x in query_vector],
        "numCandidates": num_candidates(limit),
        "limit": limit,
    }
    where = prefilter(collection, user_id, filters or SearchFilters())
    if where:
        stage["filter"] = where
    projection = _display_projection(collection)
    projection["score"] = {"$meta": "vectorSearchScore"}
    return [
        {"$vectorSearch": stage},
        {"$project": projection},
        {"$match": {"score": {"$gte": min_score}}},
    ]


def text_filter(collection: Collection, user_id: str, filters: SearchFilters) -> list[dict[str, Any]]:
    """The pre-filters of `prefilter` as Atlas Search `compound.filter` clauses (same meaning)."""
    if collection is Collection.BOOKMARKS:
        if not user_id.strip():
            raise RetrievalError("a bookmarks search needs the caller's user id")
        own = [{"equals": {"path": "user_id", "value": user_id}}]  # always
        kind = [{"equals": {"path": "item_type", "value": filters.bookmark_kind}}]
        return own + kind if filters.bookmark_kind else own
    if collection is Collection.CONTESTS:
        # prefilter's MQL operators, each field's bounds as one range clause
        mql = {"$gte": "gte", "$lt": "lt"}
        return [{"range": {"path": path, **{mql[op]: v for op, v in bounds.items()}}}
                for path, bounds in prefilter(collection, user_id, filters).items()]
    window: dict[str, Any] = {}
    if filters.published_after is not None:
        window["gte"] = filters.published_after
    if filters.published_before is not None:
        window["lte"] = filters.published_before
    return [{"range": {"path": "published_at", **window}}] if window else []


def text_search_pipeline(
    collection: Collection,
    query_text: str,
    user_id: str,
    limit: int,
    filters: SearchFilters | None = None,
) -> list[dict[str, Any]]:
    """The keyword side: `$search` over the embedding text with the question and its glossary
    equivalents, the pre-filters as filter clauses; the display fields, the stored vector (for the
    similarity of keyword-only candidates) and the search score."""
    compound: dict[str, Any] = {"must": [{"text": {"query": keyword_query(query_text), "path": TEXT_PATH}}]}
    where = text_filter(collection, user_id, filters or SearchFilters())
    if where:
        compound["filter"] = where
    projection = _display_projection(collection)
    projection[VECTOR_PATH] = 1
    projection["keyword_score"] = {"$meta": "searchScore"}
    return [
        {"$search": {"index": text_index_name(collection), "compound": compound}},
        {"$limit": limit},
        {"$project": projection},
    ]


def _display_projection(collection: Collection) -> dict[str, Any]:
    projection: dict[str, Any] = {"_id": 0, **dict.fromkeys(_DISPLAY_FIELDS[collection], 1)}
    if collection is Collection.NEWS:  # a snippet when the summary is empty, never the full text
        projection["content"] = {"$substrCP": [{"$ifNull": ["$content", ""]}, 0, SNIPPET_CHARS]}
    return projection


class AtlasStrategy:
    """Hybrid search through Atlas `$vectorSearch` and `$search`; see the module docstring."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], weights: FusionWeights | None = None) -> None:
        self._db = db
        self._weights = weights or FusionWeights()
        self._keyword_warned: set[Collection] = set()

    async def search(
        self,
        collection: Collection,
        query_vector: Sequence[float],
        query_text: str,
        user_id: str,
        limit: int,
        min_score: float,
        filters: SearchFilters | None,
    ) -> list[SearchHit]:
        """The best `limit` hits of one collection with score >= min_score, best first."""
        if limit <= 0:
            return []
        wanted = fusion_candidates(limit)
        vector_side, keyword_side = await asyncio.gather(  # two round trips at the cost of one
            self._vector_side(collection, query_vector, user_id, wanted, min_score, filters),
            self._keyword_side(collection, query_text, user_id, wanted, filters))
        docs, similarities, keyword_ranks = merge_sides(vector_side, keyword_side, query_vector)
        filters = filters or SearchFilters()
        return fused_hits(collection, docs, similarities, keyword_ranks, query_text, self._weights,
                          min_score, limit, filters.names, as_of=filters.moment())

    async def _vector_side(self, collection: Collection, query_vector: Sequence[float], user_id: str,
                           limit: int, min_score: float,
                           filters: SearchFilters | None) -> list[dict[str, Any]]:
        pipeline = vector_search_pipeline(collection, query_vector, user_id, limit, min_score, filters)
        try:
            cursor = await self._db[collection.value].aggregate(pipeline)
            return await cursor.to_list()
        except PyMongoError as exc:  # no index yet, wrong dimensions, not an Atlas deployment
            raise RetrievalError(f"$vectorSearch on {collection.value} failed: {exc}") from exc

    async def _keyword_side(self, collection: Collection, query_text: str, user_id: str, limit: int,
                            filters: SearchFilters | None) -> list[dict[str, Any]]:
        if not query_text.strip():
            return []
        pipeline = text_search_pipeline(collection, query_text, user_id, limit, filters)
        try:
            cursor = await self._db[collection.value].aggregate(pipeline)
            return await cursor.to_list()
        except PyMongoError as exc:  # the text index is missing or building: vector-only
            if collection not in self._keyword_warned:
                self._keyword_warned.add(collection)
                logger.warning("$search on %s failed, searching it by vector only: %s",
                               collection.value, exc)
            return []


def merge_sides(vector_side: Sequence[dict[str, Any]], keyword_side: Sequence[dict[str, Any]],
                query_vector: Sequence[float]) -> tuple[list[dict[str, Any]], list[float], list[int | None]]:
    """The union of both sides' candidates: documents, their similarities (from `vectorSearchScore`,
    or computed from the stored vector for keyword-only ones) and their keyword ranks."""
    docs: dict[str, dict[str, Any]] = {}
    similarity: dict[str, float] = {}
    for doc in vector_side:
        doc = dict(doc)
        similarity[doc["document_id"]] = float(doc.pop("score"))
        docs[doc["document_id"]] = doc
    keyword_rank: dict[str, int] = {}
    query = np.asarray(query_vector, dtype=float)
    for rank, doc in enumerate(keyword_side, start=1):
        doc = dict(doc)
        vector = doc.pop(VECTOR_PATH, None)
        doc.pop("keyword_score", None)
        document_id = doc["document_id"]
        keyword_rank.setdefault(document_id, rank)
        if document_id not in docs and vector:
            similarity[document_id] = atlas_score(cosine(np.asarray(vector, dtype=float), query))
            docs[document_id] = doc
    ids = list(docs)
    return [docs[i] for i in ids], [similarity[i] for i in ids], [keyword_rank.get(i) for i in ids]
