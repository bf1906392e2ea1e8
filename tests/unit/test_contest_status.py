"""A contest's status from its dates and the clock, at fixed clocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from chatbot_api.retrieval.index import Shard
from chatbot_api.retrieval.model import Collection
from techai_shared.clock import SEOUL
from techai_shared.contest_status import contest_status, document_status
from techai_shared.events.catalog import ContestStatus

pytestmark = pytest.mark.unit

START = datetime(2026, 11, 20, 9, 0, tzinfo=SEOUL)
END = datetime(2026, 11, 23, 18, 0, tzinfo=SEOUL)


@pytest.mark.parametrize(("now", "expected"), [
    (START - timedelta(seconds=1), ContestStatus.UPCOMING),
    (START, ContestStatus.ONGOING),
    (END, ContestStatus.ONGOING),
    (END + timedelta(seconds=1), ContestStatus.ENDED),
    (datetime(2026, 11, 26, 12, 0, tzinfo=SEOUL), ContestStatus.ENDED),  # what was asked on 11-26
])
def test_the_status_follows_the_dates_and_the_clock(now, expected):
    assert contest_status(START, END, now, given="ONGOING") is expected


def test_naive_times_are_utc_and_missing_dates_keep_what_can_be_told():
    assert contest_status(datetime(2026, 11, 23, 9), None, datetime(2026, 11, 23, 10, tzinfo=UTC)) \
        is ContestStatus.ONGOING
    assert contest_status(None, END, END - timedelta(days=1), given="UPCOMING") is ContestStatus.UPCOMING
    assert contest_status(None, END, END - timedelta(days=1), given="ENDED") is ContestStatus.ONGOING
    assert contest_status(None, END, END + timedelta(days=1), given="UPCOMING") is ContestStatus.ENDED
    assert contest_status(None, None, END, given="ENDED") is ContestStatus.ENDED
    doc = {"start_date": START.astimezone(UTC).replace(tzinfo=None),
           "end_date": END.astimezone(UTC).replace(tzinfo=None), "status": "UPCOMING"}
    assert document_status(doc, datetime(2026, 11, 22, tzinfo=SEOUL)) == "ONGOING"


def test_the_index_derives_every_contest_s_status_as_the_rule_does():
    shard = Shard(Collection.CONTESTS, 2)
    day = timedelta(days=1)
    dated = [(START, END), (None, END), (START, None), (None, None)]
    now = START + day
    docs = [{"document_id": f"c-{i}{given}", "version": 1, "embedding_model": "m",
             "embedding_vector": [1.0, 0.0], "embedding_text": "x", "status": given,
             "start_date": start, "end_date": end}
            for i, (start, end) in enumerate(dated)
            for given in ("UPCOMING", "ONGOING", "ENDED", None)]  # None: stored without one
    for doc in docs:
        shard.put(doc, "m")
    for moment in (START - day, now, END + day):
        kept = np.arange(len(docs))
        ended = shard.ended(kept, moment)
        got = shard.statuses(kept, kept, moment, ended)
        assert list(got) == [document_status(d, moment) for d in docs], moment
        assert list(ended) == [document_status(d, moment) == "ENDED" for d in docs], moment
