"""The relevance gate over a catalog sample given as vectors and terms (no store)."""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.retrieval.model import Collection
from chatbot_api.retrieval.question_bank import QUESTION_BANK, QuestionBank
from chatbot_api.retrieval.relevance import Evidence, RelevanceGate, Thresholds, decision
from chatbot_api.retrieval.signals import coverage, digest, rarest_name, terms_of


class Sample(CatalogSample):
    def __init__(self, matrix: np.ndarray, texts: list[str]) -> None:
        super().__init__(None, "test-model")  # type: ignore[arg-type]
        self._fixed = (matrix / np.linalg.norm(matrix, axis=1, keepdims=True),
                       [terms_of(t) for t in texts])

    async def sample(self) -> tuple[np.ndarray, list[frozenset[str]]]:
        return self._fixed


TEXTS = ["쿠버네티스 장애 대응 챌린지", "Kafka Streaming Hackathon 2027", "블루하버 CTF 본선",
         "PostgreSQL 19 released", "누리AI 하늘-3 출시"]
# z 2.0 over the five items: 5 * Q(2.0) = 0.114 items by chance
THRESHOLDS = Thresholds(chance_max=0.114, coverage_min=0.6, name_documents_max=1, general_votes_min=3,
                        lead_min=0.02)


def _catalog() -> np.ndarray:
    rng = np.random.default_rng(7)
    return rng.normal(size=(len(TEXTS), 8)) + 5.0  # all alike, as a multilingual model makes them


async def test_a_question_close_to_one_item_passes() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    peak = matrix[1] + 0.5 * (matrix[1] - matrix.mean(axis=0)) * 10
    assert (await gate.evidence("What is this?", peak)).z > 1.0


async def test_an_off_topic_question_fails_and_a_cue_or_its_words_let_it_pass() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    middle = matrix.mean(axis=0)  # equally close to everything: no peak
    assert not await gate.passes("What's a good recipe for kimchi fried rice?", middle)
    assert await gate.passes("김치볶음밥 대회 있어?", middle)  # names the catalog (대회)
    assert await gate.passes("쿠버네티스 장애 대응", middle)  # its words are an item's


async def test_a_model_without_calibration_is_not_gated() -> None:
    gate = RelevanceGate(Sample(_catalog(), TEXTS), None)
    assert await gate.passes("What's a good recipe for kimchi fried rice?", _catalog().mean(axis=0))


def test_the_peak_asks_for_more_of_a_larger_catalog() -> None:
    # the bar calibrated over the sample's 180 items: z 2.95
    bar = Thresholds(chance_max=0.286, coverage_min=0.6, name_documents_max=3,
                     general_votes_min=3, lead_min=0.02).chance_max
    assert Evidence(z=2.95, coverage=0.0, cue=False, items=180).chance <= bar
    # over 10,000 items, z 2.95 is what a quarter of them reach by chance; z 4.1 is not
    assert Evidence(z=2.95, coverage=0.0, cue=False, items=10_000).chance > bar
    assert Evidence(z=4.1, coverage=0.0, cue=False, items=10_000).chance <= bar
    # the chance grows with the items, and falls as the peak rises
    chances = [Evidence(z=3.5, coverage=0.0, cue=False, items=n).chance for n in (200, 2000, 50_000)]
    assert chances == sorted(chances) and chances[0] < chances[-1] / 100
    assert Evidence(z=5.0, coverage=0.0, cue=False, items=50_000).chance < 0.02


def test_coverage_counts_content_words_and_names_in_the_other_script() -> None:
    terms = [terms_of(t) for t in TEXTS]
    assert coverage("카프카 해커톤", terms) == 1.0  # Kafka and Hackathon, spelt in Hangul
    assert coverage("how do I bake bread", terms) == 0.0


async def test_a_question_without_a_letter_or_digit_never_passes() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    peak = matrix[1] + 0.5 * (matrix[1] - matrix.mean(axis=0)) * 10  # whatever its vector says
    assert await gate.passes("Kafka?", peak)
    assert not await gate.passes("?!?!…!!", peak)
    assert not await gate.passes("🙂🙂🎉", peak)


def test_a_refresh_reads_only_the_texts_it_has_not_read_before() -> None:
    docs = [{"embedding_vector": [1.0, 0.0], "embedding_text": t} for t in TEXTS[:2]]
    _, terms, lexicon, known = digest(docs, {})
    assert terms == [terms_of(t) for t in TEXTS[:2]] and any("Kafka" in w for w in lexicon.values())
    marked = {k: (frozenset({"held"}), ()) for k in known}  # what a first read left
    changed = [docs[0], {"embedding_vector": [0.0, 1.0], "embedding_text": TEXTS[2]}]
    _, terms, _, known = digest(changed, marked)
    assert terms[0] == frozenset({"held"})  # unchanged text: not read again
    assert terms[1] == terms_of(TEXTS[2])  # a new text is read
    assert len(known) == 2  # texts no longer sampled are forgotten


async def test_a_request_for_advice_passes_on_a_cue_but_not_on_its_words_alone() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    middle = matrix.mean(axis=0)
    assert await gate.passes("쿠버네티스 장애 대응", middle)  # an item's words
    assert (await gate.evidence("쿠버네티스 장애 대응 방법 알려줘", middle)).request
    assert not await gate.passes("쿠버네티스 장애 대응 방법 알려줘", middle)  # a how-to
    assert not await gate.passes("How do I fix a Kafka streaming bug?", middle)
    assert await gate.passes("쿠버네티스 장애 대응 챌린지 추천해줘", middle)  # names the catalog


async def test_a_name_few_documents_hold_lets_a_question_pass() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    middle = matrix.mean(axis=0)
    assert rarest_name("Did PostgreSQL ship something big?", [terms_of(t) for t in TEXTS]) == 1
    assert rarest_name("Did Oracle ship something big?", [terms_of(t) for t in TEXTS]) == 0
    assert await gate.passes("Did PostgreSQL ship something big?", middle)
    assert not await gate.passes("Did Oracle ship something big?", middle)  # no item holds it
    assert not await gate.passes("How do I tune PostgreSQL?", middle)  # a how-to that names it


async def test_a_search_of_the_users_own_items_passes_unless_it_asks_for_advice() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    middle = matrix.mean(axis=0)
    question = "교육자료에 넣기로 한 거"
    assert not await gate.passes(question, middle)
    assert await gate.passes(question, middle, [Collection.BOOKMARKS])
    assert not await gate.passes(question, middle, [Collection.BOOKMARKS, Collection.NEWS])
    assert not await gate.passes("김치찌개 맛있게 끓이는 법", middle, [Collection.BOOKMARKS])


class Vectors:
    """An embedder of fixed vectors: each text's is given."""

    model_name, dimensions = "test-model", 8

    def __init__(self, vectors: dict[str, np.ndarray]) -> None:
        self.vectors = vectors
        self.queries: list[str] = []

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return [list(map(float, self.vectors[t])) for t in texts]

    async def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        return list(map(float, self.vectors[text]))

    async def warm_up(self) -> None:
        return None


def _bank(general_at: np.ndarray, catalog_at: np.ndarray) -> tuple[QuestionBank, Vectors]:
    """Five general questions around `general_at`, five catalog ones around `catalog_at`."""
    rng = np.random.default_rng(3)
    examples = [(f"general {i}", True) for i in range(5)] + [(f"catalog {i}", False)
                                                              for i in range(5)]
    vectors = {text: (general_at if general else catalog_at) + rng.normal(scale=0.01, size=8)
               for text, general in examples}
    embedder = Vectors(vectors)
    return QuestionBank(embedder, examples), embedder


def _voting_gate(thresholds: Thresholds = THRESHOLDS) -> tuple[RelevanceGate, np.ndarray, np.ndarray]:
    """A gate over the five items whose bank holds five general questions around `general_at` and
    five catalog ones elsewhere: the gate, the items' vectors and `general_at`."""
    matrix = _catalog()
    general_at = matrix.mean(axis=0) + np.eye(8)[0] * 3
    bank, _ = _bank(general_at, matrix.mean(axis=0) + np.eye(8)[1] * 3)
    return RelevanceGate(Sample(matrix, TEXTS), thresholds, bank=bank), matrix, general_at


async def test_the_closest_labelled_questions_vote_on_the_kind_of_question() -> None:
    matrix = _catalog()
    middle = matrix.mean(axis=0)
    general_at = middle + np.eye(8)[0] * 3
    bank, embedder = _bank(general_at, middle + np.eye(8)[1] * 3)
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS, bank=bank)
    assert not gate.ready
    # asked like the general questions: fails, whatever catalog word it carries
    assert (await gate.evidence("Our hackathon team fell apart", general_at)).votes == 5
    assert not await gate.passes("Our hackathon team fell apart", general_at)
    assert gate.ready and len(embedder.queries) == 10  # the bank is embedded once
    # asked like the catalog questions: passes with no other signal
    assert await gate.passes("What did they ship?", middle + np.eye(8)[1] * 3)
    await gate.passes("What did they ship?", middle + np.eye(8)[1] * 3)
    assert len(embedder.queries) == 10


async def test_a_question_asked_like_the_general_ones_passes_when_both_its_peak_and_its_words_do(
        ) -> None:
    # five items: a peak stands at most 1.79 standard deviations above them
    thresholds = replace(THRESHOLDS, chance_max=0.334)  # z 1.5 over five items
    gate, matrix, general_at = _voting_gate(thresholds)
    # close to the general questions, and far above the rest at the first item
    vector = general_at + (matrix[0] - matrix.mean(axis=0)) * 3
    about_it = "쿠버네티스 장애 대응은 어땠어?"
    e = await gate.evidence(about_it, vector)
    assert e.votes == 5 and not e.cue
    assert e.chance <= thresholds.chance_max and e.coverage >= thresholds.coverage_min
    assert await gate.passes(about_it, vector)
    # the same peak without the item's words: the vote holds
    assert not await gate.passes("How do I make strawberry jam without pectin?", vector)
    # the peak and the item's words, asked as a request for advice: the vote holds
    request = "쿠버네티스 장애 대응 방법 알려줘"
    e = await gate.evidence(request, vector)
    assert e.request and e.chance <= thresholds.chance_max and e.coverage >= thresholds.coverage_min
    assert not await gate.passes(request, vector)
    # the item's words without a peak: the vote holds
    assert not await gate.passes(about_it, general_at)


async def test_a_catalog_question_in_the_lead_outvotes_the_general_ones_around_it() -> None:
    matrix = _catalog()
    # the catalog question at cosine 1 of `near`, the general ones at about 0.9 of it
    near, far = np.eye(8)[2], 0.9 * np.eye(8)[2] + 0.436 * np.eye(8)[3]
    examples = [("catalog", False)] + [(f"general {i}", True) for i in range(6)]
    vectors = {"catalog": near} | {f"general {i}": far + np.eye(8)[4 + i % 4] * 0.01
                                   for i in range(6)}
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS,
                         bank=QuestionBank(Vectors(vectors), examples))
    e = await gate.evidence("Who won it?", near)
    assert e.votes == 6 and e.lead is not None and e.lead >= THRESHOLDS.lead_min
    assert await gate.passes("Who won it?", near)
    # the same general neighbours, with no catalog question in the lead: the vote holds
    e = await gate.evidence("Who won it?", far)
    assert e.lead is not None and e.lead < THRESHOLDS.lead_min and e.votes == 6
    assert not await gate.passes("Who won it?", far)
    # in the lead, but a request for advice: its wording cannot tell it from a catalog question,
    # and the vote holds
    request = "How do I back it up?"
    e = await gate.evidence(request, near)
    assert e.request and e.lead is not None and e.lead >= THRESHOLDS.lead_min
    assert not await gate.passes(request, near)


async def test_a_question_that_names_the_catalog_outvotes_the_general_ones_on_its_peak_or_words(
        ) -> None:
    gate, _, general_at = _voting_gate()
    # no peak; its words are an item's: enough with a cue (기사), not without one
    assert (await gate.evidence("쿠버네티스 장애 대응 기사", general_at)).chance > THRESHOLDS.chance_max
    assert await gate.passes("쿠버네티스 장애 대응 기사", general_at)
    assert not await gate.passes("쿠버네티스 장애 대응", general_at)
    # a cue without the peak or the words: the vote holds
    assert not await gate.passes("해커톤 발표 자료는 몇 장이 좋아?", general_at)


async def test_a_question_that_asks_for_news_or_a_contest_outvotes_the_general_ones_unless_a_request(
        ) -> None:
    gate, _, general_at = _voting_gate()
    assert (await gate.evidence("AI 뉴스", general_at)).lookup
    assert await gate.passes("AI 뉴스", general_at)
    assert await gate.passes("any news about LLM benchmarks?", general_at)
    assert not await gate.passes("AI 뉴스 요약하는 방법 알려줘", general_at)  # a how-to
    assert not await gate.passes("AI 해커톤", general_at)  # names a contest: the vote holds
    # asks whether a contest exists: a lookup too
    assert await gate.passes("Kafka로 실시간 앱 만드는 해커톤 있어?", general_at)
    assert await gate.passes("any hackathons for students this winter?", general_at)
    assert not await gate.passes("해커톤 처음 나가는데 뭐 챙겨가면 좋아?", general_at)


async def test_a_search_of_the_users_own_items_that_names_them_outvotes_the_general_ones() -> None:
    gate, _, general_at = _voting_gate()
    question = "동아리 신입생들한테 추천하려고 저장해둔 거 뭐였지?"
    assert (await gate.evidence(question, general_at)).cue
    assert await gate.passes(question, general_at, [Collection.BOOKMARKS])
    assert not await gate.passes(question, general_at, [Collection.BOOKMARKS, Collection.NEWS])


async def test_the_bank_is_read_without_the_questions_left_out(tmp_path: Path) -> None:
    path = tmp_path / "bank.jsonl"
    path.write_text('{"question": "a", "general": true}\n{"question": "b", "general": false}\n',
                    encoding="utf-8")
    embedder = Vectors({"a": np.eye(8)[0], "b": np.eye(8)[1]})
    assert len(QuestionBank.read(embedder, path)) == 2
    bank = QuestionBank.read(embedder, path, leave_out=frozenset({"a"}))
    assert len(bank) == 1 and await bank.vote(np.eye(8)[0]) == (0, 1.0)  # catalog ones only
    assert await QuestionBank(embedder, []).vote(np.eye(8)[0]) is None


def test_the_bank_shipped_with_chatbot_api_holds_both_kinds_each_question_once() -> None:
    rows = [json.loads(line) for line in QUESTION_BANK.read_text(encoding="utf-8").splitlines()]
    general = sum(bool(r["general"]) for r in rows)
    assert len(QuestionBank.read(Vectors({}))) == len(rows) >= 200
    assert 50 <= general <= len(rows) - 100
    assert len({r["question"] for r in rows}) == len(rows)


def test_the_bank_ships_its_vectors_for_the_default_model_and_only_for_it() -> None:
    default = Vectors({})
    default.model_name = "multilingual-e5-small-q4"
    assert QuestionBank.read(default).ready  # nothing to embed at start
    assert not QuestionBank.read(Vectors({})).ready  # another model embeds the bank itself
    left_out = QuestionBank.read(default, leave_out=frozenset({"Hey, good morning!"}))
    assert left_out.ready and len(left_out) == len(QuestionBank.read(default)) - 1


async def test_an_empty_catalog_sample_and_an_empty_bank_read_as_nothing() -> None:
    matrix, terms, lexicon, _ = digest([], {})
    assert matrix.shape[0] == 0 and terms == [] and lexicon == {}
    bank = QuestionBank(Vectors({}), [])
    assert (await bank.matrix()).shape[0] == 0 and await bank.vote(np.eye(8)[0]) is None


def test_advice_is_general_whatever_catalog_words_it_holds() -> None:
    t = Thresholds(chance_max=0.286, coverage_min=0.6, name_documents_max=3, general_votes_min=3,
                   lead_min=0.02)
    # a cue, a catalog question in the lead, a peak and full coverage: asked for advice, it fails
    asked = Evidence(z=6.0, coverage=1.0, cue=True, request=True, votes=0, lead=0.05, items=180,
                     advice=True)
    assert decision(asked, t)[:2] == (False, "advice")
    # the same without the advice passes on its lead
    assert decision(replace(asked, advice=False, request=False), t)[:2] == (True, "lead")
    # a request (not advice) without a lead, a cue or general neighbours: not on its peak alone
    request = replace(asked, advice=False, cue=False, votes=2, lead=0.0)
    assert decision(request, t)[:2] == (False, "request")
    assert decision(replace(request, cue=True), t)[:2] == (True, "cue")


async def test_the_gate_reads_advice_from_the_vocabulary() -> None:
    matrix = _catalog()
    gate = RelevanceGate(Sample(matrix, TEXTS), THRESHOLDS)
    for question in ("해커톤 경험이 취업에 도움 돼?", "what is a vector database",
                     "공모전 수상 경력 이력서에 어떻게 써?"):
        e = await gate.evidence(question, matrix[1])
        assert e.advice and e.request, question
        assert not await gate.passes(question, matrix[1])
    assert not (await gate.evidence("Kafka Streaming Hackathon 언제 열려?", matrix[1])).advice
