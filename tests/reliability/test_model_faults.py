"""The model server failing three ways (500s, hanging, closing the connection): the client gets the
envelope's 503/504 within the configured timeout, and nothing of the exchange is stored.

tests/integration/test_chat_api.py::test_model_failure_stores_nothing covers 500 and hang on the JSON
endpoint; this adds the dropped connection, the time bound and the streaming endpoint.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from techai_shared.db.engine import make_engine
from techai_shared.db.schema import conversation_messages, conversation_sessions, outbox_events
from techai_shared.settings import CommonSettings
from tests.support.chat import auth, chat_client, chat_settings, parse_sse

pytestmark = pytest.mark.integration

TIMEOUT, RETRIES, TOTAL = 1.0, 1, 3.0


@contextlib.asynccontextmanager
async def closing_server() -> AsyncIterator[str]:
    """A "model server" that reads the request and closes the connection without answering."""
    accepted = 0

    async def handle(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        nonlocal accepted
        accepted += 1
        with contextlib.suppress(Exception):
            await asyncio.wait_for(reader.read(65536), 1)
        writer.transport.abort()  # RST, not even an HTTP status line

    server = await asyncio.start_server(handle, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    try:
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        server.close()
        assert accepted > 0, "the closing server was never called"


async def _counts(mysql_url: str) -> tuple[int, ...]:
    engine = make_engine(chat_settings_base(mysql_url))
    try:
        async with engine.connect() as conn:
            return tuple([(await conn.execute(select(func.count()).select_from(t))).scalar_one()
                          for t in (conversation_sessions, conversation_messages, outbox_events)])
    finally:
        await engine.dispose()


def chat_settings_base(mysql_url: str) -> CommonSettings:
    return CommonSettings(mysql_url=mysql_url)


@pytest.mark.parametrize(("fault", "status", "code"), [
    ("error", 503, "5031"), ("hang", 504, "5041"), ("close", 503, "5031"),
])
async def test_model_fault_is_503_or_504_in_time_and_stores_nothing(settings, llm, fault, status, code):
    llm.mode, llm.delay, llm.reply = "ok", 0.0, None
    limits = {"openai_api_key": "k", "openai_timeout_seconds": TIMEOUT,
              "openai_max_retries": RETRIES, "openai_total_timeout_seconds": TOTAL}
    h = auth(settings, uuid.uuid4().hex)
    healthy = chat_settings(settings, openai_base_url=llm.base_url, **limits)
    async with chat_client(healthy, catalog=False) as (api, _):
        ok = await api.post("/api/v1/chatbot", json={"message": "첫 질문"}, headers=h)
        assert ok.status_code == 200, ok.text
    sid = ok.json()["data"]["conversationId"]
    before = await _counts(healthy.mysql_url)
    async with contextlib.AsyncExitStack() as stack:
        base_url = llm.base_url
        if fault == "close":
            base_url = await stack.enter_async_context(closing_server())
        else:
            llm.mode = fault
        faulty = chat_settings(settings, openai_base_url=base_url, **limits)
        try:
            async with chat_client(faulty, catalog=False) as (api, _):
                for path, body in [
                    ("/api/v1/chatbot", {"message": "새 세션 질문"}),
                    ("/api/v1/chatbot", {"message": "이어지는 질문", "conversationId": sid}),
                    ("/api/v1/chatbot/stream", {"message": "스트림 질문", "conversationId": sid}),
                ]:
                    started = time.monotonic()
                    r = await api.post(path, json=body, headers=h)
                    elapsed = time.monotonic() - started
                    assert elapsed <= TOTAL + 1.5, (path, elapsed)  # the configured bound, not more
                    if path.endswith("/stream"):  # started: the failure is the stream's last event
                        events = parse_sse(r.text)
                        assert r.status_code == 200 and events[-1][0] == "error", r.text
                        assert "done" not in [name for name, _ in events]
                        error = events[-1][1]
                        assert error["code"] == code and error["data"] is None, error
                        continue
                    assert r.status_code == status, (path, r.status_code, r.text)
                    assert r.json()["code"] == code and r.json()["data"] is None, r.text
                assert await _counts(faulty.mysql_url) == before
                page = await api.get(f"/api/v1/chatbot/sessions/{sid}/messages", headers=h)
                assert len(page.json()["data"]["messages"]) == 2
        finally:
            llm.mode = "ok"
