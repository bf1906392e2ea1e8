"""Input normalisation, language detection and the history token window."""

from __future__ import annotations

import pytest

from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import (
    ChatTurn,
    is_korean,
    normalize_message,
    normalize_title,
    reading_form,
    window_history,
)
from techai_shared.errors import InvalidInput

pytestmark = pytest.mark.unit


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("  다음 달   해커톤\t있어? \n", "다음 달 해커톤 있어?"),
        ("a\u200bb\u0000c", "abc"),
        ("line1\r\nline2", "line1 line2"),
        ("가" * 500, "가" * 500),
    ],
)
def test_normalize_message_trims_collapses_and_strips_controls(raw, expected):
    assert normalize_message(raw) == expected


@pytest.mark.parametrize("raw", ["", "   ", "\u200b\u0007", "가" * 501, "a " * 250 + "b"])
def test_normalize_message_rejects_empty_and_over_500_characters(raw):
    with pytest.raises(InvalidInput):
        normalize_message(raw)


def test_title_must_be_1_to_200_characters():
    assert normalize_title(" 제목 ") == "제목"
    for bad in ("", " ", "x" * 201):
        with pytest.raises(InvalidInput):
            normalize_title(bad)


def test_is_korean():
    assert is_korean("AI 해커톤 있어?")
    assert not is_korean("any AI hackathon next month?")


def _turns(n: int) -> list[ChatTurn]:
    return [ChatTurn("user" if i % 2 == 0 else "assistant", f"message number {i}") for i in range(n)]


def test_window_keeps_newest_contiguous_tail_within_budget():
    counter = TokenCounter()

    def cost(t: ChatTurn) -> int:
        return counter.count_message(t.role, t.content)

    turns = _turns(10)
    budget = sum(cost(t) for t in turns[-4:])
    kept = window_history(turns, budget, cost)
    assert kept == turns[-4:]
    assert sum(cost(t) for t in kept) <= budget


def test_window_drops_an_answer_whose_question_did_not_fit():
    turns = _turns(4)  # user, assistant, user, assistant

    def cost(_: ChatTurn) -> int:
        return 10

    assert window_history(turns, 30, cost) == turns[2:]
    assert window_history(turns, 0, cost) == []


def test_token_counts_are_exact_o200k():
    # "hello world" is 2 tokens in o200k_base (as in tiktoken).
    assert TokenCounter().count("hello world") == 2


def test_the_engine_reads_full_width_letters_and_digits_as_ascii():
    assert reading_form("ＡＩ ｈａｃｋａｔｈｏｎ ２０２６ 있어？") == "AI hackathon 2026 있어?"
    assert reading_form("㈜코드포지 해커톤") == "(주)코드포지 해커톤"
    assert reading_form("블록체인 캠퍼스 챌린지") == "블록체인 캠퍼스 챌린지"  # Hangul as it was
