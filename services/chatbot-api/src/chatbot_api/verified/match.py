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
   얼마야?" is about no contest in particular.
The closest phrasing that passes wins. How the cosine and the facets were calibrated, on which
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
MIN_COSINE = {"multilingual-e5-small-q4": 0.9}

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


def best_match(question: Question, candidates: Iterable[tuple[Phrasing, float]],
               phrasings_of: Callable[[str], Sequence[Phrasing]], answers: dict[str, Answer],
               names: frozenset[str], min_cosine: float, now: datetime) -> Match | None:
    """The closest candidate (phrasing, cosine) that passes every rule, or None."""
    asked = question.names(names)
    for candidate, cosine in sorted(candidates, key=lambda c: -c[1]):
        answer = answers.get(candidate.answer_id)
        if (answer is None or cosine < min_cosine or candidate.script != question.script
                or not same_facets(candidate, question) or not answer.valid_at(now)):
            continue
        terms = frozenset().union(*(p.terms for p in phrasings_of(candidate.answer_id)
                                    if p.script == question.script))
        shared = {t for t in candidate.terms & question.terms if not topics(t)}
        if asked <= terms and shared:
            return Match(answer, candidate.text, cosine)
    return None
