"""The OpenAI-compatible edge without servers: the transcript keys that let a client which resends
the conversation keep one session, errors in OpenAI's shape on /v1 (and only there), and what the
OpenAPI document declares for it."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.thread import EMPTY, after_exchange, transcript_key
from chatbot_api.entrypoints.app import create_app
from chatbot_api.entrypoints.openai_schemas import error_detail, param_name
from chatbot_api.service_layer.chat import Transcript
from chatbot_api.settings import ChatbotSettings
from techai_shared.errors import ErrorCode

pytestmark = pytest.mark.unit

Q1, A1 = "대학생 AI 해커톤 있어?", "echo: 대학생 AI 해커톤 있어?\n\n출처:\n[1] X"
Q2, A2 = "상금은?", "100만원"


def test_the_key_after_an_exchange_is_the_key_of_the_resent_transcript():
    after_first = after_exchange(EMPTY, Q1, A1)
    resent = [ChatTurn("system", "be nice"), ChatTurn("user", Q1), ChatTurn("assistant", A1)]
    assert transcript_key(resent) == after_first == Transcript.of(resent).key
    assert transcript_key([*resent, ChatTurn("user", Q2), ChatTurn("tool", "{}"),
                           ChatTurn("assistant", A2)]) == after_exchange(after_first, Q2, A2)


def test_the_key_reads_messages_as_cleaned_and_tells_every_change_apart():
    base = transcript_key([ChatTurn("user", Q1), ChatTurn("assistant", A1)])
    # a client that trims or re-wraps what it shows still matches
    assert transcript_key([ChatTurn("user", f"  {Q1}\u200b "),
                           ChatTurn("assistant", A1.replace("\n", "\r\n"))]) == base
    # another answer, another order, other roles, or text moved across messages does not
    assert len({base,
                transcript_key([ChatTurn("user", Q1), ChatTurn("assistant", "other")]),
                transcript_key([ChatTurn("assistant", A1), ChatTurn("user", Q1)]),
                transcript_key([ChatTurn("user", Q1), ChatTurn("user", A1)]),
                transcript_key([ChatTurn("user", Q1 + " echo:"), ChatTurn("assistant", A1[6:])]),
                EMPTY}) == 6


@pytest.mark.parametrize(("field", "param"), [
    ("messages.0.user.content.constrained-str", "messages.0.content"),
    ("messages.2.user.content.list[TextPart].0.text", "messages.2.content.0.text"),
    ("messages.1.assistant.content.str", "messages.1.content"),
    ("stream_options.include_usage", "stream_options.include_usage"),
    ("n", "n"),
    ("messages", "messages"),
])
def test_params_are_named_as_openai_names_them(field, param):
    assert param_name(field) == param


@pytest.mark.parametrize(("code", "data", "type_", "name", "param"), [
    (ErrorCode.UNAUTHENTICATED, None, "authentication_error", "invalid_api_key", None),
    (ErrorCode.FORBIDDEN, None, "permission_error", "forbidden", None),
    (ErrorCode.SESSION_NOT_FOUND, None, "invalid_request_error", "session_not_found", None),
    (ErrorCode.NOT_FOUND, {"model": "not served here"}, "invalid_request_error", "model_not_found",
     "model"),
    (ErrorCode.INVALID_INPUT, {"messages.0.user.content.str": "too long", "n": "at most 1"},
     "invalid_request_error", "invalid_value", "messages.0.content"),
    (ErrorCode.RATE_LIMITED, None, "rate_limit_error", "rate_limit_exceeded", None),
    (ErrorCode.TOKEN_BUDGET_EXCEEDED, None, "rate_limit_error", "insufficient_quota", None),
    (ErrorCode.LLM_UNAVAILABLE, None, "server_error", "llm_unavailable", None),
    (ErrorCode.LLM_TIMEOUT, None, "server_error", "llm_timeout", None),
])
def test_errors_in_openai_shape(code, data, type_, name, param):
    detail = error_detail(code, "what went wrong", data)
    assert (detail.type, detail.code, detail.param) == (type_, name, param)
    if code is ErrorCode.INVALID_INPUT:  # the message names every invalid field
        assert all(f"{param_name(f)}: " in detail.message for f in data)
    else:
        assert detail.message == "what went wrong"


async def _call(method: str, path: str, **kw: Any) -> httpx.Response:
    app = create_app(ChatbotSettings(chatbot_max_body_bytes=1000, chatbot_openai_max_body_bytes=2000))
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as c:
        return await c.request(method, path, **kw)


@pytest.mark.parametrize(("method", "path", "kw", "status", "code"), [
    ("POST", "/v1/chat/completions", {"json": {}}, 401, "invalid_api_key"),
    ("GET", "/v1/models", {}, 401, "invalid_api_key"),
    ("GET", "/v1/chat/completions", {}, 405, "method_not_allowed"),
    ("GET", "/v1/embeddings", {}, 404, "not_found"),
    # its own body limit (a client resends the conversation), over it in OpenAI's shape
    ("POST", "/v1/chat/completions", {"content": b"x" * 2001,
                                      "headers": {"content-type": "application/json"}},
     413, "payload_too_large"),
])
async def test_the_v1_edge_answers_errors_in_openai_shape(method, path, kw, status, code):
    response = await _call(method, path, **kw)
    assert response.status_code == status
    assert response.json()["error"]["code"] == code, response.json()
    assert set(response.json()["error"]) == {"message", "type", "code", "param"}
    if status == 405:
        assert response.headers["allow"] == "POST"


async def test_the_envelope_routes_keep_the_envelope_and_their_own_limit():
    response = await _call("POST", "/api/v1/chatbot", content=b"x" * 1001,
                           headers={"content-type": "application/json"})
    assert response.status_code == 413 and response.json()["code"] == "4131"
    response = await _call("POST", "/v1/chat/completions", content=b"x" * 1500,
                           headers={"content-type": "application/json"})
    # under /v1's limit: read, and refused for what it is (not JSON)
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_value"


def test_the_document_declares_openai_shapes_for_v1():
    doc = create_app(ChatbotSettings()).openapi()
    schemas = doc["components"]["schemas"]
    completions = doc["paths"]["/v1/chat/completions"]["post"]
    ok = completions["responses"]["200"]["content"]
    assert ok["application/json"]["schema"]["$ref"].endswith("/ChatCompletion")
    assert "text/event-stream" in ok
    for status in ("400", "401", "403", "404", "413", "429", "500", "503", "504"):
        ref = completions["responses"][status]["content"]["application/json"]["schema"]["$ref"]
        assert ref.endswith("/ErrorBody"), status
    assert set(schemas["ErrorDetail"]["required"]) == {"message", "type", "code", "param"}
    request = schemas["ChatCompletionRequest"]
    assert request["properties"]["messages"]["contains"]["properties"]["role"] == {"const": "user"}
    assert request["properties"]["n"]["anyOf"][0]["maximum"] == 1
    assert doc["paths"]["/v1/models"]["get"]["responses"]["200"]["content"]["application/json"][
        "schema"]["$ref"].endswith("/ModelList")
