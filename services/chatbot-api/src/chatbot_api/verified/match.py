"""When a question is a verified answer's question: the rules, pure functions, no I/O.

A bi-encoder puts a question about another contest or another detail ("예선" for "본선", "신청
마감" for "상금") as close to a phrasing as a true paraphrase, or closer (cosine 0.96-0.99 with
multilingual-e5), so closeness alone cannot decide. A phrasing matches a question when
1. both are in the same script (Hangul or not): a phrasing per language serves each language;
2. their embeddings are at least the calibrated cosine apart (per embedding model);
3. they ask about the same topics (facets.toml: deadline, prize, venue, ...), or, where neither has
   a topic, with the same question words (when, where, who, how much, how);
4. the question names nothing the answer's phrasings do not name: its content terms that are names
   (words of contest and news titles, numbers, Latin words in a Korean question, capitalised words
   in an English one; topic words aside) must all be terms of the answer's phrasings in that
   script;
5. the question and the phrasing share a content term that is not a topic word: a bare "상금은
   얼마야?" is about no contest in particular;
6. at most one of the question's content terms is foreign to the answer (a term of none of its
   phrasings, in either script; not its text, which names what the question may not ask: "your
   bookmarks are deleted with your account"), and that one is no term of another published
   answer's phrasings: "How do I contact a contest organizer?" is not "How can I get my contest
   listed?" when another answer is about contacting;
7. the phrasing is at least MARGIN closer than the closest phrasing of any other answer.
A question that is one of the phrasings (case, spacing and final punctuation aside) is served its
answer whatever the rules say: asking a suggestion's phrasing gets the answer. A match with a
foreign term (rule 6) is not sure: with a model configured it is put to the model first, among the
suggestions (chatbot_api.service_layer.verified_judge); without one it is served. The closest phrasing
that passes wins. A question that is not served gets "did you mean" suggestions: up to three
answers whose closest phrasing (in any script) is at least the suggesting cosine from it, closest
first, offered in the question's script, each either sharing a content word with the question (not
a topic word) or at least as close to it as the closest general question of the relevance gate's
question bank: e5 puts a question about cooking at 0.85 to one about accounts, but closer still to
the bank's questions about cooking. How the cosine and the facets were calibrated, on which
questions, and the figures on questions they were not tuned on: docs/verified-answers.md.
"""

from __future__ import annotations

import re
import tomllib
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path

# Calibrated cosines per embedding model (infra/seed/verified-calibration.jsonl, tune split); a
# model without one serves no verified answers unless CHATBOT_VERIFIED_MIN_COSINE is set.
MIN_COSINE = {"multilingual-e5-small-q4": 0.86}
# Below it, down to this, a published answer is suggested ("did you mean") rather than served.
SUGGEST_COSINE = {"multilingual-e5-small-q4": 0.85}

_HANGUL = re.compile(r"[\uac00-\ud7a3]")
FACETS_FILE = Path(__file__).with_name("facets.toml")
Terms = Callable[[str], frozenset[str]]


@cache
def _facet_patterns(part: str) -> dict[str, list[re.Pattern[str]]]:
    with FACETS_FILE.open("rb") as f:
        table = tomllib.load(f)[part]
    return {name: [re.compile(p, re.IGNORECASE) for p in patterns]
            for name, patterns in table.items()}


def _found(part: str, text: str) -> frozenset[str]:
    return frozenset(name for name, patterns in _facet_patterns(part).items()
                     if any(p.search(text) for p in patterns))


def topics(text: str) -> frozenset[str]:
    """What a question asks about (deadline, prize, ...)."""
    return _found("topics", text)


def asks(text: str) -> frozenset[str]:
    """Its question words (when, where, ...)."""
    return _found("asks", text)


def same_facets(a: Phrasing | Question, b: Phrasing | Question) -> bool:
    """The same topics, or no topic on either side and the same question words."""
    if a.topics or b.topics:
        return a.topics == b.topics
    return a.asks == b.asks


def script(text: str) -> str:
    """"ko" for a text with Hangul in it (two syllables at least), "latin" otherwise."""
    return "ko" if len(_HANGUL.findall(text)) >= 2 else "latin"


@dataclass(frozen=True)
class Answer:
    """A published verified answer as served."""

    answer_id: str
    answer: str
    sources: tuple[str, ...]
    valid_from: datetime | None
    valid_until: datetime | None

    def valid_at(self, now: datetime) -> bool:
        return ((self.valid_from is None or self.valid_from <= now)
                and (self.valid_until is None or now < self.valid_until))


@dataclass(frozen=True)
class Phrasing:
    answer_id: str
    text: str
    script: str
    topics: frozenset[str]
    asks: frozenset[str]
    terms: frozenset[str]


@dataclass(frozen=True)
class Match:
    answer: Answer
    phrasing: str
    cosine: float
    # every content term of the question is a term of the answer's phrasings (or the question is
    # one of them); a match with a foreign term (rule 6) is put to the model when there is one
    sure: bool = True


@dataclass
class Question:
    """A question as the rules read it."""

    text: str
    terms: frozenset[str]
    hints: frozenset[str] = frozenset()  # terms that look like names (terms.name_hints)
    script: str = field(init=False)
    topics: frozenset[str] = field(init=False)
    asks: frozenset[str] = field(init=False)

    def __post_init__(self) -> None:
        self.script = script(self.text)
        self.topics = topics(self.text)
        self.asks = asks(self.text)

    def names(self, vocabulary: frozenset[str]) -> frozenset[str]:
        """Its terms that name something: words of catalog titles, numbers, and words that look
        like names (Latin words in Korean, capitalised ones in English); not topic words ("apply",
        "상금"), which rule 3 compares."""
        return frozenset(t for t in self.terms
                         if (t in vocabulary or t in self.hints or t[:1].isdigit())
                         and not topics(t))


def phrasing(answer_id: str, text: str, terms: Terms) -> Phrasing:
    return Phrasing(answer_id, text, script(text), topics(text), asks(text), terms(text))


def normalised(text: str) -> str:
    """A question as compared for identity: case, spacing and final punctuation aside."""
    return " ".join(text.casefold().split()).rstrip("?!.？！。 ")


@dataclass(frozen=True)
class Published:
    """The published answers as the rules read them: each answer's phrasings, its terms (of its
    phrasings in every script), its words (those and its text's), and which answers' phrasings
    use each term."""

    answers: dict[str, Answer]
    phrasings: dict[str, list[Phrasing]]
    terms: dict[str, frozenset[str]]
    words: dict[str, frozenset[str]]
    owners: dict[str, frozenset[str]]

    @classmethod
    def of(cls, answers: dict[str, Answer], phrasings: Iterable[Phrasing],
           text_terms: dict[str, frozenset[str]]) -> Published:
        by_answer: dict[str, list[Phrasing]] = {}
        for p in phrasings:
            by_answer.setdefault(p.answer_id, []).append(p)
        owners: dict[str, set[str]] = {}
        for answer_id, ps in by_answer.items():
            for term in frozenset().union(*(p.terms for p in ps)):
                owners.setdefault(term, set()).add(answer_id)
        terms = {a: frozenset().union(*(p.terms for p in ps)) for a, ps in by_answer.items()}
        words = {a: t | text_terms.get(a, frozenset()) for a, t in terms.items()}
        return cls(answers, by_answer, terms, words, {t: frozenset(a) for t, a in owners.items()})

    def phrasings_of(self, answer_id: str) -> list[Phrasing]:
        return self.phrasings.get(answer_id, [])

    def foreign(self, question: Question, answer_id: str) -> list[str]:
        """The question's content terms the answer's phrasings do not use (words that only frame
        a request aside)."""
        own = self.terms.get(answer_id, frozenset())
        return [t for t in question.terms if t not in own and t not in FRAMING]

    def valid(self, answer_id: str, now: datetime) -> bool:
        answer = self.answers.get(answer_id)
        return answer is not None and answer.valid_at(now)

    def claimed(self, term: str, answer_id: str, now: datetime) -> bool:
        """Whether the phrasings of another answer valid at `now` use the term (an expired
        answer keeps no word from the answer that replaces it)."""
        return any(other != answer_id and self.valid(other, now)
                   for other in self.owners.get(term, frozenset()))


MARGIN = 0.02  # rule 7
# Words that frame a request without saying what it is about ("what are the steps to", "I want
# to", "절차가 궁금해"): never foreign to an answer (rule 6). Chosen on the tune split.
FRAMING = frozenset((
    "step", "way", "ways", "method", "guide", "process", "procedure", "instruction", "want",
    "need", "like", "possible", "able", "절차", "과정", "싶", "원하", "필요"))
MAX_FOREIGN = 1  # rule 6


def offered(phrasings: Sequence[Phrasing], script_: str) -> str:
    """The phrasing a suggestion offers: the answer's first in the question's script (the
    operator's main wording), else its first."""
    return next((p.text for p in phrasings if p.script == script_), phrasings[0].text)


def _exact(question: Question, ranked: Sequence[tuple[Phrasing, float]], published: Published,
           now: datetime) -> Match | None:
    same = normalised(question.text)
    for candidate, cosine in ranked:
        answer = published.answers.get(candidate.answer_id)
        if answer is not None and answer.valid_at(now) and normalised(candidate.text) == same:
            return Match(answer, candidate.text, cosine)
    return None


def best_match(question: Question, candidates: Iterable[tuple[Phrasing, float]],
               published: Published, names: frozenset[str], min_cosine: float,
               now: datetime) -> Match | None:
    """The closest candidate (phrasing, cosine) that passes every rule, or None."""
    ranked = sorted(candidates, key=lambda c: -c[1])
    exact = _exact(question, ranked, published, now)
    if exact is not None:
        return exact
    asked = question.names(names)
    closest: dict[str, float] = {}  # answer id -> its closest phrasing in the question's script
    for candidate, cosine in ranked:  # of answers valid now: an expired one is no rival
        if candidate.script == question.script and published.valid(candidate.answer_id, now):
            closest.setdefault(candidate.answer_id, cosine)
    for candidate, cosine in ranked:
        answer = published.answers.get(candidate.answer_id)
        if (answer is None or cosine < min_cosine or candidate.script != question.script
                or not same_facets(candidate, question) or not answer.valid_at(now)):
            continue
        terms = frozenset().union(*(p.terms for p in published.phrasings_of(candidate.answer_id)
                                    if p.script == question.script))
        shared = {t for t in candidate.terms & question.terms if not topics(t)}
        if not (asked <= terms and shared):
            continue
        foreign = published.foreign(question, candidate.answer_id)
        if len(foreign) > MAX_FOREIGN or any(published.claimed(t, candidate.answer_id, now)
                                             for t in foreign):
            continue
        rival = max((c for a, c in closest.items() if a != candidate.answer_id), default=0.0)
        if cosine - rival < MARGIN:
            continue
        return Match(answer, candidate.text, cosine, sure=not foreign)
    return None


@dataclass(frozen=True)
class Suggestion:
    """A published answer close to a question it does not serve: "did you mean ...?"."""

    answer: Answer
    question: str  # the phrasing offered, in the question's script where the answer has one
    cosine: float


@dataclass(frozen=True)
class Verdict:
    """What the verified answers say of a question: the answer the rules serve, and the near ones
    (an unsure match first among them; none after a sure match)."""

    match: Match | None = None
    suggestions: tuple[Suggestion, ...] = ()


def assess(question: Question, candidates: Sequence[tuple[Phrasing, float]],
           published: Published, names: frozenset[str], min_cosine: float,
           suggest_cosine: float, now: datetime, limit: int = 3,
           general: float | None = None) -> Verdict:
    """The answer to serve, or up to `limit` answers whose closest phrasing (in any script) is at
    least `suggest_cosine` from the question and that either share a word with it or are at least
    as close to it as the closest general question of the question bank (`general`), closest
    first."""
    found = best_match(question, candidates, published, names, min_cosine, now)
    if found is not None and found.sure:
        return Verdict(found)
    closest: dict[str, float] = {}
    for candidate, cosine in candidates:
        if cosine >= suggest_cosine and cosine > closest.get(candidate.answer_id, -1.0):
            closest[candidate.answer_id] = cosine
    words = {t for t in question.terms if not topics(t)}
    near = ([Suggestion(found.answer, offered(published.phrasings_of(found.answer.answer_id),
                                              question.script), found.cosine)]
            if found is not None else [])
    for answer_id, cosine in sorted(closest.items(), key=lambda kv: -kv[1]):
        if found is not None and answer_id == found.answer.answer_id:
            continue
        answer = published.answers.get(answer_id)
        if (answer is not None and answer.valid_at(now)
                and (words & published.words.get(answer_id, frozenset())
                     or (general is not None and cosine >= general))):
            near.append(Suggestion(answer, offered(published.phrasings_of(answer_id),
                                                   question.script), cosine))
    return Verdict(found, tuple(near[:limit]))
