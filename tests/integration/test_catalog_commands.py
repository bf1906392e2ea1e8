"""The catalog command layer on the real MariaDB: versions, events in the outbox, idempotency, races."""

from __future__ import annotations

import asyncio
import json
import uuid
from pathlib import Path

import pytest
from sqlalchemy import func, select

from command_api.bootstrap import catalog_importer
from techai_shared.bookmark_store import BookmarkStore
from techai_shared.catalog import (
    BookmarkItemType,
    BookmarkPayload,
    ContestPayload,
    ContestStatus,
    NewsArticlePayload,
)
from techai_shared.catalog_store import Outcome, contest_store, news_store
from techai_shared.db.schema import outbox_events
from techai_shared.errors import BookmarkNotFound, Conflict, Forbidden, ItemNotFound
from techai_shared.events import EventEnvelope

pytestmark = pytest.mark.integration

SEED_DIR = Path(__file__).resolve().parents[2] / "infra" / "seed"


def contest(cid: str, **changes: object) -> ContestPayload:
    fields: dict[str, object] = {
        "id": cid, "title": "대학생 AI 해커톤", "description": "48시간 동안 LLM 에이전트를 만듭니다.",
        "start_date": "2026-12-01T09:00:00+09:00", "end_date": "2026-12-03T18:00:00+09:00",
        "status": ContestStatus.UPCOMING, "url": "https://example.kr/h", "source_name": "테크AI",
        "tags": ["ai", "hackathon"],
    }
    return ContestPayload.model_validate({**fields, **changes})


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
    store, cid = contest_store(engine), f"c-{uuid.uuid4().hex[:8]}"
    created = await store.upsert(contest(cid))
    updated = await store.upsert(contest(cid, description="설명이 바뀌었습니다."))
    deleted = await store.delete(cid)
    assert [r.outcome for r in (created, updated, deleted)] == [
        Outcome.CREATED, Outcome.UPDATED, Outcome.DELETED]
    events = await events_of(engine, cid)
    assert [(e.event_type.value, e.version) for e in events] == [
        ("ContestUpserted", 1), ("ContestUpserted", 2), ("ContestDeleted", 3)]
    states = [ContestPayload.model_validate(e.payload) for e in events]
    assert all(e.aggregate_type.value == "contest" and e.aggregate_id == cid for e in events)
    assert states[1].description == "설명이 바뀌었습니다." and states[1].tags == ["ai", "hackathon"]
    assert states[1].start_date == contest(cid).start_date  # stored in UTC, same instant
    assert states[2].deleted_at is not None and states[2].title == "대학생 AI 해커톤"
    assert set(events[0].payload) >= {"id", "title", "startDate", "sourceName", "createdAt"}
    with pytest.raises(ItemNotFound):
        await store.get(cid)


async def test_an_upsert_of_the_stored_state_changes_nothing(engine):
    store, cid = contest_store(engine), f"c-{uuid.uuid4().hex[:8]}"
    await store.upsert(contest(cid))
    before = await outbox_count(engine)
    again = await store.upsert(contest(cid, start_date="2026-12-01T00:00:00Z"))  # same instant
    assert again.outcome is Outcome.UNCHANGED and again.version == 1
    assert await outbox_count(engine) == before


async def test_a_deleted_id_created_again_continues_its_versions(engine):
    store, cid = contest_store(engine), f"c-{uuid.uuid4().hex[:8]}"
    await store.upsert(contest(cid))
    await store.delete(cid)
    with pytest.raises(ItemNotFound):
        await store.delete(cid)
    revived = await store.create(contest(cid, title="다시 열린 해커톤"))
    assert revived.outcome is Outcome.CREATED and revived.version == 3
    assert revived.item.deleted_at is None
    with pytest.raises(Conflict):
        await store.create(contest(cid))
    assert [e.version for e in await events_of(engine, cid)] == [1, 2, 3]


async def test_concurrent_writes_of_a_new_id_get_contiguous_versions(engine):
    store, cid = contest_store(engine), f"c-{uuid.uuid4().hex[:8]}"
    results = await asyncio.gather(*(store.upsert(contest(cid, title=f"제목 {i}")) for i in range(12)))
    assert sorted(r.version for r in results) == list(range(1, 13))
    assert [e.version for e in await events_of(engine, cid)] == list(range(1, 13))


async def test_news_content_longer_than_a_mysql_text_is_kept(engine):
    store, nid = news_store(engine), f"n-{uuid.uuid4().hex[:8]}"
    content = "한국어 기사 본문입니다. " * 8000  # ~100k characters, ~290 KB in UTF-8
    await store.upsert(NewsArticlePayload(id=nid, title="긴 기사", content=content,
                                          published_at="2026-11-01T09:00:00+09:00"))
    assert (await store.get(nid)).item.content == content  # type: ignore[attr-defined]


async def test_generated_ids_carry_the_kind_prefix(engine):
    result = await contest_store(engine).create(**contest("x").model_dump(exclude={"id"}))
    assert result.item.id.startswith("c-") and len(result.item.id) <= 64


async def seeded_contest(engine) -> str:
    cid = f"c-{uuid.uuid4().hex[:8]}"
    await contest_store(engine).upsert(contest(cid))
    return cid


async def test_bookmark_owner_rules(engine):
    store, cid = BookmarkStore(engine), await seeded_contest(engine)
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    mark = await store.create_for(owner, BookmarkItemType.CONTEST, cid, memo="팀 구해야 함")
    assert mark.item.item_title == "대학생 AI 해커톤"  # type: ignore[attr-defined]
    for write in (store.get_owned(mark.item.id, other),
                  store.update_owned(mark.item.id, other, {"tag": "x"}),
                  store.delete_owned(mark.item.id, other)):
        with pytest.raises(Forbidden):
            await write
    same = await store.update_owned(mark.item.id, owner, {"memo": "팀 구해야 함"})
    assert same.outcome is Outcome.UNCHANGED
    changed = await store.update_owned(mark.item.id, owner, {"tag": "관심"})
    assert changed.version == 2 and changed.item.memo == "팀 구해야 함"  # type: ignore[attr-defined]
    await store.delete_owned(mark.item.id, owner)
    with pytest.raises(BookmarkNotFound):
        await store.update_owned(mark.item.id, owner, {"tag": "y"})
    with pytest.raises(BookmarkNotFound):
        await store.get_owned(f"b-{uuid.uuid4().hex}", owner)
    events = await events_of(engine, mark.item.id)
    assert [(e.event_type.value, e.version) for e in events] == [
        ("BookmarkUpserted", 1), ("BookmarkUpserted", 2), ("BookmarkDeleted", 3)]
    assert all(BookmarkPayload.model_validate(e.payload).user_id == owner for e in events)


async def test_one_live_bookmark_per_user_and_item(engine):
    store, cid = BookmarkStore(engine), await seeded_contest(engine)
    user = uuid.uuid4().hex
    first = await store.create_for(user, BookmarkItemType.CONTEST, cid)
    with pytest.raises(Conflict) as conflict:
        await store.create_for(user, BookmarkItemType.CONTEST, cid)
    assert conflict.value.data == {"bookmarkId": first.item.id}
    await store.create_for(uuid.uuid4().hex, BookmarkItemType.CONTEST, cid)  # another user may
    await store.delete_owned(first.item.id, user)
    second = await store.create_for(user, BookmarkItemType.CONTEST, cid)  # after a delete, again
    assert second.item.id != first.item.id and second.version == 1
    with pytest.raises(ItemNotFound):
        await store.create_for(user, BookmarkItemType.NEWS_ARTICLE, "n-missing")
    marks, total = await store.list_owned(user, offset=0, limit=10)
    assert total == 1 and [m.item.id for m in marks] == [second.item.id]


async def test_seeding_twice_changes_nothing_and_keeps_public_ids(engine):
    lines: list[str] = []
    importer = catalog_importer(contest_store(engine), news_store(engine), BookmarkStore(engine),
                                report=lines.append)
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
    assert (await contest_store(engine).get("c-0001")).version == 1
    b1 = json.loads((SEED_DIR / "bookmarks.jsonl").read_text(encoding="utf-8").splitlines()[0])
    mark = await BookmarkStore(engine).get_owned("b-0001", b1["userId"])
    assert mark.item.item_id == b1["itemId"]  # type: ignore[attr-defined]
