"""The words a conversation is searched by (techai_shared.korean) and the ranking and snippets of
a search (chatbot_api.domain.session_search): plain Python, no stores."""

from __future__ import annotations

from chatbot_api.domain.session_search import Postings, candidates, matches, snippet
from techai_shared.conversation.search import field_of, shard_of, word_of
from techai_shared.korean import QueryTerm, index_terms, query_terms


def test_korean_words_are_found_inside_longer_eojeol_and_compounds():
    for text in ("해커톤은 언제야?", "AI해커톤 대회 목록", "해커톤대회 일정"):
        assert "해커톤" in index_terms(text), text
    assert {"데이터", "분석", "데이터분석"} <= index_terms("데이터분석 공모전")
    assert query_terms("해커톤") == [QueryTerm("해커톤", ())]
    assert "은" not in index_terms("해커톤은") and "는" not in index_terms("대회는")


def test_latin_words_are_lower_cased_without_plural_and_split_at_dots():
    assert {"ctf", "security", "december"} == index_terms("Security CTFs in December.")
    assert {"node.js", "node", "js", "gpt-4o", "gpt", "4o", "c++"} <= index_terms(
        "node.js and GPT-4o, C++")
    assert query_terms("Node.JS") == [QueryTerm("node.js", ("node", "js"))]
    assert query_terms("the of and ?") == []


def test_words_round_trip_as_field_names():
    for word in ("node.js", "c++", "50%", "a$b", "해커톤"):
        assert "." not in field_of(word) and "$" not in field_of(word)
        assert word_of(field_of(word)) == word
    assert 0 <= shard_of("해커톤") < 32 and shard_of("해커톤") == shard_of("해커톤")


def _index(**words: dict[str, list[str]]) -> dict[str, Postings]:
    out = {}
    for word, sessions in words.items():
        postings = Postings()
        postings.add({sid: mids for sid, mids in sessions.items() if sid != "title"},
                     sessions.get("title", []))
        out[word] = postings
    return out


def test_every_word_must_be_held_and_titles_then_messages_then_newer_rank_first():
    index = _index(ai={"s1": ["m1"], "s2": ["m2", "m3"], "s3": ["m4"], "title": ["s4"]},
                   대회={"s1": ["m1"], "s2": ["m3"], "s4": ["m9"], "title": ["s3"]})
    found = candidates(query_terms("AI 대회"), index)
    assert [c.session_id for c in found] == ["s4", "s3", "s2", "s1"]
    s2 = next(c for c in found if c.session_id == "s2")
    assert s2.message_ids == {"m3"} and s2.any_ids == {"m2", "m3"}
    assert candidates(query_terms("AI 없는말"), index) == []


def test_a_split_word_is_found_by_its_parts_in_one_message():
    index = _index(데이터={"s1": ["m1"], "s2": ["m2"]}, 분석={"s1": ["m1"], "s2": ["m3"]})
    found = candidates(query_terms("데이터분석"), index)
    assert [c.session_id for c in found] == ["s1"]


def test_the_snippet_is_cut_around_the_first_match_and_highlights_every_match():
    text = (("첫 문장은 관계없는 이야기입니다. " * 8)
            + "여기에 AI해커톤 이야기가 있고 해커톤은 12월에 열립니다. 끝.")
    terms = query_terms("해커톤")
    shown = snippet(text, terms, "m1", width=60)
    assert shown.text.startswith("…") and shown.message_id == "m1"
    assert len(shown.text) <= 62
    marked = [shown.text[a:a + n] for a, n in shown.highlights]
    assert marked == ["해커톤", "해커톤"]
    assert matches("CTFs in December", query_terms("ctf")) and not matches("없음", terms)
