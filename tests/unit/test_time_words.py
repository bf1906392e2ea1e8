"""Time words as date windows at fixed clocks (Asia/Seoul), the turn of the year included, and the
pre-filters they become."""

from __future__ import annotations

from datetime import datetime

import pytest

from chatbot_api.domain.time_words import read_windows
from chatbot_api.retrieval.model import Collection, SearchFilters, prefilter
from chatbot_api.service_layer.retrieval import of_kind_asked
from techai_shared.clock import SEOUL

pytestmark = pytest.mark.unit


def at(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, 12, 0, tzinfo=SEOUL)


def seoul(year: int, month: int, day: int) -> datetime:
    return datetime(year, month, day, tzinfo=SEOUL)


@pytest.mark.parametrize(("question", "now", "start", "end", "by_deadline"), [
    ("다음 달 해커톤", at(2026, 11, 22), seoul(2026, 12, 1), seoul(2027, 1, 1), False),
    ("다음 달 해커톤", at(2026, 12, 20), seoul(2027, 1, 1), seoul(2027, 2, 1), False),  # the turn
    ("hackathons next month", at(2026, 12, 20), seoul(2027, 1, 1), seoul(2027, 2, 1), False),
    ("이번 주 마감인 대회", at(2026, 11, 25), seoul(2026, 11, 23), seoul(2026, 11, 30), True),
    # on a Sunday, this week is the days ahead up to next Sunday (only today is left of its own)
    ("deadlines this week", at(2026, 12, 20), seoul(2026, 12, 20), seoul(2026, 12, 28), True),
    ("이번 주 마감인 대회", at(2026, 11, 22), seoul(2026, 11, 22), seoul(2026, 11, 30), True),
    ("deadlines this week", at(2026, 12, 19), seoul(2026, 12, 14), seoul(2026, 12, 21), True),
    ("다음 주에 열리는 해커톤", at(2026, 11, 22), seoul(2026, 11, 23), seoul(2026, 11, 30), False),
    ("작년 연말에 열린 게임잼", at(2026, 11, 22), seoul(2025, 12, 1), seoul(2026, 1, 1), False),
    ("내년 연말 해커톤", at(2026, 11, 22), seoul(2027, 12, 1), seoul(2028, 1, 1), False),
    ("어제 올라온 뉴스", at(2026, 11, 22), seoul(2026, 11, 21), seoul(2026, 11, 22), False),
    ("최근 일주일 클라우드 소식", at(2026, 11, 22), seoul(2026, 11, 16), seoul(2026, 11, 23), False),
    ("security news from the past week", at(2027, 1, 2), seoul(2026, 12, 27), seoul(2027, 1, 3),
     False),
    ("이번 주말 해커톤", at(2026, 11, 25), seoul(2026, 11, 28), seoul(2026, 11, 30), False),
    ("다음 주 대회", at(2026, 11, 25), seoul(2026, 11, 30), seoul(2026, 12, 7), False),
    ("오늘 마감", at(2026, 11, 25), seoul(2026, 11, 25), seoul(2026, 11, 26), True),
    # asking which contests end (or ended) in a window asks by their end, as "마감" does
    ("이번 달에 끝나는 대회 다 알려줘", at(2026, 11, 22), seoul(2026, 11, 1), seoul(2026, 12, 1), True),
    ("지난달에 끝난 해커톤", at(2026, 11, 22), seoul(2026, 10, 1), seoul(2026, 11, 1), True),
    ("다음 달에 끝날 해커톤", at(2026, 11, 22), seoul(2026, 12, 1), seoul(2027, 1, 1), True),
    ("hackathons that ended last month", at(2026, 11, 22), seoul(2026, 10, 1), seoul(2026, 11, 1),
     True),
    # not ended yet, or what comes after: not by deadline
    ("이번 달에 아직 끝나지 않은 대회 뭐 있어?", at(2026, 11, 22), seoul(2026, 11, 1), seoul(2026, 12, 1),
     False),
    ("지난달 시작해서 아직 안 끝난 해커톤 있어?", at(2026, 11, 22), seoul(2026, 10, 1),
     seoul(2026, 11, 1), False),
    ("이번 주 끝나고 시작하는 해커톤 있어?", at(2026, 11, 25), seoul(2026, 11, 23), seoul(2026, 11, 30),
     False),
    ("Any AI announcements from the end of last month?", at(2026, 11, 22), seoul(2026, 10, 1),
     seoul(2026, 11, 1), False),
    ("다음 주에 종료되는 공모전", at(2026, 11, 22), seoul(2026, 11, 23), seoul(2026, 11, 30), True),
    ("내일 시작하는 대회", at(2026, 12, 31), seoul(2027, 1, 1), seoul(2027, 1, 2), False),
    ("이번 달 대회", at(2026, 11, 22), seoul(2026, 11, 1), seoul(2026, 12, 1), False),
    ("hackathons in December", at(2026, 11, 22), seoul(2026, 12, 1), seoul(2027, 1, 1), False),
    ("hackathons in December", at(2026, 12, 20), seoul(2026, 12, 1), seoul(2027, 1, 1), False),
    ("1월 공모전", at(2026, 11, 22), seoul(2027, 1, 1), seoul(2027, 2, 1), False),  # the next one
    ("2026년 3월 대회", at(2026, 11, 22), seoul(2026, 3, 1), seoul(2026, 4, 1), False),
    ("내년 3월 대회", at(2026, 11, 22), seoul(2027, 3, 1), seoul(2027, 4, 1), False),
    ("연말 해커톤", at(2026, 11, 22), seoul(2026, 12, 1), seoul(2027, 1, 1), False),
    ("security news from the end of last year?", at(2027, 1, 13), seoul(2026, 12, 1),
     seoul(2027, 1, 1), False),
    ("작년 말에 나온 해커톤", at(2027, 1, 13), seoul(2026, 12, 1), seoul(2027, 1, 1), False),
    ("작년 말레이시아 대회", at(2027, 1, 13), seoul(2026, 1, 1), seoul(2027, 1, 1), False),  # not 말
    ("작년 말 많았던 AI 규제 소식", at(2027, 1, 13), seoul(2026, 1, 1), seoul(2027, 1, 1), False),
    ("올해 열린 CTF", at(2026, 11, 22), seoul(2026, 1, 1), seoul(2027, 1, 1), False),
    ("작년 해커톤 결과", at(2027, 1, 5), seoul(2026, 1, 1), seoul(2027, 1, 1), False),
    ("contests next year", at(2026, 11, 22), seoul(2027, 1, 1), seoul(2028, 1, 1), False),
])
def test_a_time_word_is_a_window_of_contests(question, now, start, end, by_deadline):
    windows = read_windows(question, now)
    assert windows is not None
    assert (windows.contests.start, windows.contests.end, windows.by_deadline) == (
        start, end, by_deadline)


def test_news_windows_look_back_for_a_month_named_alone():
    last_month = read_windows("지난달 LLM 뉴스", at(2027, 1, 3))
    assert last_month is not None and last_month.news is not None
    assert (last_month.news.start, last_month.news.end) == (seoul(2026, 12, 1), seoul(2027, 1, 1))
    assert last_month.news.label(True) == "지난달(2026년 12월)"
    december = read_windows("12월 보안 뉴스", at(2026, 11, 22))  # the last December for news
    assert december is not None and december.news is not None
    assert december.news.start == seoul(2025, 12, 1) and december.contests.start == seoul(2026, 12, 1)


def test_on_a_sunday_this_week_is_the_days_ahead_for_contests_and_the_week_ending_for_news():
    windows = read_windows("이번 주 보안 뉴스랑 마감 대회", at(2026, 11, 22))
    assert windows is not None
    assert (windows.contests.start, windows.contests.end) == (seoul(2026, 11, 22),
                                                              seoul(2026, 11, 30))
    assert (windows.news.start, windows.news.end) == (seoul(2026, 11, 16), seoul(2026, 11, 23))
    weekday = read_windows("이번 주 보안 뉴스", at(2026, 11, 25))  # a Wednesday: the same week
    assert weekday is not None and weekday.news == weekday.contests


def test_closing_soon_is_the_next_seven_days_by_deadline():
    now = at(2026, 11, 22)
    windows = read_windows("마감 임박 대회 알려줘", now)
    assert windows is not None and windows.by_deadline
    assert (windows.contests.end - windows.contests.start).days == 7 and windows.contests.start == now


@pytest.mark.parametrize("question", ["may I ask about contests?", "3개월짜리 부트캠프", "최근 AI 뉴스",
                                      "March madness hackathon"])
def test_words_that_only_look_like_dates_are_not_windows(question):
    assert read_windows(question, at(2026, 11, 22)) is None


def test_a_window_filters_contests_by_period_or_deadline_and_news_by_publication():
    first, last = seoul(2026, 12, 1), seoul(2027, 1, 1)
    now = at(2026, 11, 22)
    period = SearchFilters(contest_window=(first, last), as_of=now)
    assert prefilter(Collection.CONTESTS, "u", period) == {
        "end_date": {"$gte": first}, "start_date": {"$lt": last}}
    deadline = SearchFilters(contest_window=(first, last), by_deadline=True, as_of=now,
                             include_ended_contests=False)
    assert prefilter(Collection.CONTESTS, "u", deadline) == {"end_date": {"$gte": first, "$lt": last}}
    this_week = SearchFilters(contest_window=(seoul(2026, 11, 16), seoul(2026, 11, 23)),
                              by_deadline=True, as_of=now, include_ended_contests=False)
    assert prefilter(Collection.CONTESTS, "u", this_week)["end_date"]["$gte"] == now


@pytest.mark.parametrize(("question", "kept"), [
    ("이번 주에 마감되는 대회 뭐 있어?", (Collection.CONTESTS, Collection.BOOKMARKS)),
    ("어제 올라온 뉴스 뭐야?", (Collection.NEWS, Collection.BOOKMARKS)),
    ("hackathons in December", (Collection.CONTESTS, Collection.BOOKMARKS)),
    ("12월에 뭐 있어?", (Collection.CONTESTS, Collection.NEWS, Collection.BOOKMARKS)),
])
def test_a_dated_question_searches_the_kind_it_names(question, kept):
    every = (Collection.CONTESTS, Collection.NEWS, Collection.BOOKMARKS)
    assert of_kind_asked(question, every) == kept


def test_a_kind_the_client_does_not_search_leaves_the_collections_as_they_are():
    assert of_kind_asked("다음 달 해커톤", (Collection.NEWS,)) == (Collection.NEWS,)


def test_a_question_asking_by_start_matches_contests_that_start_in_the_window():
    windows = read_windows("다음 주에 새로 시작하는 대회 뭐 있어요?", at(2026, 11, 22))
    assert windows is not None and windows.by_start and not windows.by_deadline
    first, last = seoul(2026, 11, 23), seoul(2026, 11, 30)
    filters = SearchFilters(contest_window=(first, last), by_start=True, as_of=at(2026, 11, 22))
    assert prefilter(Collection.CONTESTS, "u", filters) == {
        "end_date": {"$gte": first}, "start_date": {"$gte": first, "$lt": last}}
    # asking by deadline too: by deadline
    both = read_windows("다음 주에 시작해서 언제 마감돼?", at(2026, 11, 22))
    assert both is not None and both.by_deadline and not both.by_start


def test_a_question_by_deadline_asks_about_contests():
    every = (Collection.CONTESTS, Collection.NEWS, Collection.BOOKMARKS)
    assert of_kind_asked("이번주 마감인데 아직 접수 가능한 거 있음?", every, by_deadline=True) == (
        Collection.CONTESTS, Collection.BOOKMARKS)


@pytest.mark.parametrize("question", [
    "작년에 끝난 해커톤 우승팀 누구야?",  # who won: the results are articles
    "지난달 마감된 공모전 결과 기사",  # names articles
    "지난주 마감된 대회 1위는 누구야?",
    "이번 주 마감 소식 있어?",  # news about deadlines: contests and articles
    "지난주 끝난 WWDC에서 발표된 거 뭐야?",  # an event that is not a contest
    "지난달 서비스 종료한 클라우드 뭐 있어?",
])
def test_a_question_by_deadline_about_results_or_articles_searches_articles_too(question):
    every = (Collection.CONTESTS, Collection.NEWS, Collection.BOOKMARKS)
    windows = read_windows(question, at(2026, 11, 22))
    assert windows is not None and windows.by_deadline
    assert of_kind_asked(question, every, by_deadline=True) == every


@pytest.mark.parametrize(("question", "now", "start", "end"), [
    ("내년 가을쯤 열리는 대회 있어?", at(2026, 11, 22), seoul(2027, 9, 1), seoul(2027, 12, 1)),
    ("내년 가을 대회", at(2026, 7, 10), seoul(2027, 9, 1), seoul(2027, 12, 1)),  # a calendar year
    ("What is UniDev hosting this winter?", at(2026, 11, 22), seoul(2026, 12, 1), seoul(2027, 3, 1)),
    ("this winter", at(2027, 1, 15), seoul(2026, 12, 1), seoul(2027, 3, 1)),  # under way
    ("작년 여름 해커톤", at(2026, 11, 22), seoul(2025, 6, 1), seoul(2025, 9, 1)),
    ("지난 여름 게임잼", at(2026, 11, 22), seoul(2026, 6, 1), seoul(2026, 9, 1)),  # the latest over
    ("지난 여름 게임잼", at(2026, 7, 10), seoul(2025, 6, 1), seoul(2025, 9, 1)),
    ("next spring hackathons", at(2026, 11, 22), seoul(2027, 3, 1), seoul(2027, 6, 1)),
    ("What was the theme of the game jam this summer?", at(2026, 11, 22), seoul(2026, 6, 1),
     seoul(2026, 9, 1)),  # asked about the past: the latest begun
])
def test_a_placed_season_is_its_three_months(question, now, start, end):
    windows = read_windows(question, now)
    assert windows is not None
    assert (windows.contests.start, windows.contests.end) == (start, end)


@pytest.mark.parametrize("question", ["모래알 게임잼 2026 여름 결과", "Summer of Code 참가 방법",
                                      "winter hackathon",
                                      "별빛 게임잼 지난 여름 테마랑 이번 겨울 시즌 신청 마감"])
def test_a_season_alone_or_two_seasons_are_no_window(question):
    assert read_windows(question, at(2026, 11, 22)) is None
