"""The rules that decide whether a question is a verified answer's question (chatbot_api.verified
.match), on given cosines: what each rule lets through and what it refuses."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot_api.language import korean
from chatbot_api.verified.match import Answer, Question, best_match, phrasing, same_facets, topics

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 24, 12, 0, tzinfo=UTC)
PHRASINGS = [phrasing("v-0001", q, korean.content_terms) for q in (
    "캠퍼스 AI 윈터 해커톤 2026 신청 마감일은 언제야?",
    "When is the application deadline for the Campus AI Winter Hackathon 2026?")]
NAMES = frozenset({"캠퍼스", "윈터", "해커톤", "agentic", "build", "week", "예선", "본선"})


def _match(question: str, cosine: float = 0.95, answer: Answer | None = None,
           min_cosine: float = 0.9) -> bool:
    answers = {"v-0001": answer or Answer("v-0001", "12월 15일 마감", ("c-0039",), None, None)}
    asked = Question(question, korean.content_terms(question), korean.name_hints(question))
    found = best_match(asked, [(p, cosine) for p in PHRASINGS], lambda _: PHRASINGS, answers,
                       NAMES, min_cosine, NOW)
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
    assert best_match(asked, [(p, 0.99) for p in korean_only], lambda _: korean_only, answers,
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
