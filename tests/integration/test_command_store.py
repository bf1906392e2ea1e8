"""The conversation command layer on MariaDB: atomic exchanges, contiguous sequences, outbox rows."""

from __future__ import annotations

import asyncio
import uuid

import pytest
from sqlalchemy import select

from techai_shared.clock import utcnow
from techai_shared.conversation.model import NewMessage
from techai_shared.db.schema import conversation_messages, outbox_events
from techai_shared.errors import Forbidden, SessionNotFound
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration


def _pair(text: str) -> tuple[NewMessage, NewMessage]:
    return NewMessage("user", text, 3), NewMessage("assistant", f"answer to {text}", 4)


async def test_concurrent_exchanges_get_contiguous_sequence_numbers(engine):
    store = Conversations(engine)
    user = uuid.uuid4().hex
    first = await store.append_exchange(user, None, *_pair("hello"), utcnow())
    sid = first.session.session_id
    await asyncio.gather(
        *(store.append_exchange(user, sid, *_pair(f"q{i}"), utcnow()) for i in range(19))
    )
    msgs = await store.messages(sid)
    assert [m.sequence_number for m in msgs] == list(range(1, 41))
    session = await store.get_owned(sid, user)
    assert session.message_count == 40
    async with engine.connect() as conn:
        versions = (
            await conn.execute(
                select(outbox_events.c.version)
                .where(outbox_events.c.aggregate_id == sid)
                .order_by(outbox_events.c.id)
            )
        ).scalars().all()
    # one Created, then per exchange two messages and one Updated: versions 1..58 in commit order
    assert list(versions) == list(range(1, 1 + 1 + 20 * 3))


async def test_other_users_session_is_forbidden_and_deleted_is_not_found(engine):
    store = Conversations(engine)
    owner, other = uuid.uuid4().hex, uuid.uuid4().hex
    sid = (await store.append_exchange(owner, None, *_pair("mine"), utcnow())).session.session_id
    with pytest.raises(Forbidden):
        await store.append_exchange(other, sid, *_pair("theirs"), utcnow())
    with pytest.raises(Forbidden):
        await store.rename(sid, other, "x")
    await store.delete(sid, owner, utcnow())
    with pytest.raises(SessionNotFound):
        await store.get_owned(sid, owner)
    with pytest.raises(SessionNotFound):
        await store.append_exchange(owner, sid, *_pair("again"), utcnow())
    async with engine.connect() as conn:
        count = len((await conn.execute(
            select(conversation_messages.c.message_id)
            .where(conversation_messages.c.session_id == sid))).all())
    assert count == 2  # the refused writes stored nothing


async def test_concurrent_turns_from_one_read_state_stay_contiguous_and_exact(engine):
    """Turns that all read the session at the same version (as chat requests do before their model
    call) and then append with it: one takes the single-UPDATE path, the others find the version
    moved and read the row back. Either way the returned state is the row's, and sequences stay 1..n."""
    store = Conversations(engine)
    user = uuid.uuid4().hex
    sid = (await store.append_exchange(user, None, *_pair("hello"), utcnow())).session.session_id
    read, history = await store.get_owned_with_recent(sid, user, 10)
    assert [m.role for m in history] == ["user", "assistant"] and history[1].content == "answer to hello"
    exchanges = await asyncio.gather(
        *(store.append_exchange(user, sid, *_pair(f"q{i}"), utcnow(), known=read.state) for i in range(8))
    )
    assert sorted(e.session.message_count for e in exchanges) == list(range(4, 20, 2))
    assert [m.sequence_number for m in await store.messages(sid)] == list(range(1, 19))
    final, _ = await store.get_owned_with_recent(sid, user, 0)
    newest = max(exchanges, key=lambda e: e.session.version)
    assert newest.session == final.state  # the state an exchange reports is exactly the stored row

    renamed = await store.rename(sid, user, "renamed")  # the version moves under a stale read
    after = await store.append_exchange(user, sid, *_pair("late"), utcnow(), known=final.state)
    assert after.session.title == "renamed" and after.session.version == renamed.version + 3
    assert after.session == (await store.get_owned_with_recent(sid, user, 0))[0].state


async def test_a_session_row_without_a_path_reads_as_its_messages_in_order(engine):
    """A row an older version wrote (no path, during a rolling upgrade) is a linear conversation:
    its history is its messages in sequence order and the next exchange follows the last one."""
    from sqlalchemy import update

    from techai_shared.db.schema import conversation_sessions

    store = Conversations(engine)
    user = uuid.uuid4().hex
    sid = (await store.append_exchange(user, None, *_pair("one"), utcnow())).session.session_id
    await store.append_exchange(user, sid, *_pair("two"), utcnow())
    async with engine.begin() as conn:
        await conn.execute(update(conversation_sessions)
                           .where(conversation_sessions.c.session_id == sid).values(path=None))
    session, history = await store.get_owned_with_recent(sid, user, 10)
    assert [m.content for m in history] == ["one", "answer to one", "two", "answer to two"]
    third = await store.append_exchange(user, sid, *_pair("three"), utcnow())
    assert third.user_message.parent_message_id == session.state.path[-1]
    assert third.session.message_count == 6 and len(third.session.path) == 6
