"""Rank fusion shared by both strategies: vector, keyword and, when the question asks for them,
recency (news) and status (contests), fused by weighted reciprocal rank. Pure functions, no I/O.

Each strategy ranks its candidates its own way (the exact one by NumPy cosine and BM25 over every
candidate; the Atlas one by `$vectorSearch` and `$search`), then hands the rankings here, so a
question is ordered by the same rules on Atlas and on the embedded stack. The reported score is
never the fused value: it stays the similarity (1 + cosine) / 2.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.keyword import RRF_K, ranks, reciprocal_rank_fusion
from chatbot_api.retrieval.model import Collection


@dataclass(frozen=True)
class FusionWeights:
    """Weights of the rankings in the fusion; tuned on infra/seed/queries-dev.jsonl (make eval)."""

    vector: float = 1.0
    keyword: float = 1.0
    recency: float = 0.5  # only for news, and only when the question asks for recent ones
    status: float = 1.0  # only for contests of the status the question asks for
    k: int = RRF_K


def fuse(
    collection: Collection,
    docs: Sequence[dict[str, Any]],
    similarities: Sequence[float],
    keyword_ranks: Sequence[int | None],
    query_text: str,
    weights: FusionWeights,
) -> list[float]:
    """The fused rank value of each of `docs` (higher is better); `keyword_ranks` is 1-based, None
    where the keyword side did not match the document."""
    rankings: list[Sequence[int | None]] = [ranks(similarities), keyword_ranks]
    factors = [weights.vector, weights.keyword]
    intent = read_intent(query_text)
    if collection is Collection.NEWS and intent.wants_recent:
        published = [_timestamp(d.get("published_at")) for d in docs]
        rankings.append(ranks(published, positive_only=True))
        factors.append(weights.recency)
    statuses = intent.preferred_statuses()
    if collection is Collection.CONTESTS and statuses:
        # every contest of an asked status shares rank 1: a bonus, not an order among them
        rankings.append([1 if d.get("status") in statuses else None for d in docs])
        factors.append(weights.status)
    return reciprocal_rank_fusion(rankings, factors, weights.k)


def best(fused: Sequence[float], similarities: Sequence[float], min_score: float, limit: int) -> list[int]:
    """Indexes of the best `limit` candidates by fused value (similarity breaks ties), each with a
    similarity of at least `min_score`."""
    order = sorted(range(len(fused)), key=lambda i: (-fused[i], -similarities[i]))
    return [i for i in order if similarities[i] >= min_score][:limit]


def _timestamp(value: Any) -> float:
    return value.timestamp() if isinstance(value, datetime) else 0.0
