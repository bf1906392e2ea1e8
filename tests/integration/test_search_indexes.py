"""Vector search indexes and the Atlas strategy on SecantusDB, which has no search indexes
(code 115, like community mongod): query-sync logs once and goes on; the Atlas strategy refuses
with a RetrievalError rather than a driver error."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from typing import Any

import pytest
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.atlas_search import AtlasStrategy
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters
from query_sync.adapters.search_indexes import ensure_vector_indexes
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.integration

UNSUPPORTED = "search indexes not supported here: the exact strategy is in use"


@pytest.fixture
async def db(settings: CommonSettings) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(settings.mongodb_uri)
    yield client[settings.mongodb_database]
    await client.drop_database(settings.mongodb_database)
    await client.close()


async def test_vector_indexes_are_skipped_with_one_log_line_where_unsupported(db, caplog):
    await db["contests"].insert_one({"document_id": "c-1", "title": "t"})
    with caplog.at_level(logging.INFO, logger="query_sync.adapters.search_indexes"):
        supported = await ensure_vector_indexes(db, 384, timeout_seconds=1.0)
    assert supported is False
    messages = [r.getMessage() for r in caplog.records if r.name.startswith("query_sync")]
    assert messages == [UNSUPPORTED]
    assert [r.levelno for r in caplog.records if r.getMessage() == UNSUPPORTED] == [logging.INFO]


async def test_vector_indexes_are_skipped_on_an_empty_database_too(db, caplog):
    with caplog.at_level(logging.INFO, logger="query_sync.adapters.search_indexes"):
        assert await ensure_vector_indexes(db, 384) is False
    assert sum(r.getMessage() == UNSUPPORTED for r in caplog.records) == 1


async def test_atlas_strategy_refuses_with_a_retrieval_error_where_vector_search_is_missing(db):
    await db["bookmarks"].insert_one({"document_id": "b-1", "user_id": "1001",
                                      "embedding_vector": [0.1, 0.2, 0.3]})
    strategy = AtlasStrategy(db)
    with pytest.raises(RetrievalError, match=r"\$vectorSearch on bookmarks"):
        await strategy.search(Collection.BOOKMARKS, [0.1, 0.2, 0.3], "memo", "1001", 5, 0.0,
                              SearchFilters())


async def test_conversation_search_keeps_the_posting_index_where_search_indexes_are_missing(db):
    from chatbot_api.adapters.read_model import MongoReadModel
    from query_sync.adapters.search_indexes import ensure_conversation_indexes
    from techai_shared.korean import query_terms

    assert await ensure_conversation_indexes(db, timeout_seconds=1.0) is False
    read_model = MongoReadModel(db)
    assert await read_model.search_sessions("u-1", query_terms("해커톤"), 0, 10) == ([], 0)
    assert read_model._atlas is False  # probed once: the postings serve the search
