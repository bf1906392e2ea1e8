"""The session lifecycle jobs against an in-memory unit of work: candidates are changed through the
session aggregate, and a session that changed since it was selected (its save raises
ConcurrentChange) is left alone, as the conditional UPDATE of the command store leaves it."""

from __future__ import annotations

from dataclasses import replace
from datetime import UTC, datetime, timedelta
from types import TracebackType
from typing import Any, Self

import pytest

from command_api.service_layer.jobs import JobContext, LifecycleJobs
from command_api.settings import CommandSettings
from techai_shared.conversation.model import ConcurrentChange, Session, SessionChanged, SessionState

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 23, 12, 0, tzinfo=UTC)


def state(session_id: str, idle_for: timedelta, *, active: bool = True) -> SessionState:
    at = NOW - idle_for
    return SessionState(session_id=session_id, user_id="u1", title="t", created_at=at,
                        last_message_at=at, is_active=active, message_count=2, version=4)


class FakeSessions:
    """Committed states; saves are pending until the unit of work commits. Sessions in `busy` got
    a message after the job selected them: their save finds another version."""

    def __init__(self, states: list[SessionState], busy: set[str]) -> None:
        self.committed = {s.session_id: s for s in states}
        self.busy = busy
        self.pending: list[Session] = []
        self.limits: list[int] = []

    async def idle(self, idle_since: datetime, limit: int, *, active_only: bool) -> list[Session]:
        self.limits.append(limit)
        found = [s for s in self.committed.values()
                 if s.deleted_at is None and s.last_message_at <= idle_since
                 and (s.is_active or not active_only)]
        return [Session(s) for s in sorted(found, key=lambda s: s.last_message_at)][:limit]

    async def save(self, session: Session) -> None:
        if session.session_id in self.busy:
            raise ConcurrentChange(f"session {session.session_id} changed since it was read")
        self.pending.append(session)


class FakeUnitOfWork:
    def __init__(self, sessions: FakeSessions) -> None:
        self.sessions = sessions
        self.events: list[Any] = []
        self.commits = 0

    def __call__(self) -> Self:
        return self

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        self.sessions.pending.clear()  # what was not committed is rolled back

    async def commit(self) -> None:
        for session in self.sessions.pending:
            self.sessions.committed[session.session_id] = session.state
            self.events += session.events
        self.sessions.pending.clear()
        self.commits += 1


def jobs(uow: FakeUnitOfWork, **settings: Any) -> LifecycleJobs:
    cfg = CommandSettings(**{"command_job_batch_size": 10, **settings})
    return LifecycleJobs(cfg, uow, None, None)  # type: ignore[arg-type]


async def test_deactivation_leaves_a_session_that_got_a_message_since_it_was_selected():
    sessions = FakeSessions([state("idle", timedelta(minutes=45)), state("busy", timedelta(minutes=40)),
                             state("recent", timedelta(minutes=29)),
                             state("inactive", timedelta(hours=2), active=False)], busy={"busy"})
    uow = FakeUnitOfWork(sessions)
    changed = await jobs(uow).deactivate_idle_sessions(JobContext(now=NOW))
    assert changed == 1 and uow.commits == 1  # one batch: 2 candidates < the batch size
    assert sessions.committed["idle"] == replace(state("idle", timedelta(minutes=45)),
                                                 is_active=False, version=5)
    assert sessions.committed["busy"].is_active and sessions.committed["busy"].version == 4
    assert sessions.committed["recent"].is_active
    (event,) = uow.events
    assert isinstance(event, SessionChanged) and event.state.session_id == "idle"
    assert event.change == "updated" and event.occurred_at == NOW


async def test_expiry_deletes_idle_sessions_in_bounded_batches_until_one_is_short():
    idle = [state(f"s{i}", timedelta(days=91, minutes=i)) for i in range(5)]
    sessions = FakeSessions([*idle, state("kept", timedelta(days=89))], busy=set())
    uow = FakeUnitOfWork(sessions)
    changed = await jobs(uow, command_job_batch_size=2).expire_sessions(JobContext(now=NOW))
    assert changed == 5 and sessions.limits == [2, 2, 2] and uow.commits == 3  # 2, 2, then 1: short
    for i in range(5):
        s = sessions.committed[f"s{i}"]
        assert (s.deleted_at, s.expired_at, s.is_active, s.version) == (NOW, NOW, False, 5)
    assert sessions.committed["kept"].deleted_at is None
    assert [e.change for e in uow.events] == ["deleted"] * 5
