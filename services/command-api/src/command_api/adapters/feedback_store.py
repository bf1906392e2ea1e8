"""Ratings of answers on the command store, as command-api needs them: counts for /metrics and
their events again for a rebuild of the projection (chatbot-api writes them)."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncConnection

from techai_shared.conversation.events import feedback_event
from techai_shared.db.schema import message_feedback as feedback_t
from techai_shared.events import EventEnvelope


class FeedbackRepository:
    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn

    async def counts_by_day(self, since: datetime) -> list[tuple[str, date, int]]:
        """(rating, UTC day of the rating's last change, live ratings) since `since`."""
        day = func.date(feedback_t.c.updated_at)
        rows = (await self._conn.execute(
            select(feedback_t.c.rating, day.label("day"), func.count())
            .where(feedback_t.c.deleted_at.is_(None), feedback_t.c.updated_at >= since)
            .group_by(feedback_t.c.rating, day))).all()
        return [(r[0], r[1] if isinstance(r[1], date) else date.fromisoformat(str(r[1])), int(r[2]))
                for r in rows]

    async def snapshot_events(self, after: str, limit: int, now: datetime) -> list[EventEnvelope]:
        """Ratings of messages with an id above `after` (removed ones too), in message id order,
        each as its event at its current version."""
        rows = (await self._conn.execute(
            select(feedback_t).where(feedback_t.c.message_id > after)
            .order_by(feedback_t.c.message_id).limit(limit))).all()
        return [feedback_event(dict[str, Any](r._asdict()), now) for r in rows]
