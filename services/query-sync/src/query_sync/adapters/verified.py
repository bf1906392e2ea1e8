"""The verified answers' projection: topic `<prefix>.verified-answer` -> verified_answers, one
document per phrasing, each with the phrasing's embedding (docs/architecture.md, Verified answers).

A phrasing is embedded as a query (e5's "query: " side), since questions are matched against it.
Documents are keyed `<answer id>#<phrasing index>` and carry the answer's state, its `version`,
`is_deleted` and `projected_at` (the write time, which chatbot-api's matcher follows).

Idempotent and monotonic, like the catalog projection: an event at or below the highest version
stored for the answer is stale and changes nothing. An Upserted event writes its phrasings and
marks the answer's other phrasing documents deleted; a Deleted event marks every phrasing
document deleted (creating one tombstone when none exists, so an older Upserted delivered later
stays stale). A phrasing whose text and model are unchanged keeps its stored vector.
"""

from __future__ import annotations

import logging
from typing import Any

from pymongo import UpdateOne
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import BulkWriteError

from query_sync.adapters.indexes import IndexSpec, ensure_indexes
from query_sync.catalog_documents import embedding_hash
from query_sync.documents import as_utc
from query_sync.errors import EmbeddingFailed, InvalidPayload, UnknownEvent
from query_sync.projection import Outcome
from techai_shared.clock import Clock, utcnow
from techai_shared.embeddings import Embedder, Vector
from techai_shared.events import SCHEMA_VERSION, AggregateType, EventEnvelope, EventType
from techai_shared.events.verified import VerifiedAnswerPayload
from techai_shared.search_indexes import VERIFIED_ANSWERS

logger = logging.getLogger(__name__)

INDEXES = [
    IndexSpec("ix_answer_id", (("answer_id", 1), ("phrasing", 1))),
    IndexSpec("ix_projected_at", (("projected_at", 1),)),
]
DUPLICATE_KEY = 11000


def phrasing_id(answer_id: str, index: int) -> str:
    return f"{answer_id}#{index}"


class VerifiedAnswerProjector:
    def __init__(self, db: AsyncDatabase[dict[str, Any]], embedder: Embedder, *,
                 clock: Clock = utcnow) -> None:
        self._docs = db[VERIFIED_ANSWERS]
        self._embedder = embedder
        self._clock = clock

    async def prepare(self) -> None:
        await ensure_indexes(self._docs, INDEXES)

    async def apply(self, event: EventEnvelope) -> Outcome:
        if (event.aggregate_type is not AggregateType.VERIFIED_ANSWER or event.event_type not in
                (EventType.VERIFIED_ANSWER_UPSERTED, EventType.VERIFIED_ANSWER_DELETED)):
            raise UnknownEvent(f"{event.aggregate_type.value}/{event.event_type.value} is not a "
                               "verified-answer event")
        if event.schema_version != SCHEMA_VERSION:
            raise UnknownEvent(f"schemaVersion {event.schema_version} is not supported")
        answer = _parse(event)
        stored = {d["_id"]: d async for d in self._docs.find(
            {"answer_id": answer.id}, {"version": 1, "embedding_hash": 1, "embedding_vector": 1})}
        if any(d["version"] >= event.version for d in stored.values()):
            return Outcome.STALE
        deleted = (event.event_type is EventType.VERIFIED_ANSWER_DELETED
                   or answer.deleted_at is not None)
        now = as_utc(self._clock())
        writes: list[UpdateOne] = []
        live: set[str] = set()
        if not deleted:
            for i, question in enumerate(answer.questions):
                key = phrasing_id(answer.id, i)
                live.add(key)
                document = await self._document(answer, i, question, stored.get(key), event, now)
                writes.append(UpdateOne({"_id": key, "version": {"$lt": event.version}},
                                        {"$set": document}, upsert=True))
        tombstone = {"answer_id": answer.id, "is_deleted": True, "version": event.version,
                     "projected_at": now}
        for key in stored.keys() - live:
            writes.append(UpdateOne({"_id": key, "version": {"$lt": event.version}},
                                    {"$set": tombstone}))
        if deleted and not stored:  # a deletion seen first: leave a tombstone for the older events
            writes.append(UpdateOne({"_id": phrasing_id(answer.id, 0),
                                     "version": {"$lt": event.version}},
                                    {"$set": {**tombstone, "phrasing": 0}}, upsert=True))
        try:
            await self._docs.bulk_write(writes, ordered=False)
        except BulkWriteError as exc:  # a newer write of one of them won meanwhile
            if any(e.get("code") != DUPLICATE_KEY for e in exc.details.get("writeErrors", [])):
                raise
        return Outcome.APPLIED

    async def _document(self, answer: VerifiedAnswerPayload, index: int, question: str,
                        stored: dict[str, Any] | None, event: EventEnvelope, now: Any
                        ) -> dict[str, Any]:
        model = self._embedder.model_name
        content_hash = embedding_hash(question, model, "query")
        if stored is not None and stored.get("embedding_hash") == content_hash:
            vector: Vector = stored["embedding_vector"]
        else:
            vector = await self._embed(question)
        return {
            "answer_id": answer.id, "phrasing": index, "embedding_text": question,
            "embedding_vector": vector, "embedding_model": model, "embedding_hash": content_hash,
            "answer": answer.answer, "sources": list(answer.sources), "status": answer.status,
            "valid_from": answer.valid_from, "valid_until": answer.valid_until,
            "is_deleted": False, "version": event.version, "projected_at": now,
        }

    async def _embed(self, text: str) -> Vector:
        try:
            return [float(x) for x in await self._embedder.embed_query(text)]
        except Exception as exc:  # retried by the consumer, then dead-lettered
            raise EmbeddingFailed(f"{self._embedder.model_name}: {type(exc).__name__}: {exc}") from exc


def _parse(event: EventEnvelope) -> VerifiedAnswerPayload:
    try:
        payload = VerifiedAnswerPayload.model_validate(event.payload)
    except ValueError as exc:
        raise InvalidPayload(f"{event.event_type.value} payload: {exc}") from exc
    if payload.id != event.aggregate_id:
        raise InvalidPayload(f"payload id {payload.id!r} is not the aggregate id "
                             f"{event.aggregate_id!r}")
    return payload
