"""The relevance gate over a catalog sample given as vectors and terms (no store)."""

from __future__ import annotations

import numpy as np

from chatbot_api.retrieval.relevance import (
    CatalogSample,
    RelevanceGate,
    Thresholds,
    _digest,
    coverage,
    terms_of,
)


class Sample(CatalogSample):
    def __init__(self, matrix: np.ndarray, texts: list[str]) -> None:
        super().__init__(None, "test-model")  # type: ignore[arg-type]
        self._fixed = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True),
                       [terms_of(t) for t in texts])

    async def sample(self) -> tuple[np.ndarray, list[frozenset[str]]]:
        return self._fixed


TEXTS = ["쿠버네티스 장애 대응 챌린지", "Kafka Streaming Hackathon 2027", "블루하버 CTF 본선",
         "PostgreSQL 19 released", "누리AI 하늘-3 출시"]
THRESHOLDS = Thresholds(z_min=2.0, coverage_min=0.6)


def _catalog() -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.normal(size=(len(TEXTS), 8)) + 5.0  # all alike, as a multilingual model makes them


async def test_a_question_close_to_one_item_passes() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    peak = matrix[1] + 0.5 * (matrix[1] - matrix.mean(axis=0)) * 10
    assert (await gate.evidence("What is this?", peak)).z > 1.0


async def test_an_off_topic_question_fails_and_a_cue_or_its_words_let_it_pass() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    middle = matrix.mean(axis=0)  # equally close to everything: no peak
    assert not await gate.passes("What's a good recipe for kimchi fried rice?", middle)
    assert await gate.passes("김치볶음밥 대회 있어?", middle)  # names the catalog (대회)
    assert await gate.passes("쿠버네티스 장애 대응", middle)  # its words are an item's


async def test_a_model_without_calibration_is_not_gated() -> None:
    gate = RelevanceGate(Sample(_catalog(), TEXTS), None)
    assert await gate.passes("What's a good recipe for kimchi fried rice?", _catalog().mean(axis=0))


def test_coverage_counts_content_words_and_names_in_the_other_script() -> None:
    terms = [terms_of(t) for t in TEXTS]
    assert coverage("카프카 해커톤", terms) == 1.0  # Kafka and Hackathon, spelt in Hangul
    assert coverage("how do I bake bread", terms) == 0.0


async def test_a_question_without_a_letter_or_digit_never_passes() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    peak = matrix[1] + 0.5 * (matrix[1] - matrix.mean(axis=0)) * 10  # whatever its vector says
    assert await gate.passes("Kafka?", peak)
    assert not await gate.passes("?!?!…!!", peak)
    assert not await gate.passes("🙂🙂🎉", peak)


def test_a_refresh_reads_only_the_texts_it_has_not_read_before() -> None:
    docs = [{"embedding_vector": [1.0, 0.0], "embedding_text": t} for t in TEXTS[:2]]
    _, terms, lexicon, known = _digest(docs, {})
    assert terms == [terms_of(t) for t in TEXTS[:2]] and any("Kafka" in w for w in lexicon.values())
    marked = {k: (frozenset({"held"}), ()) for k in known}  # what a first read left
    changed = [docs[0], {"embedding_vector": [0.0, 1.0], "embedding_text": TEXTS[2]}]
    _, terms, _, known = _digest(changed, marked)
    assert terms[0] == frozenset({"held"})  # unchanged text: not read again
    assert terms[1] == terms_of(TEXTS[2])  # a new text is read
    assert len(known) == 2  # texts no longer sampled are forgotten
