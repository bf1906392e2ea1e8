"""The OpenAI-compatible endpoint (/v1) as OpenAI clients meet it: the official `openai` package
(sync and async, JSON and streaming) and LangChain's ChatOpenAI, talking HTTP to a running
chatbot-api of the end-to-end stack (every service a process, on MariaDB, Tansu, SecantusDB and
Redis, the sample catalog in the read model, the local model server behind it). Nothing of ours
sits between the clients and the HTTP edge: they are given a base URL and a JWT as API key.
"""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import openai
import pytest
from devstack.servers import Server
from langchain_core.messages import AIMessage, HumanMessage
from langchain_openai import ChatOpenAI
from pymongo import AsyncMongoClient

from chatbot_api.service_layer.chat import load_prompt
from chatbot_api.settings import ChatbotSettings
from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually
from tests.e2e.stack import Stack, load_sample_catalog, make_stack
from tests.support.chat import early_in_a_rate_window
from tests.support.fake_llm import FakeLlm

pytestmark = pytest.mark.e2e

MODEL = "techai-chat"
RATE_LIMIT = 8  # turns a minute per user: each test's user stays under it but one
QUESTION = "대학생 AI 해커톤 있어?"


@pytest.fixture(scope="module")
def stack(workdir: Path, e2e_database: str, mongo_server: Server, redis_url: str,
          llm: FakeLlm) -> Iterator[Stack]:
    """The stack (tests/e2e/conftest.py's) with the sample catalog in its read model before
    chatbot-api starts, and a rate limit low enough to reach."""
    created = make_stack(workdir, e2e_database, mongo_server.url, redis_url, llm.base_url)
    created.env["CHATBOT_RATE_LIMIT_PER_MINUTE"] = str(RATE_LIMIT)
    load_sample_catalog(created, mongo_server.url)
    running = created.start()
    yield running
    running.stop()


def key(user: str) -> str:
    return mint_token(user, CommonSettings())


def base_url(stack: Stack) -> str:
    return stack.url("chatbot") + "/v1"


def async_client(stack: Stack, user: str, **kw: Any) -> openai.AsyncOpenAI:
    return openai.AsyncOpenAI(base_url=base_url(stack), api_key=key(user), timeout=30, **kw)


async def stored_messages(stack: Stack, user: str, conversation: str) -> list[dict[str, Any]]:
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.get(
            f"{stack.url('chatbot')}/api/v1/chatbot/sessions/{conversation}/messages",
            headers={"Authorization": f"Bearer {key(user)}"})
    assert response.status_code == 200, response.text
    messages: list[dict[str, Any]] = response.json()["data"]["messages"]
    return messages


async def usage_today(stack: Stack, user: str) -> dict[str, int]:
    async with httpx.AsyncClient(timeout=30) as client:
        response = await client.get(f"{stack.url('chatbot')}/api/v1/chatbot/usage",
                                    headers={"Authorization": f"Bearer {key(user)}"})
    assert response.status_code == 200, response.text
    totals: dict[str, int] = response.json()["data"]["total"]
    return totals


async def greeted(stack: Stack, client: openai.AsyncOpenAI, user: str) -> str:
    """A new conversation of `user` (one small-talk turn), once its title's model call is over, so
    that what the model server is told to do next applies to the test's own turn."""
    first = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "안녕"}])
    assert first.usage is not None
    spent = first.usage.total_tokens

    async def titled() -> bool:
        return (await usage_today(stack, user))["totalTokens"] > spent

    await eventually(titled, within=15)
    conversation: str = (first.model_extra or {})["conversation_id"]
    return conversation


def titles(sources: list[dict[str, Any]]) -> list[str]:
    return [s["title"] for s in sources]


TITLE_PROMPT = load_prompt("title", ChatbotSettings().chatbot_title_prompt_version)


def prompt_for(llm: FakeLlm, question: str) -> list[dict[str, str]]:
    """The conversation (system prompt left out) of the latest model call that answered
    `question`: other calls may come in between, among them the title of a session that
    `question` started, which asks the model about the same text."""
    request = next(r for r in reversed(llm.requests) if r["messages"][-1]["content"] == question
                   and r["messages"][0]["content"] != TITLE_PROMPT)
    return [m for m in request["messages"] if m["role"] != "system"]


async def test_a_catalog_question_names_its_sources_in_the_text_and_the_extension(stack):
    user = uuid.uuid4().hex
    client = async_client(stack, user)
    completion = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": QUESTION}])
    extra: dict[str, Any] = completion.model_extra or {}
    assert completion.object == "chat.completion" and completion.model == MODEL
    assert extra["mode"] == "rag" and extra["sources"], extra
    content = completion.choices[0].message.content or ""
    assert completion.choices[0].message.role == "assistant"
    assert completion.choices[0].finish_reason == "stop"
    # the model's text, then every cited item by title, in the order the model cites them by
    assert content.startswith(f"echo: {QUESTION}")
    assert "출처:" in content
    for i, title in enumerate(titles(extra["sources"]), 1):
        assert f"[{i}] {title}" in content
    # stored as the client saw it, and the usage is what the usage endpoint counted
    stored = await stored_messages(stack, user, extra["conversation_id"])
    assert [m["role"] for m in stored] == ["user", "assistant"]
    assert stored[0]["content"] == QUESTION and stored[1]["content"] == content
    assert stored[1]["messageId"] == extra["message_id"]
    # the usage of a turn is what the usage endpoint counts for it (a first turn's title is a
    # model call of its own, counted once it is written: the turn measured is the next one)
    async def titled() -> bool:
        return (await usage_today(stack, user))["totalTokens"] > completion.usage.total_tokens

    await eventually(titled, within=15)
    before = await usage_today(stack, user)
    second = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "그거 신청 마감은 언제야?"}],
        extra_body={"conversation_id": extra["conversation_id"]})
    after = await usage_today(stack, user)
    assert second.usage is not None and second.usage.total_tokens > 0
    assert [after[k] - before[k] for k in ("inputTokens", "outputTokens", "totalTokens")] == [
        second.usage.prompt_tokens, second.usage.completion_tokens, second.usage.total_tokens]


async def test_a_follow_up_with_the_conversation_id_stays_on_the_same_items(stack, llm):
    user = uuid.uuid4().hex
    client = async_client(stack, user)
    first = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": QUESTION}])
    conversation = (first.model_extra or {})["conversation_id"]
    top = (first.model_extra or {})["sources"][0]
    # the SDK sends the extension through extra_body; raw response to read the header too
    raw = await client.chat.completions.with_raw_response.create(
        model=MODEL, messages=[{"role": "user", "content": "그거 신청 마감은 언제야?"}],
        extra_body={"conversation_id": conversation})
    second = raw.parse()
    assert raw.headers["x-conversation-id"] == conversation
    extra = second.model_extra or {}
    assert extra["conversation_id"] == conversation
    assert extra["sources"][0]["documentId"] == top["documentId"]
    # the history came from the store: the model saw the first exchange before the follow-up
    prompt = prompt_for(llm, "그거 신청 마감은 언제야?")
    assert [m["role"] for m in prompt] == ["user", "assistant", "user"]
    # the header names the conversation as well as the body does
    third = await client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "상금은 얼마야?"}],
        extra_headers={"X-Conversation-Id": conversation})
    assert (third.model_extra or {})["conversation_id"] == conversation
    assert len(await stored_messages(stack, user, conversation)) == 6


async def test_a_client_that_resends_the_history_keeps_one_conversation(stack, llm):
    """As most OpenAI clients do: no conversation id, the whole transcript every turn."""
    user = uuid.uuid4().hex
    client = async_client(stack, user)
    history: list[dict[str, Any]] = [{"role": "system", "content": "You are a helpful assistant."}]
    conversations = []
    for question in (QUESTION, "그거 신청 마감은 언제야?", "상금은 얼마야?"):
        history.append({"role": "user", "content": question})
        completion = await client.chat.completions.create(model=MODEL, messages=history)
        history.append({"role": "assistant", "content": completion.choices[0].message.content})
        conversations.append((completion.model_extra or {})["conversation_id"])
        # the earlier turns reached the model, from the store
        prompt = prompt_for(llm, question)
        assert [m["content"] for m in prompt] == [m["content"] for m in history[1:-1]]
    assert len(set(conversations)) == 1
    assert len(await stored_messages(stack, user, conversations[0])) == 6
    # a transcript edited by the client is another conversation, which keeps what the client sent
    edited = [*history[:2], {"role": "assistant", "content": "an answer this service never gave"},
              {"role": "user", "content": "그거 마감은?"}]
    branch = await client.chat.completions.create(model=MODEL, messages=edited)
    assert (branch.model_extra or {})["conversation_id"] != conversations[0]
    prompt = prompt_for(llm, "그거 마감은?")
    assert [m["content"] for m in prompt] == [m["content"] for m in edited[1:]]


async def test_a_streamed_answer_reassembles_to_the_stored_one(stack):
    user = uuid.uuid4().hex
    client = async_client(stack, user)
    stream = await client.chat.completions.create(  # a question of its own: no cached answer
        model=MODEL, messages=[{"role": "user", "content": "대학생이 나갈 만한 AI 해커톤 알려줘"}],
        stream=True,
        stream_options={"include_usage": True})
    chunks = [chunk async for chunk in stream]
    assert chunks[0].choices[0].delta.role == "assistant"
    text = "".join(c.choices[0].delta.content or "" for c in chunks if c.choices)
    extras = [c.model_extra or {} for c in chunks]
    with_sources = [e["sources"] for e in extras if e.get("sources")]
    finished = [c for c in chunks if c.choices and c.choices[0].finish_reason == "stop"]
    assert len(with_sources) == 1 and len(finished) == 1
    assert chunks.index(finished[0]) > next(i for i, e in enumerate(extras) if e.get("sources"))
    assert chunks[-1].choices == [] and chunks[-1].usage is not None
    message_id = (finished[0].model_extra or {})["message_id"]
    conversation = extras[0]["conversation_id"]
    stored = await stored_messages(stack, user, conversation)
    assert stored[1]["messageId"] == message_id and stored[1]["content"] == text
    assert titles(stored[1]["sources"]) == titles(with_sources[0])
    assert chunks[-1].usage.total_tokens > 0


def test_the_sync_client_in_both_modes(stack):
    user = uuid.uuid4().hex
    client = openai.OpenAI(base_url=base_url(stack), api_key=key(user), timeout=30)
    assert [m.id for m in client.models.list()] == [MODEL]
    # fields this endpoint does not use are ignored, as OpenAI-compatible servers ignore them
    completion = client.chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "Any hackathons for students?"}],
        temperature=0.2, max_tokens=64, user="someone", seed=7,
        extra_body={"top_k": 5, "repetition_penalty": 1.1})
    conversation = (completion.model_extra or {})["conversation_id"]
    with client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "When does it close?"}],
            stream=True, extra_body={"conversation_id": conversation}) as stream:
        text = "".join(c.choices[0].delta.content or "" for c in stream if c.choices)
    stored = asyncio.run(stored_messages(stack, user, conversation))
    assert [m["content"] for m in stored] == [
        "Any hackathons for students?", completion.choices[0].message.content,
        "When does it close?", text]


async def test_langchain_chat_openai_as_a_client(stack):
    user = uuid.uuid4().hex
    model = ChatOpenAI(model=MODEL, base_url=base_url(stack), api_key=key(user), max_retries=0)
    reply = await model.ainvoke([HumanMessage(QUESTION)])
    assert isinstance(reply, AIMessage) and isinstance(reply.content, str)
    assert reply.content.startswith(f"echo: {QUESTION}") and "출처:" in reply.content
    # the follow-up as LangChain sends it (the whole history): the same conversation
    streamed = ""
    async for part in model.astream([HumanMessage(QUESTION), reply,
                                     HumanMessage("그거 신청 마감은 언제야?")]):
        streamed += str(part.content)
    listed: list[dict[str, Any]] = []

    async def projected() -> bool:  # the session list reads the read model
        async with httpx.AsyncClient(timeout=30) as http:
            page = (await http.get(f"{stack.url('chatbot')}/api/v1/chatbot/sessions",
                                   headers={"Authorization": f"Bearer {key(user)}"})).json()
        listed[:] = page["data"]["sessions"]
        return sum(s["messageCount"] for s in listed) == 4

    await eventually(projected, within=30)
    assert len(listed) == 1
    conversation = listed[0]["sessionId"]
    stored = await stored_messages(stack, user, conversation)
    assert [m["content"] for m in stored] == [QUESTION, reply.content,
                                              "그거 신청 마감은 언제야?", streamed]


async def test_errors_raise_the_sdks_own_exceptions(stack):
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    first = await async_client(stack, owner).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": "안녕"}])
    conversation = (first.model_extra or {})["conversation_id"]
    ask = [{"role": "user", "content": "안녕"}]
    with pytest.raises(openai.AuthenticationError) as bad_key:
        await openai.AsyncOpenAI(base_url=base_url(stack), api_key="not-a-jwt").chat.completions.create(
            model=MODEL, messages=ask)
    assert bad_key.value.code == "invalid_api_key"
    with pytest.raises(openai.PermissionDeniedError):
        await async_client(stack, other).chat.completions.create(
            model=MODEL, messages=ask, extra_body={"conversation_id": conversation})
    with pytest.raises(openai.NotFoundError) as unknown:
        await async_client(stack, other).chat.completions.create(
            model=MODEL, messages=ask, extra_body={"conversation_id": "no-such-conversation"})
    assert unknown.value.code == "session_not_found"
    with pytest.raises(openai.NotFoundError) as no_model:
        await async_client(stack, other).chat.completions.create(model="gpt-4o", messages=ask)
    assert no_model.value.code == "model_not_found"
    for body, param in (
            ({"messages": [{"role": "system", "content": "hi"}]}, "messages"),
            ({"messages": [{"role": "user", "content": " \t "}]}, "messages.0.content"),
            ({"messages": [{"role": "user", "content": 5}]}, "messages.0.content"),
            ({"messages": ask, "n": 2}, "n")):
        with pytest.raises(openai.BadRequestError) as bad:
            await async_client(stack, other).chat.completions.create(model=MODEL, **body)
        assert bad.value.param == param, bad.value.body
    # the caller's conversation was not changed by any of it
    assert len(await stored_messages(stack, owner, conversation)) == 2


async def test_the_rate_limit_raises_rate_limit_error_with_retry_after(stack):
    user = uuid.uuid4().hex
    client = async_client(stack, user, max_retries=0)
    await early_in_a_rate_window()  # the limit and the one over it count in one minute's window
    for _ in range(RATE_LIMIT):
        await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "안녕"}])
    with pytest.raises(openai.RateLimitError) as limited:
        await client.chat.completions.create(model=MODEL, messages=[{"role": "user", "content": "안녕"}])
    assert int(limited.value.response.headers["retry-after"]) > 0
    assert limited.value.code == "rate_limit_exceeded"


async def test_the_exchange_is_projected_and_can_be_rated(stack):
    user = uuid.uuid4().hex
    completion = await async_client(stack, user).chat.completions.create(
        model=MODEL, messages=[{"role": "user", "content": QUESTION}])
    extra = completion.model_extra or {}
    mongo: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(stack.env["MONGODB_URI"])
    messages = mongo[stack.env["MONGODB_DATABASE"]]["conversation_messages"]
    try:
        async def projected() -> bool:
            doc = await messages.find_one({"message_id": extra["message_id"]})
            return doc is not None and doc["content"] == completion.choices[0].message.content
        await eventually(projected, within=30)
    finally:
        await mongo.close()
    async with httpx.AsyncClient(timeout=30) as http:
        rated = await http.put(
            f"{stack.url('chatbot')}/api/v1/chatbot/sessions/{extra['conversation_id']}/messages/"
            f"{extra['message_id']}/feedback", json={"rating": "up"},
            headers={"Authorization": f"Bearer {key(user)}"})
    assert rated.status_code == 200, rated.text
    assert rated.json()["data"]["rating"] == "up"


async def test_a_failed_model_raises_the_sdks_server_error_and_stores_nothing(stack, llm):
    user = uuid.uuid4().hex
    client = async_client(stack, user, max_retries=0)
    conversation = await greeted(stack, client, user)
    ask = {"model": MODEL, "messages": [{"role": "user", "content": "Any prize money?"}],
           "extra_body": {"conversation_id": conversation}}
    llm.fail_next("500", "500")  # the call and chatbot-api's one retry
    with pytest.raises(openai.InternalServerError) as failed:
        await client.chat.completions.create(**ask)
    assert failed.value.status_code == 503 and failed.value.code == "llm_unavailable"
    # once the answer has started, the stream ends with an error event the SDK raises
    llm.fail_next("500", "500")
    stream = await client.chat.completions.create(**ask, stream=True)
    received = []
    with pytest.raises(openai.APIError) as broken:
        async for chunk in stream:
            received.append(chunk)
    assert received and received[0].choices[0].delta.role == "assistant"
    assert "language model" in str(broken.value.message)
    assert len(await stored_messages(stack, user, conversation)) == 2


async def test_a_client_that_leaves_mid_stream_leaves_a_stored_answer(stack, llm):
    user = uuid.uuid4().hex
    client = async_client(stack, user, max_retries=0)
    conversation = await greeted(stack, client, user)
    llm.chunk_delay = 0.3  # four pieces: the answer takes over a second
    try:
        stream = await client.chat.completions.create(
            model=MODEL, messages=[{"role": "user", "content": "Any prize money?"}], stream=True,
            extra_body={"conversation_id": conversation})
        async for chunk in stream:
            if chunk.choices and chunk.choices[0].delta.content:
                break  # the first words are on screen; the client goes away
        await stream.close()

        async def stored_whole() -> bool:
            messages = await stored_messages(stack, user, conversation)
            return len(messages) == 4 and messages[3]["content"].startswith("echo: Any prize money?")

        await eventually(stored_whole, within=15)
    finally:
        llm.chunk_delay = 0.0
