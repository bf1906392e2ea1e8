"""Korean morphemes from kiwipiepy (Kiwi, its bundled model), one analyser per process, and the
words a conversation is searched by.

Kiwi segments the same word differently in different company: "해커톤" alone is one noun,
"AI해커톤" is AI + 해커 + 톤. So a text is indexed by its nouns (and numbers, roots, Latin words)
and by every joined stretch of nouns written without a space between them (해커, 톤 and 해커톤),
and a question's stretch of nouns is looked up joined (해커톤), or by its parts when the text
spaced them ("데이터 분석" for "데이터분석"). A particle is not a noun, so "해커톤은" gives
해커톤. Latin words are lower-cased and lose a plural -s ("CTFs" is "ctf").
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

_lock = threading.Lock()
_kiwi: Any = None

_NOUNS = frozenset(("NNG", "NNP", "NR", "XR", "SH"))
_OTHER = frozenset(("SL", "SN"))
_MAX_JOINED = 4  # morphemes in one joined stretch (compounds are short)
# English words that find everything, so nothing: neither indexed nor searched for
_STOPWORDS = """
a an the and or but if of to in on at by for from with about as into than then so not no is are
was were be been am do does did have has had it its this that these those there here i me my you
your we our he she they them his her their what which who whom when where why how can could would
should will shall may might must please
"""
STOPWORDS = frozenset(_STOPWORDS.split())


def analyser() -> Any:
    """The process's Kiwi (about 300 MB), built on first use."""
    global _kiwi
    with _lock:
        if _kiwi is None:
            from kiwipiepy import Kiwi  # imported here: loading the model takes a second

            # without the typo and multi-word dictionaries: 300 MB instead of 490 MB resident and
            # a third of the load time
            _kiwi = Kiwi(load_typo_dict=False, load_multi_dict=False)
        return _kiwi


def warm_up() -> None:
    """Load the analyser now (at start, off the request path): Kiwi reads its model on the first
    analysis, which takes about two seconds."""
    analyser().tokenize("대회 신청은 언제까지야?")


@dataclass(frozen=True)
class QueryTerm:
    """One word of a search: `joined` as written (해커톤), `parts` as Kiwi may have split it."""

    joined: str
    parts: tuple[str, ...]

    @property
    def keys(self) -> tuple[str, ...]:
        return tuple(dict.fromkeys((self.joined, *self.parts)))


_LATIN = re.compile(r"[A-Za-z0-9]+(?:[.\-][A-Za-z0-9]+)*[+#]*")


def _latin(word: str) -> str | None:
    term = word.lower()
    if term in STOPWORDS or (len(term) < 2 and not term.isdigit()):
        return None
    if len(term) > 3 and term.isalpha() and term.endswith("s") and not term.endswith("ss"):
        term = term[:-1]
    return term


@dataclass(frozen=True)
class _Run:
    parts: tuple[str, ...]
    joined: str
    spans: bool  # Hangul: every joined stretch of the parts is a word too


def _runs(text: str) -> list[_Run]:
    """The text's searchable words, as runs. Hangul: adjacent nouns (Kiwi's) written without a
    space between them form one run. Latin words and numbers are read without Kiwi, which splits
    "list." into l and ist.: a word with dots or hyphens (node.js, GPT-4o) is a run of its
    parts."""
    nouns: list[list[str]] = []
    end = -1
    for token in analyser().tokenize(text):
        if token.tag in _NOUNS:
            if not (nouns and token.start == end):
                nouns.append([])
            nouns[-1].append(token.form)
            end = token.start + token.len
        else:
            end = -1
    runs = [_Run(tuple(n), "".join(n), True) for n in nouns]
    for match in _LATIN.finditer(text):
        word = match.group()
        parts = tuple(p for p in (_latin(part) for part in re.split(r"[.\-]", word)) if p)
        whole = _latin(word) if len(parts) > 1 else (parts[0] if parts else None)
        if whole is not None:
            runs.append(_Run(parts if len(parts) > 1 else (whole,), whole, False))
    return runs


def index_terms(text: str) -> set[str]:
    """Every word `text` can be found by: each noun, each joined stretch of adjacent nouns, each
    Latin word (and each part of one with dots or hyphens) and number."""
    found: set[str] = set()
    for run in _runs(text):
        found.add(run.joined)
        found.update(run.parts)
        if run.spans:
            for i in range(len(run.parts)):
                for j in range(i + 2, min(len(run.parts), i + _MAX_JOINED) + 1):
                    found.add("".join(run.parts[i:j]))
    return found


def query_terms(text: str) -> list[QueryTerm]:
    """The words of a search, each to be found joined or by its parts, in order, once each."""
    seen: dict[str, QueryTerm] = {}
    for run in _runs(text):
        seen.setdefault(run.joined, QueryTerm(run.joined, run.parts if len(run.parts) > 1 else ()))
    return list(seen.values())
