"""What reconcile-projections counts as lagging: the rules that compare one aggregate's version in
the command store with what the read model holds of it."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from command_api.service_layer.ports import ProjectedItem, ProjectedSession, StoredVersion
from command_api.service_layer.reconcile import MISSING, OLDER, Drift, item_drift, session_drift
from techai_shared.conversation.model import SessionState

pytestmark = pytest.mark.unit

LIVE, DELETED = StoredVersion("c-0001", 3, False), StoredVersion("c-0001", 4, True)


@pytest.mark.parametrize(("stored", "projected", "expected"), [
    (LIVE, None, MISSING),
    (LIVE, ProjectedItem(3, None), None),
    (LIVE, ProjectedItem(2, None), OLDER),  # a restore from an older backup
    (LIVE, ProjectedItem(None, 2), OLDER),  # deleted, then created again: the new life is lost
    (LIVE, ProjectedItem(3, 2), None),
    (DELETED, None, MISSING),  # neither the document nor its tombstone
    (DELETED, ProjectedItem(None, 4), None),
    (DELETED, ProjectedItem(3, None), OLDER),  # still live in search although deleted
    (DELETED, ProjectedItem(3, 4), OLDER),  # a tombstone next to a document it did not remove
    (DELETED, ProjectedItem(None, 2), OLDER),  # an older deletion's tombstone
])
def test_an_item_lags_when_its_version_or_life_differs(stored, projected, expected):
    assert item_drift(stored, projected) == expected


def _session(version: int, messages: int, deleted: bool = False) -> SessionState:
    now = datetime(2026, 11, 26, tzinfo=UTC)
    return SessionState(session_id="s-1", user_id="1001", title="t", created_at=now,
                        last_message_at=now, is_active=True, message_count=messages,
                        version=version, deleted_at=now if deleted else None)


def test_a_session_lags_by_version_life_or_missing_messages():
    assert session_drift(_session(3, 4), None, 0) == (MISSING, 4)
    assert session_drift(_session(3, 4), ProjectedSession(3, 4, False), 4) == (None, 0)
    assert session_drift(_session(3, 4), ProjectedSession(3, 4, False), 3) == (None, 1)
    assert session_drift(_session(3, 4), ProjectedSession(2, 2, False), 2) == (OLDER, 2)
    # deleted: a tombstone at its version and none of its messages left
    assert session_drift(_session(5, 4, True), ProjectedSession(5, 4, True), 0) == (None, 0)
    assert session_drift(_session(5, 4, True), ProjectedSession(5, 4, True), 2) == (OLDER, 0)
    assert session_drift(_session(5, 4, True), ProjectedSession(4, 4, False), 4) == (OLDER, 0)


def test_the_summary_names_each_lagging_kind_and_what_was_republished():
    drift = Drift()
    assert drift.summary() == ("the read model matches the command store; republished 0; "
                               "0 in flight left to the normal path")
    drift.add("news", MISSING, 108)
    drift.add("contest", OLDER)
    drift.republished, drift.skipped_in_flight = 109, 2
    assert drift.summary() == ("contest 0 missing, 1 older; news 108 missing, 0 older; "
                               "republished 109; 2 in flight left to the normal path")
