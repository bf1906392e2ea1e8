"""Time words of a question as date windows, in the portal's days (Asia/Seoul).

"다음 달 해커톤" asked on 2026-12-20 means contests of January 2027; "지난달 LLM 뉴스", articles
published in the previous month; "이번 주 마감인 대회", contests whose deadline falls this week. The
words and their windows are data (time_words.toml); this module resolves them against a clock.

A window is a half-open interval [start, end). A month named without a year is the next one of
that name for contests (they are asked about ahead, unless the question asks about the past) and
the last one for news (reported after), the current month for both. Plain Python: no I/O besides
reading the rules file once.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from functools import cache
from pathlib import Path

from techai_shared.clock import SEOUL

RULES = Path(__file__).with_name("time_words.toml")
MONTHS = {"jan": 1, "feb": 2, "mar": 3, "apr": 4, "may": 5, "jun": 6, "jul": 7, "aug": 8,
          "sep": 9, "oct": 10, "nov": 11, "dec": 12}
MONTH_EN = ("January", "February", "March", "April", "May", "June", "July", "August",
            "September", "October", "November", "December")
CLOSING_SOON_DAYS = 7
RECENT_DAYS = 7  # "최근 일주일", "the past week"
SUNDAY = 6  # date.weekday()
YEARS = {"this_year": 0, "last_year": -1, "next_year": 1}  # window name -> years from now


@dataclass(frozen=True)
class Window:
    """[start, end) and how to name it to the user."""

    start: datetime
    end: datetime
    label_ko: str
    label_en: str

    def label(self, korean: bool) -> str:
        return self.label_ko if korean else self.label_en


@dataclass(frozen=True)
class TimeWindows:
    """The windows a question's time words mean, per kind of item."""

    contests: Window
    news: Window  # an article matches when it was published in it (none yet in one to come)
    by_deadline: bool  # a contest matches by its end in the window, not by its period
    by_start: bool = False  # a contest matches by its start in the window ("다음 주에 시작하는")


@dataclass(frozen=True)
class _Rules:
    windows: tuple[tuple[str, tuple[re.Pattern[str], ...]], ...]
    month_ko: re.Pattern[str]
    month_en: tuple[re.Pattern[str], ...]
    deadline: tuple[re.Pattern[str], ...]
    start: tuple[re.Pattern[str], ...]
    past: tuple[re.Pattern[str], ...]
    seasons: tuple[re.Pattern[str], ...]
    any_season: re.Pattern[str]


@cache
def _rules() -> _Rules:
    data = tomllib.loads(RULES.read_text(encoding="utf-8"))

    def compiled(patterns: list[str]) -> tuple[re.Pattern[str], ...]:
        return tuple(re.compile(p, re.IGNORECASE) for p in patterns)

    month = data["month"]
    return _Rules(
        windows=tuple((w["name"], compiled(w["patterns"])) for w in data["window"]),
        month_ko=re.compile(month["korean"]),
        month_en=compiled([month["english_before"], month["english_year"]]),
        deadline=compiled(data["deadline"]["patterns"]),
        start=compiled(data["start"]["patterns"]),
        past=compiled(data["past"]["patterns"]),
        seasons=compiled([data["season"]["korean"], data["season"]["english"]]),
        any_season=re.compile(data["season"]["any"], re.IGNORECASE),
    )


def names_dates(question: str) -> bool:
    """Whether the question holds a time word this module reads as a window."""
    rules = _rules()
    return (any(p.search(question) for _, patterns in rules.windows for p in patterns)
            or _month(question, rules) is not None or _season(question, rules) is not None)


def read_windows(question: str, now: datetime, past: bool = False) -> TimeWindows | None:
    """The windows the question's time words mean as of `now`, or None when it has none; `past`:
    the question asks about what is over ("back in June", "6월에 끝난"), so a month named alone
    is the last one of that name for contests too."""
    rules = _rules()
    today = now.astimezone(SEOUL).date()
    by_deadline = any(p.search(question) for p in rules.deadline)
    by_start = not by_deadline and any(p.search(question) for p in rules.start)
    season = _season(question, rules)
    if season is not None:
        asked_past = past or any(p.search(question) for p in rules.past)
        window = _season_window(*season, today, asked_past)
        return TimeWindows(window, window, by_deadline, by_start)
    month = _month(question, rules)
    matched = [name for name, patterns in rules.windows if any(p.search(question) for p in patterns)]
    if "year_end" in matched and any(name in YEARS for name in matched):
        month = (12, None)  # "작년 연말": the December of the year named
        matched.remove("year_end")
    for name in matched:
        if month is not None and name in YEARS:  # "내년 3월": the month of that year
            month = (month[0], today.year + YEARS[name])
            break
        window = _named(name, today, now)
        # news are reported after: on a Sunday, this week's articles are those of the week
        # that ends today, while its contests are those of the days ahead
        news = _week(today, "this_week") if name == "this_week" else window
        deadline = by_deadline or name == "closing_soon"
        return TimeWindows(window, news, deadline, by_start and not deadline)
    if month is None:
        return None
    number, year = month
    past = past or any(p.search(question) for p in rules.past)
    contests_year = year or (_behind(today, number) if past else _ahead(today, number))
    return TimeWindows(_month_window(contests_year, number),
                       _month_window(year or _behind(today, number), number), by_deadline,
                       by_start)


def _named(name: str, today: date, now: datetime) -> Window:
    monday = today - timedelta(days=today.weekday())
    match name:
        case "closing_soon":
            until = now + timedelta(days=CLOSING_SOON_DAYS)
            return Window(now, until, "마감 임박(7일 안)", "closing soon (within 7 days)")
        case "today":
            return _days(today, 1, f"오늘({today:%m/%d})", f"today ({today:%b %d})")
        case "tomorrow":
            day = today + timedelta(days=1)
            return _days(day, 1, f"내일({day:%m/%d})", f"tomorrow ({day:%b %d})")
        case "yesterday":
            day = today - timedelta(days=1)
            return _days(day, 1, f"어제({day:%m/%d})", f"yesterday ({day:%b %d})")
        case "past_week":  # the seven days up to today, today included
            first = today - timedelta(days=RECENT_DAYS - 1)
            return _days(first, RECENT_DAYS, f"최근 일주일({_md(first)}~{_md(today)})",
                         f"the past week ({first:%b %d}-{today:%b %d})")
        case "this_weekend":
            saturday = monday + timedelta(days=5)
            return _days(saturday, 2, f"이번 주말({_md(saturday)}~{_md(saturday, 1)})",
                         f"this weekend ({saturday:%b %d}-{saturday + timedelta(days=1):%d})")
        case "this_week" if today.weekday() == SUNDAY:
            # on a Sunday only today is left of the week: "이번 주 마감" asks about the days
            # ahead, up to next Sunday (the week "다음 주" names as well)
            return _days(today, 8, f"이번 주({_md(today)}~{_md(today, 7)})",
                         f"this week ({today:%b %d}-{today + timedelta(days=7):%b %d})")
        case "this_week" | "next_week" | "last_week":
            return _week(today, name)
        case "this_month" | "next_month" | "last_month":
            year, month = _shift(today.year, today.month, {"this_month": 0, "next_month": 1,
                                                           "last_month": -1}[name])
            window = _month_window(year, month)
            ko = {"this_month": "이번 달", "next_month": "다음 달", "last_month": "지난달"}[name]
            en = name.replace("_", " ")
            return Window(window.start, window.end, f"{ko}({window.label_ko})",
                          f"{en} ({window.label_en})")
        case "year_end":
            window = _month_window(today.year, 12)
            return Window(window.start, window.end, f"연말({window.label_ko})",
                          f"the end of the year ({window.label_en})")
    year = today.year + YEARS[name]
    ko = {"this_year": "올해", "last_year": "작년", "next_year": "내년"}[name]
    return Window(_midnight(date(year, 1, 1)), _midnight(date(year + 1, 1, 1)), f"{ko}({year}년)",
                  f"{name.replace('_', ' ')} ({year})")


def _month(question: str, rules: _Rules) -> tuple[int, int | None] | None:
    """The month a question names, and its year when it names one."""
    found = rules.month_ko.search(question)
    if found:
        return int(found["month"]), int(found["year"]) if found["year"] else None
    for pattern in rules.month_en:
        found = pattern.search(question)
        if found:
            return MONTHS[found["name"][:3].lower()], int(found["year"]) if found["year"] else None
    return None


SEASONS = {"봄": "spring", "여름": "summer", "가을": "autumn", "겨울": "winter", "fall": "autumn"}
SEASON_MONTHS = {"spring": 3, "summer": 6, "autumn": 9, "winter": 12}  # first of three months
SEASON_KO = {"spring": "봄", "summer": "여름", "autumn": "가을", "winter": "겨울"}
# 올해, 내년, 작년 name a calendar year (작년 여름: the summer of last year); 이번, 다음, 지난 and
# this, next, last count from today (지난 여름: the latest summer over)
QUALIFIERS = {"올해": "year+0", "금년": "year+0", "내년": "year+1", "작년": "year-1",
              "이번": "this", "this": "this", "다음": "next", "next": "next",
              "지난": "last", "last": "last"}


def _season(question: str, rules: _Rules) -> tuple[str, str] | None:
    """(qualifier, season) of a season named with a word that places it ("내년 가을", "this
    winter", "지난 여름"); a season alone ("여름 게임잼") is part of a name, not a window, and a
    question naming two seasons ("지난 여름 테마랑 이번 겨울 시즌 마감") asks about both."""
    if len({SEASONS.get(w.lower(), w.lower()) for w in rules.any_season.findall(question)}) > 1:
        return None
    for pattern in rules.seasons:
        if found := pattern.search(question):
            word = found.group("season").lower()
            return QUALIFIERS[found.group("when").lower()], SEASONS.get(word, word)
    return None


def _season_window(when: str, season: str, today: date, past: bool = False) -> Window:
    """The three months of the season `when` places: of a calendar year (a winter begins in
    December of its year and runs into February), or counted from today: this (under way, or the
    next to begin; asked about the past, "What was the theme this summer?", the latest begun),
    next (the next to begin), last (the latest over)."""
    first = SEASON_MONTHS[season]

    def span(year: int) -> tuple[date, date]:
        end_year, end_month = _shift(year, first, 3)
        return date(year, first, 1), date(end_year, end_month, 1)

    if when.startswith("year"):
        year = today.year + int(when[4:])
    else:
        years = range(today.year - 2, today.year + 2)
        if when == "this" and past:
            year = max(y for y in years if span(y)[0] <= today)
        elif when == "this":
            year = next(y for y in years if span(y)[1] > today)
        elif when == "next":
            year = next(y for y in years if span(y)[0] > today)
        else:
            year = max(y for y in years if span(y)[1] <= today)
    start, end = span(year)
    last_month = _shift(year, first, 2)[1]
    return Window(_midnight(start), _midnight(end),
                  f"{year}년 {SEASON_KO[season]}({first}월~{last_month}월)",
                  f"{season} {year} ({MONTH_EN[first - 1]}-{MONTH_EN[last_month - 1]})")


def _ahead(today: date, month: int) -> int:
    return today.year if month >= today.month else today.year + 1


def _behind(today: date, month: int) -> int:
    return today.year if month <= today.month else today.year - 1


def _shift(year: int, month: int, months: int) -> tuple[int, int]:
    index = year * 12 + (month - 1) + months
    return index // 12, index % 12 + 1


def _month_window(year: int, month: int) -> Window:
    next_year, next_month = _shift(year, month, 1)
    return Window(_midnight(date(year, month, 1)), _midnight(date(next_year, next_month, 1)),
                  f"{year}년 {month}월", f"{MONTH_EN[month - 1]} {year}")


def _week(today: date, name: str) -> Window:
    """This, next or last Monday-to-Sunday week."""
    offset = {"this_week": 0, "next_week": 7, "last_week": -7}[name]
    first = today - timedelta(days=today.weekday()) + timedelta(days=offset)
    ko = {"this_week": "이번 주", "next_week": "다음 주", "last_week": "지난주"}[name]
    return _days(first, 7, f"{ko}({_md(first)}~{_md(first, 6)})",
                 f"{name.replace('_', ' ')} ({first:%b %d}-{first + timedelta(days=6):%b %d})")


def _days(first: date, count: int, label_ko: str, label_en: str) -> Window:
    return Window(_midnight(first), _midnight(first + timedelta(days=count)), label_ko, label_en)


def _midnight(day: date) -> datetime:
    return datetime.combine(day, time(), SEOUL)


def _md(day: date, plus: int = 0) -> str:
    shifted = day + timedelta(days=plus)
    return f"{shifted.month}/{shifted.day}"
