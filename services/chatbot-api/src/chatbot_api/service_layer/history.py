"""Conversation reads for the history and session endpoints: MongoDB first, the command store for
whatever the projection lacks.

The projection trails the command store by the sync lag. A read asks the read model for the exact
sequence range it needs and fills any gap from the command store, so a page of history is never
short. If MongoDB is down, reads fall back whole. (A chat turn reads its prompt's history from the
command store directly: ConversationStore.get_owned_with_recent.)
"""

from __future__ import annotations

import logging

from prometheus_client import Counter
from pymongo.errors import PyMongoError

from chatbot_api.adapters.read_model import MongoReadModel
from techai_shared.conversations import ConversationStore, SessionState, StoredMessage

logger = logging.getLogger(__name__)

FILLED = Counter(
    "history_messages_from_command_store_total",
    "Messages read from the command store because the projection had not caught up",
)


class ConversationReader:
    def __init__(self, read_model: MongoReadModel, store: ConversationStore) -> None:
        self._read_model = read_model
        self._store = store

    async def messages_range(self, session: SessionState, first: int, last: int) -> list[StoredMessage]:
        """Messages first..last (1-based, inclusive, clipped to the session) in sequence order."""
        first, last = max(1, first), min(last, session.message_count)
        if first > last:
            return []
        try:
            found = await self._read_model.messages_between(session.session_id, first, last)
        except PyMongoError as exc:
            logger.warning("read model unavailable, reading history from the command store: %s", exc)
            found = []
        by_seq = {m.sequence_number: m for m in found}
        missing = [seq for seq in range(first, last + 1) if seq not in by_seq]
        if missing:
            FILLED.inc(len(missing))
            for message in await self._store.messages(session.session_id, sequences=missing):
                by_seq[message.sequence_number] = message
        return [by_seq[seq] for seq in sorted(by_seq)]

    async def list_sessions(
        self, user_id: str, *, is_active: bool | None, offset: int, limit: int
    ) -> tuple[list[SessionState], int]:
        try:
            return await self._read_model.list_sessions(
                user_id, is_active=is_active, offset=offset, limit=limit
            )
        except PyMongoError as exc:
            logger.warning("read model unavailable, listing sessions from the command store: %s", exc)
            return await self._store.list_sessions(
                user_id, is_active=is_active, offset=offset, limit=limit
            )
