"""The exact strategy (DESIGN.md section 6): the pre-filters as a normal find(), cosine in NumPy,
BM25 in Python, the two rankings fused by reciprocal rank. For community MongoDB and SecantusDB.

Nothing is cached between searches: every search reads its candidates with its own filter, so a
bookmark can only ever be a candidate for the user id it was saved by.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from techai_shared.retrieval.hits import to_hit
from techai_shared.retrieval.intent import read_intent
from techai_shared.retrieval.keyword import RRF_K, bm25_scores, ranks, reciprocal_rank_fusion
from techai_shared.retrieval.model import (
    ACTIVE_CONTEST_STATUSES,
    Collection,
    RetrievalError,
    SearchFilters,
    SearchHit,
    atlas_score,
)

logger = logging.getLogger(__name__)

_NOT_READ = {"_id": 0, "embedding_hash": 0}


@dataclass(frozen=True)
class FusionWeights:
    """Weights of the rankings in the fusion; tuned on infra/seed/queries-dev.jsonl (make eval)."""

    vector: float = 1.0
    keyword: float = 1.0
    recency: float = 0.5  # only for news, and only when the question asks for recent ones
    status: float = 1.0  # only for contests of the status the question asks for
    k: int = RRF_K


def prefilter(collection: Collection, user_id: str, filters: SearchFilters) -> dict[str, Any]:
    """The MongoDB filter every search of `collection` runs with; bookmarks always by user id."""
    if collection is Collection.BOOKMARKS:
        if not user_id:
            raise RetrievalError("bookmarks can only be searched for a user id")
        return {"user_id": user_id}
    if collection is Collection.CONTESTS:
        return {} if filters.include_ended_contests else {"status": {"$in": list(ACTIVE_CONTEST_STATUSES)}}
    window: dict[str, datetime] = {}
    if filters.published_after is not None:
        window["$gte"] = filters.published_after
    if filters.published_before is not None:
        window["$lte"] = filters.published_before
    return {"published_at": window} if window else {}


def cosine_similarities(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Cosine of each row of `matrix` with `query` (zero vectors give 0)."""
    norms = np.linalg.norm(matrix, axis=1) * np.linalg.norm(query)
    dots = matrix @ query
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


class ExactStrategy:
    """SearchStrategy over a database's catalog collections, all in this process."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], model_name: str,
                 weights: FusionWeights | None = None) -> None:
        self._db = db
        self._model_name = model_name
        self._weights = weights or FusionWeights()

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
        query = prefilter(collection, user_id, filters)
        docs = await self._db[collection.value].find(query, _NOT_READ).to_list()
        docs = [d for d in docs if d.get("embedding_vector")]
        if not docs or limit <= 0:
            return []
        self._check_model(collection, docs, len(query_vector))
        matrix = np.asarray([d["embedding_vector"] for d in docs], dtype=float)
        similarities = [atlas_score(c) for c in cosine_similarities(matrix, np.asarray(query_vector))]
        fused = self._fuse(collection, docs, similarities, query_text)
        order = sorted(range(len(docs)), key=lambda i: (-fused[i], -similarities[i]))
        kept = [i for i in order if similarities[i] >= min_score][:limit]
        return [to_hit(collection, docs[i], similarities[i], fused[i]) for i in kept]

    def _fuse(self, collection: Collection, docs: list[dict[str, Any]], similarities: list[float],
              query_text: str) -> list[float]:
        keyword = bm25_scores(query_text, [d.get("embedding_text", "") for d in docs])
        rankings = [ranks(similarities), ranks(keyword, positive_only=True)]
        weights = [self._weights.vector, self._weights.keyword]
        intent = read_intent(query_text)
        if collection is Collection.NEWS and intent.wants_recent:
            published = [_timestamp(d.get("published_at")) for d in docs]
            rankings.append(ranks(published, positive_only=True))
            weights.append(self._weights.recency)
        statuses = intent.preferred_statuses()
        if collection is Collection.CONTESTS and statuses:
            # every contest of an asked status shares rank 1: a bonus, not an order among them
            rankings.append([1 if d.get("status") in statuses else None for d in docs])
            weights.append(self._weights.status)
        return reciprocal_rank_fusion(rankings, weights, self._weights.k)

    def _check_model(self, collection: Collection, docs: list[dict[str, Any]], dimensions: int) -> None:
        models = {d.get("embedding_model") for d in docs}
        if models != {self._model_name}:
            others = ", ".join(sorted(str(m) for m in models - {self._model_name}))
            raise RetrievalError(
                f"{collection.value} holds documents embedded with {others}, not with the query's "
                f"model {self._model_name}: re-embed them (python -m query_sync.entrypoints.reembed)"
            )
        if any(len(d["embedding_vector"]) != dimensions for d in docs):
            raise RetrievalError(f"{collection.value} holds vectors of another dimension than {dimensions}")


def _timestamp(value: Any) -> float:
    return value.timestamp() if isinstance(value, datetime) else 0.0
