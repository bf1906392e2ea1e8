"""Where a question goes: small talk, or the catalog (which collections, which documents first).

Pure functions over the rules in routing_rules.toml, the one place the words live. The service asks
`route()` once per question and acts on the Route: no retrieval for small talk, the previous
answer's documents first for a follow-up, the named item for an explicit id or a quoted title.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from pathlib import Path
from typing import Any

from chatbot_api.language.korean import lemma_text
from techai_shared.search_indexes import Collection

RULES_FILE = Path(__file__).with_name("routing_rules.toml")
_QUOTED = re.compile(r"[\"“”「『'‘’]([^\"“”「」『』'‘’]{2,120})[\"“”」』'‘’]")


class RouteKind(StrEnum):
    SMALL_TALK = "small_talk"
    CATALOG = "catalog"


@dataclass(frozen=True)
class RouteOptions:
    """The request's options that decide the collections."""

    include_contests: bool = True
    include_news: bool = True
    include_bookmarks: bool = False


@dataclass(frozen=True)
class Route:
    kind: RouteKind
    collections: tuple[Collection, ...] = ()
    follow_up: bool = False
    reset: bool = False
    ordinal: int | None = None  # 1-based: "the second one" picks the previous answer's 2nd source
    explicit_ids: tuple[str, ...] = ()
    quoted_titles: tuple[str, ...] = ()
    include_ended: bool = False
    wants_latest: bool = False
    asks_bookmarks: bool = False

    @property
    def retrieves(self) -> bool:
        return self.kind is RouteKind.CATALOG and bool(self.collections or self.explicit_ids)

    @property
    def bookmarks_involved(self) -> bool:
        return Collection.BOOKMARKS in self.collections or any(
            i.lower().startswith("b-") for i in self.explicit_ids)


@dataclass(frozen=True)
class Rules:
    small_talk: tuple[re.Pattern[str], ...]
    contest: tuple[re.Pattern[str], ...]
    news: tuple[re.Pattern[str], ...]
    bookmarks: tuple[re.Pattern[str], ...]
    contest_kind: tuple[re.Pattern[str], ...]  # words that name the kind, a subset of contest's
    news_kind: tuple[re.Pattern[str], ...]
    lookups: tuple[re.Pattern[str], ...]  # asks whether a contest exists (news_kind: for news)
    requests: tuple[re.Pattern[str], ...]
    advice: tuple[re.Pattern[str], ...]  # requests that stay general whatever they name
    follow_up: tuple[re.Pattern[str], ...]
    short_question_chars: int
    similar_question_cosine: float
    ordinals: dict[int, tuple[re.Pattern[str], ...]]
    reset: tuple[re.Pattern[str], ...]
    ended: tuple[re.Pattern[str], ...]
    latest: tuple[re.Pattern[str], ...]
    ongoing: tuple[re.Pattern[str], ...]
    upcoming: tuple[re.Pattern[str], ...]
    explicit_id: re.Pattern[str]
    # pairs of a series' divisions that exclude each other (qualifier and final, student and general)
    divisions: tuple[tuple[tuple[re.Pattern[str], ...], tuple[re.Pattern[str], ...]], ...] = ()
    results: tuple[re.Pattern[str], ...] = ()  # asks who won or how a contest turned out
    kind_topics: tuple[re.Pattern[str], ...] = ()  # a contest word used as a topic, not a kind
    contest_as_such: tuple[re.Pattern[str], ...] = ()  # words naming contests as such: no topic


def _compile(patterns: list[str]) -> tuple[re.Pattern[str], ...]:
    return tuple(re.compile(p, re.IGNORECASE) for p in patterns)


def parse_rules(data: dict[str, Any]) -> Rules:
    """Rules from the parsed TOML document (see routing_rules.toml for the meaning of each)."""
    return Rules(
        small_talk=_compile(data["small_talk"]["patterns"]),
        contest=_compile(data["catalog"]["contest"]),
        news=_compile(data["catalog"]["news"]),
        bookmarks=_compile(data["catalog"]["bookmarks"]),
        contest_kind=_compile(data["kinds"]["contest"]),
        news_kind=_compile(data["kinds"]["news"]),
        lookups=_compile(data["lookups"]["patterns"]),
        requests=_compile(data["requests"]["patterns"] + data["advice"]["patterns"]),
        advice=_compile(data["advice"]["patterns"]),
        follow_up=_compile(data["follow_up"]["patterns"]),
        short_question_chars=int(data["follow_up"]["short_question_chars"]),
        similar_question_cosine=float(data["follow_up"]["similar_question_cosine"]),
        ordinals={int(k): _compile(v) for k, v in data["ordinals"].items()},
        reset=_compile(data["reset"]["patterns"]),
        ended=_compile(data["ended"]["patterns"]),
        latest=_compile(data["latest"]["patterns"]),
        ongoing=_compile(data["ongoing"]["patterns"]),
        upcoming=_compile(data["upcoming"]["patterns"]),
        explicit_id=re.compile(data["explicit"]["id_pattern"], re.IGNORECASE),
        divisions=tuple((_compile(a), _compile(b)) for a, b in data["divisions"]["pairs"]),
        results=_compile(data["results"]["patterns"]),
        kind_topics=_compile(data["kinds"]["topic"]),
        contest_as_such=_compile(data["kinds"]["as_such"]),
    )


def divisions_named(text: str, rules: Rules | None = None) -> frozenset[tuple[int, int]]:
    """The divisions `text` names, each as (pair, side) of the rules' division pairs."""
    r = rules or default_rules()
    return frozenset((i, side) for i, pair in enumerate(r.divisions)
                     for side in (0, 1) if matches(pair[side], text))


@cache
def default_rules() -> Rules:
    """The rules of routing_rules.toml, read once."""
    return parse_rules(tomllib.loads(RULES_FILE.read_text(encoding="utf-8")))


def matches(patterns: tuple[re.Pattern[str], ...], text: str) -> bool:
    """Whether any of the patterns occurs in `text`."""
    return any(p.search(text) for p in patterns)


def readable(question: str) -> str:
    """What the rules read: the question, then on a line of its own its morphemes with verbs and
    adjectives as lemmas, so a rule word such as 끝나다 matches 끝났어, 끝난 and 끝났나 alike
    (patterns anchored with ^ see the question only)."""
    return f"{question}\n{lemma_text(question)}"


def route(question: str, options: RouteOptions, *, has_previous: bool = False,
          rules: Rules | None = None) -> Route:
    """The route of a normalised question; `has_previous`: the session has an earlier answer."""
    r = rules or default_rules()
    text = readable(question)
    contest, news = matches(r.contest, text), matches(r.news, text)
    bookmarks = matches(r.bookmarks, text)
    explicit = tuple(dict.fromkeys(m.lower() for m in r.explicit_id.findall(question)))
    quoted = tuple(q.strip() for q in _QUOTED.findall(question) if q.strip())
    topical = contest or news or bookmarks or bool(explicit or quoted)
    if not topical and matches(r.small_talk, text):
        return Route(RouteKind.SMALL_TALK)
    reset = matches(r.reset, text)
    refers_back = matches(r.follow_up, text) or (
        len(question) <= r.short_question_chars and not explicit and not quoted)
    return Route(
        kind=RouteKind.CATALOG,
        collections=_collections(options, bookmarks),
        follow_up=has_previous and refers_back and not reset,
        reset=reset,
        ordinal=_ordinal(r, question) if has_previous and not reset else None,
        explicit_ids=explicit,
        quoted_titles=quoted,
        include_ended=matches(r.ended, text),
        wants_latest=matches(r.latest, text),
        asks_bookmarks=bookmarks,
    )


def _collections(options: RouteOptions, asks_bookmarks: bool) -> tuple[Collection, ...]:
    wanted = [
        (options.include_contests, Collection.CONTESTS),
        (options.include_news, Collection.NEWS),
        # bookmarks when the request allows them or the user clearly asks about their own
        (options.include_bookmarks or asks_bookmarks, Collection.BOOKMARKS),
    ]
    return tuple(c for on, c in wanted if on)


def _ordinal(rules: Rules, question: str) -> int | None:
    for number, patterns in sorted(rules.ordinals.items()):
        if matches(patterns, question):
            return number
    return None
