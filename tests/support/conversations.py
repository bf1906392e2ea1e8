"""Conversations written and read on the command store through the shared unit of work and the
session aggregate, as chatbot-api's use cases do: for tests that need sessions, messages and their
events without a running API."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.clock import utcnow
from techai_shared.conversation.exchange import append_exchange, apply_and_save
from techai_shared.conversation.model import (
    HistoryMessage,
    NewMessage,
    Session,
    SessionState,
    StoredMessage,
)
from techai_shared.conversation.repository import SessionRepository
from techai_shared.db.unit_of_work import UnitOfWork, Wakeable
from techai_shared.ids import new_id


class ConversationUnitOfWork(UnitOfWork):
    sessions: SessionRepository

    def _bind(self, conn: AsyncConnection) -> None:
        self.sessions = SessionRepository(conn, self.outbox)


@dataclass(frozen=True)
class Written:
    """An appended exchange: the session after it, and both messages."""

    session: SessionState
    user_message: StoredMessage
    assistant_message: StoredMessage
    created_session: bool


class Conversations:
    def __init__(self, engine: AsyncEngine, relay: Wakeable | None = None) -> None:
        self._engine = engine
        self._relay = relay

    def uow(self) -> ConversationUnitOfWork:
        return ConversationUnitOfWork(self._engine, self._relay)

    async def append_exchange(self, user_id: str, session_id: str | None, question: NewMessage,
                              answer: NewMessage, now: datetime, *,
                              known: SessionState | None = None) -> Written:
        """A new session (session_id None) or the next exchange of `session_id`; `known` is the
        session as read earlier (the chat turn's path), else it is read in this transaction."""
        async with self.uow() as uow:
            if session_id is None:
                session = Session.start(new_id(), user_id, question.content, now)
            elif known is not None:
                session = Session(known)
            else:
                session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            session, exchange = await append_exchange(uow.sessions, session, user_id, question,
                                                      answer, now)
            await uow.commit()
        return Written(session.state, exchange.user_message, exchange.assistant_message,
                       session_id is None)

    async def regenerate(self, user_id: str, session_id: str, answer_id: str, answer: NewMessage,
                         now: datetime) -> StoredMessage:
        """Another answer to the question of `answer_id`, as chatbot-api's regenerate writes it."""
        async with self.uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            tree = await uow.sessions.tree(session_id)
            base = tree.path_to(tree.nodes[answer_id].parent_message_id or "")
            session, stored = await apply_and_save(
                uow.sessions, session, user_id, lambda s: s.add_answer(user_id, base, answer, now))
            await uow.commit()
        return stored

    async def edit(self, user_id: str, session_id: str, question_id: str, question: NewMessage,
                   answer: NewMessage, now: datetime) -> Written:
        """A new version of the question `question_id` and its answer, as chatbot-api's edit
        writes them."""
        async with self.uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            tree = await uow.sessions.tree(session_id)
            parent = tree.nodes[question_id].parent_message_id
            base = tree.path_to(parent) if parent else ()
            session, exchange = await apply_and_save(
                uow.sessions, session, user_id,
                lambda s: s.branch_exchange(user_id, base, question, answer, now))
            await uow.commit()
        return Written(session.state, exchange.user_message, exchange.assistant_message, False)

    async def switch(self, user_id: str, session_id: str, message_id: str) -> SessionState:
        async with self.uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            tree = await uow.sessions.tree(session_id)
            session.switch(user_id, tree.branch_of(message_id), utcnow())
            await uow.sessions.save(session)
            await uow.commit()
        return session.state

    async def rename(self, session_id: str, user_id: str, title: str) -> SessionState:
        async with self.uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            session.rename(user_id, title, utcnow())
            await uow.sessions.save(session)
            await uow.commit()
        return session.state

    async def delete(self, session_id: str, user_id: str, now: datetime) -> SessionState:
        async with self.uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            session.delete(user_id, now)
            await uow.sessions.save(session)
            await uow.commit()
        return session.state

    async def get_owned(self, session_id: str, user_id: str) -> SessionState:
        async with self.uow() as uow:
            return (await uow.sessions.get_owned(session_id, user_id)).state

    async def get_owned_with_recent(self, session_id: str, user_id: str, count: int
                                    ) -> tuple[Session, list[HistoryMessage]]:
        async with self.uow() as uow:
            return await uow.sessions.get_owned_with_recent(session_id, user_id, count)

    async def messages(self, session_id: str) -> list[StoredMessage]:
        async with self.uow() as uow:
            return await uow.sessions.messages(session_id)
