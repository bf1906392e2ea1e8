"""Bring the read model back in line with the command store by republishing its state.

Both operations write snapshot events (the current state, at the current version; each message at
the version of its original event) to the outbox, and the normal path carries them to MongoDB:
the projector is idempotent and monotonic, so a snapshot of a state the read model already has
changes nothing, and a stale snapshot never regresses a newer document.

- repair: sessions whose projection is missing, behind in version, or short of messages get a
  snapshot of the session and of its missing messages (service_layer.reconcile finds them);
- rebuild: empty the conversation and catalog projections, then republish every session, its
  messages (live sessions only: a deleted session's messages are gone from the read model), and
  every catalog item (deleted ones as their Deleted event, so tombstones come back too), every
  rating of an answer (after the sessions, so the messages they rate are there first; a rating
  that arrives first is kept anyway) and every verified answer.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import datetime

from command_api.service_layer.catalog import repository
from command_api.service_layer.ports import (
    ProjectedSession,
    ReadModel,
    SessionRepository,
    UnitOfWorkFactory,
)
from techai_shared.clock import Clock, utcnow
from techai_shared.conversation.events import message_snapshot, session_snapshot
from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.events import AggregateType, EventEnvelope, EventType

logger = logging.getLogger(__name__)

MESSAGE_PAGE = 1000
CATALOG = (AggregateType.CONTEST, AggregateType.NEWS, AggregateType.BOOKMARK)
Report = Callable[[str], None]


@dataclass
class RebuildCounts:
    emptied: dict[str, int] = field(default_factory=dict)
    sessions: int = 0
    messages: int = 0
    catalog: dict[str, int] = field(default_factory=dict)
    ratings: int = 0
    verified_answers: int = 0

    def public(self) -> dict[str, object]:
        return {"emptied": self.emptied, "sessions": self.sessions, "messages": self.messages,
                "catalog": self.catalog, "ratings": self.ratings,
                "verifiedAnswers": self.verified_answers}


class Republisher:
    """Reconcile and rebuild over the command store, the outbox and the read model. The snapshot
    events of each batch are added in one unit of work, with the reads they were made from."""

    def __init__(self, uow: UnitOfWorkFactory, read_model: ReadModel,
                 clock: Clock = utcnow) -> None:
        self._uow = uow
        self._read_model = read_model
        self._clock = clock

    # -- repair of sessions (reconcile-projections, service_layer.reconcile) --------------------

    async def repair_sessions(self, session_ids: Sequence[str]) -> int:
        """Republish what the read model lacks of these sessions; returns how many lagged."""
        async with self._uow() as uow:
            sessions = await uow.sessions.by_ids(session_ids)
        projected = await self._read_model.sessions(session_ids)
        present = await self._read_model.message_ids(session_ids)
        now = self._clock()
        lagging = 0
        async with self._uow() as uow:
            events: list[EventEnvelope] = []
            for session in sessions:
                repair = await self._repair(uow.sessions, session,
                                            projected.get(session.session_id),
                                            present.get(session.session_id, set()), now)
                if repair:
                    lagging += 1
                    events += repair
                    logger.info("reconcile: session %s lags the command store (v%d); "
                                "republishing %d events", session.session_id, session.version,
                                len(repair))
            await uow.outbox.add(events)
            await uow.commit()
        return lagging

    async def _repair(self, sessions: SessionRepository, session: SessionState,
                      view: ProjectedSession | None, have: set[str], now: datetime
                      ) -> list[EventEnvelope]:
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
                       for m in await _all_messages(sessions, session.session_id)
                       if m.message_id not in have]
        return events

    # -- rebuild --------------------------------------------------------------------------------

    async def rebuild(self, batch: int, report: Report = lambda _: None) -> RebuildCounts:
        """Empty the projections, then republish everything from the command store."""
        counts = RebuildCounts()
        counts.emptied = await self._read_model.empty()
        report("emptied " + ", ".join(f"{k} ({v} documents)" for k, v in counts.emptied.items()))
        await self._rebuild_sessions(counts, batch, report)
        for kind in CATALOG:
            counts.catalog[kind.value] = await self._rebuild_catalog(kind, batch, report)
        counts.ratings = await self._rebuild_ratings(batch, report)
        counts.verified_answers = await self._rebuild_verified_answers(batch, report)
        return counts

    async def _rebuild_ratings(self, batch: int, report: Report) -> int:
        total, after = 0, ""
        while True:
            async with self._uow() as uow:
                events = await uow.feedback.snapshot_events(after, batch, self._clock())
                if not events:
                    return total
                await uow.outbox.add(events)
                await uow.commit()
            total += len(events)
            after = str(events[-1].payload["messageId"])
            report(f"ratings: {total} republished")

    async def _rebuild_verified_answers(self, batch: int, report: Report) -> int:
        total, after = 0, 0
        while True:
            async with self._uow() as uow:
                events = await uow.verified.snapshot_events(after, batch, self._clock())
                if not events:
                    return total
                await uow.outbox.add(events)
                await uow.commit()
            total += len(events)
            after = int(events[-1].aggregate_id.removeprefix("v-"))
            report(f"verified answers: {total} republished")

    async def _rebuild_sessions(self, counts: RebuildCounts, batch: int, report: Report) -> None:
        after = ""
        while True:
            async with self._uow() as uow:
                ids = await uow.sessions.ids_after(after, batch)
                if not ids:
                    return
                now = self._clock()
                events: list[EventEnvelope] = []
                for session in sorted(await uow.sessions.by_ids(ids), key=lambda s: s.session_id):
                    events += await _session_events(uow.sessions, session, now)
                await uow.outbox.add(events)
                await uow.commit()
            counts.sessions += len(ids)
            counts.messages += sum(e.event_type is EventType.MESSAGE_CREATED for e in events)
            after = ids[-1]
            report(f"sessions: {counts.sessions} republished ({counts.messages} messages)")

    async def _rebuild_catalog(self, kind: AggregateType, batch: int, report: Report) -> int:
        total, after = 0, ""
        while True:
            async with self._uow() as uow:
                events = await repository(uow, kind).snapshot_events(after, batch)
                if not events:
                    return total
                await uow.outbox.add(events)
                await uow.commit()
            total += len(events)
            after = events[-1].aggregate_id
            report(f"{kind.value}: {total} republished")


async def _session_events(sessions: SessionRepository, session: SessionState, now: datetime
                          ) -> list[EventEnvelope]:
    """A session's snapshot, and its messages' unless it is deleted."""
    events = [session_snapshot(session, now)]
    if session.deleted_at is None:
        events += [message_snapshot(m, session, now)
                   for m in await _all_messages(sessions, session.session_id)]
    return events


async def _all_messages(sessions: SessionRepository, session_id: str) -> list[StoredMessage]:
    found: list[StoredMessage] = []
    while True:
        page = await sessions.messages(session_id, offset=len(found), limit=MESSAGE_PAGE)
        found += page
        if len(page) < MESSAGE_PAGE:
            return found
