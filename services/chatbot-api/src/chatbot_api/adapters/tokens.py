"""Exact OpenAI token counts offline: bpe-openai ships the o200k_base table gpt-4o-mini uses."""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from bpe_openai import get_encoding


@lru_cache(maxsize=4)
def _encoding(name: str) -> Any:
    return get_encoding(name)


class TokenCounter:
    """Counts tokens of texts and of chat messages with the OpenAI chat-format overhead."""

    # Each chat message costs 3 framing tokens and every reply is primed with 3 (OpenAI cookbook).
    PER_MESSAGE = 3
    REPLY_PRIMING = 3

    # Every chat turn re-counts the history it sends (the window, then the prompt budget): the
    # same texts again and again, and BPE was ~7% of chatbot-api's CPU under load (make bench).
    CACHED_TEXTS = 4096

    def __init__(self, encoding: str = "o200k_base") -> None:
        self._enc = _encoding(encoding)
        self._cached_count = lru_cache(maxsize=self.CACHED_TEXTS)(self._encoded_length)

    def _encoded_length(self, text: str) -> int:
        return len(self._enc.encode(text))

    def count(self, text: str) -> int:
        return self._cached_count(text)

    def count_message(self, role: str, content: str) -> int:
        return self.PER_MESSAGE + self.count(role) + self.count(content)
