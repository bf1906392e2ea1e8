"""Catalog items by id or by title, scored against a query: what a conversation already points at.

A follow-up ("그거 마감 언제야?") is about the documents of the previous answer, and a question that
names an item ("c-0012", a quoted title) is about that item: neither needs a top-k search. These
reads run the same pre-filter rule as every search for bookmarks (the caller's user id, always),
and report the same score, the Atlas similarity (1 + cosine) / 2, so one min score fits all.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.retrieval.hits import AsOf, to_hit
from chatbot_api.retrieval.model import (
    Collection,
    ItemRef,
    RetrievalError,
    SearchHit,
    atlas_score,
    cosine_similarities,
)
from techai_shared.clock import Clock, utcnow

_NOT_READ = {"_id": 0, "embedding_hash": 0}
_TITLE_FIELD = {Collection.CONTESTS: "title", Collection.NEWS: "title",
                Collection.BOOKMARKS: "item_title"}


class CatalogLookup:
    """Direct reads of catalog documents, scored like search hits."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], clock: Clock = utcnow) -> None:
        self._db = db
        self._clock = clock  # a contest's status is the one its dates give now

    async def fetch(self, refs: Sequence[ItemRef], user_id: str,
                    query_vector: Sequence[float] | None = None) -> list[SearchHit]:
        """The referenced items that exist (bookmarks only the caller's), in the order given."""
        docs: dict[ItemRef, dict[str, Any]] = {}
        for collection in dict.fromkeys(c for c, _ in refs):
            ids = [d for c, d in refs if c is collection]
            where: dict[str, Any] = {"document_id": {"$in": ids}, **_owner(collection, user_id)}
            for doc in await self._db[collection.value].find(where, _NOT_READ).to_list():
                docs[(collection, doc["document_id"])] = doc
        found = [(ref, docs[ref]) for ref in dict.fromkeys(refs) if ref in docs]
        now = self._clock()
        return [to_hit(c, AsOf(c, [doc], now)[0], _similarity(doc, query_vector))
                for (c, _), doc in found]

    async def by_title(self, title: str, user_id: str, collections: Sequence[Collection],
                       query_vector: Sequence[float] | None = None) -> list[SearchHit]:
        """Items whose title is `title` (case-insensitive, whole title), bookmarks only the caller's."""
        hits: list[SearchHit] = []
        pattern = {"$regex": f"^{re.escape(title.strip())}$", "$options": "i"}
        for collection in dict.fromkeys(collections):
            where = {_TITLE_FIELD[collection]: pattern, **_owner(collection, user_id)}
            docs = await self._db[collection.value].find(where, _NOT_READ).to_list(20)
            hits += [to_hit(collection, doc, _similarity(doc, query_vector))
                     for doc in AsOf(collection, docs, self._clock())]
        return hits


def _owner(collection: Collection, user_id: str) -> dict[str, Any]:
    if collection is not Collection.BOOKMARKS:
        return {}
    if not user_id.strip():
        raise RetrievalError("bookmarks can only be read for a user id")
    return {"user_id": user_id}


def _similarity(doc: dict[str, Any], query_vector: Sequence[float] | None) -> float:
    """The item's similarity to the query; 0.0 when there is no query vector or it cannot compare."""
    vector = doc.get("embedding_vector")
    if query_vector is None or not vector or len(vector) != len(query_vector):
        return 0.0
    cosine = cosine_similarities(np.asarray([vector], dtype=float), np.asarray(query_vector, dtype=float))
    return atlas_score(float(cosine[0]))
