"""The exact strategy (docs/architecture.md, Retrieval): the pre-filters as a normal find(), cosine in NumPy,
BM25 in Python over the question and its glossary equivalents (retrieval/glossary.py), the
rankings fused by reciprocal rank (retrieval/fusion.py). For community MongoDB and SecantusDB.

Nothing is cached between searches: every search reads its candidates with its own filter, so a
bookmark can only ever be a candidate for the user id it was saved by.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.retrieval.fusion import FusionWeights, fused_hits
from chatbot_api.retrieval.glossary import keyword_query
from chatbot_api.retrieval.keyword import bm25_scores, ranks
from chatbot_api.retrieval.model import (
    Collection,
    RetrievalError,
    SearchFilters,
    SearchHit,
    atlas_score,
    cosine_similarities,
    prefilter,
)

logger = logging.getLogger(__name__)

_NOT_READ = {"_id": 0, "embedding_hash": 0}


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
        keyword = bm25_scores(keyword_query(query_text), [d.get("embedding_text", "") for d in docs])
        return fused_hits(collection, docs, similarities, ranks(keyword, positive_only=True), query_text,
                          self._weights, min_score, limit, filters.names, as_of=filters.moment())

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

