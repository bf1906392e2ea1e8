"""What the in-memory index computes over arrays instead of per document: the fusion's tie
parting, the tags it matches and the ranks, each held equal to the per-document rule."""

from __future__ import annotations

import numpy as np
import pytest

from chatbot_api.retrieval.fusion import _strictly_decreasing, tagged_with
from chatbot_api.retrieval.index import Shard
from chatbot_api.retrieval.keyword import rank_array
from chatbot_api.retrieval.model import Collection

pytestmark = pytest.mark.unit


def _stepped_one_by_one(values: np.ndarray) -> np.ndarray:
    values = values.copy()
    for i in range(1, len(values)):
        if values[i] >= values[i - 1]:
            values[i] = np.nextafter(values[i - 1], -np.inf)
    return values


@pytest.mark.parametrize("values", [
    [0.05, 0.05, 0.05, 0.04, 0.04],
    [0.02, 0.0, 0.0, -0.0, -0.001, -0.001, -0.002],
    [1e-300, 1e-300, 0.0, 0.0, -5e-324, -5e-324],
    [0.3, np.nextafter(0.3, -np.inf), 0.3 - 1e-17, 0.1, 0.1],
])
def test_tied_values_are_parted_as_a_step_by_step_nextafter_parts_them(values):
    given = np.sort(np.asarray(values, dtype=np.float64))[::-1].copy()
    parted = _strictly_decreasing(given)
    assert np.array_equal(parted, _stepped_one_by_one(given))
    assert (np.diff(parted) < 0).all()


def test_random_values_with_many_ties_are_parted_alike():
    rng = np.random.default_rng(3)
    given = np.sort(np.round(rng.normal(size=5000) * 0.01, 3))[::-1].copy()
    assert np.array_equal(_strictly_decreasing(given), _stepped_one_by_one(given))


def test_ranks_share_the_best_rank_of_equal_values_whatever_the_sort():
    rng = np.random.default_rng(4)
    values = np.round(rng.random(20_000), 2)
    ranks = rank_array(values)
    expected = np.asarray([1 + np.count_nonzero(values > v) for v in values[:500]])
    assert np.array_equal(ranks[:500], expected)


def _doc(i: int, tags: list[str]) -> dict[str, object]:
    return {"document_id": f"c-{i}", "version": 1, "embedding_model": "m",
            "embedding_vector": [1.0, 0.0], "embedding_text": f"contest {i}", "tags": tags}


def test_the_tag_index_matches_what_each_document_s_tags_match_through_writes_and_compaction():
    shard = Shard(Collection.CONTESTS, 2)
    tag_sets = [["llm"], ["data-breach", "security"], ["AI/ML"], [], ["hackathon", "llm"]]
    docs = [_doc(i, tag_sets[i % len(tag_sets)]) for i in range(120)]
    for doc in docs:
        shard.put(doc, "m")
    shard.put({**_doc(3, ["security"]), "version": 2}, "m")  # retagged
    docs[3] = {**_doc(3, ["security"]), "version": 2}
    for i in range(0, 120, 3):  # a third removed: the shard compacts
        shard.remove(f"c-{i}", 5)
    held = {d["document_id"]: d for i, d in enumerate(docs) if i % 3}
    kept = np.flatnonzero(shard.alive[:len(shard.slots)])
    for terms in ({"llm"}, {"data", "breach"}, {"breach"}, {"ai", "ml"}, {"security", "llm"}, set()):
        got = shard.tagged_among(kept, frozenset(terms))
        slots = [shard.slots[int(k)] for k in kept]
        expected = [tagged_with(held[s.document_id]["tags"], frozenset(terms)) for s in slots]
        assert list(got) == expected, terms
    assert len(kept) == 80


def _text_doc(i: int, text: str, version: int = 1) -> dict[str, object]:
    return {"document_id": f"n-{i}", "version": version, "embedding_model": "m",
            "embedding_vector": [1.0, 0.0], "embedding_text": text}


def test_the_kept_term_scores_follow_every_write_of_the_shard():
    from chatbot_api.retrieval.index import _bm25

    texts = ["kafka streams tutorial", "kafka security", "rust async runtime", "security audit kafka"]
    shard = Shard(Collection.NEWS, 2)
    for i, text in enumerate(texts):
        shard.put(_text_doc(i, text), "m")

    def scores(held: Shard) -> list[float]:
        return _bm25(held, np.arange(len(held.slots)), "kafka security").tolist()

    def fresh(docs: dict[int, str]) -> Shard:
        rebuilt = Shard(Collection.NEWS, 2)
        for i, text in docs.items():
            rebuilt.put(_text_doc(i, text), "m")
        return rebuilt

    first = scores(shard)
    assert first == scores(fresh(dict(enumerate(texts))))
    shard.put(_text_doc(4, "kafka kafka kafka"), "m")  # the lengths and the frequencies change
    assert scores(shard) == scores(fresh({**dict(enumerate(texts)), 4: "kafka kafka kafka"}))
    shard.put(_text_doc(1, "rust security", version=2), "m")  # replaced
    expected = fresh({0: texts[0], 1: "rust security", 2: texts[2], 3: texts[3], 4: "kafka kafka kafka"})
    assert scores(shard) == scores(expected)
    assert scores(shard) != first
