"""Find, export and budget over HTTP on the end-to-end stack (every service a process, on MariaDB,
Tansu, SecantusDB and Redis, the sample catalog in the read model, the local model server behind
it): search one's conversations in Korean and English (query-sync's indexer keeps the index), export
one as JSON and Markdown, and a daily token budget an administrator sets."""

from __future__ import annotations

import json
import uuid
from datetime import datetime
from typing import Any

import httpx
import pytest

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack

pytestmark = pytest.mark.e2e

CHAT = "/api/v1/chatbot"


@pytest.fixture(scope="module")
def stack(catalog_stack: Stack) -> Stack:
    return catalog_stack


class Api:
    def __init__(self, stack: Stack, user: str | None = None, role: str = "USER") -> None:
        self.stack = stack
        self.user = user or uuid.uuid4().hex
        token = mint_token(self.user, CommonSettings(), role=role)
        self.headers = {"Authorization": f"Bearer {token}"}

    async def request(self, method: str, path: str, service: str = "chatbot", **kw: Any
                      ) -> httpx.Response:
        async with httpx.AsyncClient(timeout=30) as client:
            return await client.request(method, self.stack.url(service) + path,
                                        headers=self.headers, **kw)

    async def ask(self, message: str, sid: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"message": message, **({"conversationId": sid} if sid else {})}
        response = await self.request("POST", CHAT, json=body)
        assert response.status_code == 200, response.text
        data: dict[str, Any] = response.json()["data"]
        return data

    async def search(self, q: str) -> list[dict[str, Any]]:
        response = await self.request("GET", f"{CHAT}/sessions/search", params={"q": q})
        assert response.status_code == 200, response.text
        results: list[dict[str, Any]] = response.json()["data"]["results"]
        return results


async def found(api: Api, q: str, expected: set[str]) -> list[dict[str, Any]]:
    """The search's results once the indexer has caught up with what it should find."""
    async def check() -> list[dict[str, Any]] | None:
        results = await api.search(q)
        return results if {r["session"]["sessionId"] for r in results} == expected else None
    return await eventually(check, within=30)


async def test_search_finds_korean_inside_longer_words_english_in_any_case_and_only_ones_own(stack):
    me, other = Api(stack), Api(stack)
    ai = (await me.ask("AI해커톤 있어?"))["conversationId"]
    plain = (await me.ask("대학생 대회 추천해줘"))["conversationId"]
    await me.ask("해커톤은 언제 열려?", plain)
    ctf = (await me.ask("Any security CTFs this winter?"))["conversationId"]
    theirs = (await other.ask("해커톤 CTF 알려줘"))["conversationId"]

    results = await found(me, "해커톤", {ai, plain})
    hit = next(r for r in results if r["session"]["sessionId"] == plain)
    snippet = hit["snippet"]
    assert snippet["messageId"] in hit["matchingMessageIds"]
    assert any("해커톤" in snippet["text"][h["start"]:h["start"] + h["length"]]
               for h in snippet["highlights"])
    await found(me, "CTF", {ctf})
    await found(me, "SECURITY", {ctf})
    await found(other, "해커톤", {theirs})

    deleted = await me.request("DELETE", f"{CHAT}/sessions/{ai}")
    assert deleted.status_code == 200
    await found(me, "해커톤", {plain})
    empty = await me.request("GET", f"{CHAT}/sessions/search", params={"q": ""})
    assert empty.status_code == 400 and empty.json()["code"] == "4001"


async def test_export_holds_every_message_of_the_path_with_sources_in_both_formats(stack):
    me, other = Api(stack), Api(stack)
    first = await me.ask("AI 해커톤 대회 알려줘")
    sid = first["conversationId"]
    await me.ask("보안 대회도 있어?", sid)
    rated = await me.request("PUT", f"{CHAT}/sessions/{sid}/messages/{first['messageId']}/feedback",
                             json={"rating": "down", "reasons": ["outdated"], "comment": "마감 지남"})
    assert rated.status_code == 200

    async def history_with_rating() -> list[dict[str, Any]] | None:
        page = await me.request("GET", f"{CHAT}/sessions/{sid}/messages")
        messages: list[dict[str, Any]] = page.json()["data"]["messages"]
        return messages if messages[1]["feedback"] else None

    history = await eventually(history_with_rating)
    assert len(history) == 4 and any(m["sources"] for m in history)

    as_json = await me.request("GET", f"{CHAT}/sessions/{sid}/export", params={"format": "json"})
    assert as_json.status_code == 200
    assert as_json.headers["content-type"].startswith("application/json")
    disposition = as_json.headers["content-disposition"]
    assert disposition.startswith("attachment; filename=\"techai-chat-") and disposition.endswith(
        f"-{sid[:8]}.json\"")
    document = json.loads(as_json.content)
    assert document["session"]["sessionId"] == sid
    assert [(m["messageId"], m["content"], m["sources"], m["feedback"])
            for m in document["messages"]] == [
        (m["messageId"], m["content"], m["sources"], m["feedback"]) for m in history]
    assert document["messages"][1]["feedback"]["rating"] == "down"

    as_md = await me.request("GET", f"{CHAT}/sessions/{sid}/export", params={"format": "markdown"})
    assert as_md.status_code == 200 and as_md.headers["content-type"].startswith("text/markdown")
    assert as_md.headers["content-disposition"].endswith(".md\"")
    text = as_md.text
    assert "**Rating:** 👎 down (outdated — 마감 지남)" in text
    for message in history:
        assert message["content"] in text
        for source in message["sources"]:
            assert source["title"] in text

    assert (await other.request("GET", f"{CHAT}/sessions/{sid}/export")).status_code == 403
    bad = await me.request("GET", f"{CHAT}/sessions/{sid}/export", params={"format": "pdf"})
    assert bad.status_code == 400
    await me.request("DELETE", f"{CHAT}/sessions/{sid}")
    assert (await me.request("GET", f"{CHAT}/sessions/{sid}/export")).status_code == 404


async def test_a_budget_set_by_an_administrator_refuses_model_turns_once_spent(stack):
    me = Api(stack)
    admin = Api(stack, role="ADMIN")
    path = f"/api/v1/admin/users/{me.user}/budget"
    assert (await me.request("PUT", path, service="command", json={"dailyTokens": 1})
            ).status_code == 403
    put = await admin.request("PUT", path, service="command", json={"dailyTokens": 1})
    assert put.status_code == 200 and put.json()["data"]["dailyTokens"] == 1
    assert (await admin.request("GET", path, service="command")).json()["data"]["updatedBy"] == (
        admin.user)

    answered = await me.ask("파이썬 리스트 정렬하는 방법 알려줘")
    assert answered["mode"] == "general" and answered["tokenUsage"]["totalTokens"] > 1
    refused = await me.request("POST", CHAT, json={"message": "자바 스트림 설명해줘"})
    assert refused.status_code == 429 and refused.json()["code"] == "4292"
    reset = refused.json()["data"]["resetsAt"]
    assert int(refused.headers["Retry-After"]) > 0 and reset.endswith("T15:00:00.000Z")
    datetime.fromisoformat(reset.replace("Z", "+00:00"))

    usage = (await me.request("GET", f"{CHAT}/usage")).json()["data"]["budget"]
    assert usage["dailyTokens"] == 1 and usage["own"] is True and usage["remainingTokens"] == 0
    # the answer, and the session title the model wrote after it
    assert usage["usedTokens"] >= answered["tokenUsage"]["totalTokens"]
    assert usage["resetsAt"] == reset

    cleared = await admin.request("PUT", path, service="command", json={"dailyTokens": None})
    assert cleared.json()["data"]["dailyTokens"] is None

    async def served_again() -> bool:  # chatbot-api reads a user's budget afresh within 5 s
        asked = await me.request("POST", CHAT, json={"message": "자바 스트림 설명해줘"})
        assert asked.status_code in (200, 429)
        return asked.status_code == 200

    await eventually(served_again, within=10, interval=1)
