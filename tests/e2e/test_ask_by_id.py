"""An item created through the admin API, under the id the command API generates for it
(c-1f0c3a9e5b7d4e21), can be asked about by that id in a chat question, and a follow-up by
ordinal resolves to it too."""

from __future__ import annotations

import re
import uuid
from typing import Any

import httpx
import pytest
from pymongo import AsyncMongoClient

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack

pytestmark = pytest.mark.e2e

CONTEST = {"title": "심해 탐사 로봇 설계 챌린지 2027", "status": "UPCOMING",
           "description": "수심 200미터 환경에서 동작하는 소형 탐사 로봇의 제어 소프트웨어를 겨룹니다.",
           "startDate": "2027-03-02T09:00:00+09:00", "endDate": "2027-04-30T18:00:00+09:00",
           "tags": ["robotics"]}
ARTICLE = {"title": "Tidewater Labs open-sources its sonar mapping toolkit",
           "summary": "The toolkit builds 3D maps of harbour floors from cheap sonar sensors.",
           "content": "Tidewater Labs released its sonar mapping toolkit under the Apache 2.0 licence.",
           "publishedAt": "2026-11-20T09:00:00+09:00", "tags": ["open-source"]}


def headers(user: str, role: str = "USER") -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, CommonSettings(), role=role)}"}


async def _create(client: httpx.AsyncClient, stack: Stack, path: str, body: dict[str, Any]) -> str:
    resp = await client.post(f"{stack.url('command')}/api/v1/admin/{path}", json=body,
                             headers=headers("ops-1", "ADMIN"))
    assert resp.status_code == 201, resp.text
    item_id: str = resp.json()["data"]["id"]
    return item_id


async def _ask(client: httpx.AsyncClient, stack: Stack, user: str, message: str,
               conversation: str | None = None) -> dict[str, Any]:
    body = {"message": message, **({"conversationId": conversation} if conversation else {})}
    resp = await client.post(f"{stack.url('chatbot')}/api/v1/chatbot", json=body,
                             headers=headers(user))
    assert resp.status_code == 200, resp.text
    data: dict[str, Any] = resp.json()["data"]
    return data


async def test_items_created_through_the_admin_api_are_found_by_their_generated_ids(stack):
    user = uuid.uuid4().hex
    async with httpx.AsyncClient(timeout=30) as client:
        contest = await _create(client, stack, "contests", CONTEST)
        article = await _create(client, stack, "news-articles", ARTICLE)
        assert re.fullmatch(r"c-[0-9a-f]{16}", contest) and re.fullmatch(r"n-[0-9a-f]{16}", article)

        # Asked once both are in the read model: a first-turn answer is cached by its question.
        mongo: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(stack.env["MONGODB_URI"])
        db = mongo[stack.env["MONGODB_DATABASE"]]

        async def projected() -> bool:
            return (await db["contests"].count_documents({"document_id": contest})
                    + await db["news_articles"].count_documents({"document_id": article})) == 2

        try:
            await eventually(projected, within=60, interval=0.2)
        finally:
            await mongo.close()
        first = await _ask(client, stack, user, f"{contest} 일정 알려줘")
        assert [s["documentId"] for s in first["sources"]][:1] == [contest], first["sources"]
        both = await _ask(client, stack, user, f"Tell me about {article} and {contest}")
        assert [s["documentId"] for s in both["sources"][:2]] == [article, contest]
        second = await _ask(client, stack, user, "두 번째 거 자세히", both["conversationId"])
        assert second["sources"][0]["documentId"] == contest
