"""command-api's catalog routes in process (ASGI) on the real MariaDB: roles, owners, envelope, events."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import httpx
import pytest
from sqlalchemy import func, select

from command_api.entrypoints.app import create_app
from command_api.settings import CommandSettings
from techai_shared.auth import mint_token
from techai_shared.db.schema import outbox_events
from techai_shared.events import EventEnvelope
from techai_shared.events.catalog import ContestPayload, NewsArticlePayload
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.integration

CONTEST = {"title": "대학생 AI 해커톤", "description": "LLM 에이전트 해커톤", "status": "UPCOMING",
           "startDate": "2099-12-01T09:00:00+09:00", "endDate": "2099-12-03T18:00:00+09:00",
           "url": "https://example.kr/h", "sourceName": "테크AI", "tags": ["ai"]}


@pytest.fixture
async def api(settings: CommonSettings) -> AsyncIterator[httpx.AsyncClient]:
    cfg = CommandSettings(**{**settings.model_dump(), "command_max_body_bytes": 512 * 1024})
    app = create_app(cfg)
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://command-api") as client:
            yield client


def auth(settings: CommonSettings, user: str, role: str = "USER") -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(user, settings, role=role)}"}


@pytest.fixture
def admin(settings: CommonSettings) -> dict[str, str]:
    return auth(settings, "admin-1", "ADMIN")


async def events_of(engine, aggregate_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        rows = (await conn.execute(select(outbox_events.c.body).where(
            outbox_events.c.aggregate_id == aggregate_id).order_by(outbox_events.c.id))).scalars()
        return [EventEnvelope.from_json(body) for body in rows]


async def test_admin_contest_crud_emits_versioned_full_state_events(api, admin, engine):
    cid = f"c-{uuid.uuid4().hex[:8]}"
    created = await api.post("/api/v1/admin/contests", json={**CONTEST, "id": cid}, headers=admin)
    assert created.status_code == 201, created.text
    assert created.json()["code"] == "2000"
    assert created.json()["data"] | {"version": 1, "id": cid} == created.json()["data"]
    # the status is the one the dates give: sending another changes nothing
    ignored = await api.put(f"/api/v1/admin/contests/{cid}",
                            json={**CONTEST, "status": "ENDED"}, headers=admin)
    assert ignored.status_code == 200 and ignored.json()["data"]["version"] == 1
    assert ignored.json()["data"]["status"] == "UPCOMING"
    moved = {**CONTEST, "startDate": "2026-01-01T09:00:00+09:00", "endDate": "2099-12-31T18:00:00+09:00"}
    updated = await api.put(f"/api/v1/admin/contests/{cid}", json=moved, headers=admin)
    assert updated.status_code == 200 and updated.json()["data"]["version"] == 2
    same = await api.put(f"/api/v1/admin/contests/{cid}", json=moved, headers=admin)
    assert same.json()["data"]["version"] == 2
    read = await api.get(f"/api/v1/admin/contests/{cid}", headers=admin)
    assert read.json()["data"]["status"] == "ONGOING" and read.json()["data"]["sourceName"] == "테크AI"
    assert (await api.delete(f"/api/v1/admin/contests/{cid}", headers=admin)).status_code == 200
    gone = await api.get(f"/api/v1/admin/contests/{cid}", headers=admin)
    assert gone.status_code == 404 and gone.json()["code"] == "4043"
    events = await events_of(engine, cid)
    assert [(e.event_type.value, e.version) for e in events] == [
        ("ContestUpserted", 1), ("ContestUpserted", 2), ("ContestDeleted", 3)]
    assert [ContestPayload.model_validate(e.payload).status for e in events] == [
        "UPCOMING", "ONGOING", "ONGOING"]


async def test_admin_creates_with_generated_ids_and_refuses_a_live_duplicate(api, admin, engine):
    body = {"title": "LLM 추론 비용 절반으로", "summary": "요약", "content": "본문",
            "publishedAt": "2026-11-20T10:00:00+09:00", "tags": ["llm"]}
    created = await api.post("/api/v1/admin/news-articles", json=body, headers=admin)
    assert created.status_code == 201, created.text
    nid = created.json()["data"]["id"]
    assert nid.startswith("n-")
    (event,) = await events_of(engine, nid)
    assert event.event_type.value == "NewsArticleUpserted" and event.aggregate_type.value == "news"
    assert NewsArticlePayload.model_validate(event.payload).published_at.isoformat().startswith(
        "2026-11-20T01:00:00")
    again = await api.post("/api/v1/admin/news-articles", json={**body, "id": nid}, headers=admin)
    assert again.status_code == 409 and again.json()["code"] == "4091"


async def test_admin_routes_are_403_for_users_and_401_without_a_token(api, settings):
    user = auth(settings, "1001")
    calls = [("POST", "/api/v1/admin/contests", CONTEST), ("PUT", "/api/v1/admin/contests/c-1", CONTEST),
             ("GET", "/api/v1/admin/contests/c-1", None), ("DELETE", "/api/v1/admin/news-articles/n-1", None),
             ("POST", "/api/v1/admin/catalog/import", None)]
    for method, url, body in calls:
        forbidden = await api.request(method, url, json=body, headers=user)
        assert (forbidden.status_code, forbidden.json()["code"]) == (403, "4031"), url
        anonymous = await api.request(method, url, json=body)
        assert (anonymous.status_code, anonymous.json()["code"]) == (401, "4011"), url


async def test_invalid_bodies_are_400_with_the_fields(api, admin):
    response = await api.post("/api/v1/admin/contests", headers=admin,
                              json={**CONTEST, "title": "", "status": "SOON"})
    assert response.status_code == 400 and response.json()["code"] == "4001"
    assert set(response.json()["data"]) == {"title", "status"}
    backwards = await api.put("/api/v1/admin/contests/c-x", headers=admin,
                              json={**CONTEST, "endDate": "2026-11-01T00:00:00Z"})
    assert backwards.status_code == 400
    bad_id = await api.post("/api/v1/admin/contests", headers=admin, json={**CONTEST, "id": "a b"})
    assert bad_id.status_code == 400 and "id" in bad_id.json()["data"]
    huge = await api.post("/api/v1/admin/news-articles", headers=admin,
                          json={"title": "t", "content": "가" * 200_000})
    assert huge.status_code == 413 and huge.json()["code"] == "4131"


async def create_contest(api, admin) -> str:
    cid = f"c-{uuid.uuid4().hex[:8]}"
    response = await api.post("/api/v1/admin/contests", json={**CONTEST, "id": cid}, headers=admin)
    assert response.status_code == 201
    return cid


async def test_bookmarks_belong_to_the_token_user(api, admin, settings, engine):
    cid = await create_contest(api, admin)
    owner, other = auth(settings, uuid.uuid4().hex), auth(settings, uuid.uuid4().hex)
    created = await api.post("/api/v1/bookmarks", headers=owner, json={
        "itemType": "CONTEST", "itemId": cid, "tag": "관심", "memo": "팀원 구하기", "userId": "victim"})
    assert created.status_code == 201, created.text
    mark = created.json()["data"]
    assert mark["itemTitle"] == "대학생 AI 해커톤" and mark["userId"] != "victim"
    url = f"/api/v1/bookmarks/{mark['id']}"
    for method, body in (("GET", None), ("PATCH", {"memo": "x"}), ("DELETE", None)):
        response = await api.request(method, url, json=body, headers=other)
        assert (response.status_code, response.json()["code"]) == (403, "4031"), method
    patched = await api.patch(url, json={"memo": "마감 12/3"}, headers=owner)
    data = patched.json()["data"]
    assert data | {"memo": "마감 12/3", "tag": "관심", "version": 2} == data
    listed = (await api.get("/api/v1/bookmarks?page=0&size=10", headers=owner)).json()["data"]
    assert [b["id"] for b in listed["bookmarks"]] == [mark["id"]] and listed["totalElements"] == 1
    assert (await api.get("/api/v1/bookmarks", headers=other)).json()["data"]["totalElements"] == 0
    assert (await api.delete(url, headers=owner)).status_code == 200
    missing = await api.patch(url, json={"tag": "x"}, headers=owner)
    assert (missing.status_code, missing.json()["code"]) == (404, "4042")
    events = await events_of(engine, mark["id"])
    assert [(e.event_type.value, e.version) for e in events] == [
        ("BookmarkUpserted", 1), ("BookmarkUpserted", 2), ("BookmarkDeleted", 3)]


async def test_bookmarking_an_item_twice_is_409_and_a_missing_item_404(api, admin, settings):
    cid = await create_contest(api, admin)
    user = auth(settings, uuid.uuid4().hex)
    first = await api.post("/api/v1/bookmarks", json={"itemType": "CONTEST", "itemId": cid}, headers=user)
    second = await api.post("/api/v1/bookmarks", json={"itemType": "CONTEST", "itemId": cid}, headers=user)
    assert (second.status_code, second.json()["code"]) == (409, "4091")
    assert second.json()["data"] == {"bookmarkId": first.json()["data"]["id"]}
    missing = await api.post("/api/v1/bookmarks", json={"itemType": "NEWS_ARTICLE", "itemId": "n-none"},
                             headers=user)
    assert (missing.status_code, missing.json()["code"]) == (404, "4043")
    assert (await api.get("/api/v1/bookmarks")).status_code == 401


async def test_import_endpoint_loads_the_sample_once(api, admin, engine):
    first = await api.post("/api/v1/admin/catalog/import", headers=admin)
    assert first.status_code == 200, first.text
    assert {k: v["created"] for k, v in first.json()["data"].items()} == {
        "contests": 60, "newsArticles": 120, "bookmarks": 45}
    async with engine.connect() as conn:
        rows = (await conn.execute(select(func.count()).select_from(outbox_events))).scalar_one()
    second = await api.post("/api/v1/admin/catalog/import", headers=admin)
    assert {k: v["unchanged"] for k, v in second.json()["data"].items()} == {
        "contests": 60, "newsArticles": 120, "bookmarks": 45}
    async with engine.connect() as conn:
        assert (await conn.execute(select(func.count()).select_from(outbox_events))).scalar_one() == rows
    assert (await api.get("/api/v1/admin/contests/c-0001", headers=admin)).json()["data"]["id"] == "c-0001"
