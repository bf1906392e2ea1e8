"""Bring the read model back in line with the command store by republishing its state.

Both operations write snapshot events (the current state, at the current version; each message at
the version of its original event) to the outbox, and the normal path carries them to MongoDB:
the projector is idempotent and monotonic, so a snapshot of a state the read model already has
changes nothing, and a stale snapshot never regresses a newer document.

- reconcile: the sessions with an outbox row in a recent window whose projection is missing,
  behind in version, or short of messages get a snapshot of the session and of its missing
  messages;
- rebuild: empty the conversation and catalog projections, then republish every session, its
  messages (live sessions only: a deleted session's messages are gone from the read model), and
  every catalog item (deleted ones as their Deleted event, so tombstones come back too).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.adapters.read_model import (
    CATALOG_COLLECTIONS,
    CONVERSATION_COLLECTIONS,
    ProjectedSession,
    ReadModel,
)
from techai_shared.catalog_store import CatalogStore
from techai_shared.clock import Clock, utcnow
from techai_shared.conversations import (
    ConversationStore,
    SessionState,
    StoredMessage,
    message_snapshot,
    session_snapshot,
)
from techai_shared.db.outbox import changed_aggregates, write_events
from techai_shared.events import AggregateType, EventEnvelope, EventType

logger = logging.getLogger(__name__)

MESSAGE_PAGE = 1000
Report = Callable[[str], None]


@dataclass
class RebuildCounts:
    emptied: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    messages: int = 0
    catalog: dict[str, int] = field(default_factory=dict)

    def public(self) -> dict[str, object]:
        return {"emptied": self.emptied, "sessions": self.sessions, "messages": self.messages,
                "catalog": self.catalog}


class Republisher:
    """Reconcile and rebuild over the command store, the outbox and the read model."""

    def __init__(self, engine: AsyncEngine, conversations: ConversationStore, read_model: ReadModel,
                 catalog: Sequence[CatalogStore] = (), clock: Clock = utcnow) -> None:
        self.engine = engine
        self._conversations = conversations
        self._read_model = read_model
        self._catalog = list(catalog)
        self._clock = clock

    # -- reconcile ------------------------------------------------------------------------------

    async def reconcile(self, since: datetime, until: datetime, batch: int,
                        between_batches: Callable[[], None] = lambda: None) -> int:
        """Repair the sessions changed in [since, until); returns how many needed a repair."""
        repaired, after = 0, ""
        while True:
            ids = await changed_aggregates(self.engine, AggregateType.CONVERSATION.value, since,
                                           until, after, batch)
            if not ids:
                return repaired
            repaired += await self.repair_sessions(ids)
            after = ids[-1]
            between_batches()

    async def repair_sessions(self, session_ids: Sequence[str]) -> int:
        """Republish what the read model lacks of these sessions; returns how many lagged."""
        sessions = await self._conversations.sessions_by_id(session_ids)
        projected = await self._read_model.sessions(session_ids)
        present = await self._read_model.message_ids(session_ids)
        now = self._clock()
        events: list[EventEnvelope] = []
        lagging = 0
        for session in sessions:
            repair = await self._repair(session, projected.get(session.session_id),
                                        present.get(session.session_id, set()), now)
            if repair:
                lagging += 1
                events += repair
                logger.info("reconcile: session %s lags the command store (v%d); republishing "
                            "%d events", session.session_id, session.version, len(repair))
        await write_events(self.engine, events)
        return lagging

    async def _repair(self, session: SessionState, view: ProjectedSession | None,
                      have: set[str], now: datetime) -> list[EventEnvelope]:
        """The snapshot events that bring one session's projection up to date (none if it is)."""
        if session.deleted_at is not None:
            # A tombstone must be there, and no message of the session may be left.
            stale = view is None or not view.is_deleted or view.version < session.version
            return [session_snapshot(session, now)] if stale or have else []
        stale = view is None or view.is_deleted or view.version < session.version
        short = len(have) < session.message_count or (
            view is not None and view.message_count < session.message_count)
        events = [session_snapshot(session, now)] if stale or short else []
        if short:
            events += [message_snapshot(m, session, now)
                       for m in await self._all_messages(session.session_id)
                       if m.message_id not in have]
        return events

    async def _all_messages(self, session_id: str) -> list[StoredMessage]:
        found: list[StoredMessage] = []
        while True:
            page = await self._conversations.messages(session_id, offset=len(found),
                                                      limit=MESSAGE_PAGE)
            found += page
            if len(page) < MESSAGE_PAGE:
                return found

    # -- rebuild --------------------------------------------------------------------------------

    async def rebuild(self, batch: int, report: Report = lambda _: None) -> RebuildCounts:
        """Empty the projections, then republish everything from the command store."""
        counts = RebuildCounts()
        collections = (*CONVERSATION_COLLECTIONS, *(CATALOG_COLLECTIONS if self._catalog else ()))
        counts.emptied = await self._read_model.empty(collections)
        report("emptied " + ", ".join(f"{k} ({v} documents)" for k, v in counts.emptied.items()))
        await self._rebuild_sessions(counts, batch, report)
        for store in self._catalog:
            counts.catalog[store.kind.aggregate_type.value] = await self._rebuild_catalog(
                store, batch, report)
        return counts

    async def _rebuild_sessions(self, counts: RebuildCounts, batch: int, report: Report) -> None:
        after = ""
        while ids := await self._conversations.session_ids_after(after, batch):
            now = self._clock()
            events: list[EventEnvelope] = []
            for session in sorted(await self._conversations.sessions_by_id(ids),
                                  key=lambda s: s.session_id):
                events += await self._session_events(session, now)
            await write_events(self.engine, events)
            counts.sessions += len(ids)
            counts.messages += sum(e.event_type is EventType.MESSAGE_CREATED for e in events)
            after = ids[-1]
            report(f"sessions: {counts.sessions} republished ({counts.messages} messages)")

    async def _session_events(self, session: SessionState, now: datetime) -> list[EventEnvelope]:
        events = [session_snapshot(session, now)]
        if session.deleted_at is None:
            events += [message_snapshot(m, session, now)
                       for m in await self._all_messages(session.session_id)]
        return events

    async def _rebuild_catalog(self, store: CatalogStore, batch: int, report: Report) -> int:
        kind, total, after = store.kind.aggregate_type.value, 0, ""
        while events := await store.snapshot_events(after, batch):
            await write_events(self.engine, events)
            total += len(events)
            after = events[-1].aggregate_id
            report(f"{kind}: {total} republished")
        return total
