"""Korean read as Korean (lemmas for the routing rules) and names across scripts (sound keys)."""

from __future__ import annotations

import pytest

from chatbot_api.domain.routing import RouteOptions, route
from chatbot_api.language import names
from chatbot_api.language.korean import dictionary_word, lemma_text
from chatbot_api.retrieval.intent import read_intent
from chatbot_api.retrieval.keyword import latin_names, name_words
from chatbot_api.retrieval.signals import spellings_in


@pytest.mark.parametrize("question", [
    "모바일 접근성 앱 공모전 끝났어?", "그 챌린지 이미 끝났나?", "끝난 알고리즘 대회 알려줘",
    "작년에 했던 해커톤 결과", "지난 CTF 대회 결과", "Which contests have already finished?",
])
def test_the_past_is_read_from_every_conjugation(question: str) -> None:
    assert route(question, RouteOptions()).include_ended
    assert read_intent(question).wants_ended


@pytest.mark.parametrize("question", ["다음 달 해커톤 알려줘", "지금 열려 있는 대회 있어?",
                                      "Any hackathon coming up?"])
def test_a_question_about_now_or_later_is_not_about_the_past(question: str) -> None:
    assert not read_intent(question).wants_ended


def test_lemma_text_gives_dictionary_forms() -> None:
    assert "끝나다" in lemma_text("끝났어")
    assert "끝나다" in lemma_text("끝났나")


@pytest.mark.parametrize(("hangul", "latin"), [
    ("페이루트", "Payroute"), ("모아몰", "Moamall"), ("데이터하이브", "Datahive"), ("벡터리", "Vectorly"),
    ("카프카", "Kafka"), ("플러터", "Flutter"), ("쿠버네티스", "Kubernetes"), ("파이썬", "Python"),
    ("한결", "Hangyeol"), ("마이크로소프트", "Microsoft"), ("나래클라우드", "NaraeCloud"),
    ("해커톤", "hackathon"),
])
def test_a_name_and_its_spelling_in_the_other_script_share_a_key(hangul: str, latin: str) -> None:
    assert names.hangul_key(hangul) and names.hangul_key(hangul) in names.latin_keys(latin)
    # a question's word looks for the other script's key, a document's word carries its own
    assert set(names.query_keys(latin.lower())) & set(names.document_keys(hangul))
    assert set(names.query_keys(hangul)) & set(names.document_keys(latin.lower()))


@pytest.mark.parametrize(("hangul", "latin"), [("페이루트", "Kafka"), ("모아몰", "Payroute"),
                                               ("카프카", "Flutter")])
def test_different_names_do_not_share_a_key(hangul: str, latin: str) -> None:
    assert names.hangul_key(hangul) not in names.latin_keys(latin)


def test_of_words_with_the_same_key_the_one_that_sounds_alike_with_its_vowels_is_closest() -> None:
    # all three are heard P-N-K, so the key alone does not choose among them
    assert {names.document_keys(w) for w in ("판교", "반기", "번역")} == {names.query_keys("pangyo")}
    assert names.likeness("pangyo", "판교") > names.likeness("pangyo", "반기") > names.likeness(
        "pangyo", "번역")
    assert names.likeness("로그하버", "LogHarbor") > names.likeness("로그하버", "Larger")
    assert names.romanized("판교에서") == "pangyoeseo"


def test_short_keys_are_not_made_and_words_of_one_script_never_meet() -> None:
    assert names.latin_key("go") == "" and names.hangul_key("자바") == ""
    # the same sound in the same script is not a cross-script match
    assert not set(names.query_keys("flutter")) & set(names.document_keys("flutter"))


def test_name_words_strip_particles_and_pair_latin_words() -> None:
    words = name_words("페이루트가 Narae Cloud 요금을")
    assert {"페이루트가", "페이루트", "narae", "cloud", "naraecloud", "요금을", "요금"} <= set(words)


def test_latin_names_are_capitalised_words_or_any_latin_word_in_korean() -> None:
    assert latin_names("Did Payroute drop ZooKeeper?") == {"payroute", "zookeeper"}
    assert "naraecloud" in latin_names("What did Narae Cloud do about egress fees?")
    assert "reverse" not in latin_names("How do I reverse a linked list in Python?")
    assert "kafka" in latin_names("kafka 해커톤 언제야?")


def test_two_capitalised_words_opening_a_question_are_a_name_as_a_pair_only() -> None:
    assert latin_names("Narae Cloud price cut: how much cheaper?") == {"cloud", "naraecloud"}
    assert latin_names("Best Rust IDE for beginners?") == {"rust", "ide", "rustide", "bestrust"}
    assert latin_names("Which Kafka release fixed it?") == {"kafka"}  # "which": not a name
    assert latin_names("What is Kafka?") == {"kafka"}


def test_kiwi_knows_ordinary_words_and_not_made_up_names() -> None:
    assert dictionary_word("시즌") and dictionary_word("판매량은") and dictionary_word("능금")
    assert not dictionary_word("페이루트") and not dictionary_word("로그하버가")
    assert not dictionary_word("블루하버")  # a compound: 블루 and 하버


def test_a_dictionary_word_finds_a_name_only_as_its_romanisation() -> None:
    lexicon: dict[str, set[str]] = {}
    for word in ("Season", "Kafka", "Payroute", "Bank"):
        for key in names.document_keys(word.lower()):
            lexicon.setdefault(key, set()).add(word)
    assert spellings_in(lexicon, "카프카 새 버전 시즌 일정") == ["Kafka"]
    assert spellings_in(lexicon, "페이루트 장애") == ["Payroute"]


def test_a_spelling_the_glossary_translates_is_not_a_name() -> None:
    lexicon: dict[str, set[str]] = {}
    for word in ("클라우드", "나래클라우드"):
        for key in names.document_keys(word):
            lexicon.setdefault(key, set()).add(word)
    # "Cloud" sounds like the glossary's 클라우드; the pair "Narae Cloud" like the name
    assert spellings_in(lexicon, "Narae Cloud price cut: how much cheaper?") == ["나래클라우드"]
