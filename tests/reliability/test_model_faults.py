"""The model server failing three ways (500s, hanging, closing the connection), on either provider's
wire: the client gets the envelope's 503/504 within the configured timeout, and nothing of the
exchange is stored.

tests/integration/test_model_providers.py covers each fault per endpoint (and 429, a cut stream,
keep-alives); this one drives a session through them: a healthy first exchange, then a new session,
a follow-up and a stream during the fault, and the session's two messages still all there is.
"""

from __future__ import annotations

import contextlib
import time
import uuid
from typing import Any

import pytest

from chatbot_api.settings import ChatbotSettings
from techai_shared.settings import CommonSettings
from tests.support.chat import auth, chat_client, chat_settings, parse_sse, stored_counts
from tests.support.fake_llm import ANTHROPIC, OPENAI, DroppingServer

pytestmark = pytest.mark.integration

TIMEOUT, RETRIES, TOTAL = 1.0, 1, 3.0


def model_settings(settings: CommonSettings, provider: str, server: Any) -> ChatbotSettings:
    """chatbot-api on `provider`'s wire at `server`, with short per-attempt and overall timeouts."""
    wire = ({"openai_api_key": "k", "openai_base_url": server.base_url} if provider == OPENAI
            else {"anthropic_api_key": "k", "anthropic_base_url": server.anthropic_base_url})
    return chat_settings(settings, **{
        "chatbot_provider": provider, **wire, "chatbot_model_timeout_seconds": TIMEOUT,
        "chatbot_model_max_retries": RETRIES, "chatbot_model_total_timeout_seconds": TOTAL})


@pytest.mark.parametrize("provider", [OPENAI, ANTHROPIC])
@pytest.mark.parametrize(("fault", "status", "code"), [
    ("error", 503, "5031"), ("hang", 504, "5041"), ("close", 503, "5031"),
])
async def test_model_fault_is_503_or_504_in_time_and_stores_nothing(settings, llm, fault, status, code,
                                                                    provider):
    llm.reset()
    h = auth(settings, uuid.uuid4().hex)
    healthy = model_settings(settings, provider, llm)
    async with chat_client(healthy, catalog=False) as (api, _):
        ok = await api.post("/api/v1/chatbot", json={"message": "첫 질문"}, headers=h)
        assert ok.status_code == 200, ok.text
    sid = ok.json()["data"]["conversationId"]
    before = await stored_counts(healthy.mysql_url)
    async with contextlib.AsyncExitStack() as stack:
        server: Any = llm
        if fault == "close":
            server = await stack.enter_async_context(DroppingServer())
        else:
            llm.mode = fault
        faulty = model_settings(settings, provider, server)
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
                assert await stored_counts(faulty.mysql_url) == before
                page = await api.get(f"/api/v1/chatbot/sessions/{sid}/messages", headers=h)
                assert len(page.json()["data"]["messages"]) == 2
        finally:
            llm.reset()
        if isinstance(server, DroppingServer):
            assert server.accepted > 0, "the dropping server was never called"
