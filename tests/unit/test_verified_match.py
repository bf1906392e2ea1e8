"""The rules that decide whether a question is a verified answer's question (chatbot_api.verified
.match), on given cosines: what each rule lets through and what it refuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot_api.language import korean
from chatbot_api.verified.match import (
    Answer,
    Published,
    Question,
    assess,
    best_match,
    normalised,
    phrasing,
    same_facets,
    topics,
)

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
PHRASINGS = [phrasing("v-0001", q, korean.content_terms) for q in (
    "캠퍼스 AI 윈터 해커톤 2026 신청 마감일은 언제야?",
    "When is the application deadline for the Campus AI Winter Hackathon 2026?")]
NAMES = frozenset({"캠퍼스", "윈터", "해커톤", "agentic", "build", "week", "예선", "본선"})


def _published(answers: dict[str, Answer], phrasings: list) -> Published:
    return Published.of(answers, phrasings,
                        {a: korean.content_terms(x.answer) for a, x in answers.items()})


def _asked(question: str) -> Question:
    return Question(question, korean.content_terms(question), korean.name_hints(question))


def _match(question: str, cosine: float = 0.95, answer: Answer | None = None,
           min_cosine: float = 0.9) -> bool:
    answers = {"v-0001": answer or Answer("v-0001", "12월 15일 마감", ("c-0039",), None, None)}
    found = best_match(_asked(question), [(p, cosine) for p in PHRASINGS],
                       _published(answers, PHRASINGS), NAMES, min_cosine, NOW)
    return found is not None


@pytest.mark.parametrize("question", [
    "캠퍼스 AI 윈터 해커톤 신청 언제까지야?",
    "What's the deadline to apply for the Campus AI Winter Hackathon?",
    "Campus AI Winter Hackathon registration deadline?",
])
def test_paraphrases_in_either_language_match(question: str) -> None:
    assert _match(question)


@pytest.mark.parametrize(("question", "why"), [
    ("Agentic AI Build Week 2026 신청 마감은 언제야?", "another contest (names)"),
    ("When is the application deadline for the Agentic AI Build Week?", "another contest (names)"),
    ("캠퍼스 AI 윈터 해커톤 2026 상금은 얼마야?", "another detail (topics)"),
    ("신청 마감은 언제야?", "no contest named (no shared term but topic words)"),
    ("캠퍼스 AI 윈터 해커톤 2027 신청 마감은 언제야?", "another year (numbers are names)"),
])
def test_near_misses_do_not(question: str, why: str) -> None:
    assert not _match(question), why


def test_the_cosine_and_the_script_come_first() -> None:
    assert not _match("캠퍼스 AI 윈터 해커톤 신청 언제까지야?", cosine=0.89)
    korean_only = [p for p in PHRASINGS if p.script == "ko"]
    asked = Question("Campus AI Winter Hackathon registration deadline?",
                     korean.content_terms("Campus AI Winter Hackathon registration deadline?"))
    answers = {"v-0001": Answer("v-0001", "x", (), None, None)}
    assert best_match(asked, [(p, 0.99) for p in korean_only], _published(answers, korean_only),
                      NAMES, 0.9, NOW) is None


def test_the_validity_window_is_checked_at_match_time() -> None:
    question = "캠퍼스 AI 윈터 해커톤 신청 언제까지야?"
    day = timedelta(days=1)
    assert not _match(question, answer=Answer("v-0001", "x", (), NOW + day, None))
    assert not _match(question, answer=Answer("v-0001", "x", (), None, NOW))  # until is excluded
    assert _match(question, answer=Answer("v-0001", "x", (), NOW - day, NOW + day))


def test_question_words_count_only_where_neither_side_has_a_topic() -> None:
    when, where = (phrasing("a", q, korean.content_terms)
                   for q in ("블루하버 CTF 본선은 언제 열려?", "블루하버 CTF 본선은 어디서 열려?"))
    assert not same_facets(when, where)
    prize_how_much, prize_tell = (phrasing("a", q, korean.content_terms)
                                  for q in ("상금은 얼마야?", "상금 알려줘"))
    assert same_facets(prize_how_much, prize_tell)
    assert topics("신청 마감일") == {"apply", "deadline"}


# -- rules 6 and 7, the phrasing asked as it is, suggestions ---------------------------------------

ACCOUNT = Answer("v-0002", "Settings > Account > Delete account. 설정 > 계정 > 탈퇴.", (), None, None)
CONTACT = Answer("v-0003", "Write to support@techai.example. 고객센터 메일로 문의하세요.", (), None, None)
LISTING = [phrasing("v-0002", q, korean.content_terms) for q in (
    "How do I delete my account?", "회원 탈퇴는 어떻게 하나요?")] + [
    phrasing("v-0003", q, korean.content_terms) for q in (
        "How do I contact support?", "고객센터에 문의하려면 어떻게 하나요?")]
BOTH = _published({"v-0002": ACCOUNT, "v-0003": CONTACT}, LISTING)


def _verdict(question: str, cosines: dict[str, float], min_cosine: float = 0.86):
    candidates = [(p, cosines.get(p.text, 0.0)) for p in LISTING]
    return assess(_asked(question), [c for c in candidates if c[1] >= 0.85], BOTH, frozenset(),
                  min_cosine, 0.85, NOW)


def test_a_term_another_answer_is_about_keeps_a_question_from_an_answer() -> None:
    """Rule 6: "contact" is what v-0003 is about, and v-0002 does not use it."""
    assert BOTH.claimed("contact", "v-0002", NOW)
    assert BOTH.foreign(_asked("How do I delete my account, contact?"), "v-0002") == ["contact"]
    close = {"How do I delete my account?": 0.95}
    assert _verdict("How do I delete my account quickly?", close).match is not None
    assert _verdict("How do I delete my account, contact?", close).match is None


def test_two_foreign_terms_are_one_too_many() -> None:
    close = {"How do I delete my account?": 0.95}
    assert _verdict("How do I delete my GitHub organization account?", close).match is None


def test_the_closest_phrasing_must_stand_out_from_another_answers() -> None:
    """Rule 7: a question as close to two answers is neither's."""
    question = "How do I delete my account?!"
    tied = {"How do I delete my account?": 0.93, "How do I contact support?": 0.92}
    assert _verdict(question + " now", tied).match is None
    apart = {"How do I delete my account?": 0.95, "How do I contact support?": 0.90}
    assert _verdict(question + " now", apart).match is not None


def test_a_phrasing_asked_as_it_is_is_served_whatever_the_rules() -> None:
    assert normalised("  회원 탈퇴는   어떻게 하나요? ") == normalised("회원 탈퇴는 어떻게 하나요")
    found = _verdict("회원 탈퇴는 어떻게 하나요", {"회원 탈퇴는 어떻게 하나요?": 0.99}).match
    assert found is not None and found.answer.answer_id == "v-0002"


def test_near_answers_are_suggested_closest_first_in_the_question_language() -> None:
    verdict = _verdict("계정 문의는 어디로 해?", {"How do I contact support?": 0.87,
                                               "회원 탈퇴는 어떻게 하나요?": 0.88}, min_cosine=0.95)
    assert verdict.match is None
    assert [(s.answer.answer_id, s.question) for s in verdict.suggestions] == [
        ("v-0002", "회원 탈퇴는 어떻게 하나요?"), ("v-0003", "고객센터에 문의하려면 어떻게 하나요?")]


def test_nothing_is_suggested_for_a_question_that_shares_no_word_with_an_answer() -> None:
    """e5 puts unrelated questions at 0.85 and above; a shared content word is required."""
    verdict = _verdict("김치찌개 맛있게 끓이는 법", {"회원 탈퇴는 어떻게 하나요?": 0.87})
    assert verdict.match is None and verdict.suggestions == ()


def test_a_sure_match_gets_no_suggestions_and_an_unsure_one_leads_them() -> None:
    close = {"How do I delete my account?": 0.95, "How do I contact support?": 0.86}
    sure = _verdict("how do I delete my account", close)
    assert sure.match is not None and sure.match.sure and sure.suggestions == ()
    unsure = _verdict("How do I delete my account now?", close)  # "now": one foreign term
    assert unsure.match is not None and not unsure.match.sure
    assert [s.answer.answer_id for s in unsure.suggestions] == ["v-0002"]  # v-0003: no word


def test_the_judge_reply_names_a_suggestion_by_its_leading_number() -> None:
    from chatbot_api.service_layer.verified_judge import chosen, prompt
    from chatbot_api.verified.match import Suggestion

    near = (Suggestion(ACCOUNT, "How do I delete my account?", 0.9),
            Suggestion(CONTACT, "How do I contact support?", 0.88))
    turns = prompt("close my account", near)
    assert turns[-1].content.endswith("1. How do I delete my account?\n2. How do I contact support?")
    assert chosen("2", near) is near[1] and chosen(" 1.", near) is near[0]
    for no in ("0", "3", "none", "echo: 1. How do I delete", ""):
        assert chosen(no, near) is None, no


def test_a_question_closer_to_an_answer_than_to_any_general_question_is_suggested_it() -> None:
    """Sharing no word, "상담원이랑 얘기하고 싶어요" still gets the support answer when no general
    question of the bank is closer to it than that answer."""
    question = "상담원이랑 얘기하고 싶어요"
    candidates = [(p, 0.87) for p in LISTING if p.answer_id == "v-0003"]
    near = assess(_asked(question), candidates, BOTH, frozenset(), 0.95, 0.85, NOW, general=0.84)
    assert [s.answer.answer_id for s in near.suggestions] == ["v-0003"]
    far = assess(_asked(question), candidates, BOTH, frozenset(), 0.95, 0.85, NOW, general=0.9)
    assert far.suggestions == ()


def test_closing_an_account_is_removing_it_and_a_closing_date_is_a_deadline() -> None:
    assert topics("what are the steps to close my account on TechAI?") == {"remove"}
    assert topics("When does registration close?") == {"apply", "deadline"}
    assert "step" not in BOTH.foreign(_asked("What are the steps to delete my account?"), "v-0002")


def test_an_expired_answer_neither_rivals_nor_claims_words_from_its_replacement() -> None:
    old = Answer("v-0009", "old", (), None, NOW - timedelta(days=1))
    listing = [*LISTING, phrasing("v-0009", "How do I delete my account quickly?",
                                  korean.content_terms)]
    published = _published({"v-0002": ACCOUNT, "v-0003": CONTACT, "v-0009": old}, listing)
    cosines = {"How do I delete my account?": 0.945, "How do I delete my account quickly?": 0.95}
    candidates = [(p, cosines[p.text]) for p in listing if p.text in cosines]
    found = assess(_asked("How do I delete my account quickly?"), candidates, published,
                   frozenset(), 0.86, 0.85, NOW)
    assert found.match is not None and found.match.answer.answer_id == "v-0002"
    assert not published.claimed("quickly", "v-0002", NOW)
