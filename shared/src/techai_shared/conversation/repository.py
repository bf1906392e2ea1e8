"""The conversation aggregate on the command store: sessions, their messages and their events.

`save` writes a changed session with one conditional statement: an INSERT for a new session, or
an UPDATE ... WHERE version = <the version it was loaded at>. If another writer changed the row
since (a concurrent turn, a rename), the UPDATE matches nothing and `ConcurrentChange` is raised;
the caller reloads the session with `for_update=True` (which takes the row lock: MySQL's
SELECT ... FOR UPDATE, SQLite's write lock of BEGIN IMMEDIATE) and applies its change again
(conversation.exchange.append_exchange does this for a chat turn). The
messages and the outbox rows of the session's events go in the same transaction, so sequence
numbers stay contiguous and every version reaches the outbox exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from datetime import datetime
from typing import Any

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from techai_shared.conversation.events import to_envelope
from techai_shared.conversation.model import (
    ConcurrentChange,
    HistoryMessage,
    MessageAdded,
    Session,
    SessionState,
    StoredMessage,
)
from techai_shared.conversation.tree import Node, Tree
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.db.unit_of_work import Outbox
from techai_shared.errors import SessionNotFound

# The statements of every chat turn, built once: only their values change from turn to turn, and
# building SQLAlchemy expressions per call was a tenth of chatbot-api's CPU under load (make bench).
_SESSION_BY_ID = select(sessions_t).where(sessions_t.c.session_id == bindparam("p_session_id"))
_SESSION_FOR_UPDATE = _SESSION_BY_ID.with_for_update()
_PATH_MESSAGES = (
    select(messages_t.c.message_id, messages_t.c.role, messages_t.c.content, messages_t.c.sources)
    .where(messages_t.c.session_id == bindparam("p_session_id"),
           messages_t.c.message_id.in_(bindparam("p_ids", expanding=True)))
)
_TREE = (select(messages_t.c.message_id, messages_t.c.parent_message_id, messages_t.c.role,
                messages_t.c.version, messages_t.c.sequence_number)
         .where(messages_t.c.session_id == bindparam("p_session_id")))
_STATE_COLUMNS = ("title", "last_message_at", "is_active", "message_count", "version",
                  "deleted_at", "expired_at", "path")
_SAVE_IF_UNCHANGED = (
    update(sessions_t)
    .where(sessions_t.c.session_id == bindparam("p_session_id"),
           sessions_t.c.version == bindparam("p_loaded_version"))
    .values({name: bindparam(f"p_{name}") for name in _STATE_COLUMNS})
)
_INSERT_SESSION = insert(sessions_t)
_SET_THREAD_KEY = (update(sessions_t).where(sessions_t.c.session_id == bindparam("p_session_id"))
                   .values(thread_key=bindparam("p_thread_key")))
_SESSION_OF_THREAD = (
    select(sessions_t.c.session_id)
    .where(sessions_t.c.user_id == bindparam("p_user_id"),
           sessions_t.c.thread_key == bindparam("p_thread_key"),
           sessions_t.c.deleted_at.is_(None))
    .order_by(sessions_t.c.last_message_at.desc())
    .limit(1)
)
_INSERT_MESSAGES = insert(messages_t)


def _state(row: Row[Any]) -> SessionState:
    return SessionState(
        session_id=row.session_id, user_id=row.user_id, title=row.title, created_at=row.created_at,
        last_message_at=row.last_message_at, is_active=bool(row.is_active),
        message_count=row.message_count, version=row.version, deleted_at=row.deleted_at,
        expired_at=row.expired_at, path=tuple(row.path or ()),
    )


def _message(row: Row[Any]) -> StoredMessage:
    return StoredMessage(
        message_id=row.message_id, session_id=row.session_id, role=row.role, content=row.content,
        sequence_number=row.sequence_number, token_count=row.token_count,
        sources=list(row.sources or []), created_at=row.created_at, version=row.version,
        parent_message_id=row.parent_message_id,
    )


class SessionRepository:
    """Loads and saves `Session`s on the unit of work's connection."""

    def __init__(self, conn: AsyncConnection, outbox: Outbox) -> None:
        self._conn = conn
        self._outbox = outbox

    # -- the aggregate ----------------------------------------------------------------------

    async def get(self, session_id: str, *, for_update: bool = False) -> Session | None:
        """The session, deleted or not, or None."""
        statement = _SESSION_FOR_UPDATE if for_update else _SESSION_BY_ID
        row = (await self._conn.execute(statement, {"p_session_id": session_id})).first()
        if row is None:
            return None
        return Session(await self._with_path(_state(row)), thread_key=row.thread_key)

    async def _with_path(self, state: SessionState) -> SessionState:
        """The state with its path: a row written without one (by a version before the message
        tree, during a rolling upgrade) has its messages in sequence order as its path."""
        if state.path or not state.message_count:
            return state
        ids: Sequence[str] = (await self._conn.execute(
            select(messages_t.c.message_id).where(messages_t.c.session_id == state.session_id)
            .order_by(messages_t.c.sequence_number))).scalars().all()
        return replace(state, path=tuple(ids))

    async def get_owned(self, session_id: str, user_id: str, *, for_update: bool = False) -> Session:
        """The caller's live session, or SessionNotFound (missing, deleted) or Forbidden."""
        session = await self.get(session_id, for_update=for_update)
        if session is None:
            raise SessionNotFound(f"session {session_id} not found")
        session.check_owner(user_id)
        return session

    async def get_owned_with_recent(self, session_id: str, user_id: str, count: int
                                    ) -> tuple[Session, list[HistoryMessage]]:
        """The caller's live session and the newest `count` messages of its current path, in
        order, read in one transaction, so the messages are exactly those the session row names."""
        session = await self.get_owned(session_id, user_id)
        path = session.state.path
        return session, await self.history(session_id, path[max(0, len(path) - count):] if count > 0
                                           else ())

    async def history(self, session_id: str, ids: Sequence[str]) -> list[HistoryMessage]:
        """The messages with these ids (a stretch of a path), in that order."""
        if not ids:
            return []
        rows = {r.message_id: r for r in (await self._conn.execute(_PATH_MESSAGES, {
            "p_session_id": session_id, "p_ids": list(ids)})).all()}
        return [HistoryMessage(r.role, r.content, r.sources) for i in ids if (r := rows.get(i))]

    async def tree(self, session_id: str) -> Tree:
        """The shape of the session's message tree (ids, parents, roles; no contents)."""
        rows = (await self._conn.execute(_TREE, {"p_session_id": session_id})).all()
        return Tree(Node(r.message_id, r.parent_message_id, r.role,
                         r.version if r.version is not None else r.sequence_number) for r in rows)

    async def save(self, session: Session) -> None:
        """Write the session's state, its new messages and the outbox rows of its events."""
        if not session.events:
            return
        s = session.state
        if session.is_new:
            await self._conn.execute(_INSERT_SESSION, {
                "session_id": s.session_id, "user_id": s.user_id, "created_at": s.created_at,
                **{name: getattr(s, name) for name in _STATE_COLUMNS}})
        else:
            result = await self._conn.execute(_SAVE_IF_UNCHANGED, {
                "p_session_id": s.session_id, "p_loaded_version": session.persisted_version,
                **{f"p_{name}": getattr(s, name) for name in _STATE_COLUMNS}})
            if result.rowcount != 1:
                raise ConcurrentChange(f"session {s.session_id} changed since it was read")
        added = [e.message for e in session.events if isinstance(e, MessageAdded)]
        if added:
            await self._conn.execute(_INSERT_MESSAGES, [{
                "message_id": m.message_id, "session_id": m.session_id, "role": m.role,
                "content": m.content, "sequence_number": m.sequence_number,
                "token_count": m.token_count, "sources": m.sources or None,
                "created_at": m.created_at, "version": m.version,
                "parent_message_id": m.parent_message_id} for m in added])
        await self._outbox.add([to_envelope(e) for e in session.events])
        session.events.clear()
        session.persisted_version = s.version

    async def set_thread_key(self, session_id: str, key: str | None) -> None:
        """Record the transcript key of the session's latest exchange (see Session.thread_key)."""
        await self._conn.execute(_SET_THREAD_KEY, {"p_session_id": session_id, "p_thread_key": key})

    # -- reads -------------------------------------------------------------------------------

    async def session_of_thread(self, user_id: str, key: str) -> str | None:
        """The user's live session whose latest exchange ends the transcript with this key (the
        most recent one if several do), or None."""
        row = (await self._conn.execute(_SESSION_OF_THREAD, {
            "p_user_id": user_id, "p_thread_key": key})).first()
        return row.session_id if row is not None else None

    async def messages(
        self, session_id: str, *, offset: int = 0, limit: int = 1000,
        ids: Sequence[str] | None = None,
    ) -> list[StoredMessage]:
        """Messages (every branch's, or those with these ids) in sequence order, from the command
        store (the source of truth)."""
        query = select(messages_t).where(messages_t.c.session_id == session_id)
        if ids is not None:
            query = query.where(messages_t.c.message_id.in_(list(ids)))
        query = query.order_by(messages_t.c.sequence_number, messages_t.c.version,
                               messages_t.c.message_id).offset(offset).limit(limit)
        return [_message(r) for r in (await self._conn.execute(query)).all()]

    async def list_for_user(self, user_id: str, *, is_active: bool | None, offset: int, limit: int
                            ) -> tuple[list[SessionState], int]:
        """The user's live sessions, newest activity first, and their total count."""
        cond = [sessions_t.c.user_id == user_id, sessions_t.c.deleted_at.is_(None)]
        if is_active is not None:
            cond.append(sessions_t.c.is_active == is_active)
        total = (await self._conn.execute(select(func.count()).where(*cond))).scalar_one()
        rows = (await self._conn.execute(
            select(sessions_t).where(*cond)
            .order_by(sessions_t.c.last_message_at.desc(), sessions_t.c.session_id.desc())
            .offset(offset).limit(limit))).all()
        return [_state(r) for r in rows], int(total)

    async def idle(self, idle_since: datetime, limit: int, *, active_only: bool) -> list[Session]:
        """Up to `limit` live sessions without a message since `idle_since`, least recent first
        (only the active ones if `active_only`): candidates of the lifecycle jobs."""
        cond = [sessions_t.c.deleted_at.is_(None), sessions_t.c.last_message_at <= idle_since]
        if active_only:
            cond.append(sessions_t.c.is_active.is_(True))
        rows = (await self._conn.execute(
            select(sessions_t).where(*cond)
            .order_by(sessions_t.c.last_message_at, sessions_t.c.session_id).limit(limit))).all()
        return [Session(await self._with_path(_state(r))) for r in rows]

    async def by_ids(self, session_ids: Sequence[str]) -> list[SessionState]:
        """The sessions with these ids, deleted ones included."""
        if not session_ids:
            return []
        rows = (await self._conn.execute(
            select(sessions_t).where(sessions_t.c.session_id.in_(list(session_ids))))).all()
        return [_state(r) for r in rows]

    async def ids_after(self, after: str, limit: int) -> list[str]:
        """Every session id (deleted ones included) greater than `after`, in order: for paging."""
        ids: Sequence[Any] = (await self._conn.execute(
            select(sessions_t.c.session_id).where(sessions_t.c.session_id > after)
            .order_by(sessions_t.c.session_id).limit(limit))).scalars().all()
        return list(ids)
