"""What the verified answers did for users (verified_answer_uses), added in the exchange's
transaction: a row per answer served or suggested, keyed by the chatbot's answer message, so a
rating of that message is a rating of the verified answer it served (command-api counts both)."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import insert
from sqlalchemy.ext.asyncio import AsyncConnection

from chatbot_api.service_layer.ports import VerifiedUse
from techai_shared.db.schema import verified_answer_uses


class SqlVerifiedUseRepository:
    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn

    async def add(self, uses: list[VerifiedUse], question: str, message_id: str, user_id: str,
                  now: datetime) -> None:
        if uses:
            await self._conn.execute(insert(verified_answer_uses), [
                {"answer_id": u.answer_id, "kind": u.kind, "judged": u.judged,
                 "question": question, "message_id": message_id, "user_id": user_id,
                 "created_at": now} for u in uses])
