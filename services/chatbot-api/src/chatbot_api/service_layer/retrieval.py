"""What the catalog says about a question: the hits for a route, with the conversation's memory.

Order of preference: an item named by id or quoted title; for a follow-up (a question the router
marks as referring back, or one whose embedding is close to the previous question's), the previous answer's
items (the one an ordinal picks, or those still similar enough to the new question, in the
previous answer's order), then a search for the previous question and this one together; else a
fresh search over the collections the route allows. A failure of embedding or search never fails
the request: it is logged and counted, and the answer goes on without the catalog.
"""

from __future__ import annotations

import dataclasses
import logging
from collections import OrderedDict
from collections.abc import Sequence
from datetime import datetime, timedelta
from typing import Protocol

from prometheus_client import Counter

from chatbot_api.domain.routing import Route, default_rules, matches, readable
from chatbot_api.domain.time_words import Window, read_windows
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.model import (
    BOOKMARK_ITEM_TYPE,
    Collection,
    ItemRef,
    Retriever,
    SearchFilters,
    SearchHit,
    collection_of_id,
    cosine,
)
from chatbot_api.service_layer.ports import Found, Previous
from techai_shared.clock import Clock, utcnow
from techai_shared.embeddings import Embedder

logger = logging.getLogger(__name__)

RETRIEVAL_FAILURES = Counter("chatbot_retrieval_failures_total",
                             "Questions answered without the catalog because retrieval failed")


def previous_refs(previous: Previous) -> list[ItemRef]:
    """The items the previous answer cited, in its order (a malformed stored source is skipped)."""
    refs: list[ItemRef] = []
    for source in previous.sources:
        try:
            refs.append((Collection(source["collection"]), str(source["documentId"])))
        except (KeyError, ValueError):
            continue
    return refs


class MemoEmbedder:
    """An Embedder that remembers the vectors of the latest queries: the finder and the retriever
    both need the question's vector, and one embedding per question is enough."""

    def __init__(self, inner: Embedder, size: int = 256) -> None:
        self._inner = inner
        self.model_name = inner.model_name
        self.dimensions = inner.dimensions
        self._size = size
        self._vectors: OrderedDict[str, list[float]] = OrderedDict()

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._inner.embed_passages(texts)

    async def embed_query(self, text: str) -> list[float]:
        if text in self._vectors:
            self._vectors.move_to_end(text)
            return self._vectors[text]
        vector = await self._inner.embed_query(text)
        self._vectors[text] = vector
        if len(self._vectors) > self._size:
            self._vectors.popitem(last=False)
        return vector

    async def warm_up(self) -> None:
        await self._inner.warm_up()


class Lookup(Protocol):
    async def fetch(self, refs: Sequence[ItemRef], user_id: str,
                    query_vector: Sequence[float] | None = None) -> list[SearchHit]: ...

    async def by_title(self, title: str, user_id: str, collections: Sequence[Collection],
                       query_vector: Sequence[float] | None = None) -> list[SearchHit]: ...


class Gate(Protocol):
    async def passes(self, question: str, vector: Sequence[float],
                     collections: Sequence[Collection] = ()) -> bool: ...


class CatalogFinder:
    def __init__(self, retriever: Retriever, lookup: Lookup, embedder: Embedder,
                 similar_question_cosine: float | None = None, gate: Gate | None = None,
                 clock: Clock = utcnow) -> None:
        self._retriever = retriever
        self._clock = clock  # what a question's time words mean ("다음 달") depends on the day
        self._lookup = lookup
        self._embedder = embedder
        self._gate = gate
        self._similar = (default_rules().similar_question_cosine if similar_question_cosine is None
                         else similar_question_cosine)

    async def find(self, question: str, user_id: str, route: Route, previous: Previous | None,
                   max_results: int, min_score: float) -> Found:
        """The hits to answer `question` from (see the module docstring)."""
        try:
            return await self._find(question, user_id, route, previous, max_results, min_score)
        except Exception as exc:  # any provider or store failure: answer without it
            RETRIEVAL_FAILURES.inc()
            logger.warning("retrieval failed, answering without the catalog: %s: %s",
                           type(exc).__name__, exc)
            return Found([], failed=True, how="none")

    async def items(self, item_ids: Sequence[str], question: str) -> list[SearchHit]:
        """The live contests and news articles with these public ids, in that order (an id without
        a c-/n- prefix is looked up in both), scored against the question."""
        refs: list[ItemRef] = []
        for item_id in item_ids:
            known = collection_of_id(item_id)
            refs += ([(known, item_id)] if known in (Collection.CONTESTS, Collection.NEWS)
                     else [(Collection.CONTESTS, item_id), (Collection.NEWS, item_id)])
        if not refs:
            return []
        vector = await self._embedder.embed_query(question)
        return await self._lookup.fetch(refs, "", vector)

    async def _find(self, question: str, user_id: str, route: Route, previous: Previous | None,
                    max_results: int, min_score: float) -> Found:
        vector = await self._embedder.embed_query(question)
        named = await self._named(question, user_id, route, vector)
        if named:
            return Found(named[:max_results], how="explicit")
        if (previous is not None and previous_refs(previous)
                and await self._continues(route, previous, vector)):
            earlier = await self._earlier(user_id, route, previous, vector, min_score)
            if earlier:
                return Found(earlier[:max_results], how="follow-up")
            hits = await self._search(f"{previous.question} {question}", user_id, route,
                                      max_results, min_score)
            return Found(hits, how="follow-up-search")
        if (self._gate is not None and route.collections
                and not await self._gate.passes(question, vector, route.collections)):
            return Found([], how="outside")
        filters, window = dated_search(question, self._clock(), route.collections)
        if window is not None:  # dates name when; a kind named with them, what
            route = dataclasses.replace(route, collections=of_kind_asked(
                question, route.collections, by_deadline=filters.by_deadline))
        if route.asks_bookmarks and (kind := read_intent(question).asked_kind):
            filters = dataclasses.replace(filters, bookmark_kind=BOOKMARK_ITEM_TYPE[kind])
        hits = await self._search(question, user_id, route, max_results, min_score, vector,
                                  filters)
        return Found(hits, window=window)

    async def _continues(self, route: Route, previous: Previous, vector: Sequence[float]) -> bool:
        """Whether the question goes on with the previous answer's items."""
        if route.follow_up:
            return True
        if route.reset or not previous.question.strip():
            return False
        earlier = await self._embedder.embed_query(previous.question)
        return cosine(vector, earlier) >= self._similar

    async def _named(self, question: str, user_id: str, route: Route,
                     vector: Sequence[float]) -> list[SearchHit]:
        refs = [(c, i) for i in route.explicit_ids if (c := collection_of_id(i)) is not None]
        hits = await self._lookup.fetch(refs, user_id, vector) if refs else []
        for title in route.quoted_titles:
            hits += await self._lookup.by_title(title, user_id, route.collections, vector)
        return hits

    async def _earlier(self, user_id: str, route: Route, previous: Previous,
                       vector: Sequence[float], min_score: float) -> list[SearchHit]:
        refs = previous_refs(previous)
        if route.ordinal is not None and route.ordinal <= len(refs):
            return await self._lookup.fetch([refs[route.ordinal - 1]], user_id, vector)
        hits = await self._lookup.fetch(refs, user_id, vector)
        return [h for h in hits if h.score >= min_score]

    async def _search(self, query: str, user_id: str, route: Route, max_results: int,
                      min_score: float, vector: Sequence[float] | None = None,
                      filters: SearchFilters | None = None) -> list[SearchHit]:
        """A search for `query`; `vector` is its embedding when the finder has it already."""
        if not route.collections:
            return []
        return await self._retriever.search(query, user_id, route.collections, max_results,
                                            min_score, filters or SearchFilters(),
                                            query_vector=vector)


def of_kind_asked(question: str, collections: Sequence[Collection],
                  by_deadline: bool = False) -> tuple[Collection, ...]:
    """`collections` without the catalog collection of the kind a dated question does not ask
    for: "이번 주 마감인 대회" cites no article of this week, "어제 올라온 뉴스" no contest running
    yesterday; a question by deadline about contests asks about contests (an article has no
    deadline: "이번주 마감인데 아직 접수 가능한 거 있음?"), and one that also asks for news or who
    won searches both ("작년에 끝난 해커톤 우승팀", "이번 주 마감 소식"); one about something else
    that ended ("지난주 끝난 WWDC에서 발표된 거", "서비스 종료한 클라우드") is not about contests
    at all. The user's bookmarks stay (they are searched by their item's kind). Unchanged when the
    question names both kinds or neither, or when nothing else would be left."""
    intent = read_intent(question)
    kind = intent.asked_kind
    if by_deadline:
        rules, text = default_rules(), readable(question)
        if intent.asks_results or matches(rules.news, text):
            kind = None
        elif kind == "CONTEST" or matches(rules.contest, text):
            kind = "CONTEST"
    other = {"CONTEST": Collection.NEWS, "NEWS": Collection.CONTESTS}.get(kind or "")
    kept = tuple(c for c in collections if c is not other)
    return kept if kept else tuple(collections)


def dated_search(question: str, now: datetime, collections: Sequence[Collection]
                 ) -> tuple[SearchFilters, Window | None]:
    """The pre-filters of the dates a question names, and the window to name if nothing falls
    in it (None: no dates). Contests by period (or deadline), news by publication; bookmarks are
    the user's own items, searched whatever their dates.

    A window still to come holds no article: it filters news out of a question about contests
    ("다음 달 해커톤"), but in any other it says what an article is about, not when it appeared
    ("테세라 T9 출하가 내년으로 밀렸다던데"), and news are searched without it."""
    rules, text = default_rules(), readable(question)
    windows = read_windows(question, now, past=matches(rules.ended, text))
    if windows is None:
        return SearchFilters(), None
    news = windows.news
    about_contests = matches(rules.contest, text)
    dated_news = news.start <= now or about_contests
    filters = SearchFilters(
        contest_window=(windows.contests.start, windows.contests.end),
        by_deadline=windows.by_deadline,
        by_start=windows.by_start,
        published_after=news.start if dated_news else None,
        published_before=news.end - timedelta(microseconds=1) if dated_news else None)
    if Collection.CONTESTS in collections:
        return filters, windows.contests
    return filters, news if dated_news else None
