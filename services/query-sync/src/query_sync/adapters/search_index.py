"""The conversation search index (techai_shared.conversation.search), kept from the read model.

The conversation projector marks what it writes: every message document it inserts and every
session document it upserts carries `search_pending: true`. The indexer reads marked documents in
batches (an index on the mark), writes their postings and clears the mark, the session's on the
version it read (a newer upsert marks the session again). So the index is derived from MongoDB
alone: a broker that forgets its offsets (Tansu's memory storage on a restart of `make run`)
cannot leave it behind, a crash between the postings and the unmarking writes the same postings
again (`$addToSet`, `$set`: idempotent), and the first start after an upgrade marks every
existing document once (a state document records that it did).

The projection comes first: while it is applying records the indexer waits (Deferral), at most
SYNC_SEARCH_MAX_DEFERRAL_SECONDS at a time, so a burst of events is projected at the projection's
own pace and indexed after.

- a message: its words' postings list its id under its session;
- a live session: its title's words' postings list the session (`t`), once per title;
- a deleted session: it is removed from every posting of its bucket.

A posting outlives a title that changed, a session that expired by TTL, a message removed with
its session by a replica racing the prune; the search checks each session it returns against
conversation_sessions, so those never show. Postings expire with the messages they list (the
messages TTL after their last update).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from datetime import datetime
from typing import Any

from prometheus_client import Counter
from pymongo import UpdateOne
from pymongo.asynchronous.database import AsyncDatabase

from query_sync.adapters.conversations import MESSAGES, SESSIONS
from query_sync.adapters.indexes import IndexSpec, ensure_indexes
from query_sync.documents import SEARCH_PENDING as PENDING
from techai_shared import korean
from techai_shared.clock import Clock, utcnow
from techai_shared.conversation.search import (
    POSTINGS,
    bucket_of,
    field_of,
    message_entries,
    parse_messages,
    parse_titles,
    posting_id,
    shard_of,
    title_entries,
)

logger = logging.getLogger(__name__)

STATE_ID = "~state"
STATE_VERSION = 1  # raise it to re-index everything once (a change of the analyser)

INDEXED = Counter("sync_search_indexed_total",
                  "Documents the conversation search index was brought up to date with", ["kind"])
DEFERRED = Counter("sync_search_deferred_total",
                   "Intervals the search indexer waited because the projection was busy")


def posting_indexes(ttl_seconds: int) -> list[IndexSpec]:
    return [
        IndexSpec("ix_user_shard", (("user_id", 1), ("shard", 1))),
        IndexSpec("ix_user_bucket", (("user_id", 1), ("bucket", 1))),
        IndexSpec("ttl_updated_at", (("updated_at", 1),), expire_after_seconds=ttl_seconds),
    ]


PENDING_INDEX = IndexSpec("ix_search_pending", ((PENDING, 1),))


class Postings:
    """The updates of one batch, one per posting document."""

    def __init__(self, now: datetime) -> None:
        self._now = now
        # (user, bucket, shard) -> word -> session -> message ids
        self._words: dict[tuple[str, str, int], dict[str, dict[str, set[str]]]] = defaultdict(
            lambda: defaultdict(lambda: defaultdict(set)))
        self._titles: dict[tuple[str, str, int], dict[str, set[str]]] = defaultdict(
            lambda: defaultdict(set))

    def message(self, user_id: str, session_id: str, message_id: str, terms: Iterable[str]) -> None:
        bucket = bucket_of(session_id)
        for term in terms:
            self._words[(user_id, bucket, shard_of(term))][term][session_id].add(message_id)

    def title(self, user_id: str, session_id: str, terms: Iterable[str]) -> None:
        bucket = bucket_of(session_id)
        for term in terms:
            self._titles[(user_id, bucket, shard_of(term))][term].add(session_id)

    def _keys(self) -> list[tuple[str, str, int]]:
        return sorted(set(self._words) | set(self._titles))

    def documents(self) -> list[dict[str, Any]]:
        """The posting documents these updates make in an empty collection (for bulk loads; a
        test holds them equal to what requests() writes)."""
        out = []
        for key in self._keys():
            user_id, bucket, shard = key
            doc: dict[str, Any] = {"_id": posting_id(user_id, bucket, shard), "user_id": user_id,
                                   "bucket": bucket, "shard": shard, "updated_at": self._now}
            if key in self._words:
                doc["w"] = {field_of(w): message_entries(sessions)
                            for w, sessions in sorted(self._words[key].items())}
            if key in self._titles:
                doc["t"] = {field_of(w): title_entries(sids)
                            for w, sids in sorted(self._titles[key].items())}
            out.append(doc)
        return out

    def requests(self) -> list[UpdateOne]:
        """One upsert per document: a pipeline that appends each word's new entries to its
        string (idempotent enough: an entry appended twice is read once)."""
        out = []
        for key in self._keys():
            user_id, bucket, shard = key
            fields: dict[str, Any] = {"user_id": user_id, "bucket": bucket, "shard": shard,
                                      "updated_at": self._now}
            for part, entries in (("w", {w: message_entries(s)
                                         for w, s in self._words.get(key, {}).items()}),
                                  ("t", {w: title_entries(s)
                                         for w, s in self._titles.get(key, {}).items()})):
                for word, text in sorted(entries.items()):
                    path = f"{part}.{field_of(word)}"
                    fields[path] = {"$concat": [{"$ifNull": [f"${path}", ""]}, text]}
            out.append(UpdateOne({"_id": posting_id(user_id, bucket, shard)}, [{"$set": fields}],
                                 upsert=True))
        return out


class Deferral:
    """Whether to put indexing off now: while `busy()` says the projection is at work, for at most
    `max_seconds` in a row (then one batch goes ahead, and the count starts again), so a backlog
    of projection is never slowed by the index and the index never waits for ever."""

    def __init__(self, busy: Callable[[], bool], max_seconds: float,
                 monotonic: Callable[[], float] = time.monotonic) -> None:
        self._busy = busy
        self._max = max_seconds
        self._monotonic = monotonic
        self._since: float | None = None

    def now(self) -> bool:
        if not self._max or not self._busy():
            self._since = None
            return False
        now = self._monotonic()
        if self._since is None:
            self._since = now
        if now - self._since < self._max:
            return True
        self._since = None  # deferred long enough: this batch goes ahead
        return False


class SearchIndexer:
    """Brings the search index up to date with the marked documents; see the module docstring."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], *, ttl_seconds: int,
                 batch_size: int = 500, interval_seconds: float = 1.0,
                 clock: Clock = utcnow, deferral: Deferral | None = None) -> None:
        self._db = db
        self._postings = db[POSTINGS]
        self._messages = db[MESSAGES]
        self._sessions = db[SESSIONS]
        self._ttl = ttl_seconds
        self.batch_size = batch_size
        self._interval = interval_seconds
        self._clock = clock
        self._deferral = deferral

    async def prepare(self) -> None:
        """The indexes, and on the first start (or a new STATE_VERSION) every document marked."""
        await ensure_indexes(self._postings, posting_indexes(self._ttl))
        await ensure_indexes(self._messages, [PENDING_INDEX])
        await ensure_indexes(self._sessions, [PENDING_INDEX])
        state = await self._postings.find_one({"_id": STATE_ID})
        if state is None or state.get("version") != STATE_VERSION:
            marked = await self._messages.update_many({"role": {"$exists": True}},
                                                      {"$set": {PENDING: True}})
            await self._sessions.update_many({}, {"$set": {PENDING: True}})
            await self._postings.update_one({"_id": STATE_ID}, {"$set": {"version": STATE_VERSION}},
                                            upsert=True)
            logger.info("search index: %d messages marked for (re)indexing", marked.modified_count)

    async def run_once(self) -> int:
        """One batch of marked messages, then one of marked sessions; how many were handled."""
        return await self._index_messages() + await self._index_sessions()

    async def run(self, stop: asyncio.Event) -> None:
        """Index until `stop` is set: batch after batch while there is a backlog, else every
        interval, but not while the deferral says the projection comes first. A failure (MongoDB
        away) is logged and tried again after the interval."""
        await self._until_prepared(stop)
        while not stop.is_set():
            pause = self._interval
            try:
                if self._deferral is not None and self._deferral.now():
                    DEFERRED.inc()
                elif await self.run_once() >= self.batch_size:
                    continue  # a backlog: the next batch at once
            except Exception as exc:
                logger.warning("search indexing failed (%s: %s); trying again", type(exc).__name__,
                               exc)
                pause = max(self._interval, 5.0)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), timeout=pause)

    async def _until_prepared(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            try:
                await self.prepare()
                return
            except Exception:
                logger.exception("search index preparation failed; trying again")
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(stop.wait(), timeout=max(self._interval, 5.0))

    async def _index_messages(self) -> int:
        docs = await self._messages.find(
            {PENDING: True}, {"message_id": 1, "session_id": 1, "user_id": 1, "content": 1, "_id": 0},
            limit=self.batch_size).to_list()
        if not docs:
            return 0
        terms = await asyncio.to_thread(lambda: [korean.index_terms(d.get("content") or "")
                                                 for d in docs])
        postings = Postings(self._clock())
        for doc, words in zip(docs, terms, strict=True):
            postings.message(str(doc["user_id"]), doc["session_id"], doc["message_id"], words)
        await self._write(postings)
        await self._messages.update_many({"message_id": {"$in": [d["message_id"] for d in docs]}},
                                         {"$unset": {PENDING: ""}})
        INDEXED.labels("message").inc(len(docs))
        return len(docs)

    async def _index_sessions(self) -> int:
        docs = await self._sessions.find(
            {PENDING: True}, {"session_id": 1, "user_id": 1, "title": 1, "is_deleted": 1,
                              "version": 1, "search_title": 1, "_id": 0},
            limit=self.batch_size).to_list()
        if not docs:
            return 0
        postings = Postings(self._clock())
        titled = [d for d in docs if not d.get("is_deleted") and d.get("title")
                  and d.get("title") != d.get("search_title")]
        terms = await asyncio.to_thread(lambda: [korean.index_terms(d["title"]) for d in titled])
        for doc, words in zip(titled, terms, strict=True):
            postings.title(str(doc["user_id"]), doc["session_id"], words)
        await self._write(postings)
        for doc in docs:
            if doc.get("is_deleted"):
                await self._prune(str(doc["user_id"]), doc["session_id"])
        await self._sessions.bulk_write([
            UpdateOne({"session_id": d["session_id"], "version": d["version"]},
                      {"$unset": {PENDING: ""}, "$set": {"search_title": d.get("title")}})
            for d in docs], ordered=False)
        INDEXED.labels("session").inc(len(docs))
        return len(docs)

    async def _write(self, postings: Postings) -> None:
        requests = postings.requests()
        if requests:
            await self._postings.bulk_write(requests, ordered=False)

    async def _prune(self, user_id: str, session_id: str) -> None:
        """The session out of every posting document of its bucket (at most SHARDS)."""
        async for doc in self._postings.find({"user_id": user_id, "bucket": bucket_of(session_id)},
                                             {"w": 1, "t": 1}):
            rewritten: dict[str, str] = {}
            for word, text in (doc.get("w") or {}).items():
                if session_id in text:
                    rest = parse_messages(text)
                    rest.pop(session_id, None)
                    rewritten[f"w.{word}"] = message_entries(rest)
            for word, text in (doc.get("t") or {}).items():
                if session_id in text:
                    rewritten[f"t.{word}"] = title_entries(parse_titles(text) - {session_id})
            kept = {path: text for path, text in rewritten.items() if text}
            gone = {path: "" for path, text in rewritten.items() if not text}
            if rewritten:
                await self._postings.update_one(
                    {"_id": doc["_id"]}, {**({"$set": kept} if kept else {}),
                                          **({"$unset": gone} if gone else {})})
