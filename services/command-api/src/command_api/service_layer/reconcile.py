"""Compare the read model with the command store, aggregate by aggregate, and republish what lags.

The command store is the source of truth and keeps every aggregate's version; the read model keeps
the version of the event it applied last. For each kind (contests, news articles, bookmarks,
verified answers, sessions and their messages) the comparison pages through the command store's
ids and versions in id order and reads the read model's versions of the same ids: one query per
batch on each side, version fields only, never the documents.

An aggregate lags when the read model has nothing of it (missing), or holds an older version or
the wrong life (a live document for a deleted item, a tombstone for a live one: older). A lagging
aggregate gets a snapshot of its current state through the outbox, a full-state event at its
version, so the projector applies it like any other event (idempotent, never regressing).
Aggregates whose last events are still on their way (unpublished, or published less than the grace
ago) are left to the normal path: the snapshot would be a duplicate.

This is what heals a read model that lost events (a broker that lost its log, a record sent to the
dead-letter topic, a restore from an older backup, a document deleted by hand).
"""

from __future__ import annotations

import logging
from collections import Counter as Tally
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from prometheus_client import Counter, Gauge

from command_api.service_layer.catalog import repository
from command_api.service_layer.ports import (
    CommandUnitOfWork,
    OutboxLog,
    ProjectedItem,
    ProjectedSession,
    ReadModel,
    StoredVersion,
    UnitOfWorkFactory,
)
from command_api.service_layer.republish import Republisher
from techai_shared.clock import Clock, utcnow
from techai_shared.conversation.model import SessionState
from techai_shared.events import AggregateType, EventEnvelope

logger = logging.getLogger(__name__)

MISSING, OLDER = "missing", "older"
# The kinds compared, as /metrics and the run's summary name them.
KINDS = ("contest", "news", "bookmark", "verified-answer", "session", "message")

READ_MODEL_LAG = Gauge(
    "read_model_lag_items",
    "Aggregates the read model lacked (missing) or held at an older version or life (older) when "
    "reconcile-projections last compared it with the command store", ["kind", "state"])
READ_MODEL_COMPARED = Gauge("read_model_compared_timestamp_seconds",
                            "When reconcile-projections last finished comparing the read model")
REPUBLISHED = Counter("read_model_republished_total",
                      "Snapshot events reconcile-projections republished, by kind", ["kind"])

Between = Callable[[], None]


@dataclass
class Drift:
    """What one comparison found, per kind and state, and how many aggregates it republished."""

    found: dict[str, Tally[str]] = field(default_factory=lambda: {k: Tally() for k in KINDS})
    skipped_in_flight: int = 0
    republished: int = 0

    def add(self, kind: str, state: str, n: int = 1) -> None:
        self.found[kind][state] += n

    def summary(self) -> str:
        """One line for the job run's record and the log."""
        lagging = [f"{kind} {n[MISSING]} missing, {n[OLDER]} older"
                   for kind, n in self.found.items() if n[MISSING] or n[OLDER]]
        found = "; ".join(lagging) if lagging else "the read model matches the command store"
        return (f"{found}; republished {self.republished}"
                f"; {self.skipped_in_flight} in flight left to the normal path")

    def publish_metrics(self) -> None:
        for kind, n in self.found.items():
            for state in (MISSING, OLDER):
                READ_MODEL_LAG.labels(kind, state).set(n[state])
        READ_MODEL_COMPARED.set_to_current_time()


def item_drift(stored: StoredVersion, projected: ProjectedItem | None) -> str | None:
    """MISSING, OLDER or None (in line) for a catalog item or verified answer."""
    if projected is None:
        return MISSING
    if stored.deleted:
        # A tombstone at this version, and no document it has not removed.
        if projected.document is not None and projected.document <= stored.version:
            return OLDER
        return None if (projected.tombstone or 0) >= stored.version else OLDER
    return None if (projected.document or 0) >= stored.version else OLDER


def session_drift(stored: SessionState, projected: ProjectedSession | None,
                  messages: int) -> tuple[str | None, int]:
    """The session's state (MISSING, OLDER or None) and how many of its messages are missing."""
    expected = 0 if stored.deleted_at is not None else stored.message_count
    short = max(0, expected - messages)
    if projected is None:
        return MISSING, short
    stale = (projected.version < stored.version
             or projected.is_deleted != (stored.deleted_at is not None)
             or (stored.deleted_at is not None and messages > 0))
    return (OLDER if stale else None), short


Versions = Callable[[CommandUnitOfWork, str, int], Awaitable[list[StoredVersion]]]
Snapshots = Callable[[CommandUnitOfWork, Sequence[str]], Awaitable[list[EventEnvelope]]]


class Reconciler:
    """Runs the comparison above over every kind; see the module docstring."""

    def __init__(self, uow: UnitOfWorkFactory, outbox: OutboxLog, read_model: ReadModel,
                 republisher: Republisher, clock: Clock = utcnow) -> None:
        self._uow = uow
        self._outbox = outbox
        self._read_model = read_model
        self._republisher = republisher
        self._clock = clock

    async def run(self, published_before: datetime, batch: int,
                  between_batches: Between = lambda: None) -> Drift:
        """Compare every kind; aggregates published at or after `published_before` (or not yet)
        count as in flight."""
        drift = Drift()
        for kind in (AggregateType.CONTEST, AggregateType.NEWS, AggregateType.BOOKMARK):
            await self._items(drift, kind.value, published_before, batch, between_batches,
                              _catalog_versions(kind), _catalog_snapshots(kind))
        await self._items(drift, AggregateType.VERIFIED_ANSWER.value, published_before, batch,
                          between_batches, _answer_versions, self._answer_snapshots)
        await self._sessions(drift, published_before, batch, between_batches)
        drift.publish_metrics()
        logger.info("reconcile: %s", drift.summary())
        return drift

    async def _items(self, drift: Drift, kind: str, published_before: datetime, batch: int,
                     between_batches: Between, versions: Versions, snapshots: Snapshots) -> None:
        in_flight = await self._outbox.in_flight(kind, published_before)
        after = ""
        while True:
            async with self._uow() as uow:
                stored = await versions(uow, after, batch)
            if not stored:
                return
            projected = await self._read_model.items(kind, [s.id for s in stored])
            lagging = []
            for item in stored:
                state = item_drift(item, projected.get(item.id))
                if state is None:
                    continue
                if item.id in in_flight:
                    drift.skipped_in_flight += 1
                    continue
                drift.add(kind, state)
                lagging.append(item.id)
            if lagging:
                await self._republish(kind, lagging, snapshots)
                drift.republished += len(lagging)
            after = stored[-1].id
            between_batches()

    async def _republish(self, kind: str, ids: Sequence[str], snapshots: Snapshots) -> None:
        async with self._uow() as uow:
            events = await snapshots(uow, ids)
            await uow.outbox.add(events)
            await uow.commit()
        REPUBLISHED.labels(kind).inc(len(events))
        logger.info("reconcile: republished %d %s snapshot(s)", len(events), kind)

    async def _answer_snapshots(self, uow: CommandUnitOfWork, ids: Sequence[str]
                                ) -> list[EventEnvelope]:
        return await uow.verified.snapshots_of(ids, self._clock())

    async def _sessions(self, drift: Drift, published_before: datetime, batch: int,
                        between_batches: Between) -> None:
        in_flight = await self._outbox.in_flight(AggregateType.CONVERSATION.value,
                                                 published_before)
        after = ""
        while True:
            async with self._uow() as uow:
                ids = await uow.sessions.ids_after(after, batch)
                stored = await uow.sessions.by_ids(ids) if ids else []
            if not ids:
                return
            projected = await self._read_model.sessions(ids)
            counts = await self._read_model.message_counts(ids)
            lagging = []
            for session in stored:
                sid = session.session_id
                state, short = session_drift(session, projected.get(sid), counts.get(sid, 0))
                if state is None and not short:
                    continue
                if sid in in_flight:
                    drift.skipped_in_flight += 1
                    continue
                if state is not None:
                    drift.add("session", state)
                drift.add("message", MISSING, short)
                lagging.append(sid)
            if lagging:
                drift.republished += await self._republisher.repair_sessions(lagging)
            after = ids[-1]
            between_batches()


def _catalog_versions(kind: AggregateType) -> Versions:
    async def versions(uow: CommandUnitOfWork, after: str, limit: int) -> list[StoredVersion]:
        return await repository(uow, kind).versions(after, limit)

    return versions


def _catalog_snapshots(kind: AggregateType) -> Snapshots:
    async def snapshots(uow: CommandUnitOfWork, ids: Sequence[str]) -> list[EventEnvelope]:
        return await repository(uow, kind).snapshots_of(ids)

    return snapshots


async def _answer_versions(uow: CommandUnitOfWork, after: str, limit: int) -> list[StoredVersion]:
    return await uow.verified.versions(after, limit)
