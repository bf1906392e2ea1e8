"""Names across scripts: a sound key that a Hangul word and its Latin spelling share.

A company written 페이루트 in one article and Payroute in a question, a contest called Kafka
Streaming Hackathon asked about as 카프카 해커톤: neither the vector side (multilingual-e5 places a
transliteration near its original only sometimes) nor character bigrams match them. Both
spellings are reduced to the consonants one hears, in classes that Korean loanword spelling keeps
apart (P for p/b/f/v and ㅂ/ㅃ/ㅍ, T for t/d and ㄷ/ㄸ/ㅌ, K, S, L for l/r and ㄹ, M, N, H);
vowels, w and y are dropped, an r that closes an English syllable is silent (Shardway, 샤드웨이),
and a class written twice in a row counts once. The keys of a Hangul word and of a Latin word are
kept apart (prefixed), so a question's Latin words match Hangul words of the documents and the
reverse, never another word of their own script that happens to sound alike. Keys of fewer than
three consonants are too common to mean anything and are not made.

Hangul is read syllable by syllable (Unicode decomposition: initial, vowel, final), which is how
Revised Romanization spells a name too; no dictionary, so it holds for every item.
"""

from __future__ import annotations

import re
from difflib import SequenceMatcher
from functools import lru_cache

MIN_CONSONANTS = 3
HANGUL_KEY, LATIN_KEY = "\u02b0", "\u02e1"  # ʰ and ˡ: prefixes no tokenizer produces

_INITIAL = "KKNTTLMPPSSXSSSKTPH"  # ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇ(X: silent)ㅈㅉㅊㅋㅌㅍㅎ
_FINAL = ["", "K", "K", "K", "N", "N", "N", "T", "L", "K", "M", "L", "L", "L", "P", "L", "M", "P",
          "P", "T", "T", "NK", "T", "T", "K", "T", "P", "T"]
_LATIN_RULES = [  # applied in order to a lower-cased word
    (re.compile(r"ph"), "f"), (re.compile(r"(sh|ch|tch|j|z)"), "s"), (re.compile(r"ck"), "k"),
    (re.compile(r"qu"), "k"), (re.compile(r"x"), "ks"),
    (re.compile(r"c(?=[eiy])"), "s"), (re.compile(r"g(?=e)"), "s"),
    (re.compile(r"(?<=[aeiou])r(?![aeiouy])"), ""),  # the silent r of "shard", "forge", "tor"
]
_LATIN_CLASS = str.maketrans("pbfvtdkgcqslrmnhaeiouwy", "PPPPTTKKKKSLLMNH.......")
_DOUBLED = re.compile(r"(.)\1")


def latin_key(word: str, th: str = "s") -> str:
    """The sound key of a Latin word ("" when it has fewer than three consonant classes); `th` is
    how "th" sounds: Korean spells it ㅅ (파이썬, Python) or ㅌ (해커톤, hackathon)."""
    spelled = word.lower()
    if not spelled.isascii() or not spelled.isalpha():
        return ""
    spelled = _DOUBLED.sub(r"\1", spelled).replace("th", th)
    for pattern, replacement in _LATIN_RULES:
        spelled = pattern.sub(replacement, spelled)
    return _squeezed(spelled.translate(_LATIN_CLASS))


def hangul_key(word: str) -> str:
    """The sound key of a Hangul word ("" when it has fewer than three consonant classes)."""
    classes: list[str] = []
    for ch in word:
        code = ord(ch) - 0xAC00
        if not 0 <= code < 11172:
            return ""
        initial, final = code // 588, code % 28
        classes += [_INITIAL[initial].replace("X", ""), ".", _FINAL[final]]
    return _squeezed("".join(classes))


def _squeezed(classes: str) -> str:
    """Classes with "." for vowels: a class repeated with no vowel between counts once (the t and d
    of "Shardway" once the r is gone, a final and the next initial alike); vowels then go."""
    kept = [c for i, c in enumerate(classes) if c != "." and (i == 0 or c != classes[i - 1])]
    return "".join(kept) if len(kept) >= MIN_CONSONANTS else ""


@lru_cache(maxsize=65536)
def document_keys(word: str) -> tuple[str, ...]:
    """What a document's word adds to its terms: its key, under its own script's prefix."""
    if (key := hangul_key(word)):
        return (HANGUL_KEY + key,)
    return tuple(LATIN_KEY + key for key in latin_keys(word))


def latin_keys(word: str) -> tuple[str, ...]:
    """The sound keys of a Latin word: one, or two for a "th" (see latin_key)."""
    keys = {latin_key(word, "s"), latin_key(word, "t")} if "th" in word.lower() else {latin_key(word)}
    return tuple(sorted(k for k in keys if k))


@lru_cache(maxsize=4096)
def query_keys(word: str) -> tuple[str, ...]:
    """What a question's word looks for: its key under the other script's prefix."""
    if (key := hangul_key(word)):
        return (LATIN_KEY + key,)
    return tuple(HANGUL_KEY + key for key in latin_keys(word))


# Revised Romanization, letter by letter (without its sound-change rules)
_INITIAL_LETTERS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch",
                    "k", "t", "p", "h"]
_VOWEL_LETTERS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u",
                  "wo", "we", "wi", "yu", "eu", "ui", "i"]
_FINAL_LETTERS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l",
                  "m", "p", "p", "t", "t", "ng", "t", "t", "k", "t", "p", "t"]
# letters in the key's consonant classes, vowels kept; "eu" is the vowel Korean adds to a lone
# consonant (로그, log), which the Latin spelling does not have
_HEARD = [(re.compile(r"eu"), ""), (re.compile(r"(ph|f|v|b)"), "p"), (re.compile(r"(sh|ch|j|z)"), "s"),
          (re.compile(r"(ck|c|q|g)"), "k"), (re.compile(r"d"), "t"), (re.compile(r"r"), "l"),
          (re.compile(r"(.)\1"), r"\1")]


def romanized(word: str) -> str:
    """A Hangul word in Revised Romanization's letters, syllable by syllable; other characters
    lower-cased as they are."""
    letters: list[str] = []
    for ch in word:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            letters += [_INITIAL_LETTERS[code // 588], _VOWEL_LETTERS[code % 588 // 28],
                        _FINAL_LETTERS[code % 28]]
        else:
            letters.append(ch.lower())
    return "".join(letters)


def _heard(word: str) -> str:
    spelled = romanized(word)
    for pattern, replacement in _HEARD:
        spelled = pattern.sub(replacement, spelled)
    return spelled


@lru_cache(maxsize=65536)
def likeness(word: str, other: str) -> float:
    """How alike two spellings of a name sound with their vowels (0 to 1): of words with the same
    key, Pangyo is 판교 rather than 반기 or 번역."""
    return SequenceMatcher(None, _heard(word), _heard(other)).ratio()
