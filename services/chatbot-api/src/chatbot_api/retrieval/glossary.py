"""Cross-language keyword expansion: a question in Korean also asks for the English words of its
terms, and the other way round (docs/architecture.md, Retrieval, keyword side).

The portal's catalog mixes Korean and English items, and the embedding model (multilingual-e5-small)
matches a Korean question to an English article only weakly, while BM25 cannot match across
scripts at all. Adding the other language's words for the vocabulary a question uses ("쿠버네티스
보안 취약점" -> kubernetes, security, vulnerability) lets the keyword side find the article in
the other language; the fusion then lifts it. The glossary is data (glossary_ko_en.tsv): general
developer vocabulary, never the names of catalog items.

Matching: a Korean term of two or more syllables anywhere in a Hangul run (Korean glues particles
to words: "취약점이", "보안을"), a one-syllable term only at the start of a run ("팀으로", not
"스팀"); an English term as whole words, a single long word also with a plural or past ending.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path

GLOSSARY_FILE = Path(__file__).with_name("glossary_ko_en.tsv")
_HANGUL_RUN = re.compile(r"[\uac00-\ud7a3]+")
_KOREAN_KEY, _ENGLISH_KEY = 2, 3  # characters of a term an entry is filed under (_candidates)


@dataclass(frozen=True)
class Entry:
    korean: str
    english: tuple[str, ...]


class Glossary:
    """Bidirectional term lookup over the entries of a glossary file."""

    def __init__(self, entries: Iterable[Entry]) -> None:
        self._entries = tuple(entries)
        # each English term's pattern, with a text it cannot match without (a cheap test first)
        self._english = [(entry, [(_needle(term), _english_pattern(term)) for term in entry.english])
                         for entry in self._entries]
        # which entries a text can match at all: each entry under the first two characters of its
        # Korean term and the first three of its English needles (a text holding a term holds
        # them; three, as Latin letters pair far more often than Hangul syllables do)
        self._korean_keys: dict[str, list[int]] = {}
        self._english_keys: dict[str, list[int]] = {}
        self._terms = frozenset(t.lower() for e in self._entries for t in (e.korean, *e.english))
        for number, (entry, patterns) in enumerate(self._english):
            self._korean_keys.setdefault(entry.korean[:_KOREAN_KEY], []).append(number)
            for needle, _ in patterns:
                self._english_keys.setdefault(needle[:_ENGLISH_KEY], []).append(number)

    @classmethod
    def parse(cls, text: str) -> Glossary:
        """Entries from `korean<TAB>english, english` lines; '#' starts a comment line."""
        entries = []
        for number, line in enumerate(text.splitlines(), start=1):
            if not line.strip() or line.startswith("#"):
                continue
            korean, sep, english = line.partition("\t")
            terms = tuple(t.strip().lower() for t in english.split(",") if t.strip())
            if not sep or not korean.strip() or not terms:
                raise ValueError(f"glossary line {number} is not 'korean<TAB>english, ...': {line!r}")
            entries.append(Entry(korean.strip(), terms))
        return cls(entries)

    def __len__(self) -> int:
        return len(self._entries)

    def holds(self, word: str) -> bool:
        """Whether `word` (any case) is one of the glossary's terms: vocabulary, not a name."""
        return word.lower() in self._terms

    def equivalents(self, query: str) -> list[str]:
        """The other language's words for the glossary terms in `query`, each once, in order."""
        runs = _HANGUL_RUN.findall(query)
        spaced = " ".join(runs)
        lowered = query.lower()
        found: list[str] = []
        for number in self._candidates(spaced, lowered):
            entry, patterns = self._english[number]
            if entry.korean in spaced and _korean_in(entry.korean, runs, spaced):  # the first: cheap
                found.extend(entry.english)
            if any(needle in lowered and p.search(lowered) for needle, p in patterns):
                found.append(entry.korean)
        return list(dict.fromkeys(t for t in found if t.lower() not in lowered and t not in query))

    def _candidates(self, spaced: str, lowered: str) -> list[int]:
        """The entries, in their order, whose Korean term could be in `spaced` or one of whose
        English needles could be in `lowered`: those filed under a run of the text's characters
        (as long as the key, or shorter for a shorter term)."""
        found: set[int] = set()
        for keys, text, longest in ((self._korean_keys, spaced, _KOREAN_KEY),
                                    (self._english_keys, lowered, _ENGLISH_KEY)):
            for gram in {text[i:i + n] for n in range(1, longest + 1)
                         for i in range(len(text) - n + 1)}:
                found.update(keys.get(gram, ()))
        return sorted(found)

    def expand(self, query: str) -> str:
        """`query` followed by the equivalents of its terms: the text the keyword side searches."""
        extra = self.equivalents(query)
        return f"{query} {' '.join(extra)}" if extra else query


def _korean_in(term: str, runs: list[str], spaced: str) -> bool:
    if " " in term:  # a phrase: its words in a row
        return term in spaced
    if len(term) == 1:
        return any(run.startswith(term) for run in runs)
    return any(term in run for run in runs)


def _needle(term: str) -> str:
    """What every match of _english_pattern(term) contains: the term, less a final y."""
    return term[:-1] if " " not in term and len(term) > 3 and term.endswith("y") else term


def _english_pattern(term: str) -> re.Pattern[str]:
    """Whole words; a single word of four letters or more also with -s/-es/-d/-ed (-y: -ies)."""
    word = re.escape(term)
    if " " not in term and len(term) > 3:
        word = f"{re.escape(term[:-1])}(?:y|ies)" if term.endswith("y") else f"{word}(?:s|es|d|ed)?"
    return re.compile(rf"(?<![a-z0-9]){word}(?![a-z0-9])")


@cache
def default_glossary() -> Glossary:
    """The glossary shipped with the package (read once)."""
    return Glossary.parse(GLOSSARY_FILE.read_text(encoding="utf-8"))


@lru_cache(maxsize=256)  # one question searches several collections: expanded once
def keyword_query(query: str) -> str:
    """What the keyword side of either strategy searches for `query`."""
    return default_glossary().expand(query)
