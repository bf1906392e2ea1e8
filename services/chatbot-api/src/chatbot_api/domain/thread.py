"""The key of a conversation's transcript, for clients that resend the whole of it every turn.

A client of the OpenAI-compatible endpoint usually keeps the conversation itself and sends every
earlier message with each question, naming no session. The key of what it sends before its
question is a hash chain over those messages, one link per user or assistant message (system,
developer and tool messages are not part of the conversation the user sees). After a turn the
session records the key of its transcript including the new exchange, so the client's next request,
whose earlier messages are exactly that transcript, finds the session by the key of its prefix.

Each message is compared in its cleaned form (control characters removed, whitespace collapsed),
so a client that trims or re-wraps an answer it shows still finds its session.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from chatbot_api.domain.conversation import ChatTurn, clean_text

EMPTY = ""  # the key of no messages: where every chain starts
CONVERSATION_ROLES = frozenset({"user", "assistant"})


def link(key: str, role: str, content: str) -> str:
    """The key of a transcript with this key followed by one message."""
    digest = hashlib.sha256()
    for part in (key, role, clean_text(content)):
        encoded = part.encode("utf-8")
        digest.update(len(encoded).to_bytes(4, "big"))
        digest.update(encoded)
    return digest.hexdigest()


def transcript_key(turns: Iterable[ChatTurn], key: str = EMPTY) -> str:
    """The key of these messages (their user and assistant ones), after `key`."""
    for turn in turns:
        if turn.role in CONVERSATION_ROLES:
            key = link(key, turn.role, turn.content)
    return key


def after_exchange(key: str, question: str, answer: str) -> str:
    """The key once a question and its answer follow the transcript of `key`."""
    return link(link(key, "user", question), "assistant", answer)
