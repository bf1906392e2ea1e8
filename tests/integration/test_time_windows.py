"""Questions with time words cite only items in their window, at three fixed clocks (the turn of
the year included), and a window with nothing in it is said to be empty, by name: the sample
catalog on real servers, answered without a model."""

from __future__ import annotations

from datetime import datetime
from typing import Any

import pytest

from chatbot_api.domain.time_words import read_windows
from techai_shared.clock import SEOUL
from techai_shared.events import AggregateType
from techai_shared.settings import CommonSettings
from tests.support.catalog import seed_items
from tests.support.chat import auth, chat_client, chat_settings

pytestmark = pytest.mark.integration

QUESTIONS = ("다음 달 해커톤", "이번 주 마감인 대회", "지난달 LLM 뉴스", "hackathons in December")
CLOCKS = (datetime(2026, 11, 22, 12, tzinfo=SEOUL), datetime(2026, 12, 20, 12, tzinfo=SEOUL),
          datetime(2027, 3, 10, 12, tzinfo=SEOUL))
CONTESTS = {c["id"]: c for c in seed_items(AggregateType.CONTEST)}
NEWS = {n["id"]: n for n in seed_items(AggregateType.NEWS)}


def _in_window(source: dict[str, Any], question: str, now: datetime) -> bool:
    windows = read_windows(question, now)
    assert windows is not None
    if source["documentId"] in CONTESTS:
        contest, window = CONTESTS[source["documentId"]], windows.contests
        start, end = (datetime.fromisoformat(contest[k]) for k in ("startDate", "endDate"))
        if windows.by_deadline:
            return window.start <= end < window.end
        return start < window.end and end >= window.start
    published = datetime.fromisoformat(NEWS[source["documentId"]]["publishedAt"])
    return windows.news.start <= published < windows.news.end


@pytest.mark.parametrize("now", CLOCKS, ids=lambda c: c.date().isoformat())
async def test_time_words_cite_only_what_falls_in_their_window(settings: CommonSettings, now):
    said_empty = 0
    async with chat_client(chat_settings(settings), as_of=now) as (api, _):
        for question in QUESTIONS:
            r = await api.post("/api/v1/chatbot", json={"message": question},
                               headers=auth(settings, "1001"))
            assert r.status_code == 200, r.text
            data = r.json()["data"]
            outside = [s["documentId"] for s in data["sources"] if not _in_window(s, question, now)]
            assert not outside, (question, outside)
            if not data["sources"]:
                windows = read_windows(question, now)
                assert windows is not None
                korean = question[0] >= "가"
                label = (windows.contests if "뉴스" not in question else windows.news)
                assert label.label(korean) in data["response"], data["response"]
                assert ("찾지 못했어요" if korean else "found nothing") in data["response"]
                said_empty += 1
    if now == CLOCKS[-1]:  # the sample holds nothing of March 2027's weeks or February's news
        assert said_empty >= 2


async def test_metrics_show_answers_by_mode_and_the_gate_s_decisions_by_rule(settings):
    async with chat_client(chat_settings(settings)) as (api, _):
        for question in ("다음 달 해커톤", "김치찌개 맛있게 끓이는 법 알려줘", "대학생 AI 해커톤 있어?"):
            r = await api.post("/api/v1/chatbot", json={"message": question},
                               headers=auth(settings, "1001"))
            assert r.status_code == 200, r.text
        metrics = (await api.get("/metrics")).text
    assert 'chatbot_answers_total{mode="retrieval-only"}' in metrics
    assert 'chatbot_answers_total{mode="general"}' in metrics
    assert 'chatbot_gate_decisions_total{decision="pass",rule="dated"}' in metrics
    assert 'decision="fail"' in metrics
    assert "chatbot_top_fused_score_bucket" in metrics and "chatbot_top_similarity_count" in metrics
