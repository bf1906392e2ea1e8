"""Session search at scale: 200,000 messages in MongoDB (SecantusDB), 2,000 sessions of one user
(20,000 messages) and the rest spread over 1,800 other users, with the search index
(techai_shared.conversation.search) the indexer would have written for them.

The conversations are made of the sample's own words: questions from the labelled query files,
answers of two catalog items each (title and description), sessions started over the last 80 days
(conversation_sessions expires a session 90 days after its last message).
The postings are built with the indexer's own code (query_sync.adapters.search_index.Postings,
whose documents a test holds equal to what its upserts write) and bulk-loaded, since indexing
200,000 messages one batch at a time would take the bench many minutes; the indexer's own
throughput is measured apart, on 1,000 new messages through SearchIndexer.run_once.

Timed: MongoReadModel.search_sessions for the heavy user with the query analysed (Kiwi), i.e.
GET /api/v1/chatbot/sessions/search without HTTP and auth: the user's most common words (in most
of the 2,000 sessions), words of middling and rare frequency, and whole questions the user asked
(several words, every one required), a page of 10.
"""

from __future__ import annotations

import json
import random
import time
import uuid
from collections import Counter
from datetime import UTC, datetime, timedelta
from functools import cache
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient
from pymongo.errors import BulkWriteError

from chatbot_api.adapters.read_model import MongoReadModel
from devstack.bench.stack import log
from devstack.bench.stats import latency_summary
from query_sync.adapters.conversations import MESSAGES, SESSIONS, ConversationProjector
from query_sync.adapters.search_index import Postings as IndexPostings
from query_sync.adapters.search_index import SearchIndexer
from techai_shared import korean
from techai_shared.conversation.search import POSTINGS, parse_messages, word_of

DB = "bench_search"
USER = "bench-heavy-user"
TOTAL_MESSAGES = 200_000
HEAVY_SESSIONS = 2_000
PER_SESSION = 10  # five exchanges
OTHER_USERS = 1_800
PAGE = 10
INDEXED_FOR_THROUGHPUT = 1_000
SPREAD_DAYS = 80  # sessions started over the last 80 days


def _uuid7(moment: datetime, rng: random.Random) -> str:
    ms = int(moment.timestamp() * 1000)
    value = (ms & ((1 << 48) - 1)) << 80 | rng.getrandbits(80)
    value = (value & ~(0xF << 76)) | (0x7 << 76)
    value = (value & ~(0x3 << 62)) | (0x2 << 62)
    return str(uuid.UUID(int=value))


def _texts(seed_dir: Path) -> tuple[list[str], list[str]]:
    """Questions (the labelled sets') and answer paragraphs (two catalog items each)."""
    questions = sorted({json.loads(line)["query"] for path in sorted(seed_dir.glob("queries-*.jsonl"))
                        for line in path.read_text(encoding="utf-8").splitlines() if line.strip()})
    items = []
    for name in ("contests.jsonl", "news_articles.jsonl"):
        for line in (seed_dir / name).read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                items.append(f"{row['title']}: {row.get('description') or row.get('summary') or ''}")
    rng = random.Random(11)
    answers = [f"찾은 항목은 다음과 같아요. 1. {rng.choice(items)} 2. {rng.choice(items)}"
               for _ in range(3_000)]
    return questions, answers


@cache
def _terms(text: str) -> frozenset[str]:
    return frozenset(korean.index_terms(text))


class _World:
    """The generated documents of every collection, and the heavy user's questions."""

    def __init__(self, questions: list[str], answers: list[str], now: datetime,
                 seed: int = 7) -> None:
        self.rng = random.Random(seed)
        self.now = now
        self.questions, self.answers = questions, answers
        self.messages: list[dict[str, Any]] = []
        self.sessions: list[dict[str, Any]] = []
        self.postings = IndexPostings(now)
        self.asked: list[str] = []

    def session(self, user: str) -> None:
        rng = self.rng
        # within the read model's TTL of idle sessions (90 days), so every session is live
        started = self.now - timedelta(seconds=rng.uniform(0, SPREAD_DAYS * 24 * 3600))
        sid = _uuid7(started, rng)
        parent = None
        path = []
        for n in range(PER_SESSION):
            role = "user" if n % 2 == 0 else "assistant"
            content = rng.choice(self.questions if role == "user" else self.answers)
            at = started + timedelta(seconds=20 * n)
            mid = _uuid7(at, rng)
            self.messages.append({
                "message_id": mid, "session_id": sid, "user_id": user, "role": role,
                "content": content, "sequence_number": n + 1, "token_count": len(content) // 2,
                "sources": [], "created_at": at, "parent_message_id": parent, "version": n + 2})
            self.postings.message(user, sid, mid, _terms(content))
            if user == USER and role == "user":
                self.asked.append(content)
            parent = mid
            path.append(mid)
        title = self.messages[-PER_SESSION]["content"][:40]
        self.postings.title(user, sid, _terms(title))
        last = started + timedelta(seconds=20 * (PER_SESSION - 1))
        self.sessions.append({
            "session_id": sid, "user_id": user, "title": title, "created_at": started,
            "last_message_at": last, "is_active": False, "message_count": PER_SESSION,
            "deleted_at": None, "is_deleted": False, "version": PER_SESSION + 1,
            "event_occurred_at": last, "updated_at": last, "path": path,
            "leaf_message_id": path[-1], "search_title": title})


async def _load(db: Any, docs: list[dict[str, Any]], collection: str) -> None:
    """Insert in chunks; a chunk the driver sent again after a slow reply finds its first copy
    (duplicate keys, nothing else, are fine)."""
    for start in range(0, len(docs), 1_000):
        try:
            await db[collection].insert_many(docs[start:start + 1_000], ordered=False)
        except BulkWriteError as exc:
            if any(e.get("code") != 11000 for e in exc.details.get("writeErrors", [])):
                raise


def _queries(world: _World, postings: list[dict[str, Any]]) -> dict[str, list[str]]:
    """The heavy user's words by how many of their sessions hold them, and their questions."""
    held: Counter[str] = Counter()
    for doc in postings:
        if doc["user_id"] == USER:
            for field, text in doc.get("w", {}).items():
                held[word_of(field)] += len(parse_messages(text))
    ranked = [t for t, _ in held.most_common() if len(t) > 1]
    middle = len(ranked) // 2
    rng = random.Random(3)
    return {"common": ranked[:10], "middling": ranked[middle - 5:middle + 5],
            "rare": ranked[-10:], "questions": rng.sample(sorted(set(world.asked)), 20)}


async def measure(mongo_url: str, seed_dir: Path, runs: int) -> dict[str, Any]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    try:
        return await _measure(client, seed_dir, runs)
    finally:
        await client.drop_database(DB)
        await client.close()


async def _measure(client: AsyncMongoClient[dict[str, Any]], seed_dir: Path, runs: int
                   ) -> dict[str, Any]:
    db = client[DB]
    await client.drop_database(DB)
    await ConversationProjector(db).prepare()
    indexer = SearchIndexer(db, ttl_seconds=365 * 24 * 3600)
    await indexer.prepare()  # empty: marks nothing, records the index's state
    korean.warm_up()
    questions, answers = _texts(seed_dir)
    world = _World(questions, answers, datetime.now(UTC))
    started = time.perf_counter()
    for _ in range(HEAVY_SESSIONS):
        world.session(USER)
    others = (TOTAL_MESSAGES // PER_SESSION) - HEAVY_SESSIONS
    for n in range(others):
        world.session(f"bench-user-{n % OTHER_USERS}")
    postings = world.postings.documents()
    log(f"search: {len(world.messages)} messages, {len(world.sessions)} sessions, "
        f"{len(postings)} posting documents generated in {time.perf_counter() - started:.0f} s; loading")
    started = time.perf_counter()
    await _load(db, world.sessions, SESSIONS)
    await _load(db, world.messages, MESSAGES)
    await _load(db, postings, POSTINGS)
    loaded = time.perf_counter() - started
    log(f"search: loaded in {loaded:.0f} s")

    read_model = MongoReadModel(db)
    queries = _queries(world, postings)
    result: dict[str, Any] = {
        "messages": len(world.messages), "sessions": len(world.sessions),
        "heavy_user_sessions": HEAVY_SESSIONS, "posting_documents": len(postings),
        "load_seconds": round(loaded, 1), "queries": queries, "runs": [], "by_kind": {},
        "hits": {}}
    for run in range(runs):
        samples: list[float] = []
        by_kind: dict[str, list[float]] = {}
        for kind, texts in queries.items():
            for text in texts:
                began = time.perf_counter()
                _, total = await read_model.search_sessions(
                    USER, korean.query_terms(text)[:8], 0, PAGE)
                elapsed = (time.perf_counter() - began) * 1000
                samples.append(elapsed)
                by_kind.setdefault(kind, []).append(elapsed)
                result["hits"][text] = total
        result["runs"].append(latency_summary(samples))
        for kind, values in by_kind.items():
            result["by_kind"].setdefault(kind, []).append(latency_summary(values))
        log(f"search, run {run + 1}/{runs}: p50 {result['runs'][-1]['p50']} ms, "
            f"p95 {result['runs'][-1]['p95']} ms over {len(samples)} searches")
    result["indexer"] = await _indexing_throughput(db, indexer, world)
    return result


async def _indexing_throughput(db: Any, indexer: SearchIndexer, world: _World) -> dict[str, Any]:
    """Messages a second through the real indexer: new messages of new sessions, marked as the
    projector marks them."""
    fresh = _World(world.questions, world.answers, world.now, seed=8)  # ids of its own
    for n in range(INDEXED_FOR_THROUGHPUT // PER_SESSION):
        fresh.session(f"bench-new-user-{n % 20}")
    await _load(db, [{**m, "search_pending": True} for m in fresh.messages], MESSAGES)
    started = time.perf_counter()
    while await indexer.run_once():
        pass
    seconds = time.perf_counter() - started
    rate = round(len(fresh.messages) / seconds, 1)
    log(f"search indexer: {len(fresh.messages)} messages in {seconds:.1f} s ({rate}/s)")
    return {"messages": len(fresh.messages), "seconds": round(seconds, 2), "messages_per_s": rate}
