"""The published verified answers in chatbot-api's memory, kept fresh from the read model.

query-sync writes one document per phrasing into `verified_answers` (its embedding, the answer's
state, `projected_at`). This index loads them at start and then, every `refresh_seconds` (0.5 s),
reads the documents projected since its previous read (two seconds of overlap, so a write that
commits late is not missed): a change, a deletion or a new answer is served within a second of
its projection. The validity window is checked at match time, so an answer stops being served
the moment it expires. It also keeps the vocabulary of catalog names (the terms of contest and
news titles) for the naming rule of chatbot_api.verified.match, following the catalog's
`projected_at` the same way every 5 s (a name stays once seen: a stale name only makes matching
stricter; a name not seen yet is still caught when it looks like one, terms.name_hints).

A check costs one matrix-vector product over the phrasings of the question's script and, for the
phrasings above the cosine, the rules; the question's embedding is the one retrieval uses anyway
(MemoEmbedder). With no published answer there is nothing to compute.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime, timedelta
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.language import korean
from chatbot_api.retrieval.question_bank import QuestionBank
from chatbot_api.verified.match import (
    SUGGEST_COSINE,
    Answer,
    Match,
    Phrasing,
    Published,
    Question,
    Verdict,
    assess,
    phrasing,
)
from techai_shared.clock import Clock, utcnow
from techai_shared.embeddings import Embedder
from techai_shared.search_indexes import VERIFIED_ANSWERS
from techai_shared.tasks import cancel_and_wait

logger = logging.getLogger(__name__)

OVERLAP = timedelta(seconds=2)
_FIELDS = {"_id": 1, "answer_id": 1, "embedding_text": 1, "embedding_vector": 1,
           "embedding_model": 1, "answer": 1, "sources": 1, "status": 1, "valid_from": 1,
           "valid_until": 1, "is_deleted": 1}


def _utc(value: datetime | None) -> datetime | None:
    if value is None:
        return None
    return value if value.tzinfo else value.replace(tzinfo=UTC)


class VerifiedAnswers:
    def __init__(self, db: AsyncDatabase[dict[str, Any]], embedder: Embedder,
                 min_cosine: float | None, *, suggest_cosine: float | None = None,
                 bank: QuestionBank | None = None, clock: Clock = utcnow,
                 refresh_seconds: float = 0.5, names_every: int = 10) -> None:
        self._docs = db[VERIFIED_ANSWERS]
        self._catalog = (db["contests"], db["news_articles"])
        self._embedder = embedder
        self._bank = bank  # its general questions keep suggestions from unrelated questions
        self.min_cosine = min_cosine
        # answers this close are suggested when not served; never looser than served
        self.suggest_cosine = min(min_cosine, suggest_cosine if suggest_cosine is not None
                                  else SUGGEST_COSINE.get(embedder.model_name, min_cosine)
                                  ) if min_cosine is not None else None
        self._clock = clock
        self._refresh_seconds = refresh_seconds
        self._names_every = names_every  # refreshes of the answers per refresh of the names
        self._rows: dict[str, dict[str, Any]] = {}  # document id -> live, published phrasing doc
        self._phrasings: list[Phrasing] = []
        self._published = Published({}, {}, {}, {}, {})
        self._text_terms: dict[str, tuple[str, frozenset[str]]] = {}  # answer id -> (text, terms)
        self._matrix = np.zeros((0, embedder.dimensions), dtype=np.float32)
        self._names: frozenset[str] = frozenset()
        self._since: datetime | None = None
        self._names_since: datetime | None = None
        self._task: asyncio.Task[None] | None = None
        self.ready = False

    @property
    def enabled(self) -> bool:
        return self.min_cosine is not None

    def __len__(self) -> int:
        return len(self._published.answers)

    # -- lifecycle ------------------------------------------------------------------------------

    def start(self) -> None:
        if self.enabled and self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run(), name="verified-answers")

    async def close(self) -> None:
        await cancel_and_wait(self._task)
        if self._bank is not None:
            await self._bank.close()
        self._task = None

    async def _run(self) -> None:
        await asyncio.to_thread(korean.warm_up)
        if self._bank is not None:
            self._bank.start()  # shipped vectors: nothing to embed for the bundled model
        rounds = 0
        while True:
            try:
                if rounds % self._names_every == 0:
                    await self.refresh_names()
                rounds += 1
                await self.refresh()
                self.ready = True
            except Exception as exc:  # MongoDB away: keep serving what is loaded, retry
                logger.warning("verified answers not refreshed: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(self._refresh_seconds)

    # -- loading --------------------------------------------------------------------------------

    async def refresh(self) -> int:
        """Read the phrasings projected since the previous read (all of them the first time);
        returns how many documents were read."""
        started = self._clock()
        query: dict[str, Any] = {} if self._since is None else {
            "projected_at": {"$gte": self._since - OVERLAP}}
        docs = [d async for d in self._docs.find(query, _FIELDS)]
        changed = False
        for doc in docs:
            live = (not doc.get("is_deleted") and doc.get("status") == "published"
                    and doc.get("embedding_model") == self._embedder.model_name
                    and len(doc.get("embedding_vector") or []) == self._embedder.dimensions)
            if live and self._rows.get(doc["_id"]) != doc:
                self._rows[doc["_id"]] = doc
                changed = True
            elif not live and self._rows.pop(doc["_id"], None) is not None:
                changed = True
        if changed or self._since is None:
            await asyncio.to_thread(self._rebuild)
        self._since = started
        return len(docs)

    def _rebuild(self) -> None:
        rows = list(self._rows.values())
        phrasings = [phrasing(r["answer_id"], r["embedding_text"], korean.content_terms)
                     for r in rows]
        answers = {r["answer_id"]: Answer(r["answer_id"], r["answer"], tuple(r.get("sources") or ()),
                                          _utc(r.get("valid_from")), _utc(r.get("valid_until")))
                   for r in rows}
        for answer_id, answer in answers.items():  # an answer's text is analysed once per change
            if self._text_terms.get(answer_id, ("", frozenset()))[0] != answer.answer:
                self._text_terms[answer_id] = (answer.answer, korean.content_terms(answer.answer))
        self._text_terms = {a: t for a, t in self._text_terms.items() if a in answers}
        published = Published.of(answers, phrasings,
                                 {a: terms for a, (_, terms) in self._text_terms.items()})
        matrix = (np.asarray([r["embedding_vector"] for r in rows], dtype=np.float32) if rows
                  else np.zeros((0, self._embedder.dimensions), dtype=np.float32))
        # one assignment each, so a match running meanwhile sees the old or the new state
        self._phrasings, self._published, self._matrix = phrasings, published, matrix

    async def refresh_names(self) -> None:
        """Add the terms of the titles of the contests and news articles projected since the
        previous read (all of them the first time)."""
        started = self._clock()
        query: dict[str, Any] = {} if self._names_since is None else {
            "projected_at": {"$gte": self._names_since - OVERLAP}}
        titles = [doc.get("title") or "" for collection in self._catalog
                  async for doc in collection.find(query, {"title": 1, "_id": 0})]
        if titles:
            self._names = self._names | await asyncio.to_thread(_title_terms, titles)
        self._names_since = started

    # -- matching -------------------------------------------------------------------------------

    async def match(self, question: str) -> Match | None:
        """The verified answer to serve for `question`, or None."""
        return (await self.assess(question)).match

    async def assess(self, question: str) -> Verdict:
        """The verified answer to serve for `question`, or the answers close to it."""
        phrasings, published, matrix = self._phrasings, self._published, self._matrix
        if not published.answers or self.min_cosine is None or self.suggest_cosine is None:
            return Verdict()
        vector = np.asarray(await self._embedder.embed_query(question), dtype=np.float32)
        cosines = matrix @ vector
        candidates = [(phrasings[i], float(cosines[i]))
                      for i in np.flatnonzero(cosines >= self.suggest_cosine)]
        if not candidates:
            return Verdict()
        asked = Question(question, korean.content_terms(question), korean.name_hints(question))
        general = self._bank.closest_general(vector) if self._bank is not None else None
        return assess(asked, candidates, published, self._names, self.min_cosine,
                      self.suggest_cosine, self._clock(), general=general)


def _title_terms(titles: list[str]) -> frozenset[str]:
    found: set[str] = set()
    for title in titles:
        found |= korean.analyse(title)
    return frozenset(found)
