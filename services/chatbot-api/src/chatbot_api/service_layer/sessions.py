"""The caller's sessions: read, list, page through messages (with their ratings), rename, delete;
and the daily usage.

Reads by id go to the command store, so a session created a moment ago is never "not found" while
the projection catches up. Lists and history pages come from the read model (MongoDB), filled
from the command store where the projection lacks a message, and read from the command store
whole when MongoDB is down, so a page of history is never short. A page's ratings come from the
command store with its path: the caller's own writes, shown as soon as they are made.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date

from prometheus_client import Counter
from pymongo.errors import PyMongoError

from chatbot_api.service_layer.budget import BudgetStatus, TokenBudgets
from chatbot_api.service_layer.ports import ReadModel, SessionMatch, UnitOfWorkFactory, UsageRow
from techai_shared import korean
from techai_shared.clock import Clock
from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.errors import AppError, ErrorCode, MessageNotFound
from techai_shared.events.conversation import FeedbackState

logger = logging.getLogger(__name__)

MAX_SEARCH_WORDS = 8  # words of a search looked up; the rest of a long one is ignored

FILLED = Counter(
    "history_messages_from_command_store_total",
    "Messages read from the command store because the projection had not caught up",
)


@dataclass(frozen=True)
class MessageView:
    """A message of a history page: with its rating and the ids of its siblings (itself among
    them, oldest first), so a client can show "< 2/3 >" and switch."""

    message: StoredMessage
    feedback: FeedbackState | None
    siblings: list[str]


class SessionService:
    def __init__(self, uow: UnitOfWorkFactory, read_model: ReadModel, clock: Clock,
                 budgets: TokenBudgets | None = None) -> None:
        self._budgets = budgets
        self._uow = uow
        self._read_model = read_model
        self._clock = clock

    async def get(self, session_id: str, user_id: str) -> SessionState:
        """The caller's live session (SessionNotFound, Forbidden otherwise)."""
        async with self._uow() as uow:
            return (await uow.sessions.get_owned(session_id, user_id)).state

    async def rename(self, session_id: str, user_id: str, title: str) -> SessionState:
        async with self._uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            session.rename(user_id, title, self._clock())
            await uow.sessions.save(session)
            await uow.commit()
        return session.state

    async def delete(self, session_id: str, user_id: str) -> None:
        """Soft delete: later reads answer 404."""
        async with self._uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            session.delete(user_id, self._clock())
            await uow.sessions.save(session)
            await uow.commit()

    async def messages(self, session_id: str, user_id: str, first: int, last: int
                       ) -> tuple[SessionState, list[MessageView]]:
        """The caller's session and the messages first..last of its current path (1-based,
        inclusive, clipped), each with its rating and its siblings.

        The ratings are read with the path from the command store: a rating shows in the next
        read after it is given, and a later read never shows an older rating than an earlier one
        did (the read model may not have projected it yet)."""
        async with self._uow() as uow:
            session = (await uow.sessions.get_owned(session_id, user_id)).state
            tree = await uow.sessions.tree(session_id)
            ids = list(session.path[max(1, first) - 1:max(0, last)])
            ratings = await uow.feedback.for_messages(ids)
        if not ids:
            return session, []
        try:
            found = await self._read_model.messages_by_ids(session_id, ids)
        except PyMongoError as exc:
            logger.warning("read model unavailable, reading history from the command store: %s", exc)
            found = []
        by_id = {m.message_id: m for m in found}
        missing = [i for i in ids if i not in by_id]
        if missing:
            FILLED.inc(len(missing))
            async with self._uow() as uow:
                by_id |= {m.message_id: m for m in await uow.sessions.messages(session_id, ids=missing)}
        return session, [MessageView(by_id[i], ratings.get(i), tree.siblings(i)) for i in ids if i in by_id]

    async def switch(self, session_id: str, user_id: str, message_id: str) -> SessionState:
        """Make the branch through `message_id` current: its path to its deepest descendant along
        the latest children (MessageNotFound when the session has no such message)."""
        async with self._uow() as uow:
            session = await uow.sessions.get_owned(session_id, user_id, for_update=True)
            tree = await uow.sessions.tree(session_id)
            if message_id not in tree:
                raise MessageNotFound(f"message {message_id} not found in this session")
            session.switch(user_id, tree.branch_of(message_id), self._clock())
            await uow.sessions.save(session)
            await uow.sessions.set_thread_key(session_id, None)
            await uow.commit()
        return session.state

    async def list_sessions(self, user_id: str, *, is_active: bool | None, offset: int, limit: int
                   ) -> tuple[list[SessionState], int]:
        """The caller's live sessions, newest activity first, and their total count."""
        try:
            return await self._read_model.list_sessions(
                user_id, is_active=is_active, offset=offset, limit=limit)
        except PyMongoError as exc:
            logger.warning("read model unavailable, listing sessions from the command store: %s", exc)
            async with self._uow() as uow:
                return await uow.sessions.list_for_user(
                    user_id, is_active=is_active, offset=offset, limit=limit)

    async def search(self, user_id: str, query: str, *, offset: int, limit: int
                     ) -> tuple[list[SessionMatch], int]:
        """The caller's live sessions whose messages or title hold every word of `query` (Korean
        by its morphemes, so 해커톤 finds 해커톤은 and AI해커톤; Latin words in any case), best
        first, and how many there are. No searchable word (only particles or punctuation): none.
        The search index is the read model's, so a message is found about a second after it is
        written; SERVICE_UNAVAILABLE while MongoDB is down (there is no index elsewhere)."""
        terms = korean.query_terms(query)[:MAX_SEARCH_WORDS]
        if not terms:
            return [], 0
        try:
            return await self._read_model.search_sessions(user_id, terms, offset, limit)
        except PyMongoError as exc:
            logger.warning("session search unavailable: %s", exc)
            raise AppError("the search is unavailable; try again shortly",
                           error_code=ErrorCode.SERVICE_UNAVAILABLE) from exc

    async def export(self, session_id: str, user_id: str) -> tuple[SessionState, list[MessageView]]:
        """The caller's session and every message of its current path, with ratings."""
        return await self.messages(session_id, user_id, 1, 1 << 30)

    async def usage(self, user_id: str, first: date, last: date) -> list[UsageRow]:
        """The caller's daily usage rows, oldest first."""
        async with self._uow() as uow:
            return await uow.usage.between(user_id, first, last)

    async def budget(self, user_id: str) -> BudgetStatus | None:
        """The caller's daily token budget today and what is left of it (None: not tracked)."""
        return None if self._budgets is None else await self._budgets.status(user_id)
