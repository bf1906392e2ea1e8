"""The session aggregate's rules: ownership, contiguous sequences, one version per event."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from techai_shared.conversation.model import (
    Change,
    MessageAdded,
    NewMessage,
    Session,
    SessionChanged,
    title_from,
)
from techai_shared.errors import Forbidden, SessionNotFound

pytestmark = pytest.mark.unit

T0 = datetime(2026, 11, 1, tzinfo=UTC)
DAY = timedelta(days=1)


def _exchange(session: Session, user: str = "1001", at: datetime = T0) -> None:
    session.append_exchange(user, NewMessage("user", "q", 1), NewMessage("assistant", "a", 1), at)


def _stored(session: Session) -> Session:
    """The session as the repository would load it after a save."""
    return Session(session.state)


def test_a_new_session_is_titled_after_its_first_question_and_created_at_version_1():
    session = Session.start("s1", "1001", "x" * 80, T0)
    assert session.is_new and session.state.title == title_from("x" * 80) == "x" * 50
    assert [(type(e), e.version) for e in session.events] == [(SessionChanged, 1)]


def test_an_exchange_takes_the_next_two_sequence_numbers_and_three_versions():
    session = Session.start("s1", "1001", "q", T0)
    _exchange(session)
    session = _stored(session)
    _exchange(session, at=T0 + DAY)
    added = [e.message for e in session.events if isinstance(e, MessageAdded)]
    assert [(m.sequence_number, m.version, m.role) for m in added] == [
        (3, 5, "user"), (4, 6, "assistant")]
    assert [e.version for e in session.events] == [5, 6, 7]
    assert session.state.message_count == 4 and session.state.version == 7
    assert session.state.last_message_at == T0 + DAY and session.persisted_version == 4


def test_only_the_owner_changes_a_session_and_a_deleted_one_is_not_found():
    session = _stored(Session.start("s1", "1001", "q", T0))
    with pytest.raises(Forbidden):
        _exchange(session, user="1002")
    with pytest.raises(Forbidden):
        session.rename("1002", "theirs", T0)
    assert session.events == [] and session.state.version == 1
    session.delete("1001", T0)
    with pytest.raises(SessionNotFound):
        _exchange(session)
    with pytest.raises(SessionNotFound):
        session.check_owner("1001")


def test_rename_and_delete_each_take_one_version():
    session = _stored(Session.start("s1", "1001", "q", T0))
    session.rename("1001", "new title", T0)
    session.delete("1001", T0 + DAY)
    assert [(e.change, e.version) for e in session.events if isinstance(e, SessionChanged)] == [
        (Change.UPDATED, 2), (Change.DELETED, 3)]
    assert session.state.deleted_at == T0 + DAY and not session.state.is_active


def test_deactivate_changes_only_an_active_session_idle_since_the_cutoff():
    idle = _stored(Session.start("s1", "1001", "q", T0))
    assert idle.deactivate(T0 + DAY, T0 + 2 * DAY)
    assert not idle.state.is_active and idle.state.version == 2
    assert not idle.deactivate(T0 + DAY, T0 + 2 * DAY), "already inactive"
    busy = _stored(Session.start("s2", "1001", "q", T0 + 2 * DAY))
    assert not busy.deactivate(T0 + DAY, T0 + 2 * DAY) and busy.events == []


def test_an_exchange_reactivates_an_inactive_session():
    session = _stored(Session.start("s1", "1001", "q", T0))
    session.deactivate(T0, T0 + DAY)
    _exchange(session, at=T0 + DAY)
    assert session.state.is_active and session.state.version == 2 + 3


def test_expire_deletes_an_idle_session_and_marks_it_expired():
    session = _stored(Session.start("s1", "1001", "q", T0))
    assert session.expire(T0 + DAY, T0 + 2 * DAY)
    assert session.state.deleted_at == session.state.expired_at == T0 + 2 * DAY
    assert [e.change for e in session.events if isinstance(e, SessionChanged)] == [Change.DELETED]
    assert not session.expire(T0 + DAY, T0 + 2 * DAY), "a deleted session does not expire again"
