"""The projector port: what the consumer needs from anything that projects one topic."""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from typing import Protocol, runtime_checkable

from techai_shared.events import EventEnvelope


class Outcome(StrEnum):
    """What applying one event did; every value but APPLIED left the projection unchanged."""

    APPLIED = "applied"
    STALE = "stale"  # a document with this version or a newer one was already there
    DUPLICATE = "duplicate"  # an immutable document with this id was already there
    SKIPPED = "skipped"  # its session is deleted, so the event has nothing left to change


class Projector(Protocol):
    """Projects the events of one topic into the query store, idempotently and monotonically.
    A projector may set `heavy = True` (its events cost seconds, e.g. embeddings of documents):
    the consumer then projects the other topics' records of a batch first."""

    async def prepare(self) -> None:
        """Create what apply() relies on (indexes); idempotent, called before consuming."""

    async def apply(self, event: EventEnvelope) -> Outcome:
        """Apply one event; raises PoisonEvent for one that can never be applied."""
        ...


@runtime_checkable
class BatchProjector(Projector, Protocol):
    """A projector that gains from seeing consecutive events together (batched embeddings)."""

    async def apply_many(self, events: Sequence[EventEnvelope]) -> list[Outcome]:
        """apply() on each event in order; on an exception, some may have been applied."""
        ...
