"""What a search returns, as the rest of the domain reads it: plain data, no I/O.

It lives in the domain, not in retrieval/, so that the answer's rules (routing, context, composed
answers) read hits without importing the search that makes them.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from techai_shared.search_indexes import Collection

__all__ = ["Collection", "SearchHit"]


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
