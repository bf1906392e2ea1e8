"""The pure parts of catalog search: tokens, fusion, scores, pre-filters, query intent, merging."""

from __future__ import annotations

from datetime import UTC, datetime

import numpy as np
import pytest

from chatbot_api.adapters.catalog_retriever import merge_hits
from chatbot_api.domain.routing import default_rules, matches, readable
from chatbot_api.domain.time_words import names_dates
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.keyword import bm25_scores, ranks, reciprocal_rank_fusion, tokenize
from chatbot_api.retrieval.model import (
    Collection,
    RetrievalError,
    SearchFilters,
    SearchHit,
    atlas_score,
    cosine_similarities,
    prefilter,
)

pytestmark = pytest.mark.unit


def test_tokenize_lowercases_words_and_cuts_hangul_into_bigrams() -> None:
    assert tokenize("Kafka 공모전은") == ["kafka", "공모", "모전", "전은"]


def test_tokenize_splits_latin_names_glued_to_korean_particles() -> None:
    assert tokenize("Kafka로 GPU를") == ["kafka", "로", "gpu", "를"]


def test_tokenize_drops_request_words() -> None:
    assert tokenize("Show my bookmarks about the VPN") == ["bookmarks", "vpn"]


def test_bm25_ranks_the_matching_korean_text_first_despite_particles() -> None:
    scores = bm25_scores("쿠버네티스 취약점이", ["모바일 앱 공모전", "쿠버네티스 보안 취약점 발견", "날씨"])
    assert int(np.argmax(scores)) == 1
    assert scores[0] == 0.0


def test_bm25_of_unknown_words_is_zero_everywhere() -> None:
    assert list(bm25_scores("zzz", ["a b", "c d"])) == [0.0, 0.0]


def test_ranks_are_one_based_best_first_and_skip_non_positive_when_asked() -> None:
    assert ranks([0.1, 0.9, 0.5]) == [3, 1, 2]
    assert ranks([0.0, 2.0, 1.0], positive_only=True) == [None, 1, 2]


def test_equal_values_share_a_rank_whatever_their_order() -> None:
    assert ranks([0.5, 0.9, 0.5, 0.1]) == [2, 1, 2, 4]
    assert ranks([0.1, 0.5, 0.9, 0.5]) == [4, 2, 1, 2]
    assert ranks([0.0, 0.3, 0.3], positive_only=True) == [None, 1, 1]


def test_reciprocal_rank_fusion_weights_each_ranking() -> None:
    fused = reciprocal_rank_fusion([[1, 2], [2, None]], [1.0, 0.5], k=10)
    assert fused == pytest.approx([1 / 11 + 0.5 / 12, 1 / 12])


def test_atlas_score_maps_cosine_into_zero_one() -> None:
    assert atlas_score(1.0) == 1.0
    assert atlas_score(-1.0) == 0.0
    assert atlas_score(0.0) == 0.5
    assert atlas_score(1.0000001) == 1.0


def test_cosine_similarities_handle_unnormalised_and_zero_rows() -> None:
    sims = cosine_similarities(np.array([[2.0, 0.0], [0.0, 0.0], [-1.0, 0.0]]), np.array([3.0, 0.0]))
    assert list(sims) == [1.0, 0.0, -1.0]


@pytest.mark.parametrize("filters", [
    SearchFilters(),
    SearchFilters(include_ended_contests=True),
    SearchFilters(published_after=datetime(2026, 1, 1, tzinfo=UTC)),
])
def test_bookmarks_are_always_filtered_by_the_callers_user_id(filters: SearchFilters) -> None:
    assert prefilter(Collection.BOOKMARKS, "1001", filters) == {"user_id": {"$eq": "1001"}}


def test_bookmarks_cannot_be_searched_without_a_user_id() -> None:
    with pytest.raises(RetrievalError):
        prefilter(Collection.BOOKMARKS, "", SearchFilters())


def test_ended_contests_are_searched_unless_a_caller_limits_contests_to_active_ones() -> None:
    assert prefilter(Collection.CONTESTS, "1", SearchFilters()) == {}
    now = datetime(2026, 11, 26, tzinfo=UTC)
    assert prefilter(Collection.CONTESTS, "1", SearchFilters(include_ended_contests=False,
                                                             as_of=now)) == {
        "end_date": {"$gte": now}}  # not ended as of the question, whatever was stored


def test_news_publication_window() -> None:
    after, before = datetime(2026, 1, 1, tzinfo=UTC), datetime(2026, 6, 1, tzinfo=UTC)
    assert prefilter(Collection.NEWS, "1", SearchFilters()) == {}
    assert prefilter(Collection.NEWS, "1", SearchFilters(published_after=after, published_before=before)) == {
        "published_at": {"$gte": after, "$lte": before}}


def test_intent_reads_time_and_saved_words() -> None:
    assert read_intent("latest news about the Java logging library RCE").wants_recent
    assert read_intent("최근 쿠버네티스 보안 취약점").wants_recent
    assert read_intent("Which algorithm contests have already finished this year?").wants_ended
    assert read_intent("Any hackathon coming up?").wants_upcoming
    assert read_intent("지금 참여할 수 있는 챌린지").preferred_statuses() == {"ONGOING"}
    assert read_intent("Which of my saved contests are about agents?").wants_saved
    assert read_intent("Hey, good morning!") == read_intent("")


def test_intent_reads_the_one_kind_of_item_a_question_names() -> None:
    assert read_intent("회사 동료들끼리 나갈 수 있는 생성형 AI 대회").asked_kind == "CONTEST"
    assert read_intent("Which article was I going to quote?").asked_kind == "NEWS"
    assert read_intent("해커톤 우승팀 인터뷰 기사").asked_kind is None  # both kinds: neither
    assert read_intent("벡터 DB 스타트업 인수").asked_kind is None
    # words that make a question a catalog one without naming a kind: a grant one applies for
    # (신청, 지원) or a winner (prize) is news as often as a contest
    assert read_intent("재직자도 교육 바우처 신청 되나요? 최대 얼마 지원돼요?").asked_kind is None
    assert read_intent("who took the grand prize at the pitching day?").asked_kind is None
    assert read_intent("별빛 게임잼 테마가 뭐였더라?").asked_kind == "CONTEST"


@pytest.mark.parametrize("asked", [
    "별밭 게임잼 2026 우승작 뭐였지?",
    "Maru CTF 2025 누가 우승했어?",
    "다온증권 퀀트 챌린지 2026 우승팀 누구?",
    "부산 해커톤 2026 대상 받은 팀 어디야",
    "공공데이터 경진대회 2025 대상 뭐였음?",
    "해커톤 최우수상 누가 받았어?",
    "한울시 안전 데이터 해커톤 결과가 궁금해요",
    "딸기 병해 예측 챌린지 결과 어떻게 됐어?",
    "해커톤 결과 발표됐어?",
    "샌드캐슬 엔진 플러그인 공모전에서 1등은 누구였나요?",
    "해커톤 1위는 누구야?",
    "해커톤 1등 누구야?",
    "who won qubit cup 2026",
    "Which team won qubit cup 2026 hackathon?",
    "who took first place at the CTF?",
    "hackathon results?",
    "Gureumbi Forecast Cup 2025 winner?",
])
def test_a_question_about_who_won_does_not_rank_contests_first(asked) -> None:
    # its contest word names the event; the results are reported in articles as often
    assert read_intent(asked).asked_kind is None


def test_who_won_with_a_news_word_asks_for_articles() -> None:
    assert read_intent("해커톤 결과가 궁금한데 기사 있어?").asked_kind == "NEWS"


@pytest.mark.parametrize("asked", [
    # a prize, the winners' prize or how they are chosen
    "파수꾼 CTF 2026 본선 우승 상금 얼마?",
    "스트라투스 해커톤 우승하면 뭐 줬어?",
    "해커톤 1등은 상금 얼마야?",
    "공모전 1등을 하면 뭐 받아?",
    "CTF 1등한테 주는 상금 얼마야?",
    "CTF 1등팀 상금 얼마야?",
    "해커톤 우승자는 뭐 받아?",
    "해커톤에서 우승한 팀은 상금 얼마 받아?",
    "우승했을 때 받는 상금이 얼마야 해커톤",
    "What's the prize for 1st place at the CTF?",
    "What does the winner of the CTF get?",
    "What's the prize for winners of the hackathon?",
    "How are winners selected in the hackathon?",
    # 대상 as "for" and who may enter
    "대학생 대상 해커톤 있어?",
    "해커톤 참가 대상은 누구야?",
    "이 공모전 지원 대상은 어떻게 돼?",
    "청소년 대상 작품 공모전 있어?",
    "고등학생 대상 팀 해커톤 있어?",
    "대상은 누가 참가할 수 있어? 해커톤",
    # what a winner wrote, how to submit, when results come
    "끝난 대회인데 우승팀 기술 보고서 읽으려고 저장해둔 거",
    "작년에 우승한 팀 기술 보고서 저장해둔 거 대회",
    "공모전 분석 결과를 어떻게 제출해야 돼?",
    "해커톤 심사 결과는 뭐로 결정돼?",
    "예선 결과 발표 언제야? 해커톤",
    "Teams that won the qualifier can join the CTF final?",
])
def test_a_prize_or_who_may_enter_still_asks_about_the_contest(asked) -> None:
    assert read_intent(asked).asked_kind == "CONTEST"


@pytest.mark.parametrize("asked", [
    "내가 북마크한 CTF 관련 거 뭐 있지?",
    "내 북마크에서 CTF 관련된 거 보여줘",
    "해커톤 관련 저장해 둔 거 있어?",
    "게임잼에 관한 북마크",
    "did i bookmark any CTF stuff?",
    "did I save anything about the Garam hackathon?",
    "my CTF-related bookmarks",
    "CTF와 관련된 북마크 보여줘",
    "해커톤에 대한 북마크",
    "did I save something about the hackathon?",
])
def test_a_contest_word_used_as_a_topic_names_no_kind(asked) -> None:
    # what is saved or reported about a CTF is an article as often as the contest itself
    assert read_intent(asked).asked_kind is None


@pytest.mark.parametrize(("asked", "kind"), [
    ("CTF 관련 대회 있어?", "CONTEST"),  # a word that names contests as such
    ("CTF-related contests this month?", "CONTEST"),
    ("challenges related to AI", "CONTEST"),  # "related to" qualifies the challenges
    ("내가 북마크한 해커톤", "CONTEST"),
    ("bookmarked ctf?", "CONTEST"),
    ("해커톤 관련 뉴스", "NEWS"),
    ("해커톤 관련 기사", "NEWS"),  # articles about hackathons
    ("CTF 관련 행사 뭐 있어?", "CONTEST"),  # the catalog's other contest words name the kind
    ("해커톤 관련 신청 마감 언제야?", "CONTEST"),
    ("AI 챌린지 관련 해커톤 있어?", "CONTEST"),  # a contest word after it is the kind asked
    ("hackathon-related events this month?", "CONTEST"),
])
def test_a_contest_word_as_the_kind_asked_still_names_it(asked, kind) -> None:
    assert read_intent(asked).asked_kind == kind


@pytest.mark.parametrize(("asked", "lookup"), [
    ("anything closing today?", True),
    ("Is anything starting next week?", True),
    ("이번 주에 시작하는 거 있어?", True),
    ("오늘 마감인 거 뭐 있어?", True),
    ("anything that closes today?", True),
    ("what's closing this week?", True),
    ("다음 주에 시작하는 건 없어?", True),
    ("is there anything good to eat?", False),
    ("what time does the store close today?", False),
    ("Are there any known bugs due to the new React compiler?", False),
    ("Is there any risk in closing a Kafka consumer without committing offsets?", False),
    ("Is there anything wrong with opening a file twice in Python?", False),
    ("vim 종료하는 거 뭐야?", False),
    ("도커 컨테이너 시작하는 거 뭐였지?", False),
])
def test_asking_whether_anything_starts_or_closes_is_a_lookup(asked, lookup) -> None:
    # what starts or closes in a portal is a contest: the relevance gate lets such a question pass
    assert matches(default_rules().lookups, readable(asked)) is lookup
    assert read_intent(asked).asks_for_list is (lookup or bool(names_dates(asked)))
    if lookup:  # the gate lets it pass as a lookup, not on its time word alone
        assert names_dates(asked)


def _hit(doc: str, collection: Collection, score: float, rank: float, owner: str | None = None) -> SearchHit:
    metadata = {"user_id": owner} if owner else {}
    return SearchHit(doc, collection, doc, "", None, score, metadata, rank)


def test_merge_orders_by_rank_value_dedupes_and_cuts() -> None:
    hits = [_hit("c-1", Collection.CONTESTS, 0.9, 0.01), _hit("n-1", Collection.NEWS, 0.8, 0.03),
            _hit("c-1", Collection.CONTESTS, 0.9, 0.01), _hit("n-2", Collection.NEWS, 0.7, 0.02)]
    assert [h.document_id for h in merge_hits(hits, "1001", 2)] == ["n-1", "n-2"]


def test_merge_drops_another_users_bookmark_and_can_put_bookmarks_first() -> None:
    hits = [_hit("n-1", Collection.NEWS, 0.9, 0.05), _hit("b-1", Collection.BOOKMARKS, 0.8, 0.01, "1001"),
            _hit("b-2", Collection.BOOKMARKS, 0.99, 0.09, "1002")]
    assert [h.document_id for h in merge_hits(hits, "1001", 5)] == ["n-1", "b-1"]
    assert [h.document_id for h in merge_hits(hits, "1001", 5, bookmarks_first=True)] == ["b-1", "n-1"]
