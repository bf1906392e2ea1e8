"""CatalogFinder treats a question close to the previous one as a follow-up even without cue words
(issue 4, point 3), and a reset phrase or a distant question as a fresh search. Fakes of our own
ports (Embedder, Retriever, Lookup) with hand-made vectors."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from chatbot_api.adapters.catalog_lookup import ItemRef
from chatbot_api.domain.routing import RouteOptions, route
from chatbot_api.retrieval.model import Collection, SearchFilters, SearchHit
from chatbot_api.service_layer.chat import deliver_in_parts
from chatbot_api.service_layer.retrieval import CatalogFinder, Previous

pytestmark = pytest.mark.unit

PREVIOUS = "대학생이 참가할 수 있는 AI 해커톤 알려줘"
CLOSE = "AI 해커톤 중에 대학생도 참가할 수 있는 대회의 신청 방법이 궁금해요"
FAR = "최근 쿠버네티스 보안 취약점 관련 뉴스를 자세히 알려줄 수 있어요?"
VECTORS = {PREVIOUS: [1.0, 0.0], CLOSE: [0.96, 0.28], FAR: [0.6, 0.8]}  # cosines 0.96 and 0.6


def hit(document_id: str) -> SearchHit:
    return SearchHit(document_id=document_id, collection=Collection.CONTESTS, title=document_id,
                     snippet="", url=None, score=0.9)


class Embedder:
    model_name, dimensions = "fake", 2

    async def embed_query(self, text: str) -> list[float]:
        return VECTORS.get(text.removeprefix("다른 주제: "), [0.0, 1.0])

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [await self.embed_query(t) for t in texts]

    async def warm_up(self) -> None:
        return None


class Retriever:
    def __init__(self) -> None:
        self.queries: list[str] = []

    async def search(self, query: str, user_id: str, collections: Sequence[Collection],
                     max_results: int = 5, min_score: float = 0.0,
                     filters: SearchFilters | None = None,
                     query_vector: Sequence[float] | None = None) -> list[SearchHit]:
        self.queries.append(query)
        return [hit("c-fresh")]


class Lookup:
    async def fetch(self, refs: Sequence[ItemRef], user_id: str,
                    query_vector: Sequence[float] | None = None) -> list[SearchHit]:
        return [hit(document_id) for _, document_id in refs]

    async def by_title(self, title: str, user_id: str, collections: Sequence[Collection],
                       query_vector: Sequence[float] | None = None) -> list[SearchHit]:
        return []


EARLIER = Previous(PREVIOUS, [{"collection": "contests", "documentId": "c-0001"},
                              {"collection": "contests", "documentId": "c-0002"}])


@pytest.mark.parametrize(("question", "how", "ids"), [
    (CLOSE, "follow-up", ["c-0001", "c-0002"]),
    (FAR, "search", ["c-fresh"]),
    (f"다른 주제: {CLOSE}", "search", ["c-fresh"]),
])
async def test_similarity_to_the_previous_question_decides_a_follow_up(question, how, ids):
    r = route(question, RouteOptions(), has_previous=True)
    assert not r.follow_up, "no cue word: only the similarity can make it a follow-up"
    finder = CatalogFinder(Retriever(), Lookup(), Embedder(), similar_question_cosine=0.92)
    found = await finder.find(question, "1001", r, EARLIER, max_results=5, min_score=0.0)
    assert (found.how, [h.document_id for h in found.hits]) == (how, ids)


async def test_without_a_previous_answer_there_is_no_follow_up():
    finder = CatalogFinder(Retriever(), Lookup(), Embedder(), similar_question_cosine=0.92)
    found = await finder.find(CLOSE, "1001", route(CLOSE, RouteOptions()), None, 5, 0.0)
    assert found.how == "search"


@pytest.mark.parametrize(("text", "count"), [
    ("1. 첫 항목\n\n2. 두 번째\n   https://x\n\n3. 끝", 3),
    ("한 줄", 1),
    ("a\n\nb\n\n", 2),
])
async def test_a_ready_answer_streams_one_delta_per_paragraph_and_joins_back_exactly(text, count):
    parts: list[str] = []

    async def collect(part: str) -> None:
        parts.append(part)

    await deliver_in_parts(text, collect)
    assert "".join(parts) == text and all(parts)
    assert len(parts) == count
