"""The Atlas strategy (DESIGN.md section 6): `$vectorSearch` on a vector index per collection.

Used where the deployment has search indexes (Atlas, Atlas Local); SecantusDB and community
mongod reject the stage (code 115) and get the exact strategy instead. The pre-filters go inside
the stage (`filter`), so a top-k cut never drops the caller's own results for someone else's:
contests are UPCOMING/ONGOING unless include_ended, news optionally within a publication window,
and bookmarks ALWAYS restricted to the caller's user id.

Atlas already reports cosine as (1 + cosine) / 2 (`vectorSearchScore`), the score every strategy
returns, so min_score is applied to it as is. The pipeline and the index definition are pure
functions, checked against the documented shape in the unit tests; query-sync creates the indexes
(query_sync.adapters.search_indexes).

The keyword side (query_text) is not used here yet: the stage is vector-only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import PyMongoError
from pymongo.operations import SearchIndexModel

from techai_shared.retrieval.hits import SNIPPET_CHARS, to_hit
from techai_shared.retrieval.model import (
    ACTIVE_CONTEST_STATUSES,
    Collection,
    RetrievalError,
    SearchFilters,
    SearchHit,
)

VECTOR_PATH = "embedding_vector"
FILTER_PATHS = ("status", "published_at", "user_id")
CANDIDATES_PER_RESULT = 20  # the documented starting point: numCandidates >= 20 x limit
MIN_CANDIDATES = 100
MAX_CANDIDATES = 10_000  # the stage's upper bound for numCandidates

# What each collection shows in a hit: never the vector, the embedding text or the full content.
_DISPLAY_FIELDS: dict[Collection, tuple[str, ...]] = {
    Collection.CONTESTS: ("document_id", "title", "description", "url", "status", "start_date",
                          "end_date", "source_name", "tags", "embedding_model"),
    Collection.NEWS: ("document_id", "title", "summary", "url", "published_at", "source_name",
                      "tags", "embedding_model"),  # and the start of `content`, for the snippet
    Collection.BOOKMARKS: ("document_id", "user_id", "item_type", "item_id", "item_title",
                           "item_summary", "tag", "memo", "embedding_model"),
}


def vector_index_name(collection: Collection) -> str:
    """The name of the vector search index of `collection`, e.g. "contests_vector"."""
    return f"{collection.value}_vector"


def num_candidates(limit: int) -> int:
    """The candidates the ANN search considers: about 20 x limit, at least 100, at most 10,000."""
    return min(MAX_CANDIDATES, max(CANDIDATES_PER_RESULT * limit, MIN_CANDIDATES))


def vector_index_definition(collection: Collection, dimensions: int) -> SearchIndexModel:
    """The vectorSearch index of `collection`: cosine over the embedding, plus the filter fields."""
    fields: list[dict[str, Any]] = [
        {"type": "vector", "path": VECTOR_PATH, "numDimensions": dimensions, "similarity": "cosine"},
        *({"type": "filter", "path": path} for path in FILTER_PATHS),
    ]
    return SearchIndexModel(definition={"fields": fields}, name=vector_index_name(collection),
                            type="vectorSearch")


def prefilter(collection: Collection, user_id: str, filters: SearchFilters) -> dict[str, Any]:
    """The MQL filter applied inside the stage (only operators $vectorSearch accepts)."""
    if collection is Collection.BOOKMARKS:
        if not user_id.strip():
            raise RetrievalError("a bookmarks search needs the caller's user id")
        return {"user_id": {"$eq": user_id}}  # always: never another user's bookmarks
    if collection is Collection.CONTESTS:
        if filters.include_ended_contests:
            return {}
        return {"status": {"$in": list(ACTIVE_CONTEST_STATUSES)}}
    window: dict[str, datetime] = {}
    if filters.published_after is not None:
        window["$gte"] = filters.published_after
    if filters.published_before is not None:
        window["$lte"] = filters.published_before
    return {"published_at": window} if window else {}


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
    projection: dict[str, Any] = {"_id": 0, **dict.fromkeys(_DISPLAY_FIELDS[collection], 1)}
    if collection is Collection.NEWS:  # a snippet when the summary is empty, never the full text
        projection["content"] = {"$substrCP": [{"$ifNull": ["$content", ""]}, 0, SNIPPET_CHARS]}
    projection["score"] = {"$meta": "vectorSearchScore"}
    return [
        {"$vectorSearch": stage},
        {"$project": projection},
        {"$match": {"score": {"$gte": min_score}}},
    ]


class AtlasStrategy:
    """Vector search through Atlas `$vectorSearch`; see the module docstring."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]]) -> None:
        self._db = db

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
        pipeline = vector_search_pipeline(collection, query_vector, user_id, limit, min_score,
                                          filters)
        try:
            cursor = await self._db[collection.value].aggregate(pipeline)
            documents = await cursor.to_list()
        except PyMongoError as exc:  # no index yet, wrong dimensions, not an Atlas deployment
            raise RetrievalError(f"$vectorSearch on {collection.value} failed: {exc}") from exc
        return [to_hit(collection, doc, float(doc.pop("score"))) for doc in documents]
