"""Ids in paths and bodies: another user's -> 403, missing or deleted -> 404, things that are not ids
-> 400 or 404, never 500, and always the envelope."""

from __future__ import annotations

import uuid
from typing import Any
from urllib.parse import quote

import httpx
import pytest

from tests.security.conftest import bearer

pytestmark = pytest.mark.integration

# Each is sent percent-encoded in the path (httpx quotes what needs it) and raw in bodies.
NOT_IDS = ["' OR '1'='1", "../../etc/passwd", "..", "%00", "\x00", "x" * 10_000, "💣" * 30, "가" * 65,
           "{\"$ne\": null}", "-1", " ", "a/b", "a\\b", "\t\n", "%2e%2e%2f", "\u202e"]

SESSION_CALLS: list[tuple[str, str, dict[str, Any] | None]] = [
    ("GET", "/api/v1/chatbot/sessions/{id}", None),
    ("GET", "/api/v1/chatbot/sessions/{id}/messages", None),
    ("PUT", "/api/v1/chatbot/sessions/{id}/title", {"title": "x"}),
    ("PATCH", "/api/v1/chatbot/sessions/{id}/title", {"title": "x"}),
    ("DELETE", "/api/v1/chatbot/sessions/{id}", None),
]
CHAT_CALLS = [("POST", "/api/v1/chatbot"), ("POST", "/api/v1/chatbot/stream")]


def _check(response: httpx.Response, allowed: set[int], what: Any) -> None:
    assert response.status_code in allowed, (what, response.status_code, response.text[:300])
    envelope = response.json()
    assert (envelope["code"][:3] == str(response.status_code) and envelope["data"] is None) or \
        response.status_code == 400, (what, envelope)


def _url(template: str, session_id: str) -> str:
    return template.replace("{id}", quote(session_id, safe=""))


async def _chat(api: httpx.AsyncClient, h: dict[str, str], path: str, body: dict[str, Any]) -> httpx.Response:
    return await api.post(path, json=body, headers=h)


async def test_every_session_endpoint_guards_its_id(chatbot_api, settings):
    owner, other = bearer(settings, uuid.uuid4().hex), bearer(settings, uuid.uuid4().hex)
    first = await chatbot_api.post("/api/v1/chatbot", json={"message": "hello"}, headers=owner)
    sid = first.json()["data"]["conversationId"]
    gone = (await chatbot_api.post("/api/v1/chatbot", json={"message": "bye"}, headers=owner)
            ).json()["data"]["conversationId"]
    assert (await chatbot_api.delete(f"/api/v1/chatbot/sessions/{gone}", headers=owner)).status_code == 200
    cases = [(sid, other, 403, "4031"), (gone, owner, 404, "4041"), (str(uuid.uuid4()), owner, 404, "4041")]
    for session_id, who, status, code in cases:
        for method, template, body in SESSION_CALLS:
            r = await chatbot_api.request(method, _url(template, session_id), json=body, headers=who)
            assert (r.status_code, r.json()["code"]) == (status, code), (method, template, r.text)
        for _, path in CHAT_CALLS:
            r = await _chat(chatbot_api, who, path, {"message": "hi", "conversationId": session_id})
            assert (r.status_code, r.json()["code"]) == (status, code), (path, r.text)
    # the owner still sees the session unchanged by all of that
    mine = (await chatbot_api.get(f"/api/v1/chatbot/sessions/{sid}", headers=owner)).json()["data"]
    assert mine["messageCount"] == 2 and mine["title"] == "hello"


@pytest.mark.parametrize("bad", NOT_IDS, ids=range(len(NOT_IDS)))
async def test_session_ids_that_are_not_ids(chatbot_api, settings, bad):
    h = bearer(settings, uuid.uuid4().hex)
    for method, template, body in SESSION_CALLS:
        r = await chatbot_api.request(method, _url(template, bad), json=body, headers=h)
        _check(r, {400, 404, 405}, (method, template, bad[:20]))
    for _, path in CHAT_CALLS:
        r = await _chat(chatbot_api, h, path, {"message": "hi", "conversationId": bad})
        _check(r, {400, 404}, (path, bad[:20]))


@pytest.mark.parametrize("bad", NOT_IDS, ids=range(len(NOT_IDS)))
async def test_bookmark_and_catalog_ids_that_are_not_ids(command_api, settings, bad):
    user, admin = bearer(settings, uuid.uuid4().hex), bearer(settings, "admin-1", "ADMIN")
    calls: list[tuple[str, str, dict[str, Any] | None, dict[str, str]]] = [
        ("GET", "/api/v1/bookmarks/{id}", None, user),
        ("PATCH", "/api/v1/bookmarks/{id}", {"memo": "x"}, user),
        ("DELETE", "/api/v1/bookmarks/{id}", None, user),
        ("GET", "/api/v1/admin/contests/{id}", None, admin),
        ("DELETE", "/api/v1/admin/contests/{id}", None, admin),
        ("PUT", "/api/v1/admin/contests/{id}", {"title": "t", "status": "UPCOMING"}, admin),
        ("GET", "/api/v1/admin/news-articles/{id}", None, admin),
        ("DELETE", "/api/v1/admin/news-articles/{id}", None, admin),
        ("PUT", "/api/v1/admin/news-articles/{id}", {"title": "t"}, admin),
        ("POST", "/api/v1/admin/jobs/{id}/run", None, admin),
    ]
    for method, template, body, h in calls:
        r = await command_api.request(method, _url(template, bad), json=body, headers=h)
        _check(r, {400, 404, 405}, (method, template, bad[:20]))
    for item_type in ("CONTEST", "NEWS_ARTICLE", "BOGUS"):
        r = await command_api.post("/api/v1/bookmarks", json={"itemType": item_type, "itemId": bad},
                                   headers=user)
        _check(r, {400, 404}, ("POST bookmark", item_type, bad[:20]))
    body = {"id": bad, "title": "t", "status": "UPCOMING"}
    r = await command_api.post("/api/v1/admin/contests", json=body, headers=admin)
    _check(r, {400}, ("POST contest", bad[:20]))
