"""The typed HTTP edge without servers: what the OpenAPI documents declare (the envelope on every
success, each route's own error codes, never 422), that the edge writes what they declare, 405 with
`Allow`, request bodies read exactly as their schema, and titles cleaned like messages."""

from __future__ import annotations

import json
import unicodedata
from datetime import UTC, datetime
from typing import Annotated, Any

import httpx
import pytest
from fastapi import FastAPI
from pydantic import BaseModel, Field, TypeAdapter, ValidationError

from chatbot_api.domain.conversation import (
    CONTENT_CHARACTER,
    clean_text,
    normalize_message,
    normalize_title,
)
from chatbot_api.entrypoints.app import create_app as create_chatbot_app
from chatbot_api.entrypoints.schemas import ChatRequest, SessionPublic, TitleUpdate, UsagePublic
from chatbot_api.settings import ChatbotSettings
from command_api.entrypoints.app import create_app as create_command_app
from command_api.entrypoints.schemas import BookmarkUpdate, ContestCreate
from command_api.settings import CommandSettings
from techai_shared.conversation.model import SessionState
from techai_shared.envelope import CamelModel, Envelope, error_envelope, failure, success
from techai_shared.errors import ErrorCode
from techai_shared.web import api_router
from techai_shared.web.fields import IsoDate, Rfc3339DateTime

pytestmark = pytest.mark.unit

APPS = {"chatbot-api": lambda: create_chatbot_app(ChatbotSettings()),
        "command-api": lambda: create_command_app(CommandSettings())}


def _operations(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    return [(f"{method.upper()} {path}", op) for path, item in doc["paths"].items()
            for method, op in item.items()]


def _ref(media: dict[str, Any]) -> str:
    return str(media["schema"].get("$ref", "")).rsplit("/", 1)[-1]


@pytest.mark.parametrize("name", sorted(APPS))
def test_every_operation_declares_the_envelope_and_its_own_error_codes(name):
    doc = APPS[name]().openapi()
    schemas = doc["components"]["schemas"]
    assert not {"HTTPValidationError", "ValidationError"} & set(schemas)
    for label, op in _operations(doc):
        responses = op["responses"]
        assert "422" not in responses, label
        assert {"401", "500"} <= set(responses), label
        if label.split()[1].startswith("/v1/"):  # OpenAI's shapes: tests/unit/test_openai_edge.py
            continue
        for status, response in responses.items():
            content = response["content"]
            if status.startswith("2"):
                if "text/event-stream" in content or "text/markdown" in content:
                    continue  # a stream, or a file to download (the export)
                assert _ref(content["application/json"]).startswith("Envelope_"), (label, status)
                continue
            model = schemas[_ref(content["application/json"])]
            code = model["properties"]["code"]
            codes = [code["const"]] if "const" in code else code["enum"]
            statuses = {next(e for e in ErrorCode if e.code == c).status for c in codes}
            assert statuses == {int(status)}, (label, status, codes)


@pytest.mark.parametrize("name", sorted(APPS))
def test_links_name_operations_of_the_document(name):
    doc = APPS[name]().openapi()
    ids = {op["operationId"] for _, op in _operations(doc)}
    for label, op in _operations(doc):
        for response in op["responses"].values():
            for link in response.get("links", {}).values():
                assert link["operationId"] in ids, (label, link)


def test_the_stream_documents_each_event():
    op = create_chatbot_app(ChatbotSettings()).openapi()["paths"]["/api/v1/chatbot/stream"]["post"]
    events = op["responses"]["200"]["content"]["text/event-stream"]["schema"]["oneOf"]
    assert [e["properties"]["event"]["const"] for e in events] == [
        "metadata", "delta", "suggestions", "sources", "done", "error"]
    assert all(e["properties"]["data"]["contentMediaType"] == "application/json" for e in events)


def test_the_request_schemas_state_the_rules_the_api_enforces():
    doc = create_chatbot_app(ChatbotSettings()).openapi()
    message = doc["components"]["schemas"]["ChatRequest"]["properties"]["message"]
    assert (message["minLength"], message["maxLength"], message["pattern"]) == (1, 500, CONTENT_CHARACTER)
    title = doc["components"]["schemas"]["TitleUpdate"]["properties"]["title"]
    assert (title["minLength"], title["maxLength"], title["pattern"]) == (1, 200, CONTENT_CHARACTER)
    usage = doc["paths"]["/api/v1/chatbot/usage"]["get"]["parameters"]
    assert all({"type": "string", "format": "date"} in p["schema"]["anyOf"] for p in usage)
    update = create_command_app(CommandSettings()).openapi()["components"]["schemas"]["BookmarkUpdate"]
    assert update["minProperties"] == 1
    assert update["anyOf"] == [{"required": ["tag"]}, {"required": ["memo"]}]


@pytest.mark.parametrize("code", list(ErrorCode), ids=lambda c: c.code)
def test_what_the_edge_writes_for_an_error_is_its_declared_model(code):
    model = error_envelope(code)
    model.model_validate(failure(code, "why", None))
    model.model_validate(failure(code, "why", {"options.maxResults": "too big"}))
    other = next(c for c in ErrorCode if c.code != code.code)
    with pytest.raises(ValidationError):
        model.model_validate(failure(other, "why", None))


class _Cost(CamelModel):
    estimated_cost: float
    title: str


async def test_success_renders_the_bytes_of_the_envelope_dicts_it_replaced():
    router = api_router("/x", ["x"], ErrorCode.UNAUTHENTICATED)

    @router.get("", response_model=Envelope[_Cost])
    async def read() -> Envelope[_Cost]:
        return success(_Cost(estimated_cost=1e-05, title="해커톤"))

    app = FastAPI()
    app.include_router(router)
    old = {"code": "2000", "messageCode": {"code": "SUCCESS", "text": "성공"}, "message": "success",
           "data": {"estimatedCost": 1e-05, "title": "해커톤"}}

    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        body = (await client.get("/x")).content
    # json.dumps writes 1e-05; pydantic's own JSON would write 0.00001
    assert body == json.dumps(old, ensure_ascii=False, separators=(",", ":")).encode()


def test_pages_and_usage_keep_their_wire_shape():
    now = datetime(2026, 11, 23, 9, 0, 0, 123456, tzinfo=UTC)
    state = SessionState(session_id="s-1", user_id="u", title="t", created_at=now, last_message_at=now,
                         is_active=True, message_count=2, version=1)
    dumped = success(SessionPublic.of(state)).model_dump(mode="json", by_alias=True)
    assert list(dumped) == ["code", "messageCode", "message", "data"]
    assert dumped["data"]["createdAt"] == "2026-11-23T09:00:00.123Z"
    usage = UsagePublic.of(now.date(), now.date(), []).model_dump(mode="json", by_alias=True)
    assert list(usage) == ["from", "to", "days", "total", "budget"]
    assert usage["total"]["estimatedCost"] == 0 and type(usage["total"]["estimatedCost"]) is int


async def test_405_names_every_method_of_the_path():
    app = create_chatbot_app(ChatbotSettings())
    async with httpx.AsyncClient(transport=httpx.ASGITransport(app=app), base_url="http://t") as client:
        for method, path, allow in [("PUT", "/api/v1/chatbot/sessions/s-1", "DELETE, GET"),
                                    ("OPTIONS", "/api/v1/chatbot/sessions/s-1/title", "PATCH, PUT"),
                                    ("TRACE", "/api/v1/chatbot", "POST")]:
            r = await client.request(method, path)
            assert (r.status_code, r.headers.get("allow"), r.json()["code"]) == (405, allow, "4051")


def _rejects(model: type[BaseModel], body: dict[str, Any]) -> bool:
    try:
        model.model_validate(body)
    except ValidationError:
        return True
    return False


@pytest.mark.parametrize("body", [
    {"message": ""}, {"message": "   "}, {"message": "\x00\u200b"}, {"message": "가" * 501},
    {"message": 5}, {"message": "hi", "options": {"maxResults": "5"}},
    {"message": "hi", "options": {"maxResults": 5.5}}, {"message": "hi", "options": {"includeNews": 1}},
    {"message": "hi", "options": {"minSimilarityScore": "0.5"}}, {"message": "hi", "conversationId": ""},
])
def test_chat_requests_the_schema_refuses_are_refused(body):
    assert _rejects(ChatRequest, body)


def test_chat_requests_the_schema_allows_are_taken():
    request = ChatRequest.model_validate(
        {"message": "\u200b 해커톤\x00 ", "options": {"maxResults": 7.0, "minSimilarityScore": 1}})
    assert request.options.max_results == 7 and normalize_message(request.message) == "해커톤"


def test_titles_are_cleaned_like_messages():
    raw = " 제목\x00 with\u202e  bidi\t "
    assert normalize_title(raw) == normalize_message(raw) == "제목 with bidi"
    assert _rejects(TitleUpdate, {"title": "\x00"}) and _rejects(TitleUpdate, {"title": "x" * 201})
    assert TitleUpdate.model_validate({"title": "a\x00b"}).title == "a\x00b"  # cleaned when applied


def test_content_character_is_what_cleaning_keeps():
    """The schema's pattern and clean_text agree on every character Python's Unicode knows (BMP)."""
    pattern = TypeAdapter(Annotated[str, Field(pattern=CONTENT_CHARACTER)])
    for cp in range(0x10000):
        ch = chr(cp)
        if 0xD800 <= cp <= 0xDFFF or unicodedata.category(ch) == "Cn":
            continue
        try:
            pattern.validate_python(ch)
            matches = True
        except ValidationError:
            matches = False
        assert matches == bool(clean_text(ch)), hex(cp)


@pytest.mark.parametrize(("value", "ok"), [
    ("2026-12-01", True), ("0", False), ("2026-1-1", False), ("2026-02-30", False), ("", False)])
def test_dates_are_yyyy_mm_dd(value, ok):
    assert (not _rejects_value(IsoDate, value)) is ok


@pytest.mark.parametrize(("value", "ok"), [
    ("2026-12-01T09:00:00+09:00", True), ("2026-12-01t09:00:00.5z", True),
    ("2026-12-01T09:00:00", False), ("1700000000", False), (1700000000, False),
    ("1899-12-31T23:00:00Z", False), ("3000-01-01T00:00:00Z", False), ("2026-12-01", False)])
def test_date_times_are_rfc3339_with_an_offset(value, ok):
    assert (not _rejects_value(Rfc3339DateTime, value)) is ok


def _rejects_value(type_: Any, value: Any) -> bool:
    try:
        TypeAdapter(type_).validate_python(value)
    except ValidationError:
        return True
    return False


def test_command_bodies_are_read_as_their_schema():
    contest = {"title": "t", "status": "UPCOMING", "startDate": "2026-12-01T09:00:00+09:00"}
    assert ContestCreate.model_validate(contest).status == "UPCOMING"
    assert _rejects(ContestCreate, {**contest, "startDate": "2026-12-01T09:00:00"})
    assert _rejects(ContestCreate, {**contest, "tags": "ai"})
    assert _rejects(BookmarkUpdate, {}) and _rejects(BookmarkUpdate, {"userId": "x"})
    assert BookmarkUpdate.model_validate({"memo": None}).changes() == {"memo": None}
