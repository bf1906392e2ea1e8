"""The verified-answer check's cost per chat turn: chatbot-api's matcher (chatbot_api.verified)
holding `ANSWERS` published answers of two phrasings each, on distinct questions.

Two kinds of turn are timed, the question's embedding excluded (retrieval computes it anyway, and
the check reuses it):
- ordinary questions (the bench's distinct catalog questions), which match nothing: the cost every
  turn pays (`verified_check_p95_ms`, target 5 ms);
- paraphrases of published phrasings, which pass the cosine and go through the rules (Kiwi
  analysis, facets, names, foreign terms) and, when not served, the suggestions (the question
  bank's closest general question): the cost of a turn near a published answer.
"""

from __future__ import annotations

import json
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient

from chatbot_api.retrieval.question_bank import QuestionBank
from chatbot_api.verified.index import VerifiedAnswers
from chatbot_api.verified.match import MIN_COSINE
from devstack.bench.stack import log
from devstack.bench.stats import latency_summary
from query_sync.adapters.verified import VerifiedAnswerProjector
from techai_shared.embeddings import Embedder, Vector
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.events.verified import VerifiedAnswerPayload, public_id

ANSWERS = 200
DB = "bench_verified"


class _Known:
    """An embedder that already has the vectors of the measured questions (the turn's own
    embedding is not the check's cost)."""

    def __init__(self, inner: Embedder, vectors: dict[str, Vector]) -> None:
        self.model_name, self.dimensions = inner.model_name, inner.dimensions
        self._inner, self._vectors = inner, vectors

    async def embed_query(self, text: str) -> Vector:
        return self._vectors.get(text) or await self._inner.embed_query(text)

    async def embed_passages(self, texts: Sequence[str]) -> list[Vector]:
        return await self._inner.embed_passages(texts)

    async def warm_up(self) -> None:
        await self._inner.warm_up()


async def measure(client: AsyncMongoClient[dict[str, Any]], catalog_db: str, embedder: Embedder,
                  runs: int, questions: list[str], calibration: Path) -> dict[str, Any]:
    rows = [json.loads(line) for line in calibration.read_text(encoding="utf-8").splitlines() if line]
    db = client[DB]
    await client.drop_database(DB)
    projector = VerifiedAnswerProjector(db, embedder)
    await projector.prepare()
    now = datetime.now(UTC)
    started = time.perf_counter()
    for n in range(1, ANSWERS + 1):  # the calibration answers, then variants of them ("#n")
        row = rows[(n - 1) % len(rows)]
        suffix = "" if n <= len(rows) else f" {n}"
        payload = VerifiedAnswerPayload(id=public_id(n), status="published",
                                        questions=[q + suffix for q in row["questions"]][:2],
                                        answer=row["answer"], created_at=now, updated_at=now)
        await projector.apply(EventEnvelope(
            event_type=EventType.VERIFIED_ANSWER_UPSERTED,
            aggregate_type=AggregateType.VERIFIED_ANSWER, aggregate_id=payload.id, version=1,
            payload=payload.model_dump(mode="json", by_alias=True)))
    log(f"verified answers: {ANSWERS} projected in {time.perf_counter() - started:.1f} s")
    ordinary = questions[:100 * runs]
    paraphrases = [p for row in rows for p in row["paraphrases"]]
    vectors = {q: await embedder.embed_query(q) for q in ordinary + paraphrases}
    known = _Known(embedder, vectors)
    bank = QuestionBank.read(known)  # its general questions gate the suggestions, as in chat
    await bank.matrix()
    verified = VerifiedAnswers(db, known, MIN_COSINE.get(embedder.model_name, 0.86), bank=bank)
    verified._catalog = (client[catalog_db]["contests"], client[catalog_db]["news_articles"])
    await verified.refresh_names()
    await verified.refresh()
    await verified.match(paraphrases[0])  # Kiwi loads here, not in a measured turn
    result: dict[str, Any] = {"answers": ANSWERS, "phrasings": ANSWERS * 2, "ordinary": [],
                              "matching": []}
    per_run = len(ordinary) // runs
    for run in range(runs):
        samples, matched = [], []
        for question in ordinary[run * per_run:(run + 1) * per_run]:
            began = time.perf_counter()
            await verified.assess(question)
            samples.append((time.perf_counter() - began) * 1000)
        for question in paraphrases:
            began = time.perf_counter()
            await verified.assess(question)
            matched.append((time.perf_counter() - began) * 1000)
        result["ordinary"].append(latency_summary(samples))
        result["matching"].append(latency_summary(matched))
        log(f"verified check, run {run + 1}/{runs}: ordinary questions p95 "
            f"{result['ordinary'][-1]['p95']} ms, paraphrases p95 {result['matching'][-1]['p95']} ms")
    await client.drop_database(DB)
    return result
