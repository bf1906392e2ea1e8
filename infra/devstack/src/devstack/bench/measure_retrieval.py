"""Retrieval: the in-memory catalog index at 1,000 to 50,000 items per collection against a bare
matrix product, its memory, query embedding under concurrency, and the verified-answer check
(measure_verified.py).

Every measured question is distinct (questions.py), so no cache of answers or of query vectors
serves one; the index's own structures (its matrix and postings) are what is measured.
"""

from __future__ import annotations

import asyncio
import time
from pathlib import Path
from typing import Any

import numpy as np
from pymongo import AsyncMongoClient

from chatbot_api.adapters.catalog_index import CatalogIndex
from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.retrieval.model import Collection, SearchFilters
from devstack.bench import measure_verified
from devstack.bench.questions import distinct_questions
from devstack.bench.stack import log
from devstack.bench.stats import latency_summary
from devstack.evaluate import load_catalog
from techai_shared.embeddings import Embedder

COLLECTIONS = (Collection.CONTESTS, Collection.NEWS)
EMBEDDING_CONCURRENCY = (1, 10, 50)
VERIFIED_CALIBRATION = Path(__file__).resolve().parents[4] / "seed" / "verified-answers.jsonl"


async def load_sample_catalog(mongo_url: str, db: str, embedder: Embedder, seed_dir: Path) -> None:
    """The sample catalog (infra/seed) projected with the real embedder, as make eval does."""
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    try:
        await load_catalog(client[db], embedder, seed_dir)
    finally:
        await client.close()


def synthetic(templates: dict[Collection, list[dict[str, Any]]], items: int,
              rng: np.random.Generator) -> dict[Collection, list[dict[str, Any]]]:
    """`items` documents per collection: the sample documents repeated under new ids (their texts,
    hence their postings, too), each with a random unit vector of the model's dimension (fine for
    latency and memory, meaningless for relevance)."""
    made: dict[Collection, list[dict[str, Any]]] = {}
    for collection in COLLECTIONS:
        sample = templates[collection]
        vectors = rng.normal(size=(items, len(sample[0]["embedding_vector"])))
        vectors /= np.linalg.norm(vectors, axis=1, keepdims=True)
        made[collection] = [{**sample[i % len(sample)], "document_id": f"syn-{collection.value}-{i}",
                             "embedding_vector": vectors[i].tolist()} for i in range(items)]
    return made


async def embedding_under_concurrency(embedder: Embedder, questions: list[str], runs: int
                                      ) -> dict[str, list[dict[str, Any]]]:
    """embed_query latency with 1, 10 and 50 questions in flight (distinct texts)."""
    result: dict[str, list[dict[str, Any]]] = {}
    texts = iter(questions)
    for concurrent in EMBEDDING_CONCURRENCY:
        per_run = []
        for _ in range(runs):
            samples: list[float] = []
            for _ in range(max(2, 60 // concurrent)):
                samples += await asyncio.gather(*(_timed_embedding(embedder, next(texts))
                                                  for _ in range(concurrent)))
            per_run.append(latency_summary(samples))
        result[f"{concurrent}c"] = per_run
        log(f"query embedding, {concurrent} concurrent: p50 {per_run[-1]['p50']} "
            f"p95 {per_run[-1]['p95']} ms")
    return result


async def _timed_embedding(embedder: Embedder, text: str) -> float:
    began = time.perf_counter()
    await embedder.embed_query(text)
    return (time.perf_counter() - began) * 1000


async def measure(mongo_url: str, source_db: str, embedder: Embedder, runs: int,
                  sizes: list[int], queries_per_run: int) -> dict[str, Any]:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    rng = np.random.default_rng(6)
    questions = distinct_questions(20_000)
    result: dict[str, Any] = {}
    try:
        # embedding alone, one at a time (the figure kept from earlier reports), then concurrent
        embed_runs = []
        asked = iter(questions)
        for _ in range(runs):
            samples = []
            for _ in range(24):
                began = time.perf_counter()
                await embedder.embed_query(next(asked))
                samples.append((time.perf_counter() - began) * 1000)
            embed_runs.append(latency_summary(samples))
        result["embedding_ms"] = embed_runs
        result["embedding_concurrency"] = await embedding_under_concurrency(
            embedder, questions[1000:], runs)
        templates = {c: await client[source_db][c.value].find({}, {"_id": 0}).to_list()
                     for c in COLLECTIONS}
        measured = questions[5000:5000 + queries_per_run * runs]
        vectors = [await embedder.embed_query(q) for q in measured]
        for items in sizes:
            result[f"{items}"] = await _at_size(client, source_db, embedder, templates, items, rng,
                                                measured, vectors, runs)
        result["verified"] = await measure_verified.measure(
            client, source_db, embedder, runs, questions[15_000:], VERIFIED_CALIBRATION)
    finally:
        await client.close()
    return result


async def _at_size(client: AsyncMongoClient[dict[str, Any]], source_db: str, embedder: Embedder,
                   templates: dict[Collection, list[dict[str, Any]]], items: int,
                   rng: np.random.Generator, questions: list[str], vectors: list[list[float]],
                   runs: int) -> dict[str, Any]:
    """The index holding `items` documents per collection: its memory, and a question's search over
    contests and news (the embedding excluded) against the bare baseline, a matrix product over the
    same vectors."""
    docs = synthetic(templates, items, rng)
    index = CatalogIndex(client[source_db], embedder.model_name, dimensions=embedder.dimensions,
                         refresh_seconds=3600)
    index.ready = True  # held from the synthetic documents below, not loaded from the store
    began = time.perf_counter()
    for collection, made in docs.items():
        for doc in made:
            index.put(collection, doc)
    built_s = time.perf_counter() - began
    memory = index.memory_bytes()

    async def the_index() -> CatalogIndex:
        return index

    retriever = CatalogRetriever(client[source_db], embedder, the_index)
    # the bare baseline: a matrix of each collection's own vectors, one product each
    bare = [np.asarray([d["embedding_vector"] for d in docs[c]], dtype=np.float32)
            for c in COLLECTIONS]
    per_run, bare_runs, embedded_runs, same_matrix_runs = [], [], [], []
    per_question = len(questions) // runs
    await retriever.search(questions[0], "70001", COLLECTIONS, 5, query_vector=vectors[0])  # warm-up
    for run in range(runs):
        samples, bare_samples, embedded_samples, same_matrix_samples = [], [], [], []
        for i in range(run * per_question, (run + 1) * per_question):
            started = time.perf_counter()
            await retriever.search(questions[i], "70001", COLLECTIONS, 5,
                                   filters=SearchFilters(), query_vector=vectors[i])
            samples.append((time.perf_counter() - started) * 1000)
            started = time.perf_counter()
            query = np.asarray(vectors[i], dtype=np.float32)
            for matrix in bare:  # one product per collection, as the search does
                np.argpartition(-(matrix @ query), 5)[:5]
            bare_samples.append((time.perf_counter() - started) * 1000)
            # a lighter baseline, reported beside: the contests' matrix twice, whose second
            # product finds the matrix in the cache
            started = time.perf_counter()
            for _ in bare:
                np.argpartition(-(bare[0] @ query), 5)[:5]
            same_matrix_samples.append((time.perf_counter() - started) * 1000)
        # the bare baseline with its embedding: embed the question, then the same products
        for i in range(run * per_question, run * per_question + min(per_question, 20)):
            started = time.perf_counter()
            query = np.asarray(await embedder.embed_query(f"{questions[i]}?"), dtype=np.float32)
            for matrix in bare:
                np.argpartition(-(matrix @ query), 5)[:5]
            embedded_samples.append((time.perf_counter() - started) * 1000)
        per_run.append(latency_summary(samples))
        bare_runs.append(latency_summary(bare_samples))
        embedded_runs.append(latency_summary(embedded_samples))
        same_matrix_runs.append(latency_summary(same_matrix_samples))
        log(f"retrieval, catalog index, {items} items/collection run {run + 1}/{runs}: p50 "
            f"{per_run[-1]['p50']} p95 {per_run[-1]['p95']} ms (bare matrix product p95 "
            f"{bare_runs[-1]['p95']} ms)")
    log(f"catalog index of {items} items/collection: {memory / 2**20:.1f} MiB, built in {built_s:.1f} s")
    return {"strategy": "index", "runs": per_run, "bare_runs": bare_runs,
            "bare_with_embedding_runs": embedded_runs, "bare_same_matrix_runs": same_matrix_runs,
            "memory_bytes": memory,
            "items_total": items * len(COLLECTIONS), "build_s": round(built_s, 2)}
