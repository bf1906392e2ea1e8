"""The session lifecycle jobs on real servers with an injected clock: what changes in the command
store, that each change reaches MongoDB, and that a new message brings a session back."""

from __future__ import annotations

from datetime import timedelta

import pytest
from sqlalchemy import select

from techai_shared.db.schema import conversation_sessions, outbox_events
from techai_shared.errors import SessionNotFound
from tests.conftest import eventually, unique
from tests.integration.ops_pipeline import minutes, pipeline

pytestmark = pytest.mark.integration


async def _row(engine, session_id):
    async with engine.connect() as conn:
        return (await conn.execute(select(conversation_sessions).where(
            conversation_sessions.c.session_id == session_id))).one()


async def test_idle_session_is_deactivated_at_30_minutes_not_29_and_a_message_reactivates_it(settings):
    async with pipeline(settings) as p:
        t0 = p.clock()
        user = unique("u-")
        idle = (await p.exchange(user, None, "해커톤 있어?", t0)).session
        newer = (await p.exchange(user, None, "뉴스 알려줘", t0 + minutes(1))).session

        p.clock.set(t0 + minutes(30) - timedelta(seconds=1))
        early = await p.ops.runner.run_manual("deactivate-idle-sessions")
        assert (early.status, early.rows_affected) == ("succeeded", 0)
        assert (await _row(p.engine, idle.session_id)).is_active

        p.clock.set(t0 + minutes(30))
        due = await p.ops.runner.run_manual("deactivate-idle-sessions")
        assert (due.status, due.rows_affected) == ("succeeded", 1)
        row = await _row(p.engine, idle.session_id)
        assert not row.is_active and row.version == idle.version + 1
        assert (await _row(p.engine, newer.session_id)).is_active  # 29 minutes idle: untouched

        async def projected_inactive():
            doc = await p.session_doc(idle.session_id)
            return doc is not None and doc["version"] == row.version and doc["is_active"] is False

        await eventually(projected_inactive, within=20)

        again = await p.ops.runner.run_manual("deactivate-idle-sessions")
        assert again.rows_affected == 0  # repeating the job changes nothing

        back = await p.exchange(user, idle.session_id, "그거 마감은?", t0 + minutes(31))
        assert back.session.is_active and back.session.message_count == 4

        async def projected_active():
            doc = await p.session_doc(idle.session_id)
            return (doc is not None and doc["is_active"] is True and doc["message_count"] == 4
                    and await p.message_count(idle.session_id) == 4)

        await eventually(projected_active, within=20)


async def test_session_idle_for_90_days_is_expired_and_removed_from_the_read_model(settings):
    async with pipeline(settings) as p:
        t0 = p.clock()
        user = unique("u-")
        old = (await p.exchange(user, None, "오래된 대화", t0)).session
        recent = (await p.exchange(user, None, "최근 대화", t0 + timedelta(days=1))).session
        await eventually(lambda: p.message_count(old.session_id), within=20)

        p.clock.set(t0 + timedelta(days=90) - timedelta(seconds=1))
        assert (await p.ops.runner.run_manual("expire-sessions")).rows_affected == 0

        p.clock.set(t0 + timedelta(days=90))
        run = await p.ops.runner.run_manual("expire-sessions")
        assert (run.status, run.rows_affected) == ("succeeded", 1)
        row = await _row(p.engine, old.session_id)
        assert row.deleted_at == p.clock() and row.expired_at == p.clock() and not row.is_active
        with pytest.raises(SessionNotFound):
            await p.store.get_owned(old.session_id, user)
        assert (await p.store.get_owned(recent.session_id, user)).is_active

        async def gone_from_read_model():
            doc = await p.session_doc(old.session_id)
            return (doc is not None and doc["is_deleted"] is True and doc["version"] == row.version
                    and await p.message_count(old.session_id) == 0)

        await eventually(gone_from_read_model, within=20)
        listed = await p.db["conversation_sessions"].count_documents(
            {"user_id": user, "is_deleted": {"$ne": True}})
        assert listed == 1  # what chatbot-api's history lists: only the recent session


async def test_purge_outbox_deletes_only_published_rows_older_than_the_retention(settings):
    async with pipeline(settings, command_job_batch_size=3) as p:
        t0 = p.clock()
        for i in range(4):
            await p.exchange(unique("u-"), None, f"메시지 {i}", t0)
        await eventually(p.drained, within=20)
        async with p.engine.connect() as conn:
            total = len((await conn.execute(select(outbox_events.c.id))).all())
        assert total == 16  # 4 events per new session with its first exchange

        p.clock.set(t0 + timedelta(days=7) - timedelta(minutes=1))
        assert (await p.ops.runner.run_manual("purge-outbox")).rows_affected == 0
        p.clock.set(t0 + timedelta(days=7, minutes=1))
        run = await p.ops.runner.run_manual("purge-outbox")
        assert (run.status, run.rows_affected) == ("succeeded", 16)  # in batches of 3
        async with p.engine.connect() as conn:
            assert (await conn.execute(select(outbox_events.c.id))).all() == []
