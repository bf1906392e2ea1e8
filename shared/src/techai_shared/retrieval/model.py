"""The retrieval contract: what a search asks for and what it returns. Plain Python, no I/O."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any, Protocol


class Collection(StrEnum):
    """The searchable MongoDB collections (documents written by query-sync's catalog projector)."""

    CONTESTS = "contests"
    NEWS = "news_articles"
    BOOKMARKS = "bookmarks"


ACTIVE_CONTEST_STATUSES = ("UPCOMING", "ONGOING")


@dataclass(frozen=True)
class SearchFilters:
    """Pre-filters applied inside the search (never after a top-k cut).

    Contests are limited to UPCOMING/ONGOING unless `include_ended`; news optionally to a
    publication window. Bookmarks are ALWAYS limited to the caller's user id, which is not a
    filter a caller can turn off: it is a required argument of every search.
    """

    include_ended_contests: bool = False
    published_after: datetime | None = None
    published_before: datetime | None = None


@dataclass(frozen=True)
class SearchHit:
    """One result. `score` is the Atlas similarity (1 + cosine) / 2 in [0, 1], never a rank value."""

    document_id: str
    collection: Collection
    title: str
    snippet: str
    url: str | None
    score: float
    metadata: dict[str, Any] = field(default_factory=dict)
    # The ordering value of the strategy (e.g. reciprocal rank fusion of the vector and keyword
    # rankings), used only to merge collections; never reported as a score. 0.0 when a strategy
    # orders by `score` alone.
    rank_value: float = 0.0


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
    ) -> list[SearchHit]:
        """Hits across `collections`, best first, at most `max_results`, each with score >= min_score."""
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
