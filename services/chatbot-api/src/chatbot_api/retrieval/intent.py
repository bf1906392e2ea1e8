"""What a question says about time, ownership and kind: "latest" news, "finished" contests, "my
saved" items, "an article" or "a contest". Plain Python, no I/O.

The words are those of domain/routing_rules.toml, which routing reads too. A vector does not
encode "latest" or "already finished" usefully (every article is news, every contest a contest),
so these words steer the search instead: recent news are ranked higher, contests of the asked
status ("now", "upcoming", "finished") too, a question about finished contests also searches the
ENDED ones, and a question about "my saved" items puts the bookmarks first. A question that names
one kind of item ("대회", "hackathon"; "기사", "article": the rules' kind words) ranks the items of
that kind higher, saved ones included: each collection's ranks are its own, so without it the best
of an unasked collection stood level with the best of the asked one. A question about who won a
contest or how it turned out ("별밭 게임잼 2026 우승작 뭐였지?", the rules' [results]) names no kind
by its contest word: the results are reported in articles as often as in the contest's own page;
nor does one that uses a contest word as a topic ("CTF 관련된 거", "anything about the hackathon").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from chatbot_api.domain.routing import Rules, default_rules, matches, readable
from chatbot_api.domain.time_words import names_dates


@dataclass(frozen=True)
class QueryIntent:
    wants_recent: bool = False
    wants_ended: bool = False
    wants_ongoing: bool = False
    wants_upcoming: bool = False
    wants_saved: bool = False
    asked_kind: str | None = None  # "CONTEST" or "NEWS" (a bookmark's item_type) when one is named
    # asks which items there are ("해커톤 있어?", "지난달 보안 뉴스"), not about one item
    asks_for_list: bool = False
    asks_results: bool = False  # who won a contest or how it turned out (the rules' [results])

    def preferred_statuses(self) -> frozenset[str]:
        """The contest statuses the question asks for (empty: no preference)."""
        wanted = {"ENDED"} if self.wants_ended else set()
        wanted |= {"ONGOING"} if self.wants_ongoing else set()
        wanted |= {"UPCOMING"} if self.wants_upcoming else set()
        return frozenset(wanted)


def read_intent(query: str, rules: Rules | None = None) -> QueryIntent:
    """The time and ownership words of `query`, from the same vocabulary routing reads."""
    return _intent(query) if rules is None else _read(query, rules)


@lru_cache(maxsize=1024)
def _intent(query: str) -> QueryIntent:  # each collection's search of a question reads it
    return _read(query, default_rules())


def _read(query: str, r: Rules) -> QueryIntent:
    text = readable(query)
    # who won a contest, or how it turned out: its results are articles as often as the contest
    results = matches(r.results, text)
    # or a contest word used as a topic ("CTF 관련된 거"): what is said about it is news as often
    topic = matches(r.kind_topics, text) and not matches(r.contest_as_such, text)
    contest = matches(r.contest_kind, text) and not results and not topic
    news = matches(r.news_kind, text)
    return QueryIntent(
        wants_recent=matches(r.latest, text),
        wants_ended=matches(r.ended, text),
        wants_ongoing=matches(r.ongoing, text),
        wants_upcoming=matches(r.upcoming, text),
        wants_saved=matches(r.bookmarks, text),
        asked_kind="CONTEST" if contest and not news else "NEWS" if news and not contest else None,
        asks_for_list=matches(r.lookups, text) or names_dates(query),
        asks_results=results,
    )
