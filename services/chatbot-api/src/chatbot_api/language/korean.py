"""Korean read as Korean: morphemes, lemmas and content terms, from kiwipiepy (Kiwi, its bundled
model).

- `lemma_text`: the question as its morphemes with verbs and adjectives in their dictionary form
  ("끝났어" gives "끝나다 었 어"), which the routing rules match besides the question itself, so
  one rule word covers every conjugation.
- `content_terms`: lemmas of nouns, verbs, adjectives, numbers and foreign words, without question
  words and request verbs ("언제", "알려주다", "when", "tell"); Latin words lower-cased, a plural
  -s dropped. The verified-answer match compares these.
- `name_hints`: the Latin words of a question that look like names.

One Kiwi per process (about 300 MB, techai_shared.korean's, which the session search shares),
built and warmed up at start (about a second, off the request path); a question then takes under
a millisecond.
"""

from __future__ import annotations

from collections.abc import Iterable
from functools import lru_cache

from techai_shared.korean import analyser as _analyser
from techai_shared.korean import warm_up as warm_up  # re-exported: chatbot-api warms it up here

_TAGS = frozenset(("NNG", "NNP", "NR", "SL", "SN", "SH", "XR", "VV", "VA"))
_GENERIC_WORDS = """
언제 어디 얼마 얼마나 어떻게 어떤 무엇 뭐 누구 몇 왜 알리 알려주 주 하 되 있 없 보 가능 방법 수 것 거 좀 혹시
제 나 내 저 우리 여기 거기 이 그 지금 오늘 궁금 말 설명 정보 무슨
when where what which who whom how why much many tell know show give get please can could would
should will is are am was were be been do does did the a an of to in on at for from by with about
this that it its my me i you your we our there any some one
"""
GENERIC = frozenset(_GENERIC_WORDS.split())  # question words and request verbs


@lru_cache(maxsize=4096)
def morphemes(text: str) -> tuple[tuple[str, str, str], ...]:
    """(form, tag, lemma) of each morpheme of `text`; questions repeat, so remembered."""
    return tuple((t.form, t.tag, t.lemma) for t in _analyser().tokenize(text))


@lru_cache(maxsize=4096)
def lemma_text(text: str) -> str:
    """The morphemes of `text` separated by spaces, verbs and adjectives as lemmas (끝나다)."""
    return " ".join(lemma for _, _, lemma in morphemes(text))


@lru_cache(maxsize=4096)
def content_terms(text: str) -> frozenset[str]:
    """The content terms of `text` (see the module docstring); questions repeat, so remembered,
    and read from the question's remembered morphemes."""
    return _content_terms((form, tag) for form, tag, _ in morphemes(text))


def analyse(text: str) -> frozenset[str]:
    """content_terms() without the memory (for many texts read once, such as titles)."""
    return _content_terms((t.form, t.tag) for t in _analyser().tokenize(text))


def _content_terms(tokens: Iterable[tuple[str, str]]) -> frozenset[str]:
    found: set[str] = set()
    for form, tag in tokens:
        if tag not in _TAGS:
            continue
        term = form.lower()
        if tag == "SL" and len(term) < 2:  # the s of "what's", the t of "don't"
            continue
        if tag == "SL" and len(term) > 3 and term.endswith("s") and not term.endswith("ss"):
            term = term[:-1]
        if term not in GENERIC:
            found.add(term)
    return frozenset(found)


@lru_cache(maxsize=4096)
def name_hints(text: str) -> frozenset[str]:
    """Content terms that look like names whatever the catalog holds: Latin words in a Korean
    sentence ("Agentic AI Build Week 상금은?") and capitalised Latin words past the first of an
    English one ("When is the Blue Harbor CTF final?"); lower-cased like content_terms."""
    korean = any("\uac00" <= ch <= "\ud7a3" for ch in text)
    hints: set[str] = set()
    for i, (form, tag, _) in enumerate(morphemes(text)):
        if tag != "SL" or len(form) < 2:
            continue
        if korean or (i > 0 and form[0].isupper()):
            term = form.lower()
            if len(term) > 3 and term.endswith("s") and not term.endswith("ss"):
                term = term[:-1]
            if term not in GENERIC:
                hints.add(term)
    return frozenset(hints)


_NOT_CONTENT_TAGS = ("J", "E", "XS", "VCP", "SF", "SP", "SS", "SE", "SO", "SW")


@lru_cache(maxsize=4096)
def dictionary_word(word: str) -> bool:
    """Whether Kiwi's dictionary holds `word`, particles and endings aside, as one morpheme: an
    ordinary word (시즌, 판매량, 능금) or a name it knows (카프카), not a word it has never seen
    (페이루트, 로그하버: Kiwi reads those as its placeholder morpheme, which has no form) nor a
    compound (블루하버, 금정반도체)."""
    analyser = _analyser()
    content = [t for t in analyser.tokenize(word) if not t.tag.startswith(_NOT_CONTENT_TAGS)]
    return len(content) == 1 and bool(analyser.morpheme(content[0].id).form)
