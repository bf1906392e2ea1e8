"""A contest whose end passes while `make run` runs is ENDED everywhere within a minute of its end:
in a chat answer about it, on the admin API and in MongoDB (ADR 25)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Any

import httpx
import pytest
from pymongo import MongoClient

from tests.conftest import eventually
from tests.e2e.launcher import Launcher, headers

pytestmark = pytest.mark.e2e

ENDS_IN = timedelta(seconds=35)  # the answer cites it ONGOING before (a few seconds), then ENDED
WITHIN = 60.0  # seconds after the end


def _status_in_mongodb(launcher: Launcher, contest: str) -> str | None:
    with MongoClient(launcher.mongodb_uri, serverSelectionTimeoutMS=2000) as client:
        doc = client["techai"]["contests"].find_one({"document_id": contest})
    return None if doc is None else str(doc["status"])


async def test_a_contest_ending_while_the_stack_runs_is_ended_everywhere_within_a_minute(
        own_launcher):
    launcher = own_launcher
    launcher.start()
    admin, user = headers("ops-1", role="ADMIN"), headers("user-clock")
    end = datetime.now(UTC) + ENDS_IN
    body = {"title": "막판 스퍼트 코딩 챌린지", "description": "곧 마감되는 온라인 알고리즘 대회",
            "status": "UPCOMING", "startDate": (end - timedelta(days=2)).isoformat(),
            "endDate": end.isoformat(), "tags": ["algorithm"]}
    contests = launcher.url("COMMAND_PORT") + "/api/v1/admin/contests"
    chat = launcher.url("CHATBOT_PORT") + "/api/v1/chatbot"
    async with httpx.AsyncClient(timeout=30) as client:
        created = await client.post(contests, json=body, headers=admin)
        assert created.status_code == 201, created.text
        contest = created.json()["data"]["id"]
        assert created.json()["data"]["status"] == "ONGOING"

        async def answer() -> dict[str, Any]:
            r = await client.post(chat, json={"message": f"{contest} 지금 상태 어때?"}, headers=user)
            assert r.status_code == 200, r.text
            data: dict[str, Any] = r.json()["data"]
            return data

        async def cited_as(status: str) -> bool:
            data = await answer()
            assert data["sources"] and data["sources"][0]["documentId"] == contest, data["sources"]
            assert data["sources"][0]["status"] == status, data["sources"][0]
            return True

        await eventually(lambda: cited_as("ONGOING"), within=30, interval=0.5)
        assert _status_in_mongodb(launcher, contest) == "ONGOING"

        async def ended_in_the_stores() -> bool:
            read = await client.get(f"{contests}/{contest}", headers=admin)
            assert read.json()["data"]["status"] == "ENDED", read.json()["data"]
            assert _status_in_mongodb(launcher, contest) == "ENDED"
            return True

        # bounded by a minute after the end (the wait until the end included); the chat answer
        # is asked once the stores agree (a user may ask 10 times a minute under make run)
        until_end = max(0.0, (end - datetime.now(UTC)).total_seconds())
        await eventually(ended_in_the_stores, within=until_end + WITHIN, interval=1.0)
        assert datetime.now(UTC) >= end
        await cited_as("ENDED")
        ended = (await answer())["response"]
        assert "상태: 종료" in ended and "상태: 진행 중" not in ended
    assert launcher.stop() == 0
