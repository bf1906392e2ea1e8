"""The in-memory index fuses only the documents that can come first in a large shard
(index._pruned_hits): held to give the very hits, scores and fused values of fusing every kept
document, on shards with many ties, in both scripts, for questions that bring in each ranking,
demotion and bonus of the fusion."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import numpy as np
import pytest

from chatbot_api.retrieval import index as index_module
from chatbot_api.retrieval.fusion import FusionWeights
from chatbot_api.retrieval.index import Shard, search_shard
from chatbot_api.retrieval.keyword import rank_array
from chatbot_api.retrieval.model import Collection, SearchFilters

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 22, 12, 0, tzinfo=UTC)
DIMENSIONS = 16
TITLES = ["AI 해커톤 2026", "Kafka Streams Challenge", "보안 CTF 2025 본선", "LLM 에이전트 공모전",
          "Cloud Native Hackathon", "데이터 분석 경진대회", "Rust 알고리즘 대회", "오픈소스 기여 챌린지"]
TEXTS = ["인공지능 해커톤 팀 참가 상금", "streaming kafka challenge prize team", "보안 취약점 CTF 예선 본선",
         "대규모 언어 모델 LLM 에이전트 공모", "cloud native kubernetes hackathon", "데이터 분석 시각화 대회",
         "rust algorithm contest online judge", "오픈소스 기여 github 챌린지"]
TAGS = [["ai", "hackathon"], ["kafka", "streaming"], ["security", "ctf"], ["llm", "ai"],
        ["cloud", "hackathon"], ["data"], ["algorithm"], ["open-source"]]
QUESTIONS = [
    ("해커톤 있어?", ()), ("진행 중인 보안 대회 알려줘", ()), ("이미 끝난 해커톤", ()),
    ("최신 AI 뉴스", ()), ("지난달 LLM 뉴스", ()), ("kafka streams challenge", ("kafka",)),
    ("any hackathons coming up?", ()), ("데이터 분석 대회 상금 얼마야", ()), ("rust contest", ("rust",)),
    ("AI 관련 대회 뭐 있어?", ()), ("AI 해커톤 2026 상금", ()), ("2025 CTF 본선 어디서 해?", ()),
    ("CTF 예선 결과", ()),
]


def _shard(collection: Collection, size: int, rng: np.random.Generator,
           removed: int = 0) -> Shard:
    shard = Shard(collection, DIMENSIONS)
    # a few hundred distinct vectors repeated: equal similarities, as copies of one text give
    vectors = rng.normal(size=(300, DIMENSIONS))
    for i in range(size):
        t = i % len(TITLES)
        start = NOW + timedelta(days=int(rng.integers(-60, 60)))
        doc = {"document_id": f"{collection.value}-{i}", "version": 1, "embedding_model": "m",
               "embedding_vector": vectors[int(rng.integers(0, 300))].tolist(),
               "embedding_text": f"{TITLES[t]} {TEXTS[t]}", "title": TITLES[t], "tags": TAGS[t]}
        if collection is Collection.CONTESTS:
            doc |= {"start_date": start, "end_date": start + timedelta(days=int(rng.integers(1, 30))),
                    "status": "ONGOING"}
        else:
            doc |= {"published_at": start - timedelta(days=70) if i % 5 else None, "summary": TEXTS[t]}
        shard.put(doc, "m")
    for i in rng.choice(size, removed, replace=False):  # holes, then a compaction
        shard.remove(f"{collection.value}-{int(i)}", 9)
    return shard


def _whole(shard: Shard, query: np.ndarray, question: str, filters: SearchFilters,
           weights: FusionWeights, limit: int, min_score: float) -> list[tuple[str, float, float]]:
    saved = index_module.PRUNE_ABOVE
    index_module.PRUNE_ABOVE = 10**9
    try:
        hits = search_shard(shard, query, question, limit, min_score, filters, weights)
    finally:
        index_module.PRUNE_ABOVE = saved
    return [(h.document_id, h.score, h.rank_value) for h in hits]


@pytest.mark.parametrize(("collection", "removed"), [(Collection.CONTESTS, 0), (Collection.NEWS, 0),
                                                     (Collection.CONTESTS, 900)])
def test_fusing_the_few_that_can_come_first_gives_what_fusing_all_gives(collection, removed,
                                                                        monkeypatch):
    rng = np.random.default_rng(11)
    shard = _shard(collection, 3_000, rng, removed)
    pruned_answers = 0
    calls = []
    real = index_module._pruned_hits

    def counted(*args, **kwargs):
        found = real(*args, **kwargs)
        calls.append(found is not None)
        return found

    monkeypatch.setattr(index_module, "_pruned_hits", counted)
    for question, names in QUESTIONS:
        for weights in (FusionWeights(), FusionWeights(vector_by_script=False, other_script=False)):
            for limit, min_score in ((5, 0.0), (10, 0.0), (5, 0.6), (5, 0.8)):
                query = rng.normal(size=DIMENSIONS)
                filters = SearchFilters(names=names, as_of=NOW, contest_window=(  # a filter
                    NOW - timedelta(days=30), NOW + timedelta(days=90)) if limit == 10 else None)
                got = [(h.document_id, h.score, h.rank_value) for h in
                       search_shard(shard, query, question, limit, min_score, filters, weights)]
                assert got == _whole(shard, query, question, filters, weights, limit, min_score), \
                    (question, weights, limit, min_score)
    pruned_answers = sum(calls)
    print(f"pruning answered {pruned_answers} of {len(calls)}")
    assert len(calls) >= len(QUESTIONS) * 2 * 3  # a window may keep too few to prune
    assert pruned_answers >= len(calls) // 2, f"pruning answered {pruned_answers} of {len(calls)}"


def test_a_small_shard_and_a_limit_near_its_size_are_fused_whole(monkeypatch):
    rng = np.random.default_rng(2)
    asked = []
    real = index_module._pruned_hits
    monkeypatch.setattr(index_module, "_pruned_hits",
                        lambda *a, **k: asked.append(1) or real(*a, **k))
    small = _shard(Collection.CONTESTS, 200, rng)
    query = rng.normal(size=DIMENSIONS)
    filters = SearchFilters(as_of=NOW)
    hits = search_shard(small, query, "해커톤", 5, 0.0, filters, FusionWeights())
    assert not asked
    assert [(h.document_id, h.rank_value) for h in hits] == [
        (t[0], t[2]) for t in _whole(small, query, "해커톤", filters, FusionWeights(), 5, 0.0)]
    large = _shard(Collection.CONTESTS, 2_100, rng)
    many = search_shard(large, query, "해커톤", 600, 0.0, filters, FusionWeights())
    assert asked and len(many) == 600  # 4 x 600 candidates: more than it holds, so all are fused
    assert [h.document_id for h in many] == [t[0] for t in _whole(
        large, query, "해커톤", filters, FusionWeights(), 600, 0.0)]


def test_a_query_vector_of_nan_is_fused_whole_and_answers_as_the_whole_fusion_does():
    rng = np.random.default_rng(3)
    large = _shard(Collection.NEWS, 2_100, rng)
    query = np.full(DIMENSIONS, np.nan)  # an embedding gone wrong
    filters = SearchFilters(as_of=NOW)
    hits = search_shard(large, query, "AI 뉴스", 5, 0.0, filters, FusionWeights())
    assert [h.document_id for h in hits] == [t[0] for t in _whole(
        large, query, "AI 뉴스", filters, FusionWeights(), 5, 0.0)]


def test_a_tag_of_no_words_matches_no_question():
    from chatbot_api.retrieval.fusion import tagged_with

    assert not tagged_with(["", "-", "/"], frozenset({"llm"}))
    assert tagged_with(["", "LLM"], frozenset({"llm"}))


@pytest.mark.parametrize("kind", ["spread", "ties", "alike-in-float32", "duplicates"])
def test_the_vector_order_from_float32_gives_the_float64_cut_and_ranks(kind):
    rng = np.random.default_rng(len(kind))
    for _ in range(300):
        n = int(rng.integers(2, 400))
        values = _population(kind, n, rng)
        order, ordered = index_module._Order(values), np.sort(values)
        for k in {1, n, int(rng.integers(1, n + 1))}:
            value, at_or_above = order.best(k)
            assert value == ordered[n - k]
            assert at_or_above == np.count_nonzero(values >= value) >= k
        members = values[rng.choice(n, size=int(rng.integers(1, n + 1)), replace=False)]
        expected = n - np.searchsorted(ordered, members, side="right") + 1
        assert (order.ranks(members) == expected).all()


@pytest.mark.parametrize("kind", ["spread", "ties", "duplicates"])
def test_no_score_left_out_of_the_keyword_cut_ranks_better_than_its_bound(kind):
    """_Ranked.best_outside(cut) is at most the rank of every document not within(cut), and 0
    only when none left out has a positive score (a rank) at all."""
    rng = np.random.default_rng(7 + len(kind))
    for _ in range(300):
        n = int(rng.integers(2, 400))
        scores = np.where(rng.random(n) < 0.3, 0.0, _population(kind, n, rng)).astype(np.float32)
        ranked, ranks = index_module._Ranked(scores), rank_array(scores, positive_only=True)
        for cut in {1, n, int(rng.integers(1, n + 1))}:
            out = ranks[~ranked.within(cut)]
            bound = ranked.best_outside(cut)
            if bound == 0:
                assert not (out > 0).any()
            else:
                assert (out[out > 0] >= bound).all()


def _population(kind: str, n: int, rng: np.random.Generator) -> np.ndarray:
    if kind == "spread":
        return rng.normal(size=n)
    if kind == "ties":
        return np.round(rng.normal(size=n), 2)
    if kind == "alike-in-float32":  # every value rounds to the same float32
        return 0.5 + rng.normal(size=n) * 1e-9
    # groups of seven equal values, some a hair apart: many rounded values shared
    return np.repeat(rng.normal(size=n // 7 + 1), 7)[:n] + rng.integers(0, 2, n) * 1e-12


def test_what_a_shard_keeps_between_searches_follows_its_changes():
    """News' recency ranks and the scripts' slots are kept until the shard changes: a search after
    a new article and a retitled one ranks as the whole fusion does on the changed shard."""
    rng = np.random.default_rng(5)
    shard = _shard(Collection.NEWS, 2_400, rng)
    filters, weights = SearchFilters(as_of=NOW), FusionWeights()
    query = rng.normal(size=DIMENSIONS)
    question = "최신 LLM 뉴스"
    before = search_shard(shard, query, question, 5, 0.0, filters, weights)  # fills what it keeps
    newest = {"document_id": "news-newest", "version": 1, "embedding_model": "m",
              "embedding_vector": query.tolist(), "embedding_text": f"{TITLES[3]} {TEXTS[3]}",
              "title": "LLM agents this week", "tags": TAGS[3], "published_at": NOW,
              "summary": TEXTS[3]}
    assert shard.put(newest, "m")  # a new slot: every slot is still kept, so what it keeps is read
    assert shard.put({**newest, "document_id": "news-1", "version": 2, "title": "에이전트 소식"}, "m")
    after = search_shard(shard, query, question, 5, 0.0, filters, weights)
    assert [(h.document_id, h.score, h.rank_value) for h in after] == _whole(
        shard, query, question, filters, weights, 5, 0.0)
    assert {h.document_id for h in after[:2]} == {"news-newest", "news-1"}  # the query's own vector
    assert before != after
