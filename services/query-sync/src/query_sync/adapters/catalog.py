"""The catalog projection: topics `<prefix>.contest|news|bookmark` -> contests, news_articles and
bookmarks in MongoDB, each document with its embedding (docs/architecture.md, The projection and Retrieval).

Idempotent and monotonic like the conversation projection:
- a document changes only through a conditional upsert on `version` (filter `version < v` on the
  unique `document_id`; the DuplicateKeyError of a miss means "stale event");
- a Deleted event removes the document, so nothing deleted is searchable and searches need no
  extra filter, and records the deletion's version in `catalog_tombstones` (unique per collection
  and document id). Tombstones are never removed: an older Upserted delivered later (a replay, a
  redelivery) sees one and is stale, and any order of the same events ends in the same state. An
  item re-created with a newer version is projected again (its version beats the tombstone's).
  Documents and tombstones carry `projected_at`, the time of the write: chatbot-api's in-memory
  catalog index follows both from a resume point.
- the vector is computed only when the embedding hash (model + text) differs from the stored
  document's; otherwise the stored vector is reused. Stale events never reach the embedder.
- an embedding failure raises EmbeddingFailed, an ordinary (non-transient) error: the consumer
  retries it sync_max_attempts times, then dead-letters the record and moves on.

apply_many() is apply() over consecutive events of one partition with the missing vectors computed
in batches of embedding_batch_size first; the consumer uses it when it can (see consumer.py).
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import DuplicateKeyError

from query_sync.adapters.indexes import IndexSpec, ensure_indexes
from query_sync.adapters.versioned import has_version, upsert_if_newer
from query_sync.catalog_documents import (
    CatalogKind,
    catalog_document,
    combine_vectors,
    embedding_hash,
    embedding_inputs,
)
from query_sync.documents import as_utc
from query_sync.errors import EmbeddingFailed, UnknownEvent
from query_sync.projection import Outcome
from techai_shared.clock import Clock, utcnow
from techai_shared.embeddings import Embedder, Vector
from techai_shared.events import SCHEMA_VERSION, EventEnvelope

logger = logging.getLogger(__name__)

TOMBSTONES = "catalog_tombstones"
_TOMBSTONE_INDEXES = [
    IndexSpec("uq_collection_document_id", (("collection", 1), ("document_id", 1)), unique=True),
    IndexSpec("ix_collection_projected_at", (("collection", 1), ("projected_at", 1))),
]


class CatalogProjector:
    """Projects the events of one catalog aggregate type; see the module docstring."""

    heavy = True  # embeds whole documents: the consumer projects cheaper topics first

    def __init__(
        self,
        db: AsyncDatabase[dict[str, Any]],
        kind: CatalogKind,
        embedder: Embedder,
        *,
        batch_size: int = 32,
        run_records: int | None = None,
        clock: Clock = utcnow,
    ) -> None:
        self.kind = kind
        self._items = db[kind.collection]
        self._tombstones = db[TOMBSTONES]
        self._embedder = embedder
        self._batch_size = batch_size
        # Records the consumer hands over at once (None: batch_size): each run is embedded before
        # the consumer may turn to another topic, so it bounds how long those wait.
        self.max_batch = run_records
        self._clock = clock

    async def prepare(self) -> None:
        """Create the indexes and report documents embedded with another model than ours."""
        await ensure_indexes(self._items, self.kind.indexes())
        await ensure_indexes(self._tombstones, _TOMBSTONE_INDEXES)
        await self.check_embedding_model()

    async def check_embedding_model(self) -> list[str]:
        """The other models found in the collection; logged as an error, since vectors of two
        models cannot be compared: a re-embed is required (python -m query_sync.entrypoints.reembed)."""
        others = [m for m in await self._items.distinct("embedding_model")
                  if m != self._embedder.model_name]
        if others:
            logger.error(
                "%s holds documents embedded with %s, but the configured model is %s: a re-embed is "
                "required (python -m query_sync.entrypoints.reembed) before searching it",
                self.kind.collection, ", ".join(map(str, others)), self._embedder.model_name,
            )
        return others

    async def reembed(self) -> int:
        """Re-embed, from their stored text, the documents of another model; returns how many.

        Walks the collection in _id order, so it ends even while the worker writes. A document
        changed meanwhile keeps the worker's write (the update is conditional on the version).
        """
        model, done, last_id = self._embedder.model_name, 0, None
        while True:
            query: dict[str, Any] = {"embedding_model": {"$ne": model}}
            if last_id is not None:
                query["_id"] = {"$gt": last_id}
            docs = await self._items.find(
                query, {"version": 1, "embedding_text": 1, "embedding_head": 1}
            ).sort("_id", 1).limit(self._batch_size).to_list()
            if not docs:
                return done
            vectors = await self._embed_documents([embedding_inputs(d) for d in docs])
            for doc, vector in zip(docs, vectors, strict=True):
                await self._items.update_one({"_id": doc["_id"], "version": doc["version"]}, {"$set": {
                    "embedding_vector": vector, "embedding_model": model,
                    "embedding_hash": embedding_hash(doc["embedding_text"], model, doc.get("embedding_head")),
                    "projected_at": as_utc(self._clock()),
                }})
            done, last_id = done + len(docs), docs[-1]["_id"]

    async def apply(self, event: EventEnvelope) -> Outcome:
        """Apply one catalog event; UnknownEvent for anything this projector does not own."""
        return (await self.apply_many([event]))[0]

    async def apply_many(self, events: Sequence[EventEnvelope]) -> list[Outcome]:
        """Apply events in order, embedding the texts that need it in batches first."""
        for event in events:
            self._check_owned(event)
        vectors = await self._embed_missing(events)
        return [await self._apply(event, vectors) for event in events]

    def _check_owned(self, event: EventEnvelope) -> None:
        kind = self.kind
        if event.aggregate_type is not kind.aggregate_type or event.event_type not in (
            kind.upserted, kind.deleted
        ):
            raise UnknownEvent(f"{event.aggregate_type.value}/{event.event_type.value} is not a "
                               f"{kind.aggregate_type.value} event")
        if event.schema_version != SCHEMA_VERSION:
            raise UnknownEvent(f"schemaVersion {event.schema_version} is not supported")

    async def _apply(self, event: EventEnvelope, vectors: dict[str, Vector]) -> Outcome:
        if event.event_type is self.kind.deleted:
            return await self._delete(event)
        return await self._upsert(event, vectors)

    # -- embedding ---------------------------------------------------------------------------

    async def _embed_missing(self, events: Sequence[EventEnvelope]) -> dict[str, Vector]:
        """hash -> vector for the upserts that are not stale and whose text is not stored yet."""
        pending: dict[str, list[str]] = {}  # hash -> texts, in first-seen order
        for event in events:
            if event.event_type is not self.kind.upserted:
                continue
            document = catalog_document(self.kind, self.kind.parse(event), self._embedder.model_name)
            if await self._needs_vector(event, document["embedding_hash"]):
                pending.setdefault(document["embedding_hash"], embedding_inputs(document))
        vectors: dict[str, Vector] = {}
        hashes = list(pending)
        for start in range(0, len(hashes), self._batch_size):
            chunk = hashes[start:start + self._batch_size]
            embedded = await self._embed_documents([pending[h] for h in chunk])
            vectors.update(zip(chunk, embedded, strict=True))
        return vectors

    async def _needs_vector(self, event: EventEnvelope, content_hash: str) -> bool:
        if await self._tombstone_version(event.aggregate_id) >= event.version:
            return False
        stored = await self._items.find_one(
            {"document_id": event.aggregate_id}, {"version": 1, "embedding_hash": 1}
        )
        if stored is None:
            return True
        return stored["version"] < event.version and stored.get("embedding_hash") != content_hash

    async def _embed_documents(self, inputs: list[list[str]]) -> list[Vector]:
        """One vector per document from its texts (catalog_documents.combine_vectors), all the
        texts of the batch embedded in one call."""
        vectors = await self._embed([text for texts in inputs for text in texts])
        combined: list[Vector] = []
        start = 0
        for texts in inputs:
            combined.append(combine_vectors(vectors[start:start + len(texts)]))
            start += len(texts)
        return combined

    async def _embed(self, texts: list[str]) -> list[Vector]:
        try:
            vectors = await self._embedder.embed_passages(texts)
        except Exception as exc:  # any provider failure: retried by the consumer, then DLQ
            raise EmbeddingFailed(f"{self._embedder.model_name}: {type(exc).__name__}: {exc}") from exc
        if len(vectors) != len(texts):
            raise EmbeddingFailed(f"{self._embedder.model_name} returned {len(vectors)} vectors "
                                  f"for {len(texts)} texts")
        return [[float(x) for x in vector] for vector in vectors]

    async def _vector_for(self, document: dict[str, Any], vectors: dict[str, Vector]) -> Vector:
        """The precomputed vector, the stored one when the text is unchanged, or a new one."""
        content_hash = document["embedding_hash"]
        if content_hash in vectors:
            return vectors[content_hash]
        stored = await self._items.find_one(
            {"document_id": document["document_id"], "embedding_hash": content_hash},
            {"embedding_vector": 1},
        )
        if stored is not None and stored.get("embedding_vector"):
            return list(stored["embedding_vector"])
        return (await self._embed_documents([embedding_inputs(document)]))[0]

    # -- writes ------------------------------------------------------------------------------

    async def _upsert(self, event: EventEnvelope, vectors: dict[str, Vector]) -> Outcome:
        if await self._tombstone_version(event.aggregate_id) >= event.version:
            return Outcome.STALE
        if await has_version(self._items, "document_id", event.aggregate_id, event.version):
            return Outcome.STALE  # checked before embedding: a replay costs no vectors
        document = catalog_document(self.kind, self.kind.parse(event), self._embedder.model_name)
        document["embedding_vector"] = await self._vector_for(document, vectors)
        document.update(version=event.version, event_occurred_at=as_utc(event.occurred_at),
                        projected_at=as_utc(self._clock()))
        outcome = await upsert_if_newer(
            self._items, "document_id", event.aggregate_id, event.version, document
        )
        await self._undo_if_deleted_meanwhile(event.aggregate_id)
        return outcome

    async def _undo_if_deleted_meanwhile(self, document_id: str) -> None:
        """A Deleted applied between our tombstone check and our write (two members during a
        rebalance) found nothing to delete; the version it recorded still wins."""
        deleted = await self._tombstone_version(document_id)
        if deleted:
            await self._items.delete_one({"document_id": document_id, "version": {"$lte": deleted}})

    async def _delete(self, event: EventEnvelope) -> Outcome:
        self.kind.parse(event)  # a malformed Deleted is poison too, not a silent deletion
        outcome = await self._record_tombstone(event)
        # Always, even when stale: a crash between the tombstone and this line heals on redelivery.
        await self._items.delete_one(
            {"document_id": event.aggregate_id, "version": {"$lt": event.version}}
        )
        return outcome

    async def _record_tombstone(self, event: EventEnvelope) -> Outcome:
        key = {"collection": self.kind.collection, "document_id": event.aggregate_id}
        try:
            await self._tombstones.update_one(
                {**key, "version": {"$lt": event.version}},
                {"$set": {**key, "version": event.version, "deleted_at": as_utc(event.occurred_at),
                          "projected_at": as_utc(self._clock())}},
                upsert=True,
            )
        except DuplicateKeyError:  # a tombstone with this version or a newer one is there
            return Outcome.STALE
        return Outcome.APPLIED

    async def _tombstone_version(self, document_id: str) -> int:
        found = await self._tombstones.find_one(
            {"collection": self.kind.collection, "document_id": document_id}, {"version": 1}
        )
        return int(found["version"]) if found is not None else 0

