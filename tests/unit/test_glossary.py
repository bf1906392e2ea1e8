"""The cross-language keyword expansion (retrieval/glossary.py): both directions, Korean particles,
one-syllable terms, whole English words, the shipped glossary's format."""

from __future__ import annotations

import pytest

from chatbot_api.retrieval.glossary import GLOSSARY_FILE, Glossary, default_glossary, keyword_query
from chatbot_api.retrieval.keyword import tokenize

pytestmark = pytest.mark.unit

SMALL = Glossary.parse(
    "# comment\n"
    "보안\tsecurity\n"
    "취약점\tvulnerability, cve\n"
    "팀\tteam\n"
    "지원 종료\tend of life, eol\n"
    "가격\tprice, pricing\n"
)


def test_korean_terms_bring_their_english_words_even_with_particles_attached():
    assert SMALL.equivalents("보안 취약점이 있었나요?") == ["security", "vulnerability", "cve"]


def test_english_words_bring_their_korean_term_also_in_plural():
    assert SMALL.equivalents("Any new vulnerabilities or price changes?") == ["취약점", "가격"]


def test_a_one_syllable_term_counts_only_at_the_start_of_a_word():
    assert SMALL.equivalents("팀으로 나가요") == ["team"]
    assert SMALL.equivalents("스팀 게임") == []


def test_phrases_match_as_words_in_a_row_in_both_languages():
    assert SMALL.equivalents("지원 종료된 버전") == ["end of life", "eol"]
    assert SMALL.equivalents("MySQL end of life") == ["지원 종료"]
    assert SMALL.equivalents("지원을 종료") == []


def test_english_matches_whole_words_only():
    assert SMALL.equivalents("prices") == ["가격"]
    assert SMALL.equivalents("priceless teamwork") == []


def test_words_already_in_the_question_are_not_repeated():
    assert SMALL.equivalents("보안 security") == []
    assert SMALL.expand("nothing known here") == "nothing known here"
    assert SMALL.expand("보안") == "보안 security"


def test_a_malformed_line_is_refused_with_its_number():
    with pytest.raises(ValueError, match="line 2"):
        Glossary.parse("보안\tsecurity\n취약점 vulnerability\n")


def test_the_shipped_glossary_parses_and_bridges_a_korean_question_to_english_tokens():
    assert len(default_glossary()) > 150
    expanded = keyword_query("최근 쿠버네티스 보안 취약점 뉴스")
    assert {"kubernetes", "security", "vulnerability"} <= set(tokenize(expanded))
    english = keyword_query("Was the benchmark leaked?")
    assert {"벤치", "치마", "마크"} <= set(tokenize(english))


def test_every_shipped_korean_term_is_hangul_so_it_can_match():
    for line in GLOSSARY_FILE.read_text(encoding="utf-8").splitlines():
        if line.startswith("#") or not line.strip():
            continue
        korean = line.split("\t")[0]
        assert all("\uac00" <= ch <= "\ud7a3" or ch == " " for ch in korean), line


def test_the_entries_a_question_is_matched_against_are_all_that_could_match(monkeypatch):
    """equivalents() reads only the entries filed under a character pair of the question: it gives
    what reading every entry gives, for the sample's texts and the glossary's own terms."""
    import json
    from pathlib import Path

    glossary = default_glossary()
    seed = Path(__file__).resolve().parents[2] / "infra" / "seed"
    texts = [json.loads(line)["query"] for path in sorted(seed.glob("queries-*.jsonl"))
             for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
    for entry in glossary._entries:
        texts += [entry.korean + "이", *(t.upper() + "s" for t in entry.english)]
    prefiltered = [glossary.equivalents(t) for t in texts]
    monkeypatch.setattr(glossary, "_candidates", lambda spaced, lowered: range(len(glossary)))
    assert [glossary.equivalents(t) for t in texts] == prefiltered
    assert sum(map(bool, prefiltered)) > 500


def test_the_glossary_tells_its_vocabulary_from_names() -> None:
    glossary = default_glossary()
    assert glossary.holds("Hackathon") and glossary.holds("해커톤") and glossary.holds("cloud")
    assert not glossary.holds("Payroute") and not glossary.holds("나래클라우드")
