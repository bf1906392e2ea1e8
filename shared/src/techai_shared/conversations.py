"""The conversation command layer: sessions and messages written with their events in one transaction.

Every write starts with a conditional UPDATE of the session row. That single statement takes the
row lock (MySQL) or the write lock (SQLite, BEGIN IMMEDIATE), checks ownership and liveness, and
reserves the next sequence numbers and event versions, so concurrent writers to one session queue
up and sequence numbers stay contiguous. Chatbot-api and the scheduler both write through here.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from typing import Any, NamedTuple

from sqlalchemy import bindparam, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.clock import iso
from techai_shared.db.outbox import add_events
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.db.schema import conversation_sessions as sessions_t
from techai_shared.errors import Forbidden, SessionNotFound
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.ids import new_id
from techai_shared.logging import request_id_var

logger = logging.getLogger(__name__)

TITLE_LENGTH = 50


@dataclass(frozen=True)
class SessionState:
    session_id: str
    user_id: str
    title: str
    created_at: datetime
    last_message_at: datetime
    is_active: bool
    message_count: int
    version: int
    deleted_at: datetime | None = None

    def payload(self) -> dict[str, Any]:
        """Full state, as carried by every session event."""
        return {
            "sessionId": self.session_id,
            "userId": self.user_id,
            "title": self.title,
            "createdAt": iso(self.created_at),
            "lastMessageAt": iso(self.last_message_at),
            "isActive": self.is_active,
            "messageCount": self.message_count,
            "deletedAt": iso(self.deleted_at) if self.deleted_at else None,
        }


@dataclass(frozen=True)
class NewMessage:
    """A message about to be stored; the store assigns its id and sequence number."""

    role: str
    content: str
    token_count: int
    sources: list[dict[str, Any]] = field(default_factory=list)


@dataclass(frozen=True)
class StoredMessage:
    message_id: str
    session_id: str
    role: str
    content: str
    sequence_number: int
    token_count: int
    sources: list[dict[str, Any]]
    created_at: datetime
    version: int | None = None  # of its ConversationMessageCreated event; None on pre-0004 rows

    def payload(self, user_id: str) -> dict[str, Any]:
        return {
            "messageId": self.message_id,
            "sessionId": self.session_id,
            "userId": user_id,
            "role": self.role,
            "content": self.content,
            "sequenceNumber": self.sequence_number,
            "tokenCount": self.token_count,
            "sources": self.sources,
            "createdAt": iso(self.created_at),
        }


@dataclass(frozen=True)
class BatchResult:
    """One bounded batch of a lifecycle job: rows it looked at, and rows it changed."""

    candidates: int
    changed: int


@dataclass(frozen=True)
class Exchange:
    session: SessionState
    user_message: StoredMessage
    assistant_message: StoredMessage
    created_session: bool


def title_from(first_message: str) -> str:
    """The session title: the first 50 characters of its first message."""
    return first_message[:TITLE_LENGTH]


def _session(row: Row[Any]) -> SessionState:
    return SessionState(
        session_id=row.session_id,
        user_id=row.user_id,
        title=row.title,
        created_at=row.created_at,
        last_message_at=row.last_message_at,
        is_active=bool(row.is_active),
        message_count=row.message_count,
        version=row.version,
        deleted_at=row.deleted_at,
    )


def _message(row: Row[Any]) -> StoredMessage:
    return StoredMessage(
        message_id=row.message_id,
        session_id=row.session_id,
        role=row.role,
        content=row.content,
        sequence_number=row.sequence_number,
        token_count=row.token_count,
        sources=list(row.sources or []),
        created_at=row.created_at,
        version=row.version,
    )


def _event(event_type: EventType, session_id: str, version: int, payload: dict[str, Any],
           occurred_at: datetime) -> EventEnvelope:
    return EventEnvelope(
        event_type=event_type,
        aggregate_type=AggregateType.CONVERSATION,
        aggregate_id=session_id,
        version=version,
        occurred_at=occurred_at,
        payload=payload,
        request_id=request_id_var.get(),
    )


class HistoryMessage(NamedTuple):
    """A stored message as a prompt's history needs it (a tuple: a turn reads up to a hundred)."""

    role: str
    content: str
    sources: list[dict[str, Any]] | None


# The statements of every chat turn, built once: only their values change from turn to turn, and
# building SQLAlchemy expressions per call was a tenth of chatbot-api's CPU under load (make bench).
_SESSION_BY_ID = select(sessions_t).where(sessions_t.c.session_id == bindparam("p_session_id"))
_RECENT_MESSAGES = (
    select(messages_t.c.role, messages_t.c.content, messages_t.c.sources)
    .where(messages_t.c.session_id == bindparam("p_session_id"),
           messages_t.c.sequence_number > bindparam("p_after"))
    .order_by(messages_t.c.sequence_number)
)
_APPEND_IF_UNCHANGED = (
    update(sessions_t)
    .where(sessions_t.c.session_id == bindparam("p_session_id"),
           sessions_t.c.user_id == bindparam("p_user_id"),
           sessions_t.c.deleted_at.is_(None),
           sessions_t.c.version == bindparam("p_version"))
    .values(message_count=sessions_t.c.message_count + 2, version=sessions_t.c.version + 3,
            last_message_at=bindparam("p_now"), is_active=True)
)


class ConversationStore:
    """Reads and writes of the conversation aggregate on the command store."""

    def __init__(self, engine: AsyncEngine, on_commit: Callable[[], None] | None = None) -> None:
        self._engine = engine
        self._on_commit = on_commit or (lambda: None)

    @property
    def engine(self) -> AsyncEngine:
        """The command store's engine, for writes that belong beside the aggregate's (usage)."""
        return self._engine

    async def get_owned(self, session_id: str, user_id: str) -> SessionState:
        """The live session, or SessionNotFound (missing/deleted) or Forbidden (another user's)."""
        session, _ = await self.get_owned_with_recent(session_id, user_id, 0)
        return session

    async def get_owned_with_recent(self, session_id: str, user_id: str, count: int
                                    ) -> tuple[SessionState, list[HistoryMessage]]:
        """The live session (errors as get_owned) and its newest `count` messages in sequence order,
        read in one transaction, so the messages are exactly those the session row counts.

        A chat turn reads its prompt's history here rather than from the read model: the turn is a
        command, it must see the previous turn even when the projection trails, and it needs the
        session row anyway, so the history costs one more statement on a connection already open.
        """
        async with self._engine.connect() as conn:
            row = (await conn.execute(_SESSION_BY_ID, {"p_session_id": session_id})).first()
            session = self._check_owner(row, session_id, user_id)
            messages: list[HistoryMessage] = []
            if count > 0 and session.message_count:
                rows = (await conn.execute(_RECENT_MESSAGES, {
                    "p_session_id": session_id, "p_after": session.message_count - count})).all()
                messages = [HistoryMessage._make(r) for r in rows]
            await conn.commit()
        return session, messages

    @staticmethod
    def _check_owner(row: Row[Any] | None, session_id: str, user_id: str) -> SessionState:
        if row is None or row.deleted_at is not None:
            raise SessionNotFound(f"session {session_id} not found")
        if row.user_id != user_id:
            raise Forbidden("this session belongs to another user")
        return _session(row)

    async def append_exchange(
        self,
        user_id: str,
        session_id: str | None,
        user_message: NewMessage,
        assistant_message: NewMessage,
        now: datetime,
        *,
        new_session_id: str | None = None,
        also: Callable[[AsyncConnection], Awaitable[None]] | None = None,
        known: SessionState | None = None,
    ) -> Exchange:
        """Store one question and its answer, the session change and their events atomically.

        `new_session_id` names the session a first exchange creates (a stream announces it before
        the answer is stored); `also` runs in the same transaction (e.g. the usage totals).
        `known` is the session as the caller read it: if the row is still at that version, the
        conditional UPDATE alone reserves the sequence numbers and the new state follows from it;
        otherwise (a concurrent turn, a rename) the row is read back after the update.
        """
        async with self._engine.begin() as conn:
            if session_id is None:
                session, events = await self._create_session(conn, user_id, user_message, now,
                                                             new_session_id or new_id())
            else:
                session = await self._reserve_two_messages(conn, session_id, user_id, now, known)
                events = []
            first_seq = session.message_count - 1
            first_version = session.version - 2
            stored = [
                StoredMessage(new_id(), session.session_id, m.role, m.content, first_seq + i,
                              m.token_count, m.sources, now, first_version + i)
                for i, m in enumerate((user_message, assistant_message))
            ]
            await conn.execute(
                insert(messages_t),
                [
                    {
                        "message_id": m.message_id, "session_id": m.session_id, "role": m.role,
                        "content": m.content, "sequence_number": m.sequence_number,
                        "token_count": m.token_count, "sources": m.sources or None,
                        "created_at": m.created_at, "version": m.version,
                    }
                    for m in stored
                ],
            )
            events += [
                _event(EventType.MESSAGE_CREATED, session.session_id, first_version + i,
                       m.payload(user_id), now)
                for i, m in enumerate(stored)
            ]
            events.append(_event(EventType.SESSION_UPDATED, session.session_id, session.version,
                                 session.payload(), now))
            await add_events(conn, events)
            if also is not None:
                await also(conn)
        self._on_commit()
        return Exchange(session, stored[0], stored[1], created_session=session_id is None)

    async def _create_session(
        self, conn: AsyncConnection, user_id: str, first: NewMessage, now: datetime, session_id: str
    ) -> tuple[SessionState, list[EventEnvelope]]:
        created = SessionState(
            session_id=session_id, user_id=user_id, title=title_from(first.content),
            created_at=now, last_message_at=now, is_active=True, message_count=0, version=1,
        )
        after = replace(created, message_count=2, version=4)
        await conn.execute(
            insert(sessions_t).values(
                session_id=after.session_id, user_id=user_id, title=after.title,
                created_at=now, last_message_at=now, is_active=True,
                message_count=after.message_count, version=after.version,
            )
        )
        created_event = _event(EventType.SESSION_CREATED, created.session_id, 1,
                               created.payload(), now)
        return after, [created_event]

    async def _reserve_two_messages(self, conn: AsyncConnection, session_id: str, user_id: str,
                                    now: datetime, known: SessionState | None) -> SessionState:
        if known is not None and known.session_id == session_id:
            result = await conn.execute(_APPEND_IF_UNCHANGED, {
                "p_session_id": session_id, "p_user_id": user_id, "p_version": known.version,
                "p_now": now})
            if result.rowcount == 1:
                return replace(known, message_count=known.message_count + 2,
                               version=known.version + 3, last_message_at=now.astimezone(UTC),
                               is_active=True)
        return await self._reserve(
            conn, session_id, user_id,
            message_count=sessions_t.c.message_count + 2,
            version=sessions_t.c.version + 3,
            last_message_at=now,
            is_active=True,
        )

    async def _reserve(
        self, conn: AsyncConnection, session_id: str, user_id: str, **values: Any
    ) -> SessionState:
        """Conditionally update the live, owned session row and return its new state."""
        result = await conn.execute(
            update(sessions_t)
            .where(
                sessions_t.c.session_id == session_id,
                sessions_t.c.user_id == user_id,
                sessions_t.c.deleted_at.is_(None),
            )
            .values(**values)
        )
        row = (
            await conn.execute(select(sessions_t).where(sessions_t.c.session_id == session_id))
        ).first()
        if result.rowcount != 1:
            self._check_owner(row, session_id, user_id)  # raises the precise error
            raise SessionNotFound(f"session {session_id} not found")
        return _session(row)  # type: ignore[arg-type]  # the update matched, so the row exists

    async def rename(self, session_id: str, user_id: str, title: str) -> SessionState:
        """Change the title; emits ConversationSessionUpdated."""
        async with self._engine.begin() as conn:
            session = await self._reserve(
                conn, session_id, user_id, title=title, version=sessions_t.c.version + 1
            )
            await add_events(conn, [_event(EventType.SESSION_UPDATED, session_id, session.version,
                                           session.payload(), session.last_message_at)])
        self._on_commit()
        return session

    async def delete(self, session_id: str, user_id: str, now: datetime) -> SessionState:
        """Soft delete; emits ConversationSessionDeleted. Later reads answer 404."""
        async with self._engine.begin() as conn:
            session = await self._reserve(
                conn, session_id, user_id, deleted_at=now, is_active=False,
                version=sessions_t.c.version + 1,
            )
            await add_events(conn, [_event(EventType.SESSION_DELETED, session_id, session.version,
                                           session.payload(), now)])
        self._on_commit()
        return session

    async def messages(
        self, session_id: str, *, after_sequence: int = 0, offset: int = 0, limit: int = 1000,
        sequences: Sequence[int] | None = None,
    ) -> list[StoredMessage]:
        """Messages in sequence order, from the command store (the source of truth)."""
        query = select(messages_t).where(messages_t.c.session_id == session_id)
        if after_sequence:
            query = query.where(messages_t.c.sequence_number > after_sequence)
        if sequences is not None:
            query = query.where(messages_t.c.sequence_number.in_(list(sequences)))
        query = query.order_by(messages_t.c.sequence_number).offset(offset).limit(limit)
        async with self._engine.connect() as conn:
            rows = (await conn.execute(query)).all()
            await conn.commit()
        return [_message(r) for r in rows]

    async def list_sessions(
        self, user_id: str, *, is_active: bool | None, offset: int, limit: int
    ) -> tuple[list[SessionState], int]:
        """The user's live sessions, newest activity first, and their total count."""
        cond = [sessions_t.c.user_id == user_id, sessions_t.c.deleted_at.is_(None)]
        if is_active is not None:
            cond.append(sessions_t.c.is_active == is_active)
        async with self._engine.connect() as conn:
            total = (await conn.execute(select(func.count()).where(*cond))).scalar_one()
            rows = (
                await conn.execute(
                    select(sessions_t).where(*cond)
                    .order_by(sessions_t.c.last_message_at.desc(), sessions_t.c.session_id.desc())
                    .offset(offset).limit(limit)
                )
            ).all()
            await conn.commit()
        return [_session(r) for r in rows], int(total)

    # -- lifecycle (the scheduler's jobs) -------------------------------------------------------

    async def deactivate_idle(self, idle_since: datetime, now: datetime, limit: int) -> BatchResult:
        """One batch: live active sessions without a message since `idle_since` become inactive,
        each with a ConversationSessionUpdated event."""
        return await self._lifecycle_batch(
            [sessions_t.c.is_active.is_(True), sessions_t.c.deleted_at.is_(None),
             sessions_t.c.last_message_at <= idle_since],
            {"is_active": False}, EventType.SESSION_UPDATED, now, limit,
        )

    async def expire_idle(self, idle_since: datetime, now: datetime, limit: int) -> BatchResult:
        """One batch: live sessions without a message since `idle_since` are soft-deleted and
        marked expired, each with a ConversationSessionDeleted event (the read model drops them)."""
        return await self._lifecycle_batch(
            [sessions_t.c.deleted_at.is_(None), sessions_t.c.last_message_at <= idle_since],
            {"is_active": False, "deleted_at": now, "expired_at": now},
            EventType.SESSION_DELETED, now, limit,
        )

    async def _lifecycle_batch(self, conditions: list[Any], values: dict[str, Any],
                               event_type: EventType, now: datetime, limit: int) -> BatchResult:
        # Each row is changed by its own conditional UPDATE that repeats the selection's
        # conditions: a message committed since the SELECT (it holds the row lock first) makes
        # the condition false, so a session that just became busy is left alone.
        async with self._engine.begin() as conn:
            ids: Sequence[Any] = (await conn.execute(
                select(sessions_t.c.session_id).where(*conditions)
                .order_by(sessions_t.c.last_message_at, sessions_t.c.session_id).limit(limit)
            )).scalars().all()
            events = []
            for session_id in ids:
                written = await conn.execute(
                    update(sessions_t).where(sessions_t.c.session_id == session_id, *conditions)
                    .values(version=sessions_t.c.version + 1, **values)
                )
                if written.rowcount != 1:
                    continue
                row = (await conn.execute(
                    select(sessions_t).where(sessions_t.c.session_id == session_id))).one()
                state = _session(row)
                events.append(_event(event_type, session_id, state.version, state.payload(), now))
            await add_events(conn, events)
        if events:
            self._on_commit()
        return BatchResult(len(ids), len(events))

    # -- snapshots (reconcile and rebuild republish the command store's state) ------------------

    async def sessions_by_id(self, session_ids: Sequence[str]) -> list[SessionState]:
        """The sessions with these ids, deleted ones included."""
        if not session_ids:
            return []
        async with self._engine.connect() as conn:
            rows = (await conn.execute(
                select(sessions_t).where(sessions_t.c.session_id.in_(list(session_ids)))
            )).all()
            await conn.commit()
        return [_session(r) for r in rows]

    async def session_ids_after(self, after: str, limit: int) -> list[str]:
        """Every session id (deleted ones included) greater than `after`, in order: for paging."""
        async with self._engine.connect() as conn:
            ids: Sequence[Any] = (await conn.execute(
                select(sessions_t.c.session_id).where(sessions_t.c.session_id > after)
                .order_by(sessions_t.c.session_id).limit(limit)
            )).scalars().all()
            await conn.commit()
        return list(ids)


def session_snapshot(session: SessionState, now: datetime) -> EventEnvelope:
    """The session's current state as a new event at its current version: Deleted for a deleted
    session, Updated otherwise. Projecting it is a no-op where the read model is up to date."""
    event_type = EventType.SESSION_DELETED if session.deleted_at else EventType.SESSION_UPDATED
    return _event(event_type, session.session_id, session.version, session.payload(), now)


def message_snapshot(message: StoredMessage, session: SessionState, now: datetime) -> EventEnvelope:
    """The message's ConversationMessageCreated again, at its original version (the session's
    current one for a row that predates migration 0004 and had no outbox row to copy it from)."""
    version = message.version if message.version is not None else session.version
    return _event(EventType.MESSAGE_CREATED, session.session_id, version,
                  message.payload(session.user_id), now)
