"""The exact strategy and CatalogRetriever on SecantusDB: pre-filters, bookmarks by user, model
mismatch, Atlas scores. Documents are written as query-sync writes them, with hand-made vectors and
a fake embedder mapping each query to a vector, so rankings are known in advance."""

from __future__ import annotations

import itertools
import math
from collections.abc import AsyncIterator, Sequence
from datetime import UTC, datetime
from typing import Any

import pytest
from devstack.servers import Server
from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.catalog_index import CatalogIndex
from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.retrieval.model import Collection, RetrievalError, SearchFilters
from tests.conftest import unique

pytestmark = pytest.mark.integration

MODEL = "fake-model"
DIMS = 4


def _vec(*xs: float) -> list[float]:
    norm = math.sqrt(sum(x * x for x in xs))
    return [x / norm for x in xs]


GPU = _vec(1, 0, 0, 0)
KAFKA = _vec(0, 1, 0, 0)
SECRET = _vec(0, 0, 1, 0)


class FakeEmbedder:
    """Our Embedder port: the query's vector is the topic word's it contains."""

    model_name = MODEL
    dimensions = DIMS

    async def embed_query(self, text: str) -> list[float]:
        lowered = text.lower()
        if "gpu" in lowered:
            return GPU
        return KAFKA if "kafka" in lowered else SECRET

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [await self.embed_query(t) for t in texts]

    async def warm_up(self) -> None:
        return None


def _doc(document_id: str, text: str, vector: list[float], **fields: Any) -> dict[str, Any]:
    return {"document_id": document_id, "title": text, "embedding_text": text,
            "embedding_vector": vector, "embedding_model": MODEL, "version": 1, **fields}


@pytest.fixture
async def db(mongo_server: Server) -> AsyncIterator[AsyncDatabase[dict[str, Any]]]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_server.url)
    database = client[unique("retrieval_")]
    await database["contests"].insert_many([
        # the status stored is what a writer once sent; the dates are what the search goes by
        _doc("c-1", "GPU hackathon", GPU, status="UPCOMING", start_date=datetime(2030, 1, 1),
             end_date=datetime(2030, 1, 3)),
        _doc("c-2", "GPU marathon finished", _vec(1, 0.1, 0, 0), status="ONGOING",
             start_date=datetime(2020, 1, 1), end_date=datetime(2020, 1, 3)),
        _doc("c-3", "Kafka streaming contest", KAFKA, status="ENDED",
             start_date=datetime(2020, 1, 1), end_date=datetime(2030, 1, 3)),
    ])
    await database["news_articles"].insert_many([
        _doc("n-1", "GPU prices rise", _vec(1, 0, 0.2, 0), published_at=datetime(2026, 9, 1, tzinfo=UTC)),
        _doc("n-2", "GPU shortage last year", _vec(1, 0, 0.3, 0),
             published_at=datetime(2025, 3, 1, tzinfo=UTC)),
    ])
    await database["bookmarks"].insert_many([
        _doc("b-1", "my GPU notes", GPU, user_id="1001", item_type="CONTEST", memo="GPU"),
        _doc("b-2", "솔방울봇 secret GPU kafka memo", SECRET, user_id="1002", item_type="NEWS_ARTICLE",
             memo="솔방울봇 secret"),
    ])
    yield database
    await client.drop_database(database.name)
    await client.close()


async def test_probe_picks_the_catalog_index_on_secantusdb(db: AsyncDatabase[dict[str, Any]]) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    strategy = await retriever.strategy()
    assert isinstance(strategy, CatalogIndex) and len(strategy) == 5  # contests and news, loaded


async def test_ended_contests_are_searched_and_ranked_below_active_ones(
        db: AsyncDatabase[dict[str, Any]]) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    default = await retriever.search("GPU contest", "1001", [Collection.CONTESTS])
    assert {h.document_id for h in default} == {"c-1", "c-2", "c-3"}
    assert default[0].document_id == "c-1"  # the active GPU contest before the ended one
    past = await retriever.search("GPU contests that already finished", "1001", [Collection.CONTESTS])
    assert past[0].document_id == "c-2"  # a question about the past puts it first
    active = await retriever.search("GPU contest", "1001", [Collection.CONTESTS],
                                    filters=SearchFilters(include_ended_contests=False))
    assert [h.document_id for h in active] == ["c-1", "c-3"]


async def test_news_publication_window_is_a_prefilter(db: AsyncDatabase[dict[str, Any]]) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    hits = await retriever.search("GPU", "1001", [Collection.NEWS], filters=SearchFilters(
        published_after=datetime(2026, 1, 1, tzinfo=UTC)))
    assert [h.document_id for h in hits] == ["n-1"]


async def test_scores_are_atlas_similarities_and_min_score_applies_to_them(
    db: AsyncDatabase[dict[str, Any]],
) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    hits = await retriever.search("GPU", "1001", list(Collection), max_results=10)
    assert hits and all(0.0 <= h.score <= 1.0 for h in hits)
    assert hits[0].score == pytest.approx(1.0)
    kafka = next(h for h in hits if h.document_id == "c-3")
    assert kafka.score == pytest.approx(0.5)  # orthogonal: cosine 0
    strict = await retriever.search("GPU", "1001", list(Collection), max_results=10, min_score=0.9)
    assert strict and all(h.score >= 0.9 for h in strict)
    assert "c-3" not in {h.document_id for h in strict}


@pytest.mark.parametrize("query", ["솔방울봇 secret memo", "GPU", "kafka", "bookmarks 1002"])
async def test_another_users_bookmarks_never_come_back(db: AsyncDatabase[dict[str, Any]], query: str) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    filter_options = [SearchFilters(), SearchFilters(include_ended_contests=True),
                      SearchFilters(published_after=datetime(2000, 1, 1, tzinfo=UTC))]
    for size in range(1, 4):
        for collections, filters in itertools.product(itertools.combinations(list(Collection), size),
                                                      filter_options):
            for min_score in (0.0, 0.5):
                hits = await retriever.search(query, "1001", collections, 10, min_score, filters)
                assert "b-2" not in {h.document_id for h in hits}
    own = await retriever.search("솔방울봇 secret memo", "1002", [Collection.BOOKMARKS])
    assert [h.document_id for h in own] == ["b-2"]


async def test_bookmarks_without_a_user_id_are_refused(db: AsyncDatabase[dict[str, Any]]) -> None:
    retriever = CatalogRetriever(db, FakeEmbedder())
    with pytest.raises(RetrievalError):
        await retriever.search("GPU", "", [Collection.BOOKMARKS])


async def test_documents_of_another_model_are_refused(db: AsyncDatabase[dict[str, Any]]) -> None:
    await db["news_articles"].update_one({"document_id": "n-2"}, {"$set": {"embedding_model": "other"}})
    retriever = CatalogRetriever(db, FakeEmbedder())
    with pytest.raises(RetrievalError, match="other"):
        await retriever.search("GPU", "1001", [Collection.NEWS])
