"""Routing rules (routing_rules.toml) in Korean and English, and the prompt budget rules."""

from __future__ import annotations

import pytest

from chatbot_api.domain.context import Budget, fit_prompt
from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.routing import (
    RouteKind,
    RouteOptions,
    default_rules,
    divisions_named,
    matches,
    readable,
    route,
)
from chatbot_api.retrieval.model import Collection, SearchHit
from techai_shared.errors import TokenLimitExceeded

pytestmark = pytest.mark.unit

DEFAULT = RouteOptions()


@pytest.mark.parametrize("text", [
    "안녕! 넌 어떤 걸 도와줄 수 있어?", "Hey, good morning!", "고마워, 오늘 덕분에 살았다 ㅎㅎ",
    "Can you tell me a quick joke about programmers?", "thanks!", "안녕하세요",
])
def test_small_talk_needs_no_retrieval(text):
    assert route(text, DEFAULT).kind is RouteKind.SMALL_TALK


@pytest.mark.parametrize("text", [
    "안녕, 이번 주 해커톤 있어?", "Hi, any hackathons next month?",
    "요즘 AI 뉴스 뭐 있어?", "What's the latest Kafka news?", "쿠버네티스 관련 자료",
])
def test_catalog_questions_retrieve(text):
    r = route(text, DEFAULT)
    assert r.kind is RouteKind.CATALOG and r.collections == (Collection.CONTESTS, Collection.NEWS)


@pytest.mark.parametrize("text", [
    "내 북마크 중에 팀원 구하는 대회", "Show my bookmarks about VPN", "저장해 둔 기사 뭐였지?",
])
def test_bookmarks_when_clearly_asked_even_if_not_enabled(text):
    assert Collection.BOOKMARKS in route(text, DEFAULT).collections


@pytest.mark.parametrize(("text", "asks"), [
    ("AUTOSAR Classic과 Adaptive의 차이를 설명해 주세요", True), ("두 대회 차이점은 뭐야?", True),
    ("Kotlin이랑 Flutter 중에 뭐가 나아?", True), ("레이크하우스가 웨어하우스랑 뭐가 달라?", True),
    ("API 키 발급은 어떻게 받나요?", True), ("DP 문제 어떻게 연습해?", True),
    ("러스트 소유권 개념 쉽게 설명해줘", True), ("VLAN 개념 좀 설명해줄래", True),
    ("segment tree lazy propagation 설명 좀", True),
    ("다온 LLM 2 뭐가 달라졌어?", False), ("뭐가 나아졌어?", False),  # what changed in an item
    ("우승팀은 어떻게 대비했대?", False), ("본선은 어떻게 구성됐어?", False),  # what was done, how it is
    ("상금은 얼마야?", False), ("대회 설명회 언제야?", False),
])
def test_comparisons_and_how_tos_are_requests(text, asks):
    assert matches(default_rules().requests, readable(text)) is asks


@pytest.mark.parametrize(("text", "named"), [
    ("파수꾼 CTF 2026 본선 우승팀", {(0, 1)}), ("Pasukkun CTF 2026 Finals에서 몇 팀?", {(0, 1)}),
    ("Shield CTF 2026 Quals", {(0, 0)}), ("예선 통과하면 본선 언제야", {(0, 0), (0, 1)}),
    ("Gaon Compiler Cup 2026 — 학생 부문", {(1, 0)}), ("일반부 상금", {(1, 1)}),
    ("대학생부터 참가 가능?", set()), ("연결선 문제", set()), ("final deadline 언제야?", set()),
    ("the final results of the cup", set()),
    ("Mulgyeol Data Challenge 2026 Preliminary", {(0, 0)}), ("the prelims of the cup", {(0, 0)}),
    ("a preliminary report on the outage", set()), ("preliminary revenue", set()),
    ("preliminary results of the Qubit Cup 2026", set()), ("the preliminary round", {(0, 0)}),
])
def test_the_divisions_of_a_series_are_read_as_words(text, named):
    assert divisions_named(text) == named


@pytest.mark.parametrize("text", ["지금 진행 중인 헤커톤 있어?", "any hackatons in january?",
                                  "다음 주 밋업 일정 알려주세요", "any meetups in Busan?"])
def test_a_contest_misspelt_or_a_meetup_names_the_catalog(text):
    assert matches(default_rules().contest, readable(text))


@pytest.mark.parametrize("text", ["애스터랩스 솔라스2 노트북에서 돌리려면 메모리 몇기가 필요하대?",
                                  "GPU 메모리 부족 뉴스"])
def test_memory_is_not_a_memo(text):
    assert Collection.BOOKMARKS not in route(text, DEFAULT).collections


def test_options_decide_the_collections():
    options = RouteOptions(include_contests=True, include_news=False, include_bookmarks=True)
    r = route("AI 해커톤 있어?", options)
    assert r.collections == (Collection.CONTESTS, Collection.BOOKMARKS) and r.bookmarks_involved


@pytest.mark.parametrize(("text", "ordinal"), [
    ("그거 신청 마감은 언제야?", None), ("상금은?", None), ("tell me more about the second one", 2),
    ("두 번째 거 자세히", 2), ("When is its deadline?", None),
])
def test_follow_ups_refer_back_only_when_there_is_a_previous_turn(text, ordinal):
    assert route(text, DEFAULT, has_previous=True).follow_up
    assert route(text, DEFAULT, has_previous=True).ordinal == ordinal
    assert not route(text, DEFAULT, has_previous=False).follow_up


@pytest.mark.parametrize("text", ["새 질문: 그거 말고 보안 대회 있어?",
                                  "Different topic: any CTF this month?"])
def test_reset_phrases_start_fresh(text):
    r = route(text, DEFAULT, has_previous=True)
    assert r.reset and not r.follow_up


def test_new_long_question_is_not_a_follow_up():
    assert not route("클라우드 비용 줄이는 대회가 있다던데 알려줄래?", DEFAULT, has_previous=True).follow_up


def test_explicit_ids_titles_ended_and_latest():
    r = route('c-0012랑 N-0003, 그리고 "Agentic AI Build Week 2026" 알려줘', DEFAULT)
    assert r.explicit_ids == ("c-0012", "n-0003") and r.quoted_titles == ("Agentic AI Build Week 2026",)
    # the ids the command API generates, whole, and words shaped like ids are not ids
    generated = route("c-1f0c3a9e5b7d4e21랑 n-0b3c4d5e6f708192는 뭐야?", DEFAULT)
    assert generated.explicit_ids == ("c-1f0c3a9e5b7d4e21", "n-0b3c4d5e6f708192")
    assert route("n-gram이랑 b-side 얘기", DEFAULT).explicit_ids == ()
    assert route("지난 알고리즘 대회 결과", DEFAULT).include_ended
    assert route("Which contests have already finished?", DEFAULT).include_ended
    assert not route("다음 달 대회", DEFAULT).include_ended
    assert route("최신 AI 뉴스", DEFAULT).wants_latest and route("latest news on Rust", DEFAULT).wants_latest


def _hit(n: int) -> SearchHit:
    return SearchHit(f"c-{n:04d}", Collection.CONTESTS, f"title {n}", "x" * 40, None, 0.9)


def _cost(turn: ChatTurn) -> int:
    return len(turn.content)  # one token per character keeps the arithmetic visible


def _render(hits):
    return ChatTurn("system", "".join(h.snippet for h in hits)) if hits else None


def test_context_is_cut_to_its_budget_then_history_before_context():
    system, question = ChatTurn("system", "s" * 10), ChatTurn("user", "q" * 10)
    history = [ChatTurn("user", "u" * 30), ChatTurn("assistant", "a" * 30)] * 3
    fitted = fit_prompt(system, history, [_hit(i) for i in range(5)], question, _render, _cost,
                        Budget(context_tokens=100, prompt_tokens=200), reply_priming=0)
    assert [h.document_id for h in fitted.hits] == ["c-0000", "c-0001"]  # 80 of 100 context tokens
    assert fitted.prompt_tokens <= 200
    assert [t.role for t in fitted.turns] == ["system", "user", "assistant", "system", "user"]
    tight = fit_prompt(system, history, [_hit(i) for i in range(5)], question, _render, _cost,
                       Budget(context_tokens=100, prompt_tokens=70), reply_priming=0)
    assert [t.role for t in tight.turns] == ["system", "system", "user"] and len(tight.hits) == 1


def test_question_alone_over_the_budget_is_token_limit_exceeded():
    with pytest.raises(TokenLimitExceeded):
        fit_prompt(ChatTurn("system", "s" * 10), [], [], ChatTurn("user", "q" * 100), _render, _cost,
                   Budget(prompt_tokens=50), reply_priming=0)
