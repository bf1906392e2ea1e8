"""The fusion's ended-contest, other-year and other-division demotions, status order, names bonus
and kind bonus, on documents given as dicts (no store)."""

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


def test_an_ended_contest_the_question_names_is_not_demoted() -> None:
    docs = [{"title": "코드포지 알고리즘 챔피언십 2026 예선", "status": "ENDED"},
            {"title": "코드포지 알고리즘 챔피언십 2026 본선", "status": "UPCOMING"}]
    named = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [1, 1],
                 "코드포지 챔피언십 예선이랑 본선 각각 몇 문제씩이야?", WEIGHTS)
    assert named[0] == named[1]  # most of its title's terms are the question's: same standing
    other = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [1, 1], "알고리즘 대회 문제 수", WEIGHTS)
    assert other[1] > other[0]  # three of its eleven terms: demoted
    unranked = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [None, None],
                    "코드포지 챔피언십 예선이랑 본선 각각 몇 문제씩이야?", WEIGHTS)
    assert unranked[1] > unranked[0]  # only the keyword side's candidates are read


def test_a_contest_the_question_names_counts_as_one_of_the_asked_status() -> None:
    docs = [{"title": "별빛 게임잼 2026 여름", "status": "ENDED"},
            {"title": "별빛 게임잼 2027 겨울", "status": "UPCOMING"},
            {"title": "Indie Pixel Jam", "status": "ENDED"}]
    question = "별빛 게임잼 지난 여름 테마랑 이번 겨울 시즌 신청 마감 알려줘"  # "지난": ended ones first
    fused = fuse(Collection.CONTESTS, docs, [0.95, 0.90, 0.92], [1, 2, 3], question, WEIGHTS)
    assert fused[0] > fused[1] > fused[2]  # the upcoming one it names stays above an ended one
    unnamed = fuse(Collection.CONTESTS, docs, [0.95, 0.90, 0.92], [1, 2, 3], "지난 여름 게임잼 테마",
                   WEIGHTS)
    assert unnamed[2] > unnamed[1]  # not named: the ended ones go first


def test_the_editions_of_other_years_than_the_question_names_rank_below_its_year() -> None:
    docs = [{"title": "Dandan CTF 2025", "status": "UPCOMING"},
            {"title": "Dandan CTF 2026 Final", "status": "UPCOMING"},
            {"title": "Dandan CTF 본선 안내", "status": "UPCOMING"}]
    sims, ranks = [0.95, 0.93, 0.93], [1, 2, 2]
    asked = fuse(Collection.CONTESTS, docs, sims, ranks, "Dandan CTF 2026 본선 어디서 해?", WEIGHTS)
    assert asked[1] > asked[0]  # its year's edition goes first though the other stood a rank higher
    assert asked[2] > asked[0]  # a title naming no year is not demoted
    unasked = fuse(Collection.CONTESTS, docs, sims, ranks, "Dandan CTF 본선 어디서 해?", WEIGHTS)
    assert unasked[0] > unasked[1]  # no year asked: the order of the sides
    off = fuse(Collection.CONTESTS, docs, sims, ranks, "Dandan CTF 2026 본선 어디서 해?",
               FusionWeights(year=0))
    assert np.array_equal(off, unasked)


def test_a_year_is_four_digits_of_their_own() -> None:
    docs = [{"title": "Dandan CTF 2025", "status": "UPCOMING"},
            {"title": "Dandan CTF 2026", "status": "UPCOMING"}]
    for question in ("Dandan CTF 20265 문제", "Dandan CTF 12026 문제", "Dandan CTF 문제",
                     "Dandan CTF 상금 2026만 원", "Dandan CTF 2026명 참가", "CVE-2026-1234 Dandan CTF",
                     "Dandan CTF 2048 게임"):
        fused = fuse(Collection.CONTESTS, docs, [0.95, 0.93], [1, 2], question, WEIGHTS)
        assert fused[0] > fused[1], question
    for question in ("Dandan CTF 2026년 문제", "Dandan CTF 2026 개막", "2026-11-22 Dandan CTF"):
        fused = fuse(Collection.CONTESTS, docs, [0.95, 0.93], [1, 2], question, WEIGHTS)
        assert fused[1] > fused[0], question


def test_the_other_division_of_a_series_ranks_below_the_one_the_question_names() -> None:
    docs = [{"title": "파수꾼 CTF 2026 예선", "status": "ENDED"},
            {"title": "Pasukkun CTF 2026 Finals", "status": "ENDED"},
            {"title": "파수꾼 CTF 2026", "status": "ENDED"}]
    sims, ranks = [0.95, 0.93, 0.93], [1, 2, 2]
    finals = fuse(Collection.CONTESTS, docs, sims, ranks, "파수꾼 CTF 2026 본선 우승팀이 어디였나요?",
                  WEIGHTS)
    assert finals[1] > finals[0] and finals[2] > finals[0]  # the qualifier goes below
    both = fuse(Collection.CONTESTS, docs, sims, ranks, "파수꾼 CTF 2026 예선이랑 본선 날짜", WEIGHTS)
    assert both[0] > both[1]  # both named: the order of the sides
    news = fuse(Collection.NEWS, [{"title": "파수꾼 CTF 2026 본선 진출 20팀 확정"},
                                  {"title": "파수꾼 CTF 2026 예선 참가 430팀"}],
                [0.95, 0.93], [1, 2], "파수꾼 CTF 2026 예선 결과 나왔어?", WEIGHTS)
    assert news[0] > news[1]  # news are not demoted: a qualifier's results name its finalists
    saved = fuse(Collection.BOOKMARKS,
                 [{"item_title": "파수꾼 CTF 2026 본선 진출 20팀 확정", "item_type": "NEWS_ARTICLE"},
                  {"item_title": "파수꾼 CTF 2026 예선 참가 430팀", "item_type": "NEWS_ARTICLE"},
                  {"item_title": "파수꾼 CTF 2026 Finals", "item_type": "CONTEST"},
                  {"item_title": "파수꾼 CTF 2026 예선", "item_type": "CONTEST"}],
                 [0.95, 0.93, 0.95, 0.93], [1, 2, 1, 2], "파수꾼 CTF 2026 예선 결과 나왔어?", WEIGHTS)
    assert saved[0] > saved[1]  # a saved article neither
    assert saved[3] > saved[2]  # a saved contest is


def test_a_student_division_question_demotes_the_general_division() -> None:
    docs = [{"title": "Gaon Compiler Cup 2026 — 일반 부문", "status": "ENDED"},
            {"title": "Gaon Compiler Cup 2026 — 학생 부문", "status": "ENDED"}]
    fused = fuse(Collection.CONTESTS, docs, [0.95, 0.94], [1, 2], "가온 컴파일러컵 2026 학생부문 과제 뭐임?",
                 WEIGHTS)
    assert fused[1] > fused[0]
    off = fuse(Collection.CONTESTS, docs, [0.95, 0.94], [1, 2], "가온 컴파일러컵 2026 학생부문 과제 뭐임?",
               FusionWeights(division=0))
    assert off[0] > off[1]


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


def test_a_question_naming_one_kind_ranks_items_of_that_kind_level_above_the_others() -> None:
    # the best contest and the best article of a question stand level on their own collections'
    # ranks; "기사" (an article) puts the article first, "대회" (a contest) the contest
    contest = fuse(Collection.CONTESTS, _contests("ONGOING"), [0.9], [1], "랜섬웨어 복구 기사", WEIGHTS)
    article = fuse(Collection.NEWS, [{"title": "랜섬웨어 복구"}], [0.9], [1], "랜섬웨어 복구 기사", WEIGHTS)
    assert article[0] > contest[0]
    contest = fuse(Collection.CONTESTS, _contests("ONGOING"), [0.9], [1], "랜섬웨어 복구 대회", WEIGHTS)
    article = fuse(Collection.NEWS, [{"title": "랜섬웨어 복구"}], [0.9], [1], "랜섬웨어 복구 대회", WEIGHTS)
    assert contest[0] > article[0]


def test_a_saved_item_is_of_its_items_kind() -> None:
    saved = [{"title": "a", "item_type": "NEWS_ARTICLE"}, {"title": "b", "item_type": "CONTEST"}]
    fused = fuse(Collection.BOOKMARKS, saved, [0.9, 0.9], [2, 1], "Which article was that?", WEIGHTS)
    assert fused[0] > fused[1]


def test_a_question_naming_both_kinds_or_none_favours_neither() -> None:
    for question in ("해커톤 우승팀 인터뷰 기사", "벡터 DB 스타트업 인수"):
        contest = fuse(Collection.CONTESTS, _contests("ONGOING"), [0.9], [1], question, WEIGHTS)
        article = fuse(Collection.NEWS, [{"title": "x"}], [0.9], [1], question, WEIGHTS)
        assert contest[0] == article[0]


def test_a_status_word_of_a_question_about_an_article_does_not_favour_contests_of_that_status() -> None:
    # "했던 기사" (the article that said) reads as the past, which would rank ended contests first
    question = "읽기 복제본은 백업이 아니라고 했던 기사"
    ended = fuse(Collection.CONTESTS, _contests("ENDED"), [0.9], [1], question, WEIGHTS)
    article = fuse(Collection.NEWS, [{"title": "Read replicas are not a backup"}], [0.9], [1],
                   question, WEIGHTS)
    assert article[0] > ended[0]


def test_an_item_in_the_other_script_takes_its_vector_rank_on_the_keyword_side() -> None:
    # an English question; the Korean article is the closest Korean one but shares no word with
    # it; an English one far down the vector side shares "team" and "Korean"
    question = "the team that tripled throughput with java virtual threads"
    docs = [{"title": "자바 버추얼 스레드 도입 사례"}, {"title": "스레드 풀 튜닝"}, {"title": "가상 머신"},
            *({"title": f"English article {i}"} for i in range(7)), {"title": "Lessons from a Korean team"}]
    sims = [0.94, 0.80, 0.79, 0.93, 0.92, 0.91, 0.90, 0.89, 0.88, 0.87, 0.86]
    ranks = [None] * 10 + [1]
    fused = fuse(Collection.NEWS, docs, sims, ranks, question, WEIGHTS)
    assert fused[0] > fused[-1]
    plain = fuse(Collection.NEWS, docs, sims, ranks, question, FusionWeights(other_script=False))
    assert plain[-1] > plain[0]


def test_an_item_named_exactly_stays_above_the_best_items_of_the_other_script() -> None:
    # a Korean question naming a Korean contest, first on both sides: the English contests,
    # unmatched, take their vector ranks a few ranks lower and stay below it
    question = "솔방울 양자 해커톤"
    korean = [{"title": f"양자 대회 {i}", "status": "ONGOING"} for i in range(6)]
    english = [{"title": f"Challenge {i}", "status": "ONGOING"} for i in range(6)]
    sims = [0.97, 0.90, 0.89, 0.88, 0.87, 0.86, 0.89, 0.88, 0.87, 0.86, 0.85, 0.84]
    ranks = [1, 2, 3, None, None, None] + [None] * 6
    fused = fuse(Collection.CONTESTS, korean + english, sims, ranks, question, WEIGHTS)
    assert fused[0] == fused.max()
    assert fused[0] - max(fused[6:]) > WEIGHTS.ended / (WEIGHTS.k + 1)  # ended, it stays first


def test_the_vector_side_ranks_an_item_against_the_others_in_its_script() -> None:
    # an English question meets English texts at higher cosines: the Korean article furthest
    # above the other Korean ones ranks first on the vector side, above English ones closer in
    # cosine but no further above the rest of their script
    question = "which fintech rewrote its payment engine in rust"
    docs = [{"title": "결제 엔진을 러스트로"}, {"title": "모바일 앱"}, {"title": "게임 잼"},
            {"title": "Rust in production"}, {"title": "Go in production"}, {"title": "Java news"}]
    sims = [0.86, 0.80, 0.80, 0.90, 0.89, 0.88]
    # the vector side alone (the keyword side has no match; the other script's rule is off)
    by_script = fuse(Collection.NEWS, docs, sims, [None] * 6, question,
                     FusionWeights(other_script=False))
    assert by_script[0] == by_script.max()
    raw = fuse(Collection.NEWS, docs, sims, [None] * 6, question,
               FusionWeights(vector_by_script=False, other_script=False))
    assert raw[3] == raw.max()


def test_an_item_in_the_questions_script_gets_no_keyword_rank_it_did_not_earn() -> None:
    docs = [{"title": "Java virtual threads in production"}, {"title": "Lessons from a team"}]
    fused = fuse(Collection.NEWS, docs, [0.94, 0.93], [None, 1], "java virtual threads team", WEIGHTS)
    assert fused[1] > fused[0]


def test_the_hangul_marks_of_a_caller_rank_as_the_titles_do() -> None:
    docs = [{"title": "자바 사례"}, {"title": "Java case"}, {"item_title": "카프카 대회"}]
    sims, ranks = [0.9, 0.8, 0.85], [0, 1, 2]
    from_docs = fuse(Collection.BOOKMARKS, docs, sims, ranks, "java case study", WEIGHTS)
    given = fuse(Collection.BOOKMARKS, docs, sims, ranks, "java case study", WEIGHTS,
                 hangul=np.asarray([True, False, True]))
    assert np.allclose(from_docs, given)


def test_an_asked_status_orders_contests_first_among_themselves() -> None:
    # "끝난" asks for ended contests: the ended one goes first, though it ranks lower on both sides
    docs = _contests("ONGOING", "ENDED")
    fused = fuse(Collection.CONTESTS, docs, [0.92, 0.90], [1, 2], "이미 끝난 CTF 대회", WEIGHTS)
    assert fused[1] > fused[0]


def test_an_asked_status_does_not_lift_contests_above_the_other_collections() -> None:
    # a question about an ended contest's result: the article first on both sides stays above
    # every ended contest, as it would without the status word; the contests' values are the
    # ones they had, in the status's order
    question = "작년에 끝난 블루하버 결승 우승팀 전략"  # names no kind of item
    docs = [{"title": f"보안 대회 {i}", "status": s}  # titles the question does not name
            for i, s in enumerate(("ENDED", "ENDED", "ONGOING", "ENDED"))]
    sims, ranks = [0.90, 0.89, 0.88, 0.87], [2, 3, 1, 4]
    contests = fuse(Collection.CONTESTS, docs, sims, ranks, question, WEIGHTS)
    article = fuse(Collection.NEWS, [{"title": "블루하버 결승 종료, 대학생 연합팀 우승"}], [0.91], [1],
                   question, WEIGHTS)
    assert article[0] > contests.max()
    plain = fuse(Collection.CONTESTS, docs, sims, ranks, "블루하버 결승 우승팀 전략",
                 FusionWeights(ended=0.0))
    assert sorted(contests) == sorted(plain)
    assert contests[2] == min(contests)  # the ongoing one goes last


def test_an_asked_status_orders_contests_of_the_same_standing_too() -> None:
    docs = [{"title": "AI 대회", "status": "ONGOING"}, {"title": "AI 대회", "status": "ENDED"}]
    fused = fuse(Collection.CONTESTS, docs, [0.9, 0.9], [1, 1], "이미 끝난 GPU 대회", WEIGHTS)
    assert fused[1] > fused[0]


def test_an_item_tagged_with_a_topic_of_the_question_ranks_above_one_that_is_not() -> None:
    # two articles level on both sides; the question asks for security news (보안 -> security)
    docs = [{"title": "article 0", "tags": ["cloud"]}, {"title": "article 1", "tags": ["security"]}]
    fused = fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 1], "지난달 보안 뉴스", WEIGHTS)
    assert fused[1] > fused[0]
    # a tag of several parts matches when every part is the question's
    docs = [{"title": "a", "tags": ["data-breach"]}, {"title": "b", "tags": ["data-center"]}]
    fused = fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 1], "data breach news this month", WEIGHTS)
    assert fused[0] > fused[1]


def test_only_a_question_for_a_list_of_items_is_steered_by_tags() -> None:
    docs = [{"title": "하늘-3 출시", "tags": ["llm"]}, {"title": "API 가격 인하", "tags": ["api"]}]
    listing = "지난달 API 가격 기사"  # dates: which articles there are
    assert fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 1], listing, WEIGHTS)[1] > fuse(
        Collection.NEWS, docs, [0.9, 0.9], [1, 1], listing, WEIGHTS)[0]
    # a question about one item ("하늘3 API 가격"), or one that names it: no tag bonus
    for fused in (fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 1], "하늘3 API 가격", WEIGHTS),
                  fuse(Collection.NEWS, docs, [0.9, 0.9], [1, 1], listing, WEIGHTS,
                       names=["하늘"])):
        assert fused[0] >= fused[1]
