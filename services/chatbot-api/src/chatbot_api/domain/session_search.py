"""Searching one's own conversations: which sessions a search finds, in which order, and the
snippet shown for each. Plain Python over what the search index holds
(techai_shared.conversation.search); the adapter reads it.

A session is found when it holds every word of the search (in its messages or its title); a word
is held joined as written or, when Kiwi split it, by all its parts in one message. Best first:
more words in the title, then more messages holding every word, then more messages holding any,
then the newer session (session ids are UUIDv7, so a larger id is a newer session).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

from techai_shared.korean import QueryTerm

SNIPPET_CHARS = 160
MAX_MESSAGE_IDS = 20  # matching message ids listed per session, newest first


@dataclass
class Postings:
    """What the index holds for one word, merged over its buckets: session -> message ids, and the
    sessions whose title held it."""

    messages: dict[str, set[str]] = field(default_factory=dict)
    titles: set[str] = field(default_factory=set)

    def add(self, messages: Mapping[str, Iterable[str]], titles: Iterable[str]) -> None:
        for sid, mids in messages.items():
            self.messages.setdefault(sid, set()).update(mids)
        self.titles.update(titles)


@dataclass(frozen=True)
class Candidate:
    session_id: str
    title_words: int
    message_ids: frozenset[str]  # messages holding every word
    any_ids: frozenset[str]  # messages holding at least one

    def rank(self) -> tuple[int, int, int, str]:
        return (self.title_words, len(self.message_ids), len(self.any_ids), self.session_id)


def _word(term: QueryTerm, index: Mapping[str, Postings]) -> tuple[dict[str, set[str]], set[str]]:
    """Session -> messages holding `term`, and the sessions whose title holds it."""
    empty = Postings()
    joined = index.get(term.joined, empty)
    found = {sid: set(mids) for sid, mids in joined.messages.items()}
    titles = set(joined.titles)
    if term.parts:
        parts = [index.get(p, empty) for p in term.parts]
        for sid in set.intersection(*(set(p.messages) for p in parts)):
            together = set.intersection(*(p.messages[sid] for p in parts))
            if together:
                found.setdefault(sid, set()).update(together)
        titles |= set.intersection(*(p.titles for p in parts))
    return found, titles


def candidates(terms: list[QueryTerm], index: Mapping[str, Postings]) -> list[Candidate]:
    """The sessions holding every word, best first (see the module docstring)."""
    if not terms:
        return []
    words = [_word(t, index) for t in terms]
    sessions: set[str] | None = None
    for found, titles in words:
        holding = set(found) | titles
        sessions = holding if sessions is None else sessions & holding
    out = []
    for sid in sessions or ():
        per_word = [found.get(sid, set()) for found, _ in words]
        every = set.intersection(*per_word) if all(per_word) else set()
        out.append(Candidate(sid, sum(sid in titles for _, titles in words), frozenset(every),
                             frozenset(set().union(*per_word))))
    return sorted(out, key=Candidate.rank, reverse=True)


@dataclass(frozen=True)
class Snippet:
    """A stretch of a message (or the title) around the first match, and where the matched words
    are in it: (start, length) pairs, in characters."""

    text: str
    highlights: list[tuple[int, int]]
    message_id: str | None  # None: the snippet is the title


def _pattern(terms: list[QueryTerm]) -> re.Pattern[str]:
    words = sorted({w for t in terms for w in (t.joined, *t.parts)}, key=len, reverse=True)
    return re.compile("|".join(re.escape(w) for w in words), re.IGNORECASE)


def matches(text: str, terms: list[QueryTerm]) -> bool:
    return bool(terms) and _pattern(terms).search(text) is not None


def snippet(text: str, terms: list[QueryTerm], message_id: str | None,
            width: int = SNIPPET_CHARS) -> Snippet:
    """About `width` characters of `text` around the first matched word, cut at spaces where
    possible and marked with an ellipsis where cut; every matched word in it highlighted."""
    text = " ".join(text.split())
    first = _pattern(terms).search(text) if terms else None
    at = first.start() if first else 0
    start = max(0, at - width // 3)
    if start:
        space = text.find(" ", start, at)
        start = space + 1 if space != -1 else start
    end = min(len(text), start + width)
    if end < len(text):
        space = text.rfind(" ", at, end)
        end = space if space > at else end
    prefix = "…" if start else ""
    body = text[start:end]
    shown = prefix + body + ("…" if end < len(text) else "")
    spans = [(m.start() + len(prefix), m.end() - m.start())
             for m in _pattern(terms).finditer(body)] if terms else []
    return Snippet(shown, spans, message_id)
