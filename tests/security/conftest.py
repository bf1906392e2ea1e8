"""Fixtures of the security suite: both APIs in process (ASGI) on the real MariaDB, SecantusDB and
Redis, chatbot-api with the local model server, and tokens of every kind."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import httpx
import pytest

from command_api.entrypoints.app import create_app as create_command_app
from command_api.settings import CommandSettings
from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.support.chat import chat_client, chat_settings
from tests.support.fake_llm import FakeLlm


def bearer(settings: CommonSettings, user: str, role: str = "USER") -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, settings, role=role)}"}


@contextlib.asynccontextmanager
async def command_client(settings: CommonSettings, **overrides: Any) -> AsyncIterator[httpx.AsyncClient]:
    cfg = CommandSettings(**{**settings.model_dump(), **overrides})
    app = create_command_app(cfg)
    async with app.router.lifespan_context(app), httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://command-api", timeout=60) as client:
        yield client


@pytest.fixture
async def command_api(settings: CommonSettings) -> AsyncIterator[httpx.AsyncClient]:
    async with command_client(settings) as client:
        yield client


@pytest.fixture
async def chatbot_api(settings: CommonSettings, llm: FakeLlm) -> AsyncIterator[httpx.AsyncClient]:
    llm.mode, llm.delay, llm.reply, llm.chunk_delay = "ok", 0.0, None, 0.0
    cfg = chat_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url)
    async with chat_client(cfg, catalog=False) as (client, _):
        yield client
