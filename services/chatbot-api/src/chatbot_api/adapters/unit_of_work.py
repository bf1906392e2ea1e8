"""chatbot-api's unit of work on the command store: sessions and messages, ratings of answers,
daily usage, what verified answers did, outbox."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection

from chatbot_api.adapters.feedback_store import SqlFeedbackRepository
from chatbot_api.adapters.usage import SqlUsageRepository
from chatbot_api.adapters.verified_uses import SqlVerifiedUseRepository
from techai_shared.conversation.repository import SessionRepository
from techai_shared.db.unit_of_work import UnitOfWork


class SqlChatUnitOfWork(UnitOfWork):
    sessions: SessionRepository
    usage: SqlUsageRepository
    feedback: SqlFeedbackRepository
    verified_uses: SqlVerifiedUseRepository

    def _bind(self, conn: AsyncConnection) -> None:
        self.sessions = SessionRepository(conn, self.outbox)
        self.usage = SqlUsageRepository(conn)
        self.feedback = SqlFeedbackRepository(conn, self.outbox)
        self.verified_uses = SqlVerifiedUseRepository(conn)
