"""CatalogRetriever's start: in the background, ready once the strategy is chosen, and tried again
after a failed start (the readiness check calls start() each time)."""

from __future__ import annotations

import asyncio
from typing import Any

from chatbot_api.adapters.catalog_retriever import CatalogRetriever


class Strategy:
    async def search(self, *args: Any) -> list[Any]:
        return []


class Embedder:
    model_name = "fake"
    dimensions = 3

    async def embed_query(self, text: str) -> list[float]:
        return [1.0, 0.0, 0.0]

    async def embed_passages(self, texts: Any) -> list[list[float]]:
        return [[1.0, 0.0, 0.0] for _ in texts]

    async def warm_up(self) -> None:
        return None


async def test_a_failed_start_is_tried_again_and_then_ready() -> None:
    attempts = 0
    release = asyncio.Event()

    async def factory() -> Any:
        nonlocal attempts
        attempts += 1
        if attempts == 1:
            raise ConnectionError("MongoDB unreachable")
        await release.wait()
        return Strategy()

    retriever = CatalogRetriever(None, Embedder(), factory)  # type: ignore[arg-type]
    retriever.start()
    await asyncio.sleep(0.01)
    assert attempts == 1 and not retriever.ready
    retriever.start()  # what the readiness check does
    retriever.start()  # while it runs, no second attempt
    await asyncio.sleep(0.01)
    assert attempts == 2 and not retriever.ready
    release.set()
    await asyncio.sleep(0.01)
    assert retriever.ready
    assert await retriever.search("hackathon", "1001", []) == []
    await retriever.close()


async def test_close_stops_a_start_under_way() -> None:
    async def factory() -> Any:
        await asyncio.sleep(60)

    retriever = CatalogRetriever(None, Embedder(), factory)  # type: ignore[arg-type]
    retriever.start()
    await asyncio.sleep(0.01)
    began = asyncio.get_running_loop().time()
    await asyncio.wait_for(retriever.close(), timeout=5)
    assert asyncio.get_running_loop().time() - began < 5 and not retriever.ready


class CapturingStrategy:
    def __init__(self) -> None:
        self.asked: list[tuple[str, Any]] = []

    async def search(self, collection: Any, vector: Any, text: str, user_id: str, limit: int,
                     min_score: float, filters: Any) -> list[Any]:
        self.asked.append((text, filters))
        return []


class Sample:
    """The catalog's other-script spellings of the question's names, as CatalogSample gives them."""

    async def spellings(self, question: str) -> list[str]:
        return ["나래클라우드"]


async def test_the_other_script_spellings_of_a_questions_names_join_its_keywords_and_names() -> None:
    from chatbot_api.retrieval.model import Collection

    strategy = CapturingStrategy()

    async def factory() -> Any:
        return strategy

    retriever = CatalogRetriever(None, Embedder(), factory, sample=Sample())  # type: ignore[arg-type]
    await retriever.search("Narae Cloud 요금", "1001", [Collection.CONTESTS])
    (text, filters), = strategy.asked
    assert "나래클라우드" in text.split() and "나래클라우드" in filters.names
