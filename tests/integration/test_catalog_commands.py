"""The catalog use cases on the real MariaDB, each write a unit of work: versions, events in the
outbox, idempotency, races."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from command_api.bootstrap import unit_of_work
from command_api.domain.catalog import Outcome
from command_api.service_layer.bookmarks import BookmarkService
from command_api.service_layer.catalog import CatalogService
from command_api.service_layer.catalog_import import CatalogImporter
from techai_shared.db.schema import outbox_events
from techai_shared.errors import BookmarkNotFound, Conflict, Forbidden, ItemNotFound
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.events.catalog import (
    BookmarkItemType,
    BookmarkPayload,
    ContestPayload,
    ContestStatus,
    NewsArticlePayload,
)

pytestmark = pytest.mark.integration

SEED_DIR = Path(__file__).resolve().parents[2] / "infra" / "seed"
CONTEST, NEWS = AggregateType.CONTEST, AggregateType.NEWS


def contest(**changes: object) -> dict[str, object]:
    """A contest's fields, as the routes hand them to the catalog service."""
    fields: dict[str, object] = {
        "title": "대학생 AI 해커톤", "description": "48시간 동안 LLM 에이전트를 만듭니다.",
        "start_date": "2099-12-01T09:00:00+09:00", "end_date": "2099-12-03T18:00:00+09:00",
        "status": ContestStatus.UPCOMING, "url": "https://example.kr/h", "source_name": "테크AI",
        "tags": ["ai", "hackathon"],
    }
    return {**fields, **changes}


def catalog_service(engine) -> CatalogService:
    return CatalogService(unit_of_work(engine))


def bookmark_service(engine) -> BookmarkService:
    return BookmarkService(unit_of_work(engine))


async def events_of(engine, aggregate_id: str) -> list[EventEnvelope]:
    async with engine.connect() as conn:
        rows = (await conn.execute(
            select(outbox_events.c.body).where(outbox_events.c.aggregate_id == aggregate_id)
            .order_by(outbox_events.c.id)
        )).scalars().all()
    return [EventEnvelope.from_json(body) for body in rows]


async def outbox_count(engine) -> int:
    async with engine.connect() as conn:
        return int((await conn.execute(select(func.count()).select_from(outbox_events))).scalar_one())


async def test_create_update_delete_emit_versions_1_2_3_with_full_state(engine):
    catalog, cid = catalog_service(engine), f"c-{uuid.uuid4().hex[:8]}"
    created = await catalog.put(CONTEST, cid, contest())
    updated = await catalog.put(CONTEST, cid, contest(description="설명이 바뀌었습니다."))
    deleted = await catalog.delete(CONTEST, cid)
    assert [r.outcome for r in (created, updated, deleted)] == [
        Outcome.CREATED, Outcome.UPDATED, Outcome.DELETED]
    events = await events_of(engine, cid)
    assert [(e.event_type.value, e.version) for e in events] == [
        ("ContestUpserted", 1), ("ContestUpserted", 2), ("ContestDeleted", 3)]
    states = [ContestPayload.model_validate(e.payload) for e in events]
    assert all(e.aggregate_type.value == "contest" and e.aggregate_id == cid for e in events)
    assert states[1].description == "설명이 바뀌었습니다." and states[1].tags == ["ai", "hackathon"]
    given = ContestPayload.model_validate({"id": cid, **contest()})
    assert states[1].start_date == given.start_date  # stored in UTC, same instant
    assert states[2].deleted_at is not None and states[2].title == "대학생 AI 해커톤"
    assert set(events[0].payload) >= {"id", "title", "startDate", "sourceName", "createdAt"}
    with pytest.raises(ItemNotFound):
        await catalog.get(CONTEST, cid)


async def test_an_upsert_of_the_stored_state_changes_nothing(engine):
    catalog, cid = catalog_service(engine), f"c-{uuid.uuid4().hex[:8]}"
    await catalog.put(CONTEST, cid, contest())
    before = await outbox_count(engine)
    again = await catalog.put(CONTEST, cid, contest(start_date="2099-12-01T00:00:00Z"))  # same instant
    assert again.outcome is Outcome.UNCHANGED and again.version == 1
    assert await outbox_count(engine) == before


async def test_a_deleted_id_created_again_continues_its_versions(engine):
    catalog, cid = catalog_service(engine), f"c-{uuid.uuid4().hex[:8]}"
    await catalog.put(CONTEST, cid, contest())
    await catalog.delete(CONTEST, cid)
    with pytest.raises(ItemNotFound):
        await catalog.delete(CONTEST, cid)
    revived = await catalog.create(CONTEST, contest(title="다시 열린 해커톤"), cid)
    assert revived.outcome is Outcome.CREATED and revived.version == 3
    assert revived.item.deleted_at is None
    with pytest.raises(Conflict):
        await catalog.create(CONTEST, contest(), cid)
    assert [e.version for e in await events_of(engine, cid)] == [1, 2, 3]


async def test_concurrent_writes_of_a_new_id_get_contiguous_versions(engine):
    catalog, cid = catalog_service(engine), f"c-{uuid.uuid4().hex[:8]}"
    results = await asyncio.gather(*(catalog.put(CONTEST, cid, contest(title=f"제목 {i}"))
                                     for i in range(12)))
    assert sorted(r.version for r in results) == list(range(1, 13))
    assert [e.version for e in await events_of(engine, cid)] == list(range(1, 13))


async def test_news_content_longer_than_a_mysql_text_is_kept(engine):
    catalog, nid = catalog_service(engine), f"n-{uuid.uuid4().hex[:8]}"
    content = "한국어 기사 본문입니다. " * 8000  # ~100k characters, ~290 KB in UTF-8
    await catalog.put(NEWS, nid, {"title": "긴 기사", "content": content,
                                  "published_at": "2026-11-01T09:00:00+09:00"})
    item = (await catalog.get(NEWS, nid)).item
    assert isinstance(item, NewsArticlePayload) and item.content == content


async def test_generated_ids_carry_the_kind_prefix(engine):
    result = await catalog_service(engine).create(CONTEST, contest())
    assert result.item.id.startswith("c-") and len(result.item.id) <= 64


async def seeded_contest(engine) -> str:
    cid = f"c-{uuid.uuid4().hex[:8]}"
    await catalog_service(engine).put(CONTEST, cid, contest())
    return cid


async def test_bookmark_owner_rules(engine):
    bookmarks, cid = bookmark_service(engine), await seeded_contest(engine)
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    mark = await bookmarks.create(owner, BookmarkItemType.CONTEST, cid, memo="팀 구해야 함")
    assert mark.item.item_title == "대학생 AI 해커톤"  # type: ignore[attr-defined]
    for write in (bookmarks.get(mark.item.id, other),
                  bookmarks.update(mark.item.id, other, {"tag": "x"}),
                  bookmarks.delete(mark.item.id, other)):
        with pytest.raises(Forbidden):
            await write
    same = await bookmarks.update(mark.item.id, owner, {"memo": "팀 구해야 함"})
    assert same.outcome is Outcome.UNCHANGED
    changed = await bookmarks.update(mark.item.id, owner, {"tag": "관심"})
    assert changed.version == 2 and changed.item.memo == "팀 구해야 함"  # type: ignore[attr-defined]
    await bookmarks.delete(mark.item.id, owner)
    with pytest.raises(BookmarkNotFound):
        await bookmarks.update(mark.item.id, owner, {"tag": "y"})
    with pytest.raises(BookmarkNotFound):
        await bookmarks.get(f"b-{uuid.uuid4().hex}", owner)
    events = await events_of(engine, mark.item.id)
    assert [(e.event_type.value, e.version) for e in events] == [
        ("BookmarkUpserted", 1), ("BookmarkUpserted", 2), ("BookmarkDeleted", 3)]
    assert all(BookmarkPayload.model_validate(e.payload).user_id == owner for e in events)


async def test_one_live_bookmark_per_user_and_item(engine):
    bookmarks, cid = bookmark_service(engine), await seeded_contest(engine)
    user = uuid.uuid4().hex
    first = await bookmarks.create(user, BookmarkItemType.CONTEST, cid)
    with pytest.raises(Conflict) as conflict:
        await bookmarks.create(user, BookmarkItemType.CONTEST, cid)
    assert conflict.value.data == {"bookmarkId": first.item.id}
    await bookmarks.create(uuid.uuid4().hex, BookmarkItemType.CONTEST, cid)  # another user may
    await bookmarks.delete(first.item.id, user)
    second = await bookmarks.create(user, BookmarkItemType.CONTEST, cid)  # after a delete, again
    assert second.item.id != first.item.id and second.version == 1
    with pytest.raises(ItemNotFound):
        await bookmarks.create(user, BookmarkItemType.NEWS_ARTICLE, "n-missing")
    marks, total = await bookmarks.list_bookmarks(user, offset=0, limit=10)
    assert total == 1 and [m.item.id for m in marks] == [second.item.id]


async def test_seeding_twice_changes_nothing_and_keeps_public_ids(engine):
    lines: list[str] = []
    importer = CatalogImporter(unit_of_work(engine), report=lines.append)
    first = await importer.import_dir(SEED_DIR)
    assert {k: (c.created, c.failed) for k, c in first.items()} == {
        "contests": (60, 0), "newsArticles": (120, 0), "bookmarks": (45, 0)}
    assert "contests: 20 items ..." in lines
    rows = await outbox_count(engine)
    assert rows == 225
    second = await importer.import_dir(SEED_DIR)
    assert {k: c.unchanged for k, c in second.items()} == {
        "contests": 60, "newsArticles": 120, "bookmarks": 45}
    assert all(c.created == c.updated == c.failed == 0 for c in second.values())
    assert await outbox_count(engine) == rows
    assert (await catalog_service(engine).get(CONTEST, "c-0001")).version == 1
    b1 = json.loads((SEED_DIR / "bookmarks.jsonl").read_text(encoding="utf-8").splitlines()[0])
    mark = await bookmark_service(engine).get("b-0001", b1["userId"])
    assert mark.item.item_id == b1["itemId"]  # type: ignore[attr-defined]
