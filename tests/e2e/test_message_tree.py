"""A conversation the user steers, over HTTP on the end-to-end stack (every service a process, on
MariaDB, Tansu, SecantusDB and Redis, the sample catalog in the read model, the local model server
behind it): regenerate an answer, edit a question into a new branch, switch between branches, rate
each version, and resume a stream whose connection was cut.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from redis.asyncio import Redis

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.e2e

CHAT = "/api/v1/chatbot"


@pytest.fixture(scope="module")
def stack(catalog_stack: Stack) -> Stack:
    return catalog_stack


@pytest.fixture
def model(llm: FakeLlm) -> Iterator[FakeLlm]:
    llm.reset()
    yield llm
    llm.reset()


def says(text: str) -> Any:
    """A reply of the model server: always this text."""
    return lambda _: text


class Api:
    """One user's calls to the running chatbot-api."""

    def __init__(self, stack: Stack, user: str | None = None) -> None:
        self.base = stack.url("chatbot") + CHAT
        self.user = user or uuid.uuid4().hex
        self.headers = {"Authorization": f"Bearer {mint_token(self.user, CommonSettings())}"}

    async def call(self, method: str, path: str, status: int = 200, **kw: Any) -> Any:
        async with httpx.AsyncClient(timeout=30) as client:
            response = await client.request(method, self.base + path, headers=self.headers, **kw)
        assert response.status_code == status, response.text
        return response.json()["data"] if status == 200 else response.json()

    async def ask(self, message: str, sid: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"message": message}
        if sid:
            body["conversationId"] = sid
        data: dict[str, Any] = await self.call("POST", "", json=body)
        return data

    async def history(self, sid: str) -> list[dict[str, Any]]:
        messages: list[dict[str, Any]] = (await self.call(
            "GET", f"/sessions/{sid}/messages"))["messages"]
        return messages

    async def contents(self, sid: str) -> list[str]:
        return [m["content"] for m in await self.history(sid)]

    async def switch(self, sid: str, message_id: str) -> dict[str, Any]:
        data: dict[str, Any] = await self.call("PUT", f"/sessions/{sid}/leaf",
                                               json={"messageId": message_id})
        return data


async def read_events(response: httpx.Response, keep: int | None = None) -> list[dict[str, Any]]:
    """The Server-Sent Events of a response (id, event, data parsed), the first `keep` of them
    when given (the caller then drops the connection)."""
    events: list[dict[str, Any]] = []
    current: dict[str, Any] = {}
    async for line in response.aiter_lines():
        if line.startswith(":"):
            continue
        if not line:
            if current:
                events.append(current)
                current = {}
                if keep is not None and len(events) == keep:
                    return events
            continue
        name, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        current[name] = json.loads(value) if name == "data" else value
    return events


def text_of(events: list[dict[str, Any]]) -> str:
    return "".join(e["data"]["text"] for e in events if e["event"] == "delta")


async def resume(api: Api, sid: str, message_id: str, last_event_id: str | None
                 ) -> list[dict[str, Any]]:
    headers = dict(api.headers, **({"Last-Event-ID": last_event_id} if last_event_id else {}))
    async with httpx.AsyncClient(timeout=30) as client, client.stream(
            "GET", f"{api.base}/sessions/{sid}/messages/{message_id}/stream",
            headers=headers) as response:
        assert response.status_code == 200, await response.aread()
        return await read_events(response)


async def test_regenerating_twice_keeps_three_rated_versions_and_switching_back_shows_the_first(
        stack, model):
    api = Api(stack)
    model.reply = says("첫 번째 답변")
    first = await api.ask("대학생 AI 해커톤 있어?")
    sid, a1 = first["conversationId"], first["messageId"]
    model.reply = says("두 번째 답변")
    second = await api.call("POST", f"/sessions/{sid}/messages/{a1}/regenerate")
    model.reply = says("세 번째 답변")
    async with httpx.AsyncClient(timeout=30) as client, client.stream(
            "POST", f"{api.base}/sessions/{sid}/messages/{second['messageId']}/regenerate",
            headers=dict(api.headers, Accept="text/event-stream")) as response:
        streamed = await read_events(response)
    a2, a3 = second["messageId"], streamed[-1]["data"]["messageId"]
    assert streamed[0]["data"]["messageId"] == a3 and text_of(streamed) == "세 번째 답변"
    assert second["response"] == "두 번째 답변" and second["sessionInfo"]["messageCount"] == 2

    history = await api.history(sid)
    assert [m["content"] for m in history] == ["대학생 AI 해커톤 있어?", "세 번째 답변"]
    assert history[1]["siblingIds"] == [a1, a2, a3] and history[1]["siblingPosition"] == 3
    assert history[1]["parentMessageId"] == history[0]["messageId"]

    for answer, rating in ((a1, "up"), (a2, "down"), (a3, "up")):
        await api.call("PUT", f"/sessions/{sid}/messages/{answer}/feedback", json={"rating": rating})
    session = await api.switch(sid, a1)
    assert session["leafMessageId"] == a1 and session["messageCount"] == 2

    async def first_version_rated() -> list[dict[str, Any]]:
        shown = await api.history(sid)
        assert shown[1]["messageId"] == a1 and shown[1]["feedback"]
        assert shown[1]["feedback"]["rating"] == "up"
        return shown

    shown = await eventually(first_version_rated)
    assert shown[1]["content"] == "첫 번째 답변" and shown[1]["siblingPosition"] == 1
    await api.switch(sid, a2)

    async def second_version_rated() -> bool:
        shown = await api.history(sid)
        assert shown[1]["messageId"] == a2 and shown[1]["feedback"]
        return bool(shown[1]["feedback"]["rating"] == "down")

    await eventually(second_version_rated)
    # the question asked next follows the version now current
    model.reply = None
    await api.ask("상금은 얼마야?", sid)
    prompt = model.requests[-1]["messages"]
    assert [m["content"] for m in prompt if m["role"] != "system"][:3] == [
        "대학생 AI 해커톤 있어?", "두 번째 답변", "상금은 얼마야?"]


async def test_editing_the_second_of_four_questions_branches_and_the_old_branch_stays(stack, model):
    api = Api(stack)
    sid = None
    for n in range(1, 5):
        sid = (await api.ask(f"질문 {n}: 해커톤 일정 알려줘", sid))["conversationId"]
    assert sid is not None
    before = await api.history(sid)
    q2 = before[2]["messageId"]
    edited = await api.call("PUT", f"/sessions/{sid}/messages/{q2}",
                            json={"message": "바뀐 질문: 보안 CTF 대회 알려줘"})
    prompt = model.requests[-1]["messages"]
    assert [m["content"] for m in prompt if m["role"] != "system"] == [
        "질문 1: 해커톤 일정 알려줘", "echo: 질문 1: 해커톤 일정 알려줘", "바뀐 질문: 보안 CTF 대회 알려줘"]

    now = await api.history(sid)
    assert [m["content"] for m in now] == [
        "질문 1: 해커톤 일정 알려줘", "echo: 질문 1: 해커톤 일정 알려줘",
        "바뀐 질문: 보안 CTF 대회 알려줘", "echo: 바뀐 질문: 보안 CTF 대회 알려줘"]
    assert now[3]["messageId"] == edited["messageId"] and edited["sessionInfo"]["messageCount"] == 4
    assert now[2]["siblingIds"] == [q2, now[2]["messageId"]] and now[2]["siblingPosition"] == 2

    await api.switch(sid, q2)  # the old branch, to its end
    assert [m["messageId"] for m in await api.history(sid)] == [m["messageId"] for m in before]
    await api.call("PUT", f"/sessions/{sid}/messages/{before[1]['messageId']}", status=400,
                   json={"message": "답변은 고칠 수 없다"})
    await api.call("PUT", f"/sessions/{sid}/leaf", status=404, json={"messageId": "no-such-message"})


async def test_a_follow_up_after_an_edit_cites_the_edited_questions_items(stack, model):
    api = Api(stack)
    first = await api.ask("대학생 AI 해커톤 있어?")
    sid = first["conversationId"]
    question = (await api.history(sid))[0]["messageId"]
    edited = await api.call("PUT", f"/sessions/{sid}/messages/{question}",
                            json={"message": "보안 CTF 대회 알려줘"})
    old = {s["documentId"] for s in first["sources"]}
    new = [s["documentId"] for s in edited["sources"]]
    assert new and old and not old & set(new), (old, new)
    follow = await api.ask("첫 번째 대회 마감은 언제야?", sid)
    assert follow["sources"] and follow["sources"][0]["documentId"] == new[0]


async def test_another_user_gets_403_on_every_new_route(stack, model):
    owner, other = Api(stack), Api(stack)
    first = await owner.ask("대학생 AI 해커톤 있어?")
    sid, answer = first["conversationId"], first["messageId"]
    question = (await owner.history(sid))[0]["messageId"]
    calls = [("POST", f"/sessions/{sid}/messages/{answer}/regenerate", None),
             ("PUT", f"/sessions/{sid}/messages/{question}", {"message": "남의 질문 고치기"}),
             ("PUT", f"/sessions/{sid}/leaf", {"messageId": answer}),
             ("GET", f"/sessions/{sid}/messages/{answer}/stream", None)]
    for method, path, body in calls:
        refused = await other.call(method, path, status=403, json=body)
        assert refused["code"] == "4031", (method, path)
    assert await owner.contents(sid) == ["대학생 AI 해커톤 있어?", first["response"]]


@pytest.mark.parametrize("finished", [False, True], ids=["while-generating", "after-it-finished"])
async def test_a_stream_cut_after_its_third_event_resumes_to_exactly_the_stored_answer(
        stack, model, redis_url, finished):
    api = Api(stack)
    reply = "재개할 수 있는 스트림의 답변은 여러 조각으로 나뉘어 천천히 도착합니다."
    model.reply = says(reply)
    model.chunks, model.chunk_delay = 8, 0.25
    async with httpx.AsyncClient(timeout=30) as client, client.stream(
            "POST", f"{api.base}/stream",
            json={"message": f"대학생 AI 해커톤 있어? 확인 {uuid.uuid4().hex[:8]}"},  # not cached
            headers=api.headers) as response:
        seen = await read_events(response, keep=3)  # then the connection drops
    assert [e["event"] for e in seen] == ["metadata", "delta", "delta"]
    assert all(e.get("id") for e in seen)
    sid, answer = seen[0]["data"]["conversationId"], seen[0]["data"]["messageId"]

    async def stored() -> str:
        history = await api.history(sid)
        assert len(history) == 2 and history[1]["messageId"] == answer
        return str(history[1]["content"])

    if finished:
        await eventually(stored)
    else:  # still being generated: a first answer's session is written with it
        await api.call("GET", f"/sessions/{sid}/messages", status=404)
    rest = await resume(api, sid, answer, seen[-1]["id"])
    assert rest[0]["id"].split(".")[0] == str(int(seen[-1]["id"].split(".")[0]) + 1)
    assert [e["event"] for e in rest][-2:] == ["sources", "done"]
    whole = await eventually(stored)
    assert text_of(seen) + text_of(rest) == whole == reply
    if finished:  # once the kept events are gone, the stored answer serves the rest
        redis = Redis.from_url(redis_url)
        try:
            assert await redis.delete(f"chat:stream:{answer}", f"chat:stream:{answer}:owner") == 2
        finally:
            await redis.aclose()
        from_store = await resume(api, sid, answer, seen[-1]["id"])
        assert text_of(seen) + text_of(from_store) == whole
        assert [e["event"] for e in from_store] == ["delta", "sources", "done"]
