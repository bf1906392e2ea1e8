"""A cached answer lives no longer than the statuses it states: until the first cited contest's
start or end passes (then the same question is answered anew)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot_api.domain.context import still_true_for
from chatbot_api.retrieval.model import Collection, SearchHit

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 23, 8, 0, tzinfo=UTC)


def _contest(start: datetime, end: datetime) -> SearchHit:
    return SearchHit("c-1", Collection.CONTESTS, "t", "s", None, 0.9,
                     metadata={"start_date": start.replace(tzinfo=None), "end_date": end})


def test_an_answer_is_true_until_the_first_cited_contest_changes_status():
    ends_soon = _contest(NOW - timedelta(days=3), NOW + timedelta(minutes=2))
    starts_later = _contest(NOW + timedelta(days=1), NOW + timedelta(days=3))
    assert still_true_for([starts_later, ends_soon], NOW) == 120
    assert still_true_for([starts_later], NOW) == 86_400
    ended = _contest(NOW - timedelta(days=3), NOW - timedelta(days=1))
    news = SearchHit("n-1", Collection.NEWS, "t", "s", None, 0.9,
                     metadata={"published_at": NOW + timedelta(hours=1)})
    assert still_true_for([ended, news], NOW) is None  # nothing it says will change
