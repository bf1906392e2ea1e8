"""The fusion's ended-contest demotion and names bonus, on documents given as dicts (no store)."""

from __future__ import annotations

import numpy as np

from chatbot_api.retrieval.fusion import NAME_CANDIDATES, FusionWeights, fuse
from chatbot_api.retrieval.model import Collection

WEIGHTS = FusionWeights()


def _contests(*statuses: str) -> list[dict[str, object]]:
    return [{"title": f"contest {i}", "status": s} for i, s in enumerate(statuses)]


def test_an_ended_contest_ranks_below_an_active_one_of_the_same_standing() -> None:
    docs = _contests("ENDED", "ONGOING")
    fused = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [1, 1], "해커톤 있어?", WEIGHTS)
    assert fused[1] > fused[0]


def test_an_ended_contest_clearly_better_stays_above_an_active_one() -> None:
    # first on both sides against sixth on both: the demotion is worth about three ranks at the top
    docs = _contests("ENDED", "UPCOMING", "UPCOMING", "UPCOMING", "UPCOMING", "ONGOING")
    sims = [0.95, 0.94, 0.93, 0.92, 0.91, 0.90]
    fused = fuse(Collection.CONTESTS, docs, sims, [1, 2, 3, 4, 5, 6], "블록체인 캠퍼스 챌린지", WEIGHTS)
    assert fused[0] > fused[5]
    assert fused[1] > fused[0]  # an active one a rank behind it goes first


def test_a_question_about_the_past_does_not_demote_ended_contests() -> None:
    docs = _contests("ENDED", "ONGOING")
    fused = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [1, 1], "이미 끝난 해커톤 알려줘", WEIGHTS)
    assert fused[0] >= fused[1]


def test_the_ended_marks_of_a_caller_rank_as_the_documents_statuses_do() -> None:
    docs = _contests("ENDED", "ONGOING", "UPCOMING", "ENDED")
    sims, ranks = [0.9, 0.8, 0.85, 0.7], [2, 1, 3, 4]
    from_docs = fuse(Collection.CONTESTS, docs, sims, ranks, "해커톤", WEIGHTS)
    given = fuse(Collection.CONTESTS, docs, sims, ranks, "해커톤", WEIGHTS,
                 ended=np.asarray([True, False, False, True]))
    assert np.allclose(from_docs, given)


def test_a_title_holding_a_name_of_the_question_gets_the_names_bonus() -> None:
    docs = [{"title": "Payroute 간편결제 장애"}, {"title": "간편결제 서비스 동향"}]
    plain = fuse(Collection.NEWS, docs, [0.9, 0.9], [2, 1], "페이루트 장애", WEIGHTS)
    named = fuse(Collection.NEWS, docs, [0.9, 0.9], [2, 1], "페이루트 장애", WEIGHTS,
                 names=("payroute",))
    assert plain[1] > plain[0] and named[0] > named[1]


def test_a_latin_name_counts_as_a_whole_word_only() -> None:
    docs = [{"title": "Kafkaesque deploys"}, {"title": "Kafka 4.0 released"}]
    fused = fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 2], "kafka", WEIGHTS, names=("kafka",))
    assert fused[1] > fused[0]


def test_only_the_keyword_sides_best_titles_are_read_for_names() -> None:
    n = NAME_CANDIDATES + 1
    docs = [{"title": "Kafka meetup"} for _ in range(n)]
    ranks = list(range(1, n + 1))
    fused = fuse(Collection.NEWS, docs, [0.9] * n, ranks, "kafka", WEIGHTS, names=("kafka",))
    plain = fuse(Collection.NEWS, docs, [0.9] * n, ranks, "kafka", WEIGHTS)
    assert fused[0] > plain[0] and fused[-1] == plain[-1]
