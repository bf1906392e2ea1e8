"""The relevance gate: whether the catalog holds anything about a question at all; the decision.

The gate's parts, each in its own module: the catalog it reads (adapters/catalog_sample.py), the
question bank (retrieval/question_bank.py), the words and names (retrieval/signals.py), and here
the peak and the decision over all of them.

A search always returns its best k, and a similarity alone does not say whether they fit:
multilingual-e5 places every text around cosine 0.8 of every other, so a recipe question and a
hackathon question both meet contests at 0.80-0.86. What does tell them apart was measured on
labelled questions (docs/retrieval-quality.md has the sets, what was tuned on which, and the figures
on questions nothing was tuned on):

- the vote: the kind (catalog or general) of the question's NEIGHBOURS closest labelled questions
  of the question bank (question_bank.jsonl: the labelled question sets and a thousand general
  questions on everyday life, money and work, programming and computing). A question asked like
  the general ones ("How do I make strawberry jam?") is general whatever words it shares with the
  catalog; one whose neighbours are all catalog questions is a catalog question;
- the lead: how much closer the closest catalog question of the bank is than the closest general
  one. The catalog is small and the bank holds several wordings of most of its items, so a
  question about an item finds one of them; a general question seldom finds itself in a catalog
  question;
- the peak: how far the question's best match in the catalog stands above the rest, in standard
  deviations of the question's cosines to the catalog (`z`), read as the number of the catalog's
  items that would stand as high by chance (`chance`: a maximum over more items is higher by
  chance alone, so z itself would let more off-topic questions through as the catalog grows). A
  catalog question has one or a few items far above the rest; an off-topic one is a little close
  to everything;
- the words: the largest share of the question's content words (Kiwi: nouns, roots, numbers,
  foreign words; not question words) that one of its ten closest items contains, by the keyword
  side's own terms, sound keys of names included (`coverage`). Over the whole catalog instead, some
  item holds "capital" and "Australia" and the question passes;
- a name: a Latin word of the question written like a name that at most a few documents hold
  (Loopwise, SecureGate, pgvector);
- the routing cue: a word that names the catalog (대회, 기사, 북마크, hackathon, news...);
- a lookup: asking for news (뉴스, 기사, article) or whether a contest exists (해커톤 있어?, any
  hackathons);
- a request: asking for advice, instructions, a recommendation or a piece of writing (방법,
  추천해줘, how do I, should I...), which a general assistant is asked.

A search of the user's own bookmarks alone that names them (저장해둔, bookmark) passes. Advice
("해커톤 경험이 취업에 도움 돼?", "what is a vector database", [advice]) fails, whatever catalog
words it holds. A question that asks for news or whether a contest exists and is not a request
(people ask for advice about taking part in a hackathon, hardly about the news or whether one
exists) passes, and so do a question with a catalog question well in the lead (unless it is a
request: wording like a catalog question's says nothing of whether advice is asked) and one that
names a kind of item by dates. Otherwise a question fails when most of its neighbours are general ones,
unless both its peak and its words pass (either, if it has a cue) and it is not a request.
Otherwise it passes on a cue; or, unless it is a request, on neighbours that are all catalog
questions, its peak, its words, a name, or a search of the user's own bookmarks alone. A question
without a letter or a digit (only emoji or punctuation) never passes. The numbers belong to the
embedding model (its cosines spread differently); a model without calibrated numbers is not gated,
with a warning. When nothing passes, the answer is a general one: no sources, no catalog context.
"""

from __future__ import annotations

import logging
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

import numpy as np
from prometheus_client import Counter

from chatbot_api.domain.routing import Rules, default_rules, matches, readable
from chatbot_api.domain.time_words import names_dates
from chatbot_api.retrieval.model import Collection
from chatbot_api.retrieval.question_bank import QuestionBank
from chatbot_api.retrieval.signals import CLOSEST, CatalogView, coverage, rarest_name
from techai_shared.embeddings import Embedder

logger = logging.getLogger(__name__)

GATE_DECISIONS = Counter("chatbot_gate_decisions_total",
                         "Relevance gate decisions by the rule that decided and the decision",
                         ["rule", "decision"])


@dataclass(frozen=True)
class Thresholds:
    # the peak passes when fewer than this many of the catalog's items would stand as far above
    # the question's mean cosine by chance (Evidence.chance): the same bar at any catalog size
    chance_max: float
    coverage_min: float  # share of the content words one of the closest items contains
    name_documents_max: int  # a name of the question held by this many documents or fewer
    general_votes_min: int  # of the question's NEIGHBOURS closest labelled questions, general ones
    lead_min: float  # the closest catalog question's cosine over the closest general one's


# chance_max and coverage_min calibrated on the tuning queries (make calibrate-relevance): over the
# sample's 180 items, off-topic peaks reach z 2.93 and their coverage 0.50; the catalog questions
# without a cue start at z 3.00 or at coverage 0.60; z 2.95 over 180 items is a chance of
# 180 * Q(2.95) = 0.286 items, which at 10,000 items asks for z 4.0 (docs/retrieval-quality.md,
# step 27: a maximum over more items is higher by chance alone). name_documents_max and
# general_votes_min chosen on the held-out sets of steps 8 and 9 of docs/retrieval-quality.md
# (the bank's votes left out one set at a time); general_votes_min (of seven) and lead_min
# chosen in its step 18 on the tuning sets, with the general questions in the bank.
CALIBRATED = {"multilingual-e5-small-q4": Thresholds(chance_max=0.286, coverage_min=0.6,
                                                     name_documents_max=3, general_votes_min=3,
                                                     lead_min=0.02)}


@dataclass(frozen=True)
class Evidence:
    z: float  # the question's best cosine over the catalog above its mean, in standard deviations
    coverage: float
    cue: bool
    named: int = 0  # fewest catalog documents holding one of the question's names (0: none does)
    request: bool = False  # asks for advice, instructions, a recommendation or a piece of writing
    votes: int | None = None  # general questions among its closest labelled ones (None: no bank)
    lead: float | None = None  # closest catalog question's cosine less closest general one's
    lookup: bool = False  # asks for news or whether a contest exists ([kinds] news, [lookups])
    items: int = 0  # the catalog items the peak is the maximum over
    own: bool = False  # searches only the user's own saved items
    dated: bool = False  # names dates ("다음 달", "12월")
    advice: bool = False  # asks for advice or a concept ([advice]): general whatever it names

    @property
    def chance(self) -> float:
        """How many of the catalog's items would stand z or more above the mean by chance (the
        normal tail times the items): a maximum over more items is higher by chance alone (on
        noise, z >= 2.95 is reached by a quarter of questions over 180 items, by all over 4,000);
        this is not. Without a catalog to stand above, infinite."""
        if self.items < 2:
            return math.inf
        return self.items * 0.5 * math.erfc(self.z / math.sqrt(2))


class RelevanceGate:
    def __init__(self, background: CatalogView, thresholds: Thresholds | None,
                 rules: Rules | None = None, bank: QuestionBank | None = None) -> None:
        self._background = background
        self._thresholds = thresholds
        self._rules = rules or default_rules()
        self._bank = bank

    @classmethod
    def for_model(cls, sample: CatalogView, embedder: Embedder | None = None,
                  leave_out: frozenset[str] = frozenset()) -> RelevanceGate:
        """The gate calibrated for the sample's embedding model, with the question bank (less
        `leave_out`) embedded by `embedder` (none: the bank does not vote)."""
        thresholds = CALIBRATED.get(sample.model_name)
        if thresholds is None:
            logger.warning("no relevance gate for embedding model %s (not calibrated): every search "
                           "result is answered from", sample.model_name)
        bank = (QuestionBank.read(embedder, leave_out=leave_out)
                if embedder is not None and thresholds else None)
        return cls(sample, thresholds, bank=bank)

    @property
    def bank(self) -> QuestionBank | None:
        """The labelled questions the gate's neighbours vote from (None: no vote)."""
        return self._bank

    def start(self) -> None:
        """Embed the question bank in the background now (again, after a failure)."""
        if self._bank is not None:
            self._bank.start()

    @property
    def ready(self) -> bool:
        """Whether the gate can decide without waiting (its question bank is embedded)."""
        return self._bank is None or self._bank.ready

    async def prepare(self) -> None:
        """Embed the question bank now, and wait for it."""
        if self._bank is not None:
            await self._bank.matrix()

    async def close(self) -> None:
        if self._bank is not None:
            await self._bank.close()

    async def evidence(self, question: str, vector: Sequence[float]) -> Evidence:
        """What the gate reads of `question`: its cue, whether it is a request, the bank's vote,
        its peak over the catalog, its words' coverage by its closest items and its rarest name."""
        e, cosines, terms = await self._read(question, vector)
        return _with_words(e, question, cosines, terms)

    async def _read(self, question: str, vector: Sequence[float]
                    ) -> tuple[Evidence, np.ndarray, list[frozenset[str]]]:
        """The evidence without its words and names (they cost a pass over the sample's terms,
        needed only when the rest leaves the question undecided), the question's cosines to the
        sample and the sample's terms."""
        text = readable(question)
        cue = any(matches(p, text) for p in (self._rules.contest, self._rules.news,
                                               self._rules.bookmarks))
        request = matches(self._rules.requests, text)
        advice = matches(self._rules.advice, text)
        lookup = matches(self._rules.news_kind, text) or matches(self._rules.lookups, text)
        unit = np.asarray(vector, dtype=np.float32)
        unit /= max(float(np.linalg.norm(unit)), 1e-12)
        vote = await self._bank.vote(unit) if self._bank is not None else None
        votes, lead = vote if vote is not None else (None, None)
        matrix, terms = await self._background.sample()
        if len(matrix) < 2:
            return (Evidence(0.0, 0.0, cue, 0, request, votes, lead, lookup, advice=advice),
                    np.zeros(0, np.float32), [])
        cosines = matrix @ unit
        z = float((cosines.max() - cosines.mean()) / max(float(cosines.std()), 1e-6))
        return (Evidence(z, 0.0, cue, 0, request, votes, lead, lookup, len(cosines), advice=advice),
                cosines, terms)

    async def passes(self, question: str, vector: Sequence[float],
                     collections: Sequence[Collection] = ()) -> bool:
        """Whether the catalog has anything about `question` (always, for a model without
        calibration); `collections`: what the question is to be searched in."""
        passed, rule = await self.decide(question, vector, collections)
        GATE_DECISIONS.labels(rule, "pass" if passed else "fail").inc()
        return passed

    async def decide(self, question: str, vector: Sequence[float],
                     collections: Sequence[Collection]) -> tuple[bool, str]:
        """Whether the question passes, and the name of the rule that decided (on /metrics)."""
        t = self._thresholds
        if t is None:
            return True, "uncalibrated"
        if not any(c.isalnum() for c in question):  # only emoji or punctuation: no topic at all
            return False, "no-topic"
        e, cosines, terms = await self._read(question, vector)
        # the user's own saved items, when the client searches nothing else: the catalog's peak
        # and words say nothing about them
        own = bool(collections) and all(c is Collection.BOOKMARKS for c in collections)
        e = replace(e, own=own, dated=bool(names_dates(question)))
        passed, rule, e = decision(e, t, lambda e: _with_words(e, question, cosines, terms))
        if not passed:
            logger.debug("relevance gate: nothing fits (rule %s; z %.2f over %d items, coverage "
                         "%.2f, name in %d, request %s, general votes %s, catalog lead %s)", rule,
                         e.z, e.items, e.coverage, e.named, e.request, e.votes, e.lead)
        return passed, rule


def decision(e: Evidence, t: Thresholds,
             with_words: Callable[[Evidence], Evidence] = lambda e: e
             ) -> tuple[bool, str, Evidence]:
    """Whether a question of evidence `e` passes, the rule that decided, and the evidence read
    (`with_words` adds its words and names, which cost a pass over the catalog's terms: read only
    where the rest leaves the question undecided). Pure: `make calibrate-relevance` and the
    calibration at several catalog sizes run it on stored evidence."""
    if e.own and e.cue:
        return True, "own-items", e  # looks in the saved items by name
    if e.advice:
        return False, "advice", e  # a general assistant's question, whatever words it shares
    if e.lookup and not e.request:
        return True, "lookup", e  # asks for news or a contest
    if e.lead is not None and e.lead >= t.lead_min and not e.request:
        # asked like a catalog question; not a request for advice, which its wording cannot tell
        # from one about the catalog ("랜섬웨어 대비하려면 백업을 어떻게 구성해야 돼?")
        return True, "lead", e
    if e.cue and not e.request and e.dated:
        return True, "dated", e  # asks for items of a kind by date ("다음 달 해커톤")
    if e.votes is not None and e.votes >= t.general_votes_min:
        # asked like the general questions: a request for advice fails ("쿠버네티스에서 pod가
        # CrashLoopBackOff 뜨면 뭐부터 확인해야 돼?"); anything else unless the catalog holds it
        # on both its peak and its words ("2026 한국 개발자 설문조사에서 3년차 평균 연봉 얼마로
        # 나왔어요?"), or on either when it names the catalog ("하늘 모델 최신 소식 뭐야?")
        if not e.request and (e.chance <= t.chance_max or e.cue):
            e = with_words(e)
        peak, words = e.chance <= t.chance_max, e.coverage >= t.coverage_min
        return not e.request and ((peak or words) if e.cue else (peak and words)), \
            "general-votes", e
    if e.cue or (not e.request and (e.votes == 0 or e.chance <= t.chance_max)):
        # names the catalog; or, not asking for advice, is asked like catalog questions or peaks
        return True, "cue" if e.cue else "catalog-votes" if e.votes == 0 else "peak", e
    if e.request:
        return False, "request", e  # advice or instructions: not on its words alone
    e = with_words(e)
    return (e.coverage >= t.coverage_min or 0 < e.named <= t.name_documents_max or e.own,
            "words", e)


def _with_words(e: Evidence, question: str, cosines: np.ndarray,
                terms: list[frozenset[str]]) -> Evidence:
    """`e` with the question's coverage by its closest items and its rarest name."""
    if not terms:
        return e
    closest = np.argsort(-cosines)[:CLOSEST]
    return replace(e, coverage=coverage(question, [terms[i] for i in closest]),
                   named=rarest_name(question, terms))


