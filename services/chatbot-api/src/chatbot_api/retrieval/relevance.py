"""The relevance gate: whether the catalog holds anything about a question at all.

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
  deviations of the question's cosines to a sample of the catalog (`z`). A catalog
  question has one or a few items far above the rest; an off-topic one is a little close to
  everything;
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

A search of the user's own bookmarks alone that names them (저장해둔, bookmark) passes, and so do
a question that asks for news or whether a contest exists and is not a request (people ask for
advice about taking part in a hackathon, hardly about the news or whether one exists) and a
question with a catalog question well in the lead. Otherwise a question fails when most of its
neighbours are general ones, unless both its peak and its words pass (either, if it has a cue)
and it is not a request. Otherwise it passes on a cue, on neighbours that are all catalog
questions or on its peak; on its words, a name, or a search of the user's own bookmarks alone,
unless it is a request. A question without a letter or a digit (only emoji or punctuation) never
passes. The numbers belong to the embedding model (its cosines spread differently); a model
without calibrated numbers is not gated, with a warning. When nothing passes, the answer is a
general one: no sources, no catalog context.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
import re
import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np
from prometheus_client import Counter
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.domain.routing import Rules, default_rules, matches, readable
from chatbot_api.domain.time_words import names_dates
from chatbot_api.language import korean, names
from chatbot_api.retrieval.keyword import document_terms, latin_names, name_words, tokenize
from chatbot_api.retrieval.model import Collection
from techai_shared.embeddings import Embedder
from techai_shared.tasks import cancel_and_wait

logger = logging.getLogger(__name__)

GATE_DECISIONS = Counter("chatbot_gate_decisions_total",
                         "Relevance gate decisions by the rule that decided and the decision",
                         ["rule", "decision"])


@dataclass(frozen=True)
class Thresholds:
    z_min: float  # peak of the question's cosines over the catalog, in standard deviations
    coverage_min: float  # share of the content words one of the closest items contains
    name_documents_max: int  # a name of the question held by this many documents or fewer
    general_votes_min: int  # of the question's NEIGHBOURS closest labelled questions, general ones
    lead_min: float  # the closest catalog question's cosine over the closest general one's


# z_min and coverage_min calibrated on the tuning queries (make calibrate-relevance): off-topic
# peaks reach 2.93 and their coverage 0.50; the catalog questions without a cue start at 3.00 or at
# coverage 0.60. name_documents_max and general_votes_min chosen on the held-out sets of steps 8
# and 9 of docs/retrieval-quality.md (the bank's votes left out one set at a time);
# general_votes_min (of seven) and lead_min chosen in its step 18 on the tuning sets, with the
# general questions in the bank.
CALIBRATED = {"multilingual-e5-small-q4": Thresholds(z_min=2.95, coverage_min=0.6,
                                                          name_documents_max=3, general_votes_min=3,
                                                          lead_min=0.02)}
BACKGROUND_SAMPLE = 2000  # vectors per collection: the spread of cosines, not the items
BACKGROUND_REFRESH_SECONDS = 300.0
# A catalog this small is read whole in milliseconds, and is likely still being loaded (make seed):
# its sample follows it within seconds.
SMALL_CATALOG, SMALL_CATALOG_REFRESH_SECONDS = 1000, 10.0
NAME_SPELLINGS = 3  # catalog words added per name of a question
CLOSEST = 10  # the items whose words are compared with the question's
QUESTION_BANK = Path(__file__).with_name("question_bank.jsonl")
# the bank's vectors for one model, written with it by make question-bank: no embedding at start
QUESTION_BANK_VECTORS = QUESTION_BANK.with_suffix(".npz")
NEIGHBOURS = 7  # labelled questions that vote on a question's kind
_BACKGROUND = (Collection.CONTESTS, Collection.NEWS)
SAMPLE_READ_BATCH = 500  # ids per $in of the sample's read


def _stable_rank(document_id: str) -> bytes:
    """A document's place in the sample's order: a hash of its id, the same in every process."""
    return hashlib.blake2b(document_id.encode(), digest_size=8).digest()
_NOT_CONTENT = korean.GENERIC | frozenset(("new", "latest", "recent", "thing", "things"))
_LATIN = re.compile(r"[A-Za-z]+")
_CAPITALISED_PAIR = re.compile(r"\b([A-Z][A-Za-z]*)[ -]([A-Z][A-Za-z]*)\b")
_CONTENT_TAGS = frozenset(("NNG", "NNP", "NR", "SL", "SN", "SH", "XR", "VV", "VA"))


@dataclass(frozen=True)
class Evidence:
    z: float
    coverage: float
    cue: bool
    named: int = 0  # fewest catalog documents holding one of the question's names (0: none does)
    request: bool = False  # asks for advice, instructions, a recommendation or a piece of writing
    votes: int | None = None  # general questions among its closest labelled ones (None: no bank)
    lead: float | None = None  # closest catalog question's cosine less closest general one's
    lookup: bool = False  # asks for news or whether a contest exists ([kinds] news, [lookups])


class CatalogSample:
    """A sample of the catalog (contests and news embedded with the query's model), re-read every
    five minutes, every ten seconds while it is small: its vectors and keyword terms, which a
    question is compared with whatever the search then returns, and its name lexicon (sound key ->
    the words of the catalog with that key), through which a question's names find their spelling
    in the other script."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], model_name: str) -> None:
        self._db = db
        self.model_name = model_name
        self._matrix = np.zeros((0, 0), dtype=np.float32)
        self._terms: list[frozenset[str]] = []
        self._lexicon: dict[str, set[str]] = {}
        self._known: dict[bytes, _Digested] = {}  # digest of an embedding text -> its words
        self._read_at: float | None = None  # monotonic time of the last read, None before the first
        self._lock = asyncio.Lock()
        self._refreshing: asyncio.Task[None] | None = None

    async def sample(self) -> tuple[np.ndarray, list[frozenset[str]]]:
        """Unit vectors (one row per document) and each document's keyword terms. The first call
        reads the sample; later ones answer from the one held and, once it is due, re-read it in
        the background (a question never waits for a refresh: that was a 400 ms stall, at p95 of
        make bench's one-user catalog questions)."""
        if self._read_at is None:
            async with self._lock:
                if self._read_at is None:
                    await self._read()
            return self._matrix, self._terms
        every = (BACKGROUND_REFRESH_SECONDS if len(self._matrix) >= SMALL_CATALOG
                 else SMALL_CATALOG_REFRESH_SECONDS)
        due = time.monotonic() - self._read_at >= every
        if due and (self._refreshing is None or self._refreshing.done()):
            self._refreshing = asyncio.get_running_loop().create_task(self._refresh())
        return self._matrix, self._terms

    async def _refresh(self) -> None:
        try:
            async with self._lock:
                await self._read()
        except Exception as exc:  # the sample held stays in use; tried again when next due
            self._read_at = time.monotonic()
            logger.warning("catalog sample not refreshed: %s", exc)

    async def _read(self) -> None:
        docs: list[dict[str, Any]] = []
        for collection in _BACKGROUND:
            docs += await self._sample_of(collection)
        # about 2 ms of CPU per new document, which holds the GIL: off the event loop, and only
        # for documents whose text is new (a refresh of an unchanged catalog reads no text again)
        self._matrix, self._terms, self._lexicon, self._known = await asyncio.to_thread(
            _digest, docs, self._known)
        self._read_at = time.monotonic()

    async def _sample_of(self, collection: Collection) -> list[dict[str, Any]]:
        """A uniform sample of at most BACKGROUND_SAMPLE of the collection's documents: the
        ids are read in full (ids only), the sample is those with the smallest hash of their id,
        so it stays the same from one read to the next, takes each new item with the same chance
        as any other, and does not depend on the order documents were written in."""
        collection_docs = self._db[collection.value]
        query = {"embedding_model": self.model_name}
        ids = [d["document_id"] async for d in collection_docs.find(query, {"_id": 0,
                                                                           "document_id": 1})]
        if len(ids) > BACKGROUND_SAMPLE:
            ids = sorted(ids, key=_stable_rank)[:BACKGROUND_SAMPLE]
        docs: list[dict[str, Any]] = []
        for start in range(0, len(ids), SAMPLE_READ_BATCH):
            cursor = collection_docs.find(
                {**query, "document_id": {"$in": ids[start:start + SAMPLE_READ_BATCH]}},
                {"_id": 0, "embedding_vector": 1, "embedding_text": 1})
            docs += [d async for d in cursor if d.get("embedding_vector")]
        return docs

    async def spellings(self, question: str) -> list[str]:
        """The catalog's spellings, in the other script, of the names in `question` ("Payroute"
        gives 페이루트; "로그하버" gives LogHarbor), at most a few per name."""
        await self.sample()
        latin = latin_names(question)
        found: list[str] = []
        for word in name_words(question):
            if word.isascii() and word not in latin:
                continue
            for key in names.query_keys(word):
                # the closest in sound first, then the shortest: a name without the particles it
                # was also seen with
                heard = sorted(self._lexicon.get(key, ()),
                               key=lambda w, word=word: (-names.likeness(word, w), len(w), w))
                found += heard[:NAME_SPELLINGS]
        return [w for w in dict.fromkeys(found) if w.lower() not in question.lower()]


# a document's keyword terms and its lexicon entries (sound key, spelling)
_Digested = tuple[frozenset[str], tuple[tuple[str, str], ...]]


def _digest(docs: list[dict[str, Any]], known: dict[bytes, _Digested]
            ) -> tuple[np.ndarray, list[frozenset[str]], dict[str, set[str]], dict[bytes, _Digested]]:
    """Unit vectors, keyword terms and the name lexicon of the sampled documents, and the words of
    each text (those in `known` are not read again)."""
    terms: list[frozenset[str]] = []
    lexicon: dict[str, set[str]] = {}
    now: dict[bytes, _Digested] = {}
    for doc in docs:
        text = str(doc.get("embedding_text", ""))
        digest = hashlib.blake2b(text.encode(), digest_size=16).digest()
        words = now.get(digest) or known.get(digest)
        if words is None:
            words = (terms_of(text), tuple((key, spelled) for word, spelled in lexicon_words(text)
                                           for key in names.document_keys(word)))
        now[digest] = words
        terms.append(words[0])
        for key, spelled in words[1]:
            lexicon.setdefault(key, set()).add(spelled)
    return unit_rows([d["embedding_vector"] for d in docs]), terms, lexicon, now


# (model name, question) -> its vector: each bank question is embedded once per process and model
_BANK_VECTORS: dict[tuple[str, str], list[float]] = {}


class QuestionBank:
    """Questions users ask, labelled as catalog or general ones (question_bank.jsonl, written from
    the labelled question sets by `make question-bank`), embedded with the query's model: the kind
    of a new question's closest labelled questions says what kind of question it is, where its
    closeness to the catalog does not ("How do I make strawberry jam?" stands close to a game jam;
    "Will it rain in Busan?" names a city a contest is held in)."""

    def __init__(self, embedder: Embedder, examples: Sequence[tuple[str, bool]]) -> None:
        self._embedder = embedder
        self._texts = [text for text, _ in examples]
        self._general = np.asarray([general for _, general in examples], dtype=bool)
        self._matrix: np.ndarray | None = None
        self._lock = asyncio.Lock()
        self._embedding: asyncio.Task[np.ndarray] | None = None

    @classmethod
    def read(cls, embedder: Embedder, path: Path = QUESTION_BANK,
             leave_out: frozenset[str] = frozenset(),
             vectors: Path = QUESTION_BANK_VECTORS) -> QuestionBank:
        """The bank of `path`, without the questions of `leave_out` (an evaluation leaves out the
        questions it measures: a question would find itself); its vectors are taken from
        `vectors` when they were made by the embedder's model for these very questions."""
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        kept = [i for i, row in enumerate(rows) if row["question"] not in leave_out]
        bank = cls(embedder, [(rows[i]["question"], bool(rows[i]["general"])) for i in kept])
        if vectors.exists():
            with np.load(vectors) as stored:
                if (str(stored["model"]) == embedder.model_name
                        and str(stored["digest"]) == bank_digest([r["question"] for r in rows])):
                    bank._matrix = stored["vectors"].astype(np.float32)[kept]
        return bank

    def __len__(self) -> int:
        return len(self._texts)

    def start(self) -> None:
        """Embed the bank now, in the background, rather than on the first question (about 30 ms
        of one core per question with multilingual-e5-small; nothing when its vectors were shipped
        for the model); again after a failure."""
        if self._matrix is None and (self._embedding is None or self._embedding.done()):
            self._embedding = asyncio.get_running_loop().create_task(self.matrix())
            self._embedding.add_done_callback(_log_failure)

    @property
    def ready(self) -> bool:
        return self._matrix is not None

    async def matrix(self) -> np.ndarray:
        """The bank's unit vectors, one row per question (embedded on the first call; each
        question once per process and model, so an embedding cut short by a shutdown is taken up
        where it stopped)."""
        if self._matrix is None:
            async with self._lock:
                if self._matrix is None:
                    model = self._embedder.model_name
                    for text in self._texts:
                        if (model, text) not in _BANK_VECTORS:
                            _BANK_VECTORS[model, text] = await self._embedder.embed_query(text)
                    self._matrix = unit_rows([_BANK_VECTORS[model, t] for t in self._texts])
                    logger.info("question bank embedded: %d questions", len(self._texts))
        return self._matrix

    async def close(self) -> None:
        await cancel_and_wait(self._embedding)

    async def vote(self, unit: np.ndarray) -> tuple[int, float] | None:
        """How many of the NEIGHBOURS labelled questions closest to `unit` are general ones, and
        the lead of the closest catalog question over the closest general one (cosines; a bank
        of one kind leads by +1 or -1); None for an empty bank."""
        if not self._texts:
            return None
        cosines = await self.matrix() @ unit
        closest = np.argsort(-cosines)[:NEIGHBOURS]
        general, catalog = cosines[self._general], cosines[~self._general]
        lead = (float(catalog.max() - general.max()) if len(general) and len(catalog)
                else -1.0 if len(general) else 1.0)
        return int(self._general[closest].sum()), lead


class RelevanceGate:
    def __init__(self, background: CatalogSample, thresholds: Thresholds | None,
                 rules: Rules | None = None, bank: QuestionBank | None = None) -> None:
        self._background = background
        self._thresholds = thresholds
        self._rules = rules or default_rules()
        self._bank = bank

    @classmethod
    def for_model(cls, sample: CatalogSample, embedder: Embedder | None = None,
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
        lookup = matches(self._rules.news_kind, text) or matches(self._rules.lookups, text)
        unit = np.asarray(vector, dtype=np.float32)
        unit /= max(float(np.linalg.norm(unit)), 1e-12)
        vote = await self._bank.vote(unit) if self._bank is not None else None
        votes, lead = vote if vote is not None else (None, None)
        matrix, terms = await self._background.sample()
        if len(matrix) < 2:
            return (Evidence(0.0, 0.0, cue, 0, request, votes, lead, lookup),
                    np.zeros(0, np.float32), [])
        cosines = matrix @ unit
        z = float((cosines.max() - cosines.mean()) / max(float(cosines.std()), 1e-6))
        return Evidence(z, 0.0, cue, 0, request, votes, lead, lookup), cosines, terms

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
        if own and e.cue:
            return True, "own-items"  # looks in the saved items by name
        if e.lookup and not e.request:
            return True, "lookup"  # asks for news or a contest
        if e.lead is not None and e.lead >= t.lead_min:
            return True, "lead"  # asked like a catalog question
        if e.cue and not e.request and names_dates(question):
            return True, "dated"  # asks for items of a kind by date ("다음 달 해커톤")
        rule = "general-votes"
        if e.votes is not None and e.votes >= t.general_votes_min:
            # asked like the general questions: a request for advice fails ("쿠버네티스에서 pod가
            # CrashLoopBackOff 뜨면 뭐부터 확인해야 돼?"); anything else unless the catalog holds it
            # on both its peak and its words ("2026 한국 개발자 설문조사에서 3년차 평균 연봉 얼마로
            # 나왔어요?"), or on either when it names the catalog ("하늘 모델 최신 소식 뭐야?")
            if not e.request and (e.z >= t.z_min or e.cue):
                e = _with_words(e, question, cosines, terms)
            peak, words = e.z >= t.z_min, e.coverage >= t.coverage_min
            passed = not e.request and ((peak or words) if e.cue else (peak and words))
        elif e.cue or e.votes == 0 or e.z >= t.z_min:
            # names the catalog, is asked like catalog questions, or peaks
            passed, rule = True, "cue" if e.cue else "catalog-votes" if e.votes == 0 else "peak"
        elif e.request:
            passed, rule = False, "request"  # advice or instructions: not on its words alone
        else:
            e = _with_words(e, question, cosines, terms)
            passed, rule = (e.coverage >= t.coverage_min or 0 < e.named <= t.name_documents_max
                            or own), "words"
        if not passed:
            logger.debug("relevance gate: nothing fits (rule %s; z %.2f, coverage %.2f, name in "
                         "%d, request %s, general votes %s, catalog lead %s)", rule, e.z,
                         e.coverage, e.named, e.request, e.votes, e.lead)
        return passed, rule


def _with_words(e: Evidence, question: str, cosines: np.ndarray,
                terms: list[frozenset[str]]) -> Evidence:
    """`e` with the question's coverage by its closest items and its rarest name."""
    if not terms:
        return e
    closest = np.argsort(-cosines)[:CLOSEST]
    return replace(e, coverage=coverage(question, [terms[i] for i in closest]),
                   named=rarest_name(question, terms))


def bank_digest(questions: Sequence[str]) -> str:
    """What stored bank vectors are checked against: the questions they were made from."""
    return hashlib.blake2b("\n".join(questions).encode(), digest_size=16).hexdigest()


def unit_rows(vectors: Sequence[Sequence[float]]) -> np.ndarray:
    """`vectors` as a float32 matrix of unit rows."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if not len(matrix):
        return np.zeros((0, 0), dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("question bank not embedded (tried again when readiness is next checked): "
                       "%s", task.exception())


def lexicon_words(text: str) -> list[tuple[str, str]]:
    """The words of a catalog text that can be names in the lexicon, lower-cased and as written:
    its Hangul words, and its Latin words written with a capital (Kafka, LogHarbor) and their pairs
    (Narae Cloud); lower-case English words are ordinary words, whose consonants meet some Korean
    word's by chance."""
    spelled = {w.lower(): w for w in _LATIN.findall(text) if w[0].isupper()}
    spelled |= {(a + b).lower(): f"{a} {b}" for a, b in _CAPITALISED_PAIR.findall(text)}
    return [(w, spelled.get(w, w)) for w in name_words(text) if not w.isascii() or w in spelled]


def content_words(question: str) -> list[str]:
    """The words of a question that carry its topic (Kiwi's nouns, roots, numbers and foreign words,
    without question words), lower-cased; foreign words as written."""
    words = [form.lower() for form, tag, _ in korean.morphemes(question) if tag in _CONTENT_TAGS]
    return list(dict.fromkeys(w for w in words if w not in _NOT_CONTENT and len(w) >= 1))


def coverage(question: str, documents: Sequence[frozenset[str]]) -> float:
    """The largest share of the question's content words that one document's terms contain."""
    words = content_words(question)
    if not words or not documents:
        return 0.0
    return max(sum(_contains(terms, w) for w in words) / len(words) for terms in documents)


def terms_of(text: str) -> frozenset[str]:
    """A document's keyword terms and the sound keys of its names."""
    keys = [key for word in name_words(text) for key in names.document_keys(word)]
    return frozenset(document_terms(text)).union(keys)


def rarest_name(question: str, documents: Sequence[frozenset[str]]) -> int:
    """How many of `documents` hold the question's rarest name (its Latin words written like
    names, keyword.latin_names), counting only names some document holds; 0 when none does."""
    held = [sum(all(t in terms for t in tokens) for terms in documents)
            for name in latin_names(question) if (tokens := tokenize(name))]
    return min((n for n in held if n), default=0)


def _contains(terms: frozenset[str], word: str) -> bool:
    tokens = tokenize(word)
    if tokens and all(t in terms for t in tokens):
        return True
    return any(key in terms for key in names.query_keys(word))
