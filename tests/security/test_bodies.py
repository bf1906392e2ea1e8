"""Hostile bodies: over the size limit -> 413 (4131), declared or streamed; deeply nested, non-UTF-8,
truncated or wrongly typed JSON -> 400 (4001); always the envelope, and nothing stored."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from sqlalchemy import func, select

from techai_shared.db.schema import bookmarks, conversation_sessions, outbox_events
from tests.security.conftest import bearer

pytestmark = pytest.mark.integration

JSON = {"Content-Type": "application/json"}
NESTED = b'{"message": ' + b"[" * 20_000 + b"]" * 20_000 + b"}"  # valid JSON, under 64 KB
NESTED_OBJECTS = b'{"options": ' + b'{"a":' * 5_000 + b"1" + b"}" * 5_000 + b', "message": "hi"}'
MALFORMED = {
    "deeply_nested_array": NESTED,
    "deeply_nested_objects": NESTED_OBJECTS,
    "latin1": '{"message": "caf\xe9 안녕"}'.encode("latin-1", errors="replace"),
    "invalid_utf8": b'{"message": "\xff\xfe\xc3\x28"}',
    "utf16": '{"message": "안녕"}'.encode("utf-16"),
    "lone_surrogate_escape": b'{"message": "\\ud800"}',
    "truncated": b'{"message": "hi"',
    "not_json": b"message=hi",
    "array": b'["hi"]',
    "string": b'"hi"',
    "empty": b"",
    "nan": b'{"message": "hi", "options": {"minSimilarityScore": NaN}}',
    "huge_number": b'{"message": "hi", "options": {"maxResults": 1' + b"0" * 5000 + b"}}",
    "wrong_types": b'{"message": {"$gt": ""}, "conversationId": 5}',
}


async def _counts(engine) -> tuple[int, ...]:
    async with engine.connect() as conn:
        return tuple([(await conn.execute(select(func.count()).select_from(t))).scalar_one()
                      for t in (conversation_sessions, bookmarks, outbox_events)])


def _assert_envelope(response, status: int, code: str, what: object) -> None:
    assert response.status_code == status, (what, response.status_code, response.text[:300])
    assert response.headers["content-type"].startswith("application/json"), what
    assert response.json()["code"] == code, (what, response.text[:300])


@pytest.mark.parametrize("name", sorted(MALFORMED))
async def test_malformed_json_is_400_on_chatbot_api(chatbot_api, settings, engine, name):
    before = await _counts(engine)
    h = {**bearer(settings, uuid.uuid4().hex), **JSON}
    for path in ("/api/v1/chatbot", "/api/v1/chatbot/stream"):
        r = await chatbot_api.post(path, content=MALFORMED[name], headers=h)
        _assert_envelope(r, 400, "4001", (path, name))
    assert await _counts(engine) == before


@pytest.mark.parametrize("name", sorted(MALFORMED))
async def test_malformed_json_is_400_on_command_api(command_api, settings, engine, name):
    before = await _counts(engine)
    user, admin = bearer(settings, uuid.uuid4().hex), bearer(settings, "admin-1", "ADMIN")
    for path, h in (("/api/v1/bookmarks", user), ("/api/v1/admin/contests", admin),
                    ("/api/v1/admin/news-articles", admin), ("/api/v1/bookmarks/b-1", user)):
        method = "PATCH" if path.endswith("b-1") else "POST"
        r = await command_api.request(method, path, content=MALFORMED[name], headers={**h, **JSON})
        _assert_envelope(r, 400, "4001", (path, name))
    assert await _counts(engine) == before


async def _chunks(total: int, size: int = 16 * 1024) -> AsyncIterator[bytes]:
    yield b'{"message": "'
    sent = 0
    while sent < total:
        yield b"x" * size
        sent += size
    yield b'"}'


async def test_bodies_over_the_limit_are_413_declared_or_streamed(chatbot_api, command_api, settings, engine):
    before = await _counts(engine)
    user, admin = bearer(settings, uuid.uuid4().hex), bearer(settings, "admin-1", "ADMIN")
    limits = [(chatbot_api, "/api/v1/chatbot", user), (chatbot_api, "/api/v1/chatbot/stream", user),
              (command_api, "/api/v1/bookmarks", user), (command_api, "/api/v1/admin/contests", admin),
              (command_api, "/api/v1/bookmarks/b-1", user)]
    for client, path, h in limits:
        method = "PATCH" if path.endswith("b-1") else "POST"
        over = 2 * 1024 * 1024  # over both services' limits
        declared = await client.request(method, path, content=b'{"message": "' + b"x" * over + b'"}',
                                        headers={**h, **JSON})
        _assert_envelope(declared, 413, "4131", (path, "declared"))
        streamed = await client.request(method, path, content=_chunks(over), headers={**h, **JSON})
        _assert_envelope(streamed, 413, "4131", (path, "streamed"))
        lying = await client.request(method, path, content=_chunks(over),
                                     headers={**h, **JSON, "Content-Length": "10"})
        assert lying.status_code in (400, 413), (path, "lying", lying.text[:200])
    assert await _counts(engine) == before
