"""What the in-memory index computes over arrays instead of per document: the fusion's tie
parting, the tags it matches and the ranks, each held equal to the per-document rule."""

from __future__ import annotations

import numpy as np
import pytest

from chatbot_api.retrieval.fusion import _strictly_decreasing, tagged_with
from chatbot_api.retrieval.index import Shard
from chatbot_api.retrieval.keyword import rank_array
from chatbot_api.retrieval.model import Collection

pytestmark = pytest.mark.unit


def _stepped_one_by_one(values: np.ndarray) -> np.ndarray:
    values = values.copy()
    for i in range(1, len(values)):
        if values[i] >= values[i - 1]:
            values[i] = np.nextafter(values[i - 1], -np.inf)
    return values


@pytest.mark.parametrize("values", [
    [0.05, 0.05, 0.05, 0.04, 0.04],
    [0.02, 0.0, 0.0, -0.0, -0.001, -0.001, -0.002],
    [1e-300, 1e-300, 0.0, 0.0, -5e-324, -5e-324],
    [0.3, np.nextafter(0.3, -np.inf), 0.3 - 1e-17, 0.1, 0.1],
])
def test_tied_values_are_parted_as_a_step_by_step_nextafter_parts_them(values):
    given = np.sort(np.asarray(values, dtype=np.float64))[::-1].copy()
    parted = _strictly_decreasing(given)
    assert np.array_equal(parted, _stepped_one_by_one(given))
    assert (np.diff(parted) < 0).all()


def test_random_values_with_many_ties_are_parted_alike():
    rng = np.random.default_rng(3)
    given = np.sort(np.round(rng.normal(size=5000) * 0.01, 3))[::-1].copy()
    assert np.array_equal(_strictly_decreasing(given), _stepped_one_by_one(given))


def test_ranks_share_the_best_rank_of_equal_values_whatever_the_sort():
    rng = np.random.default_rng(4)
    values = np.round(rng.random(20_000), 2)
    ranks = rank_array(values)
    expected = np.asarray([1 + np.count_nonzero(values > v) for v in values[:500]])
    assert np.array_equal(ranks[:500], expected)


def _doc(i: int, tags: list[str]) -> dict[str, object]:
    return {"document_id": f"c-{i}", "version": 1, "embedding_model": "m",
            "embedding_vector": [1.0, 0.0], "embedding_text": f"contest {i}", "tags": tags}


def test_the_tag_index_matches_what_each_document_s_tags_match_through_writes_and_compaction():
    shard = Shard(Collection.CONTESTS, 2)
    tag_sets = [["llm"], ["data-breach", "security"], ["AI/ML"], [], ["hackathon", "llm"]]
    docs = [_doc(i, tag_sets[i % len(tag_sets)]) for i in range(120)]
    for doc in docs:
        shard.put(doc, "m")
    shard.put({**_doc(3, ["security"]), "version": 2}, "m")  # retagged
    docs[3] = {**_doc(3, ["security"]), "version": 2}
    for i in range(0, 120, 3):  # a third removed: the shard compacts
        shard.remove(f"c-{i}", 5)
    held = {d["document_id"]: d for i, d in enumerate(docs) if i % 3}
    kept = np.flatnonzero(shard.alive[:len(shard.slots)])
    for terms in ({"llm"}, {"data", "breach"}, {"breach"}, {"ai", "ml"}, {"security", "llm"}, set()):
        got = shard.tagged_among(kept, frozenset(terms))
        slots = [shard.slots[int(k)] for k in kept]
        expected = [tagged_with(held[s.document_id]["tags"], frozenset(terms)) for s in slots]
        assert list(got) == expected, terms
    assert len(kept) == 80


def _text_doc(i: int, text: str, version: int = 1) -> dict[str, object]:
    return {"document_id": f"n-{i}", "version": version, "embedding_model": "m",
            "embedding_vector": [1.0, 0.0], "embedding_text": text}


def test_the_kept_term_scores_follow_every_write_of_the_shard():
    from chatbot_api.retrieval.index import _bm25

    texts = ["kafka streams tutorial", "kafka security", "rust async runtime", "security audit kafka"]
    shard = Shard(Collection.NEWS, 2)
    for i, text in enumerate(texts):
        shard.put(_text_doc(i, text), "m")

    def scores(held: Shard) -> list[float]:
        return _bm25(held, np.arange(len(held.slots)), "kafka security").tolist()

    def fresh(docs: dict[int, str]) -> Shard:
        rebuilt = Shard(Collection.NEWS, 2)
        for i, text in docs.items():
            rebuilt.put(_text_doc(i, text), "m")
        return rebuilt

    first = scores(shard)
    assert first == scores(fresh(dict(enumerate(texts))))
    shard.put(_text_doc(4, "kafka kafka kafka"), "m")  # the lengths and the frequencies change
    assert scores(shard) == scores(fresh({**dict(enumerate(texts)), 4: "kafka kafka kafka"}))
    shard.put(_text_doc(1, "rust security", version=2), "m")  # replaced
    expected = fresh({0: texts[0], 1: "rust security", 2: texts[2], 3: texts[3], 4: "kafka kafka kafka"})
    assert scores(shard) == scores(expected)
    assert scores(shard) != first


def test_the_kept_slots_and_publications_follow_writes_deletions_and_compaction():
    from datetime import UTC, datetime

    from chatbot_api.retrieval.model import SearchFilters

    def dated(i: int, day: int | None, version: int = 1) -> dict[str, object]:
        published = None if day is None else datetime(2026, 11, day, tzinfo=UTC)
        return {**_text_doc(i, f"article {i}", version), "published_at": published}

    def expected(held: Shard) -> tuple[list[int], list[float]]:
        alive = [i for i, slot in enumerate(held.slots) if slot is not None]
        published = [0.0 if np.isnan(p) else float(p) for p in held.published[:len(held.slots)]]
        return alive, published

    shard = Shard(Collection.NEWS, 2)
    unfiltered = SearchFilters()
    for i in range(70):
        shard.put(dated(i, 1 + i % 28 if i % 5 else None), "m")
        if i % 9 == 0:  # read between writes: what is kept must not go stale
            assert (shard.kept(unfiltered).tolist(), shard.published_or_zero(
                slice(0, len(shard.slots))).tolist()) == expected(shard)
    shard.put(dated(3, 20, version=2), "m")  # a date given to an undated one
    for i in range(10, 40):  # holes, then a compaction
        shard.remove(f"n-{i}", 2)
    assert shard.kept(unfiltered).tolist() == expected(shard)[0]
    assert shard.published_or_zero(slice(0, len(shard.slots))).tolist() == expected(shard)[1]
    window = SearchFilters(published_after=datetime(2026, 11, 10, tzinfo=UTC))
    assert shard.kept(window).tolist() == np.flatnonzero(shard.mask(window)).tolist()
    assert len(shard.kept(window)) < len(shard.kept(unfiltered))


def test_the_kept_contests_are_the_pre_filter_s_for_every_filter():
    from datetime import UTC, datetime, timedelta

    from chatbot_api.retrieval.model import SearchFilters

    day = datetime(2026, 11, 22, 3, tzinfo=UTC)
    shard = Shard(Collection.CONTESTS, 2)
    for i in range(40):  # ended, running and coming contests, and undated ones
        start = None if i % 7 == 0 else day + timedelta(days=i - 20)
        end = None if i % 7 == 0 else day + timedelta(days=i - 12)
        shard.put({**_text_doc(i, f"contest {i}"), "document_id": f"c-{i}", "start_date": start,
                   "end_date": end, "status": "ENDED" if i % 3 else None}, "m")
    shard.remove("c-5", 2)
    window = (day + timedelta(days=1), day + timedelta(days=8))
    for filters in (SearchFilters(as_of=day), SearchFilters(include_ended_contests=False, as_of=day),
                    SearchFilters(contest_window=window, as_of=day),
                    SearchFilters(contest_window=window, by_deadline=True, as_of=day),
                    SearchFilters(contest_window=window, by_start=True, as_of=day),
                    SearchFilters(include_ended_contests=False, contest_window=window, as_of=day)):
        assert shard.kept(filters).tolist() == np.flatnonzero(shard.mask(filters)).tolist(), filters
    every = len(shard.kept(SearchFilters(as_of=day)))
    assert every == 39
    assert 0 < len(shard.kept(SearchFilters(include_ended_contests=False, as_of=day))) < every
    assert 0 < len(shard.kept(SearchFilters(contest_window=window, as_of=day))) < every


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_keyword_ranks_read_from_the_sorted_scores_are_rank_arrays(seed):
    from chatbot_api.retrieval.index import _Ranked

    rng = np.random.default_rng(seed)
    # BM25-like float32 scores: most documents match nothing, the rest with many ties
    scores = np.where(rng.random(5_000) < 0.4, np.round(rng.random(5_000), 2), 0).astype(np.float32)
    expected = rank_array(scores, positive_only=True)
    ranked = _Ranked(scores)
    assert np.array_equal(ranked.ranks(scores), expected)
    assert int(ranked.ranks(scores.max())) == 1 and int(ranked.ranks(np.float32(0))) == 0
    for cut in (1, 100, 256, 1_900, 1_999, 2_000, 4_999):
        assert np.array_equal(ranked.within(cut), (expected > 0) & (expected <= cut)), cut
    assert not _Ranked(np.zeros(10, dtype=np.float32)).within(5).any()


def test_the_titles_are_numbered_as_the_documents_hold_them_through_renames_and_compaction():
    shard = Shard(Collection.CONTESTS, 2)
    for i in range(300):
        shard.put({**_doc(i, []), "title": f"Contest {i % 40}"}, "m")
    for round_ in range(2, 6):  # renamed again and again: the old titles are dropped on the way
        for i in range(300):
            shard.put({**_doc(i, []), "version": round_, "title": f"Renamed {round_} {i % 50}"}, "m")
    for i in range(0, 300, 2):  # half removed: the shard compacts
        shard.remove(f"c-{i}", 9)
    held = [s for s in shard.slots if s is not None]
    assert len(held) == 150
    for at, slot in enumerate(shard.slots):
        if slot is not None:
            assert shard.title_names[shard.title_ids[at]] == (slot.doc["title"], slot.doc["title"])
    assert len(shard.title_names) <= 2 * len(shard.slots) + 64


def test_the_names_rules_read_the_same_titles_from_the_shard_as_from_the_documents():
    """names_ranking reads title_of (a title, else an item's title); the rule that a question names
    a contest reads the document's own title: both the same from the shard's numbering."""
    from chatbot_api.retrieval.fusion import Candidates
    from chatbot_api.retrieval.intent import read_intent

    docs = [{**_doc(0, []), "title": "Kafka Streams Challenge"},
            {**_doc(1, []), "title": "", "item_title": "Codeforge Championship"},
            {**_doc(2, []), "item_title": "Codeforge Championship"},
            {**_doc(3, []), "title": "Kafka Streams Challenge"}]
    shard = Shard(Collection.CONTESTS, 2)
    for doc in docs:
        shard.put(doc, "m")
    at = np.arange(4)
    common = (Collection.CONTESTS, docs, [1, 2, 3, 4], "codeforge", read_intent("codeforge"), (),
              None, None, None)
    from_docs = Candidates(*common)
    from_shard = Candidates(*common, title_ids=shard.title_ids[:4], title_names=shard.title_names)
    for own in (False, True):
        expected, which = from_docs.titles_of(at, own=own)
        got, got_which = from_shard.titles_of(at, own=own)
        assert [expected[i] for i in which] == [got[i] for i in got_which], own
    names, which = from_shard.titles_of(at, own=True)
    assert [names[i] for i in which] == ["Kafka Streams Challenge", "", "", "Kafka Streams Challenge"]


def test_a_tag_whose_parts_repeat_is_taken_out_with_its_document():
    shard = Shard(Collection.NEWS, 2)
    shard.put(_doc(1, ["bye-bye", "llm"]), "m")
    shard.put(_doc(2, ["llm"]), "m")
    shard.put({**_doc(1, ["bye-bye"]), "version": 2}, "m")  # retagged: its llm goes
    assert shard.remove("c-1", 5)
    kept = np.flatnonzero(shard.alive[:len(shard.slots)])
    assert list(shard.tagged_among(kept, frozenset({"bye"}))) == [False]
    assert list(shard.tagged_among(kept, frozenset({"llm"}))) == [True]
    assert "bye" not in shard._tags_with


def test_standardising_by_script_gives_numpys_mean_and_std_per_script():
    from chatbot_api.retrieval.fusion import standardised_by_script

    rng = np.random.default_rng(8)
    for size, share in ((10_000, 0.5), (3_000, 0.02), (500, 0.0), (500, 1.0), (2, 0.5), (1, 1.0)):
        sims = np.round(rng.random(size), 3)
        hangul = rng.random(size) < share
        expected = np.zeros(size)
        for group in (hangul, ~hangul):
            if group.sum() >= 2 or (group.all() and size):
                spread = sims[group]
                expected[group] = (spread - spread.mean()) / max(float(spread.std()), 1e-9)
        assert np.array_equal(standardised_by_script(sims, hangul), expected), (size, share)
