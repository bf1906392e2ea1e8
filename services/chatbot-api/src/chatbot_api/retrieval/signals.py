"""What the relevance gate reads of a question against the catalog: its words, the catalog's
words and names, and the coverage of the one by the other. Pure functions, no I/O
(retrieval/relevance.py says how the gate decides on them).

- the words: the largest share of the question's content words (Kiwi: nouns, roots, numbers,
  foreign words; not question words) that one of its ten closest items contains, by the keyword
  side's own terms, sound keys of names included (`coverage`). Over the whole catalog instead, some
  item holds "capital" and "Australia" and the question passes;
- a name: a Latin word of the question written like a name that at most a few documents hold
  (Loopwise, SecureGate, pgvector; `rarest_name`);
- the name lexicon (sound key -> the catalog's words with that key), through which a question's
  names find their spelling in the other script (`spellings_in`).
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Sequence
from typing import Any, Protocol

import numpy as np

from chatbot_api.language import korean, names
from chatbot_api.retrieval.glossary import default_glossary
from chatbot_api.retrieval.keyword import document_terms, latin_names, name_words, tokenize

NAME_SPELLINGS = 3  # catalog words added per name of a question
ROMANISED = 0.9  # names.likeness of a dictionary word and its romanisation (능금, Neunggeum: 1.0)
CLOSEST = 10  # the items whose words are compared with the question's
_NOT_CONTENT = korean.GENERIC | frozenset(("new", "latest", "recent", "thing", "things"))
_LATIN = re.compile(r"[A-Za-z]+")
_CAPITALISED_PAIR = re.compile(r"\b([A-Z][A-Za-z]*)[ -]([A-Z][A-Za-z]*)\b")
_CONTENT_TAGS = frozenset(("NNG", "NNP", "NR", "SL", "SN", "SH", "XR", "VV", "VA"))


class CatalogView(Protocol):
    """The catalog as the gate reads it (adapters/catalog_sample.py reads it from MongoDB)."""

    model_name: str

    async def sample(self) -> tuple[np.ndarray, list[frozenset[str]]]:
        """Unit vectors (one row per item) and each item's keyword terms."""
        ...

    async def spellings(self, question: str) -> list[str]:
        """The catalog's spellings, in the other script, of the names in `question`."""
        ...


# a text's keyword terms and its lexicon entries (sound key, spelling)
Digested = tuple[frozenset[str], tuple[tuple[str, str], ...]]


def digest(docs: list[dict[str, Any]], known: dict[bytes, Digested]
           ) -> tuple[np.ndarray, list[frozenset[str]], dict[str, set[str]], dict[bytes, Digested]]:
    """Unit vectors, keyword terms and the name lexicon of the sampled documents, and the words of
    each text (those in `known` are not read again)."""
    terms: list[frozenset[str]] = []
    lexicon: dict[str, set[str]] = {}
    now: dict[bytes, Digested] = {}
    for doc in docs:
        text = str(doc.get("embedding_text", ""))
        seen = hashlib.blake2b(text.encode(), digest_size=16).digest()
        words = now.get(seen) or known.get(seen)
        if words is None:
            words = (terms_of(text), tuple((key, spelled) for word, spelled in lexicon_words(text)
                                           for key in names.document_keys(word)))
        now[seen] = words
        terms.append(words[0])
        for key, spelled in words[1]:
            lexicon.setdefault(key, set()).add(spelled)
    return unit_rows([d["embedding_vector"] for d in docs]), terms, lexicon, now


def spellings_in(lexicon: dict[str, set[str]], question: str) -> list[str]:
    """The catalog's spellings, in the other script, of the names in `question` ("Payroute"
    gives 페이루트; "로그하버" gives LogHarbor), at most a few per name; none the glossary holds."""
    latin = latin_names(question)
    found: list[str] = []
    for word in name_words(question):
        if word.isascii() and word not in latin:
            continue
        for key in names.query_keys(word):
            # the closest in sound first, then the shortest: a name without the particles it
            # was also seen with
            heard = sorted(lexicon.get(key, ()),
                           key=lambda w, word=word: (-names.likeness(word, w), len(w), w))
            if heard and not word.isascii() and korean.dictionary_word(word):
                # a word of the dictionary is a name only as its romanisation (능금 Neunggeum,
                # 별빛 Byeolbit); any other spelling of its sound is a chance meeting (시즌
                # Season, 판매량 Bank) or a translation, the glossary's
                heard = [w for w in heard if names.likeness(word, w) >= ROMANISED]
            found += heard[:NAME_SPELLINGS]
    # a word the glossary translates is vocabulary, not a name: its other language joins the
    # keyword side through the glossary already, and as a name it lifted every title holding it
    # (해커톤 spelled "Hackathon" named every English hackathon of the catalog)
    glossary = default_glossary()
    return [w for w in dict.fromkeys(found)
            if w.lower() not in question.lower() and not glossary.holds(w)]


def unit_rows(vectors: Sequence[Sequence[float]]) -> np.ndarray:
    """`vectors` as a float32 matrix of unit rows."""
    matrix = np.asarray(vectors, dtype=np.float32)
    if not len(matrix):
        return np.zeros((0, 0), dtype=np.float32)
    return matrix / np.maximum(np.linalg.norm(matrix, axis=1, keepdims=True), 1e-12)


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
