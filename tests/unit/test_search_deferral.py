"""The conversation search indexer puts its batches off while the projection is busy, for a
bounded time (query_sync.adapters.search_index.Deferral), on a clock of the test's own."""

from __future__ import annotations

import pytest

from query_sync.adapters.search_index import Deferral

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
