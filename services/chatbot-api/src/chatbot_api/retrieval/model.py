"""The retrieval contract: what a search asks for and what it returns. Plain Python, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import numpy as np

from chatbot_api.domain.hits import SearchHit
from techai_shared.clock import utcnow
from techai_shared.contest_status import ACTIVE as ACTIVE_CONTEST_STATUSES
from techai_shared.search_indexes import Collection

__all__ = ["ACTIVE_CONTEST_STATUSES", "Collection", "SearchHit"]


@dataclass(frozen=True)
class SearchFilters:
    """Pre-filters applied inside the search (never after a top-k cut).

    Ended contests are searched too unless `include_ended_contests` is turned off: a question
    about one specific event finds it whatever its status, and the fusion ranks ended contests
    below active ones unless the question asks about the past. A contest's status is the one its
    dates give as of `as_of` (the retriever's clock; now when unset), never the stored one. News
    optionally to a publication window. Bookmarks are ALWAYS limited to the caller's user id,
    which is not a filter a caller can turn off: it is a required argument of every search.
    """

    include_ended_contests: bool = True
    published_after: datetime | None = None
    published_before: datetime | None = None
    # Names the question gives (lower-cased, in either script): not a filter, a ranking; an item
    # whose title holds one ranks first on the fusion's names side.
    names: tuple[str, ...] = ()
    as_of: datetime | None = None
    # A date window the question names ("다음 달", "this week"): contests whose period overlaps
    # [start, end), or whose end falls in it when the question asks by deadline.
    contest_window: tuple[datetime, datetime] | None = None
    by_deadline: bool = False
    by_start: bool = False  # whose start falls in it, when the question asks by start
    # the item_type ("CONTEST", "NEWS_ARTICLE") of the user's saved items a question lists ("saved
    # contests", "저장해둔 뉴스"): a bookmark of the other kind is not one of them
    bookmark_kind: str | None = None

    def moment(self) -> datetime:
        """The time statuses are derived as of."""
        return self.as_of or utcnow()


ItemRef = tuple[Collection, str]
# a bookmark's item_type (techai_shared.events.catalog.BookmarkItemType) for a kind a question
# names (QueryIntent.asked_kind)
BOOKMARK_ITEM_TYPE = {"CONTEST": "CONTEST", "NEWS": "NEWS_ARTICLE"}
_ID_PREFIX = {"c": Collection.CONTESTS, "n": Collection.NEWS, "b": Collection.BOOKMARKS}


def collection_of_id(document_id: str) -> Collection | None:
    """The collection a public id belongs to by its prefix (c-, n-, b-), or None."""
    return _ID_PREFIX.get(document_id.split("-", 1)[0].lower()) if "-" in document_id else None


class RetrievalError(Exception):
    """Search cannot run: e.g. documents embedded with another model than the query's."""


class Retriever(Protocol):
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
        `query_vector`, the query's embedding when the caller has it (else it is embedded here)."""
        ...


class SearchStrategy(Protocol):
    """One collection's search, the same for the Atlas ($vectorSearch) and exact (NumPy) strategies.

    `user_id` is required even for contests and news: bookmarks are always filtered by it, and a
    strategy must refuse (RetrievalError) a bookmarks search with an empty user id. Scores are
    `atlas_score` of the hit's cosine, whatever keyword fusion decided the order.
    """

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
        """At most `limit` hits of `collection`, best first, each with score >= min_score."""
        ...


def atlas_score(cosine: float) -> float:
    """The score Atlas $vectorSearch reports for cosine similarity."""
    return max(0.0, min(1.0, (1.0 + cosine) / 2.0))


def prefilter(collection: Collection, user_id: str, filters: SearchFilters) -> dict[str, Any]:
    """The MQL filter every search of `collection` runs with (inside `$vectorSearch` on Atlas, as
    the query of the exact strategy): only operators `$vectorSearch` accepts. Bookmarks are always
    the caller's own."""
    if collection is Collection.BOOKMARKS:
        if not user_id.strip():
            raise RetrievalError("a bookmarks search needs the caller's user id")
        own = {"user_id": {"$eq": user_id}}
        return {**own, "item_type": {"$eq": filters.bookmark_kind}} if filters.bookmark_kind else own
    if collection is Collection.CONTESTS:
        return _contest_filter(filters)
    window: dict[str, datetime] = {}
    if filters.published_after is not None:
        window["$gte"] = filters.published_after
    if filters.published_before is not None:
        window["$lte"] = filters.published_before
    return {"published_at": window} if window else {}


def _contest_filter(filters: SearchFilters) -> dict[str, Any]:
    """Active contests (not ended as of the question: an undated one is left out here) and the
    question's window, as operators `$vectorSearch` accepts."""
    end: dict[str, datetime] = {}
    start: dict[str, datetime] = {}
    if not filters.include_ended_contests:
        end["$gte"] = filters.moment()
    if filters.contest_window is not None:
        first, last = filters.contest_window
        end["$gte"] = max(first, end["$gte"]) if "$gte" in end else first
        if filters.by_deadline:
            end["$lt"] = last
        elif filters.by_start:
            start.update({"$gte": first, "$lt": last})
        else:
            start["$lt"] = last
    return {**({"end_date": end} if end else {}), **({"start_date": start} if start else {})}


def cosine_similarities(matrix: np.ndarray, query: np.ndarray) -> np.ndarray:
    """Cosine of each row of `matrix` with `query` (zero vectors give 0)."""
    norms = np.linalg.norm(matrix, axis=1) * np.linalg.norm(query)
    dots = matrix @ query
    return np.divide(dots, norms, out=np.zeros_like(dots), where=norms > 0)


def cosine(a: Sequence[float] | np.ndarray, b: Sequence[float] | np.ndarray) -> float:
    """Cosine of two vectors (0 if either is zero)."""
    x, y = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    norms = float(np.linalg.norm(x) * np.linalg.norm(y))
    return float(x @ y) / norms if norms > 0 else 0.0
