"""The catalog as the relevance gate reads it, from the read model: the contests' and news
articles' vectors and words (retrieval/signals.py), re-read in the background."""

from __future__ import annotations

import asyncio
import hashlib
import logging
import time
from typing import Any

import numpy as np
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.retrieval.model import Collection
from chatbot_api.retrieval.signals import Digested, digest, spellings_in

logger = logging.getLogger(__name__)

# vectors per collection: the whole catalog up to this size, so the peak and the words meet the item
# asked about (a sample of 2,000 of 10,000 holds it one time in five)
BACKGROUND_SAMPLE = 20_000
BACKGROUND_REFRESH_SECONDS = 300.0
# A catalog this small is read whole in milliseconds, and is likely still being loaded (make seed):
# its sample follows it within seconds.
SMALL_CATALOG, SMALL_CATALOG_REFRESH_SECONDS = 1000, 10.0
_BACKGROUND = (Collection.CONTESTS, Collection.NEWS)
SAMPLE_READ_BATCH = 500  # ids per $in of the sample's read


def _stable_rank(document_id: str) -> bytes:
    """A document's place in the sample's order: a hash of its id, the same in every process."""
    return hashlib.blake2b(document_id.encode(), digest_size=8).digest()


class CatalogSample:
    """A sample of the catalog (contests and news embedded with the query's model), re-read every
    five minutes, every ten seconds while it is small: its vectors and keyword terms, which a
    question is compared with whatever the search then returns, and its name lexicon (sound key ->
    the words of the catalog with that key), through which a question's names find their spelling
    in the other script."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], model_name: str) -> None:
        self._db = db
        self.model_name = model_name
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._terms: list[frozenset[str]] = []
        self._lexicon: dict[str, set[str]] = {}
        self._known: dict[bytes, Digested] = {}  # digest of an embedding text -> its words
        self._read_at: float | None = None  # monotonic time of the last read, None before the first
        self._lock = asyncio.Lock()
        self._refreshing: asyncio.Task[None] | None = None

    async def sample(self) -> tuple[np.ndarray, list[frozenset[str]]]:
        """Unit vectors (one row per document) and each document's keyword terms. The first call
        reads the sample; later ones answer from the one held and, once it is due, re-read it in
        the background (a question never waits for a refresh: that was a 400 ms stall, at p95 of
        make bench's one-user catalog questions)."""
        if self._read_at is None:
            async with self._lock:
                if self._read_at is None:
                    await self._read()
            return self._matrix, self._terms
        every = (BACKGROUND_REFRESH_SECONDS if len(self._matrix) >= SMALL_CATALOG
                 else SMALL_CATALOG_REFRESH_SECONDS)
        due = time.monotonic() - self._read_at >= every
        if due and (self._refreshing is None or self._refreshing.done()):
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh())
        return self._matrix, self._terms

    async def _refresh(self) -> None:
        try:
            async with self._lock:
                await self._read()
        except Exception as exc:  # the sample held stays in use; tried again when next due
            self._read_at = time.monotonic()
            logger.warning("catalog sample not refreshed: %s", exc)

    async def _read(self) -> None:
        docs: list[dict[str, Any]] = []
        for collection in _BACKGROUND:
            docs += await self._sample_of(collection)
        # about 2 ms of CPU per new document, which holds the GIL: off the event loop, and only
        # for documents whose text is new (a refresh of an unchanged catalog reads no text again)
        self._matrix, self._terms, self._lexicon, self._known = await asyncio.to_thread(
            digest, docs, self._known)
        self._read_at = time.monotonic()

    async def _sample_of(self, collection: Collection) -> list[dict[str, Any]]:
        """A uniform sample of at most BACKGROUND_SAMPLE of the collection's documents: the
        ids are read in full (ids only), the sample is those with the smallest hash of their id,
        so it stays the same from one read to the next, takes each new item with the same chance
        as any other, and does not depend on the order documents were written in."""
        collection_docs = self._db[collection.value]
        query = {"embedding_model": self.model_name}
        ids = [d["document_id"] async for d in collection_docs.find(query, {"_id": 0,
                                                                           "document_id": 1})]
        if len(ids) > BACKGROUND_SAMPLE:
            ids = sorted(ids, key=_stable_rank)[:BACKGROUND_SAMPLE]
        docs: list[dict[str, Any]] = []
        for start in range(0, len(ids), SAMPLE_READ_BATCH):
            cursor = collection_docs.find(
                {**query, "document_id": {"$in": ids[start:start + SAMPLE_READ_BATCH]}},
                {"_id": 0, "embedding_vector": 1, "embedding_text": 1})
            docs += [d async for d in cursor if d.get("embedding_vector")]
        return docs

    async def spellings(self, question: str) -> list[str]:
        """The catalog's spellings, in the other script, of the names in `question` ("Payroute"
        gives 페이루트; "로그하버" gives LogHarbor), at most a few per name."""
        await self.sample()
        return spellings_in(self._lexicon, question)
