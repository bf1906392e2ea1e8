"""reconcile-projections repairs what the read model lost; a rebuild from an emptied read model
reproduces every document (conversations and catalog)."""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from command_api.service_layer.bookmarks import BookmarkService
from command_api.service_layer.catalog import CatalogService, repository
from query_sync.adapters.catalog import TOMBSTONES
from query_sync.catalog_documents import CATALOG_KINDS
from techai_shared.conversation.model import SessionState
from techai_shared.events import AggregateType
from techai_shared.events.catalog import BookmarkItemType
from tests.conftest import eventually, unique
from tests.integration.ops_pipeline import Pipeline, minutes, pipeline
from tests.support.catalog import seed_items

pytestmark = pytest.mark.integration

# Fields that record when a write happened, not what was written: `_id` (MongoDB's own per-insert
# id), `updated_at` and `event_occurred_at` of a session (the projection's write time and the
# time of the event applied last: a republished snapshot is a new event), and `projected_at` of a
# catalog item or tombstone. Everything else must come back exactly.
PER_WRITE = {
    "conversation_sessions": {"_id", "updated_at", "event_occurred_at"},
    "conversation_messages": {"_id"},
    "contests": {"_id", "projected_at"},
    "news_articles": {"_id", "projected_at"},
    "bookmarks": {"_id", "projected_at"},
    "catalog_tombstones": {"_id", "projected_at"},
}
KEYS = {"conversation_sessions": "session_id", "conversation_messages": "message_id"}


async def _snapshot(p: Pipeline) -> dict[str, list[dict[str, Any]]]:
    snapshot = {}
    for name, ignored in PER_WRITE.items():
        docs = [{k: v for k, v in doc.items() if k not in ignored}
                async for doc in p.db[name].find({})]
        key = KEYS.get(name, "document_id")
        snapshot[name] = sorted(docs, key=lambda d: (str(d.get("collection")), d[key]))
    return snapshot


async def _catalog_expected(p: Pipeline) -> dict[str, dict[Any, int]]:
    """The catalog the read model must hold, from the command store: each live item's document
    (id -> version) and each deleted item's tombstone ((collection, id) -> version)."""
    expected: dict[str, dict[Any, int]] = {TOMBSTONES: {}}
    async with p.uow() as uow:
        for kind in CATALOG_KINDS:
            documents = expected[kind.collection] = {}
            for event in await repository(uow, kind.aggregate_type).snapshot_events("", 1000):
                if event.event_type is kind.deleted:
                    expected[TOMBSTONES][(kind.collection, event.aggregate_id)] = event.version
                else:
                    documents[event.aggregate_id] = event.version
    return expected


def _catalog_held(snapshot: dict[str, list[dict[str, Any]]]) -> dict[str, dict[Any, int]]:
    """The same for a snapshot of the read model."""
    held: dict[str, dict[Any, int]] = {
        TOMBSTONES: {(d["collection"], d["document_id"]): d["version"] for d in snapshot[TOMBSTONES]}}
    for kind in CATALOG_KINDS:
        held[kind.collection] = {d["document_id"]: d["version"] for d in snapshot[kind.collection]}
    return held


async def _in_sync(p: Pipeline, sessions: list[SessionState]) -> bool:
    for s in sessions:
        fresh = await p.session_row(s.session_id)
        doc = await p.session_doc(s.session_id)
        if doc is None or doc["version"] != fresh.version:
            return False
        expected = 0 if fresh.deleted_at else fresh.message_count
        if await p.message_count(s.session_id) != expected:
            return False
    return await p.drained()


async def test_reconcile_repairs_a_deleted_session_document_and_a_missing_message(settings):
    async with pipeline(settings) as p:
        t0 = p.clock()
        user = unique("u-")
        lost = (await p.exchange(user, None, "사라질 세션", t0)).session
        short = (await p.exchange(user, None, "메시지 하나 잃을 세션", t0)).session
        short = (await p.exchange(user, short.session_id, "두 번째", t0)).session
        fine = (await p.exchange(user, None, "멀쩡한 세션", t0)).session
        await eventually(lambda: _in_sync(p, [lost, short, fine]), within=20)
        before = await _snapshot(p)

        await p.db["conversation_sessions"].delete_one({"session_id": lost.session_id})
        dropped = await p.db["conversation_messages"].find_one_and_delete(
            {"session_id": short.session_id, "sequence_number": 3})
        assert dropped is not None

        p.clock.set(t0 + minutes(2))  # past the grace period, inside the window
        run = await p.ops.runner.run_manual("reconcile-projections")
        assert (run.status, run.rows_affected) == ("succeeded", 2)  # `fine` was left alone

        async def repaired():
            return await _snapshot(p) == before

        await eventually(repaired, within=20)
        assert (await p.ops.runner.run_manual("reconcile-projections")).rows_affected == 0


async def test_rebuild_from_an_emptied_read_model_reproduces_the_documents(settings):
    async with pipeline(settings) as p:
        t0 = p.clock()
        user = unique("u-")
        kept = (await p.exchange(user, None, "첫 질문", t0)).session
        kept = (await p.exchange(user, kept.session_id, "두 번째 질문", t0 + minutes(1))).session
        renamed = (await p.exchange(user, None, "이름 바꿀 세션", t0)).session
        renamed = await p.store.rename(renamed.session_id, user, "새 제목")
        deleted = (await p.exchange(user, None, "지울 세션", t0)).session
        deleted = await p.store.delete(deleted.session_id, user, t0 + minutes(2))
        p.clock.set(t0 + minutes(40))
        assert (await p.ops.runner.run_manual("deactivate-idle-sessions")).rows_affected == 2

        catalog, bookmarks = CatalogService(p.uow), BookmarkService(p.uow)
        contest_ids = [await _create(catalog, AggregateType.CONTEST, item)
                       for item in seed_items(AggregateType.CONTEST)[:3]]
        news_id = await _create(catalog, AggregateType.NEWS, seed_items(AggregateType.NEWS)[0])
        await catalog.delete(AggregateType.CONTEST, contest_ids[2])
        await bookmarks.create(user, BookmarkItemType.CONTEST, contest_ids[0], tag="관심",
                               memo="신청하기")

        sessions = [kept, renamed, deleted]
        catalog_expected = await _catalog_expected(p)
        assert catalog_expected[TOMBSTONES] == {("contests", contest_ids[2]): 2}

        async def settled():
            # The sessions are checked before the snapshot is taken: checked after, a snapshot
            # taken just before the last conversation events were applied passed for settled, and
            # the rebuilt read model (complete) could never equal it.
            if not await _in_sync(p, sessions):
                return None
            snap = await _snapshot(p)
            # The catalog by ids and versions, not by counts: the contests' partitions are
            # projected in no order among themselves, and the snapshot reads `contests` before
            # `catalog_tombstones`, so "two contests, one tombstone" once passed with the first
            # contest not projected yet and the third read before the projector removed it (its
            # tombstone is written first). Documents are a function of id and version, and a
            # collection at its final versions stays so: a match is the final read model.
            return _catalog_held(snap) == catalog_expected and snap

        before = await eventually(settled, within=60)
        assert before["news_articles"][0]["document_id"] == news_id

        counts = await p.ops.republisher.rebuild(batch=2, report=lambda _: None)
        assert counts.emptied["conversation_sessions"] == 3 and counts.emptied["contests"] == 2
        assert (counts.sessions, counts.messages) == (3, 6)  # the deleted session's are gone
        assert counts.catalog == {"contest": 3, "news": 1, "bookmark": 1}

        async def rebuilt():
            return await p.drained() and await _snapshot(p) == before

        try:
            await eventually(rebuilt, within=60)
        except AssertionError:  # say which collection differs, not only that one does
            after = await _snapshot(p)
            differ = {name: {"before": before[name], "after": after[name]}
                      for name in before if before[name] != after[name]}
            raise AssertionError(f"rebuilt read model differs (outbox drained: "
                                 f"{await p.drained()}): {differ}") from None

        # The worker's /metrics exposes the consumer lag per partition and the projection lag
        # (the lag gauge is set on the consumer's next pass after the rebuild: polled for it).
        topic = p.settings.topic("conversation")

        async def lag_exposed() -> bool:
            async with httpx.AsyncClient() as client:
                metrics = (await client.get(
                    f"http://127.0.0.1:{p.worker.health.port}/metrics")).text
            assert f'sync_consumer_lag{{partition="0",topic="{topic}"}}' in metrics
            assert f'sync_projection_lag_seconds_bucket{{le="0.01",topic="{topic}"}}' in metrics
            return True

        await eventually(lag_exposed, within=30)


async def _create(catalog: CatalogService, kind: AggregateType, item: dict[str, Any]) -> str:
    fields = {k: v for k, v in item.items() if k not in ("id", "createdAt", "updatedAt", "deletedAt")}
    result = await catalog.create(kind, fields, item["id"])
    return str(result.item.id)
