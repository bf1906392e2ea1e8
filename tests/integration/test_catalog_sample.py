"""The relevance gate's catalog sample is uniform over the whole catalog, the same from one read
to the next, and takes new items as it takes the others, however many items the catalog holds."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest
from devstack.servers import Server
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters import catalog_sample
from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.retrieval.model import Collection
from tests.conftest import unique

pytestmark = pytest.mark.integration

MODEL = "test-model"
SIZE = 40  # the sample's size in this test (2,000 in service)


@pytest.fixture
async def db(mongo_server: Server) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_server.url)
    yield client[unique("sample_")]
    await client.close()


def _docs(first: int, count: int) -> list[dict[str, Any]]:
    return [{"document_id": f"c-{i:05d}", "embedding_model": MODEL, "embedding_vector": [1.0, i],
             "embedding_text": f"contest number {i}"} for i in range(first, first + count)]


async def test_the_sample_is_uniform_stable_and_takes_new_items(db, monkeypatch):
    monkeypatch.setattr(catalog_sample, "BACKGROUND_SAMPLE", SIZE)
    await db["contests"].insert_many(_docs(0, 200))
    sample = CatalogSample(db, MODEL)
    matrix, terms = await sample.sample()
    assert len(matrix) == len(terms) == SIZE
    chosen = await sample._sample_of(Collection.CONTESTS)
    ids = [int(d["embedding_vector"][1]) for d in chosen]
    assert len(ids) == SIZE
    # not the first documents written: drawn from the whole collection
    assert max(ids) > 150 and sum(i >= 100 for i in ids) >= SIZE // 4
    again = await CatalogSample(db, MODEL)._sample_of(Collection.CONTESTS)
    assert [d["embedding_vector"] for d in again] == [d["embedding_vector"] for d in chosen]
    await db["contests"].insert_many(_docs(200, 200))  # the catalog doubles
    grown = await sample._sample_of(Collection.CONTESTS)
    new = sum(int(d["embedding_vector"][1]) >= 200 for d in grown)
    assert len(grown) == SIZE and SIZE // 4 <= new <= 3 * SIZE // 4
