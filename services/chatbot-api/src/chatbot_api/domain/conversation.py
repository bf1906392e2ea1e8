"""Conversation rules that need no I/O."""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from techai_shared.errors import InvalidInput

MAX_MESSAGE_CHARS = 500
MAX_TITLE_CHARS = 200

# A character that cleaning keeps and that is not whitespace: a letter, mark, number, punctuation or
# symbol (Unicode general categories L, M, N, P, S; cleaning drops every C and turns every Z and
# whitespace character into a space). A text is non-empty after cleaning if and only if it has one,
# which is what the request schemas state as their `pattern` (JSON Schema reads it as ECMA-262 with
# the u flag, pydantic with Rust's regex; Python's `re` does not know \p). The one gap is a character
# newer than Python's Unicode tables (14.0 in 3.11): unassigned here, so cleaned away, while the
# regex engine already counts it, so a text of nothing else passes the schema and is refused (400).
CONTENT_CHARACTER = r"[\p{L}\p{M}\p{N}\p{P}\p{S}]"

_WHITESPACE = re.compile(r"\s+")
_HANGUL = re.compile(r"[\u1100-\u11ff\u3130-\u318f\uac00-\ud7a3]")


@dataclass(frozen=True)
class ChatTurn:
    """One message as the model sees it: role is system, user or assistant."""

    role: str
    content: str


def _strip_controls(text: str) -> str:
    # Cc/Cf/Cs/Co/Cn: control, format (zero-width, bidi overrides), surrogates, private, unassigned.
    # Whitespace controls become spaces first so "a\tb" stays two words.
    return "".join(
        " " if ch.isspace() else ch
        for ch in text
        if ch.isspace() or not unicodedata.category(ch).startswith("C")
    )


def normalize_message(raw: str) -> str:
    """Trim, strip control characters, collapse whitespace; then 1..500 characters or InvalidInput."""
    text = _WHITESPACE.sub(" ", _strip_controls(raw)).strip()
    if not text:
        raise InvalidInput("message must not be empty", data={"message": "must not be empty"})
    if len(text) > MAX_MESSAGE_CHARS:
        raise InvalidInput(
            f"message is {len(text)} characters; at most {MAX_MESSAGE_CHARS} are allowed",
            data={"message": f"at most {MAX_MESSAGE_CHARS} characters"},
        )
    return text


def reading_form(question: str) -> str:
    """What the engine reads of a question (routing, verified answers, search): its NFKC form, so
    full-width letters and digits read as ASCII ("ＡＩ" as "AI") and compatibility characters as
    their plain spelling. The question as typed is what is stored and shown."""
    return unicodedata.normalize("NFKC", question)


def clean_text(raw: str) -> str:
    """Control and format characters stripped, whitespace collapsed to single spaces, trimmed."""
    return _WHITESPACE.sub(" ", _strip_controls(raw)).strip()


def normalize_title(raw: str) -> str:
    """A session title cleaned as a message is (clean_text: no control characters such as NUL, no
    zero-width or bidi format characters, whitespace collapsed), then 1..200 characters."""
    text = clean_text(raw)
    if not text or len(text) > MAX_TITLE_CHARS:
        raise InvalidInput(
            f"title must be 1..{MAX_TITLE_CHARS} characters",
            data={"title": f"1..{MAX_TITLE_CHARS} characters"},
        )
    return text


def is_korean(text: str) -> bool:
    """True when the text contains Hangul: answer in Korean."""
    return _HANGUL.search(text) is not None


def window_history(
    turns: Sequence[ChatTurn], budget: int, count: Callable[[ChatTurn], int]
) -> list[ChatTurn]:
    """The newest turns whose token cost fits the budget, in chronological order.

    Stops at the first turn that does not fit, so the kept history is always a contiguous tail.
    An answer left at the start without its question is dropped too.
    """
    kept: list[ChatTurn] = []
    used = 0
    for turn in reversed(turns):
        cost = count(turn)
        if used + cost > budget:
            break
        kept.append(turn)
        used += cost
    kept.reverse()
    while kept and kept[0].role == "assistant":
        kept.pop(0)
    return kept
