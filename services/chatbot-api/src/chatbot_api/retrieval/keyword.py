"""The keyword side of hybrid search and the rank fusion: pure functions, no I/O.

Korean is agglutinative ("공모전은", "공모전에"), so whole words rarely match between a question
and a document; Hangul runs are cut into character bigrams instead, which match across particles.
Other scripts give lower-cased words. A name written in the other script (Payroute for 페이루트)
is added to the question by the catalog's name lexicon (retrieval/relevance.py), through the sound
keys of language/names.py. BM25 comes from bm25s (numpy only for a tokenised corpus).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import lru_cache
from itertools import pairwise

import bm25s
import numpy as np

_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
_WORD = re.compile(r"[^\W_]+")
# Words of requests, not of topics: they match every document's boilerplate or none.
_STOPWORDS = frozenset((
    "a", "an", "and", "any", "are", "about", "can", "did", "do", "does", "find", "for", "from", "i",
    "in", "is", "it", "me", "my", "of", "on", "or", "show", "tell", "the", "that", "there", "this",
    "to", "was", "what", "where", "which", "who", "with", "you", "your",
))
RRF_K = 60  # the usual constant of reciprocal rank fusion (Cormack et al. 2009)


def tokenize(text: str) -> list[str]:
    """Lower-cased words of non-Hangul scripts plus the character bigrams of each Hangul run."""
    tokens: list[str] = []
    for word in _WORD.findall(text.lower()):
        for part in _split_scripts(word):
            if _HANGUL_RUN.fullmatch(part):
                tokens.extend(hangul_bigrams(part))
            elif part not in _STOPWORDS:
                tokens.append(part)
    return tokens


def has_hangul(text: str) -> bool:
    """Whether `text` holds a Hangul syllable."""
    return _HANGUL_RUN.search(text) is not None


def document_terms(text: str) -> list[str]:
    """The keyword side's terms of a catalog document's text (what its postings hold)."""
    return tokenize(text)


@lru_cache(maxsize=256)  # one question searches several collections: tokenized once
def query_terms(text: str) -> tuple[str, ...]:
    """The keyword side's terms of a question (matched against `document_terms`)."""
    return tuple(tokenize(text))


NAME_LETTERS = 3  # "AI", "I" and "Go" are not told apart from ordinary words


def latin_names(text: str) -> frozenset[str]:
    """Latin words of `text` written like names, lower-cased: all of them in a question with
    Hangul ("Payroute 장애"), else those capitalised past the sentence's first word ("Did Payroute
    ..."), and their pairs ("Narae Cloud"). An ordinary English word's consonants meet some Korean
    word's by chance, so only these are looked up in the other script."""
    words = [w for word in _WORD.findall(text) for w in _split_scripts(word)
             if w.isascii() and w.isalpha()]
    korean = _HANGUL_RUN.search(text) is not None
    named = [(korean or (i > 0 and w[0].isupper())) and len(w) >= NAME_LETTERS
             and w.lower() not in _STOPWORDS for i, w in enumerate(words)]
    singles = [w.lower() for w, n in zip(words, named, strict=True) if n]
    pairs = [(a + b).lower() for (a, m), (b, n) in pairwise(zip(words, named, strict=True)) if m and n]
    if not korean and len(words) > 1 and named[1] and words[0][0].isupper() \
            and len(words[0]) >= NAME_LETTERS and words[0].lower() not in _STOPWORDS:
        # a sentence opening with two capitalised words ("Narae Cloud price cut ..."): the pair
        # may be a name though its first word alone tells nothing
        pairs.append((words[0] + words[1]).lower())
    return frozenset(singles + pairs)


# Particles that end a Hangul word ("페이루트가", "모아몰에서"): a name's key is made with and
# without them, since nothing tells a particle from a name's last syllable without a dictionary.
_PARTICLES = sorted((
    "이", "가", "은", "는", "을", "를", "의", "에", "와", "과", "도", "로", "만", "랑", "에서", "에게",
    "으로", "부터", "까지", "처럼", "보다", "이랑", "하고", "에서는", "에서도", "으로는", "라는",
    "이라는", "이나", "나",
), key=len, reverse=True)


def name_words(text: str) -> list[str]:
    """The words of `text` that can be names: each Hangul run of two syllables or more (and the
    run without its particle), each Latin word of three letters or more that is not a request
    word, and each pair of adjacent Latin words written together ("Narae Cloud" is 나래클라우드)."""
    words: list[str] = []
    latin_before = ""
    for word in _WORD.findall(text.lower()):
        for part in _split_scripts(word):
            if _HANGUL_RUN.fullmatch(part):
                latin_before = ""
                if len(part) >= 2:
                    words.append(part)
                    ending = next((p for p in _PARTICLES if part.endswith(p)), "")
                    if ending and len(part) - len(ending) >= 2:
                        words.append(part[:-len(ending)])
            elif part.isascii() and part.isalpha() and part not in _STOPWORDS:
                if len(part) >= 3:
                    words.append(part)
                if latin_before:
                    words.append(latin_before + part)
                latin_before = part
            else:
                latin_before = ""
    return words


def _split_scripts(word: str) -> list[str]:
    """"kafka로" -> ["kafka", "로"]: a Latin name glued to a Korean particle."""
    parts: list[str] = []
    last = 0
    for match in _HANGUL_RUN.finditer(word):
        parts.extend(p for p in (word[last:match.start()], match.group()) if p)
        last = match.end()
    if word[last:]:
        parts.append(word[last:])
    return parts


def hangul_bigrams(run: str) -> list[str]:
    """Overlapping character bigrams; a one-syllable run is its own token."""
    if len(run) < 2:
        return [run]
    return [run[i:i + 2] for i in range(len(run) - 1)]


# The exact strategy scores every document of a collection on each query: tokenising their texts
# again each time was ~70% of a search (make bench, 1,000 items). Documents' texts change rarely,
# so their tokens are kept (a few MB per thousand documents).
DOCUMENT_TOKENS_CACHED = 12_000


@lru_cache(maxsize=DOCUMENT_TOKENS_CACHED)
def _document_tokens(text: str) -> tuple[str, ...]:
    return tuple(document_terms(text))


class _Corpus:
    """The tokens of one set of texts, their vocabulary, and their BM25 index once one is needed."""

    def __init__(self, texts: tuple[str, ...]) -> None:
        self.tokens = [list(_document_tokens(t)) for t in texts]
        self.vocabulary = frozenset(token for doc in self.tokens for token in doc)
        self._index: bm25s.BM25 | None = None

    @property
    def index(self) -> bm25s.BM25:
        if self._index is None:
            index = bm25s.BM25()
            index.index(self.tokens, show_progress=False)
            self._index = index
        return self._index


# A collection's documents (after the prefilter) are usually the same from one query to the next:
# building the BM25 index was the rest of a search's time, so the last few corpora are kept.
@lru_cache(maxsize=16)
def _corpus(texts: tuple[str, ...]) -> _Corpus:
    return _Corpus(texts)


def bm25_scores(query: str, texts: Sequence[str]) -> np.ndarray:
    """BM25 score of `query` against each text (0.0 where nothing matches)."""
    query_tokens = query_terms(query)
    if not query_tokens or not texts:
        return np.zeros(len(texts))
    corpus = _corpus(tuple(texts))
    known = [t for t in query_tokens if t in corpus.vocabulary]
    if not known:
        return np.zeros(len(texts))
    return np.asarray(corpus.index.get_scores(known), dtype=float)


def rank_array(values: Sequence[float] | np.ndarray, *, positive_only: bool = False) -> np.ndarray:
    """`ranks` as an int array, 0 where a value is not ranked."""
    array = np.asarray(values, dtype=np.float64)
    if positive_only:  # only the positive values are ranked: sort just those
        result = np.zeros(len(array), dtype=np.int64)
        positive = np.flatnonzero(array > 0)
        result[positive] = rank_array(array[positive])
        return result
    if not len(array):
        return np.zeros(0, dtype=np.int64)
    # equal values share the rank of their run whatever their order within it, so the sort need
    # not be stable (NumPy's default sort is several times faster than its stable one)
    order = np.argsort(-array)
    ordered = array[order]
    starts = np.r_[True, ordered[1:] != ordered[:-1]]
    shared = np.maximum.accumulate(np.where(starts, np.arange(len(array)), 0)) + 1
    result = np.empty(len(array), dtype=np.int64)
    result[order] = shared
    return result


def ranks(values: Sequence[float] | np.ndarray, *, positive_only: bool = False) -> list[int | None]:
    """1-based rank of each value, best (highest) first; None for non-positive values when asked.

    Equal values share the best of their ranks (1, 2, 2, 4): a rank never depends on the order the
    store returned the documents in, so every strategy and deployment ranks a catalog alike."""
    return [int(r) or None for r in rank_array(values, positive_only=positive_only)]


def reciprocal_rank_fusion(
    rankings: Sequence[Sequence[int | None] | np.ndarray], weights: Sequence[float], k: int = RRF_K
) -> list[float]:
    """sum(weight / (k + rank)) per item over the rankings; an unranked item (None or 0) adds nothing."""
    return fused_ranks(rankings, weights, k).tolist()


def fused_ranks(rankings: Sequence[Sequence[int | None] | np.ndarray], weights: Sequence[float],
                k: int = RRF_K) -> np.ndarray:
    """reciprocal_rank_fusion as an array, added ranking by ranking."""
    size = len(rankings[0]) if rankings else 0
    fused = np.zeros(size, dtype=np.float64)
    for ranking, weight in zip(rankings, weights, strict=True):
        array = rank_values(ranking)  # a new array: computed in place, added where ranked
        ranked = array > 0
        array += k
        np.divide(weight, array, out=array)
        np.add(fused, array, out=fused, where=ranked)
    return fused


def rank_values(ranking: Sequence[int | None] | np.ndarray) -> np.ndarray:
    if isinstance(ranking, np.ndarray):
        return ranking.astype(np.float64)
    return np.asarray([0 if r is None else r for r in ranking], dtype=np.float64)
