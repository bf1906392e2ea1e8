"""Retrieval: catalog search latency per strategy at 1,000 and 5,000 items, and query embedding time."""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import numpy as np
from pymongo import AsyncMongoClient

from chatbot_api.retrieval.model import Collection
from chatbot_api.retrieval.service import CatalogRetriever
from devstack.bench.measure_chat import CATALOG_QUESTIONS
from devstack.bench.stack import log
from devstack.bench.stats import latency_summary
from devstack.evaluate import load_catalog
from techai_shared.embeddings import Embedder

COLLECTIONS = (Collection.CONTESTS, Collection.NEWS)


async def load_sample_catalog(mongo_url: str, db: str, embedder: Embedder, seed_dir: Path) -> None:
    """The sample catalog (infra/seed) projected with the real embedder, as make eval does."""
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    try:
        await load_catalog(client[db], embedder, seed_dir)
    finally:
        await client.close()


async def synthetic(client: AsyncMongoClient[dict[str, Any]], source: str, target: str, items: int,
                    rng: np.random.Generator) -> None:
    """`items` documents per collection: the sample documents repeated under new ids, each with a
    random unit vector of the model's dimension (fine for latency, meaningless for relevance)."""
    for collection in COLLECTIONS:
        templates = await client[source][collection.value].find({}, {"_id": 0}).to_list()
        dimension = len(templates[0]["embedding_vector"])
        vectors = rng.normal(size=(items, dimension))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        docs = []
        for i in range(items):
            doc = dict(templates[i % len(templates)])
            doc["document_id"] = f"syn-{collection.value}-{i}"
            doc["embedding_vector"] = vectors[i].tolist()
            docs.append(doc)
        for start in range(0, items, 500):
            await client[target][collection.value].insert_many(docs[start:start + 500])


async def measure(mongo_url: str, source_db: str, embedder: Embedder, runs: int,
                  sizes: list[int], queries_per_run: int) -> dict[str, Any]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    rng = np.random.default_rng(6)
    result: dict[str, Any] = {}
    try:
        embed_runs = []
        for _ in range(runs):
            samples = []
            for question in CATALOG_QUESTIONS * 3:
                began = time.perf_counter()
                await embedder.embed_query(question)
                samples.append((time.perf_counter() - began) * 1000)
            embed_runs.append(latency_summary(samples))
        result["embedding_ms"] = embed_runs
        log(f"query embedding ({embedder.model_name}): p50 {embed_runs[-1]['p50']} ms")
        for items in sizes:
            db = f"bench_retrieval_{items}"
            await synthetic(client, source_db, db, items, rng)
            retriever = CatalogRetriever(client[db], embedder)
            strategy = type(await retriever.strategy()).__name__
            await retriever.search(CATALOG_QUESTIONS[0], "70001", COLLECTIONS, 5)  # warm-up
            per_run = []
            for run in range(runs):
                samples = []
                # the exact strategy reads every document per query: fewer queries at the larger size
                for i in range(max(3, queries_per_run * 1000 // items)):
                    question = CATALOG_QUESTIONS[i % len(CATALOG_QUESTIONS)]
                    began = time.perf_counter()
                    await retriever.search(question, "70001", COLLECTIONS, 5)
                    samples.append((time.perf_counter() - began) * 1000)
                per_run.append(latency_summary(samples))
                log(f"retrieval {strategy} {items} items/collection run {run + 1}/{runs}: "
                    f"p50 {per_run[-1]['p50']} p95 {per_run[-1]['p95']} ms")
            result[f"{items}"] = {"strategy": strategy, "runs": per_run}
            await client.drop_database(db)
    finally:
        await client.close()
    return result
