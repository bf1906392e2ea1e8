"""A catalog document (query-sync's snake_case fields) as a SearchHit; shared by both strategies."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any, overload

import numpy as np

from chatbot_api.retrieval.model import Collection, SearchHit
from techai_shared.contest_status import document_status

SNIPPET_CHARS = 300
_METADATA = {
    Collection.CONTESTS: ("status", "start_date", "end_date", "source_name", "tags"),
    Collection.NEWS: ("published_at", "source_name", "tags"),
    Collection.BOOKMARKS: ("user_id", "item_type", "item_id", "tag", "memo"),
}


def to_hit(collection: Collection, doc: dict[str, Any], score: float, rank_value: float = 0.0) -> SearchHit:
    """The hit of one document; `score` is its similarity (1 + cosine) / 2."""
    return SearchHit(
        document_id=doc["document_id"],
        collection=collection,
        title=doc.get("title") or doc.get("item_title") or "",
        snippet=_snippet(collection, doc),
        url=doc.get("url"),
        score=score,
        metadata={k: doc[k] for k in _METADATA[collection] if doc.get(k) is not None},
        rank_value=rank_value,
    )


def hit_fields(collection: Collection, doc: dict[str, Any]) -> dict[str, Any]:
    """The fields of `doc` that to_hit and the fusion read, snippet texts cut to their length: what
    an in-memory index holds so that to_hit(c, hit_fields(c, doc), ...) == to_hit(c, doc, ...)."""
    kept = {k: doc[k] for k in ("document_id", "title", "item_title", "url", "status", "published_at",
                                *_METADATA[collection]) if k in doc}
    for name in _SNIPPET_FIELDS[collection]:
        if doc.get(name):
            kept[name] = str(doc[name])[:SNIPPET_CHARS]
    return kept


class LazyDocs(Sequence[dict[str, Any]]):
    """Documents made only as they are read (the fusion reads some, to_hit the hits): a subclass
    says how many there are and how to make the i-th."""

    def __len__(self) -> int:
        raise NotImplementedError

    def doc(self, i: int) -> dict[str, Any]:
        raise NotImplementedError

    @overload
    def __getitem__(self, i: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, i: slice) -> Sequence[dict[str, Any]]: ...

    def __getitem__(self, i: int | slice) -> dict[str, Any] | Sequence[dict[str, Any]]:
        if isinstance(i, slice):
            return [self.doc(j) for j in range(*i.indices(len(self)))]
        return self.doc(i)


class AsOf(LazyDocs):
    """Documents as of a moment: a contest's `status` is the one its dates give then, derived as
    each document is read (or given, `status_of`, by a caller that derived them already), never
    the stored one."""

    def __init__(self, collection: Collection, docs: Sequence[dict[str, Any]], now: datetime,
                 status_of: Sequence[str] | np.ndarray | None = None) -> None:
        self._docs = docs
        self._now = now
        self._contests = collection is Collection.CONTESTS
        self._status_of = status_of

    def __len__(self) -> int:
        return len(self._docs)

    def doc(self, i: int) -> dict[str, Any]:
        doc = self._docs[i]
        if not self._contests:
            return doc
        given = self._status_of
        return {**doc, "status": str(given[i]) if given is not None else document_status(doc, self._now)}


_SNIPPET_FIELDS = {
    Collection.CONTESTS: ("description",),
    Collection.NEWS: ("summary", "content"),
    Collection.BOOKMARKS: ("item_summary", "memo"),
}


def _snippet(collection: Collection, doc: dict[str, Any]) -> str:
    text = next((doc[f] for f in _SNIPPET_FIELDS[collection] if doc.get(f)), "")
    return str(text)[:SNIPPET_CHARS]
