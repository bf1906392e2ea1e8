"""The conversation search indexer puts its batches off while the projection is busy, for a
bounded time (query_sync.adapters.search_index.Deferral), on a clock of the test's own."""

from __future__ import annotations

import pytest

from query_sync.adapters.search_index import Deferral
from query_sync.entrypoints.consumer import Activity

pytestmark = pytest.mark.unit


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_indexing_waits_while_the_projection_is_busy_and_never_longer_than_the_bound():
    clock, busy = Clock(), [True]
    deferral = Deferral(lambda: busy[0], max_seconds=30, monotonic=clock)
    assert deferral.now()  # busy: put off
    clock.now += 29
    assert deferral.now()
    clock.now += 1  # 30 s put off: this batch goes ahead
    assert not deferral.now()
    assert deferral.now()  # and the count starts again
    busy[0] = False
    assert not deferral.now()  # idle: at once
    busy[0] = True
    clock.now += 5
    assert deferral.now()  # a new busy spell counts from its start
    clock.now += 29
    assert deferral.now()


def test_a_bound_of_zero_never_waits():
    assert not Deferral(lambda: True, max_seconds=0, monotonic=Clock()).now()


def test_the_projection_is_busy_from_a_batch_s_fetch_to_its_last_write_and_a_while_after():
    clock = Clock()
    activity = Activity(monotonic=clock)
    assert not activity.busy(1.0)  # nothing applied yet
    with activity.applying(True):
        clock.now += 5  # a batch that takes seconds to apply is busy all along
        assert activity.busy(1.0)
    clock.now += 0.5
    assert activity.busy(1.0)  # and for `within` after its last write
    clock.now += 0.6
    assert not activity.busy(1.0)
    with activity.applying(False):  # an empty fetch is not work
        assert not activity.busy(1.0)
    with pytest.raises(RuntimeError), activity.applying(True):
        raise RuntimeError("a failed batch")
    assert activity.busy(1.0)
    clock.now += 1.0
    assert not activity.busy(1.0)  # no longer applying once the batch failed


def test_a_retry_s_wait_inside_a_batch_is_not_busy():
    clock = Clock()
    activity = Activity(monotonic=clock)
    with activity.applying(True):
        clock.now += 10
        with activity.waiting():  # a record retried against a failing store, minutes perhaps
            assert not activity.busy(1.0)
        assert activity.busy(1.0)  # applying again after the wait
