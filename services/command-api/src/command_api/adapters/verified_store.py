"""Verified answers on the command store (table verified_answers), each write with its event.

Public ids are `v-` and the row's auto-increment id (v-0001). Writes lock the row they change
(SELECT ... FOR UPDATE), bump its version and add VerifiedAnswerUpserted or VerifiedAnswerDeleted
with the full state to the outbox in the caller's transaction. Rows are only soft-deleted.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import ColumnElement, func, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from command_api.service_layer.ports import AnswerStats, AnswerUse, StoredAnswer, StoredVersion
from techai_shared.db.schema import message_feedback as feedback_t
from techai_shared.db.schema import verified_answer_uses as uses_t
from techai_shared.db.schema import verified_answers as answers_t
from techai_shared.db.unit_of_work import Outbox
from techai_shared.errors import VerifiedAnswerNotFound
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.events.verified import VerifiedAnswerPayload, public_id, row_id
from techai_shared.logging import request_id_var

FIELDS = ("status", "questions", "answer", "sources", "valid_from", "valid_until")


def payload_of(row: Row[Any]) -> VerifiedAnswerPayload:
    return VerifiedAnswerPayload(
        id=public_id(row.id), status=row.status, questions=list(row.questions), answer=row.answer,
        sources=list(row.sources), valid_from=row.valid_from, valid_until=row.valid_until,
        feedback_id=row.feedback_id, created_at=row.created_at, updated_at=row.updated_at,
        deleted_at=row.deleted_at)


def stored(row: Row[Any]) -> StoredAnswer:
    return StoredAnswer(payload_of(row), row.version, row.author)


def answer_event(row: Row[Any], occurred_at: datetime) -> EventEnvelope:
    """The row's state as its event (Deleted once it is deleted), at the row's version."""
    payload = payload_of(row)
    return EventEnvelope(
        event_type=(EventType.VERIFIED_ANSWER_DELETED if row.deleted_at is not None
                    else EventType.VERIFIED_ANSWER_UPSERTED),
        aggregate_type=AggregateType.VERIFIED_ANSWER, aggregate_id=payload.id,
        version=row.version, occurred_at=occurred_at,
        payload=payload.model_dump(mode="json", by_alias=True), request_id=request_id_var.get())


class VerifiedAnswerRepository:
    def __init__(self, conn: AsyncConnection, outbox: Outbox) -> None:
        self._conn = conn
        self._outbox = outbox

    async def create(self, fields: dict[str, Any], author: str, now: datetime,
                     feedback_id: str | None = None) -> StoredAnswer:
        result = await self._conn.execute(insert(answers_t).values(
            **{k: fields[k] for k in FIELDS}, feedback_id=feedback_id, author=author, version=1,
            created_at=now, updated_at=now))
        new_row_id = result.inserted_primary_key[0] if result.inserted_primary_key else None
        row = await self._row(int(new_row_id or 0))
        assert row is not None
        await self._outbox.add([answer_event(row, now)])
        return stored(row)

    async def get(self, answer_id: str) -> StoredAnswer:
        """The live answer, or VerifiedAnswerNotFound."""
        return stored(await self._live(answer_id))

    async def _live(self, answer_id: str, *, for_update: bool = False) -> Row[Any]:
        number = row_id(answer_id)
        row = await self._row(number, for_update=for_update) if number is not None else None
        if row is None or row.deleted_at is not None:
            raise VerifiedAnswerNotFound(f"verified answer {answer_id} not found")
        return row

    async def replace(self, answer_id: str, fields: dict[str, Any], now: datetime) -> StoredAnswer:
        """Write every field anew (a PUT); an unchanged answer changes nothing and emits nothing."""
        row = await self._live(answer_id, for_update=True)
        if all(getattr(row, k) == fields[k] for k in FIELDS):
            return stored(row)
        await self._conn.execute(update(answers_t).where(answers_t.c.id == row.id).values(
            **{k: fields[k] for k in FIELDS}, version=row.version + 1, updated_at=now))
        return await self._written(row.id, now)

    async def delete(self, answer_id: str, now: datetime) -> StoredAnswer:
        row = await self._live(answer_id, for_update=True)
        await self._conn.execute(update(answers_t).where(answers_t.c.id == row.id).values(
            version=row.version + 1, updated_at=now, deleted_at=now))
        return await self._written(row.id, now)

    async def page(self, status: str | None, offset: int, limit: int
                   ) -> tuple[list[StoredAnswer], int]:
        """Live answers, newest first, and how many there are."""
        cond: list[ColumnElement[bool]] = [answers_t.c.deleted_at.is_(None)]
        if status is not None:
            cond.append(answers_t.c.status == status)
        total = (await self._conn.execute(select(func.count()).where(*cond))).scalar_one()
        rows = (await self._conn.execute(select(answers_t).where(*cond)
                                         .order_by(answers_t.c.id.desc())
                                         .offset(offset).limit(limit))).all()
        return [stored(r) for r in rows], int(total)

    async def stats(self, answer_ids: Sequence[str]) -> dict[str, AnswerStats]:
        """Counts of verified_answer_uses per answer and kind, and the live ratings of the
        messages that served each (message_feedback): two grouped queries on indexed columns."""
        if not answer_ids:
            return {}
        u, f = uses_t.c, feedback_t.c
        counts: dict[str, dict[str, Any]] = {}
        for row in (await self._conn.execute(
                select(u.answer_id, u.kind, u.judged, func.count().label("n"),
                       func.max(u.created_at).label("last"))
                .where(u.answer_id.in_(answer_ids))
                .group_by(u.answer_id, u.kind, u.judged))).all():
            kind, judged, n, last = row.kind, row.judged, int(row.n), row.last
            c = counts.setdefault(str(row.answer_id), {})
            c[kind] = c.get(kind, 0) + n
            if kind == "served":
                c["judged"] = c.get("judged", 0) + (n if judged else 0)
                c["last"] = max(filter(None, (c.get("last"), last)), default=None)
        for rated in (await self._conn.execute(
                select(u.answer_id, f.rating, func.count().label("n"))
                .select_from(uses_t.join(feedback_t, f.message_id == u.message_id))
                .where(u.answer_id.in_(answer_ids), u.kind == "served", f.deleted_at.is_(None))
                .group_by(u.answer_id, f.rating))).all():
            counts.setdefault(str(rated.answer_id), {})[str(rated.rating)] = int(rated.n)
        return {a: AnswerStats(served=c.get("served", 0), judged=c.get("judged", 0),
                               suggested=c.get("suggested", 0), rated_up=c.get("up", 0),
                               rated_down=c.get("down", 0), last_served_at=c.get("last"))
                for a, c in counts.items()}

    async def uses(self, answer_id: str, kind: str | None, offset: int, limit: int
                   ) -> tuple[list[AnswerUse], int]:
        u = uses_t.c
        cond: list[ColumnElement[bool]] = [u.answer_id == answer_id]
        if kind is not None:
            cond.append(u.kind == kind)
        total = (await self._conn.execute(select(func.count()).where(*cond))).scalar_one()
        rows = (await self._conn.execute(select(uses_t).where(*cond)
                                         .order_by(u.id.desc()).offset(offset).limit(limit))).all()
        return [AnswerUse(r.kind, bool(r.judged), r.question, r.message_id, r.user_id,
                          r.created_at) for r in rows], int(total)

    async def versions(self, after_id: str, limit: int) -> list[StoredVersion]:
        """Public id, version and deletion of the answers above `after_id` ("" for all), in
        order."""
        after = row_id(after_id) or 0
        rows = (await self._conn.execute(
            select(answers_t.c.id, answers_t.c.version, answers_t.c.deleted_at.is_not(None))
            .where(answers_t.c.id > after).order_by(answers_t.c.id).limit(limit)
        )).all()
        return [StoredVersion(public_id(row[0]), row[1], bool(row[2])) for row in rows]

    async def snapshots_of(self, answer_ids: Sequence[str], now: datetime
                           ) -> list[EventEnvelope]:
        """These answers as new events at their current versions (deleted ones as Deleted)."""
        numbers = [n for n in map(row_id, answer_ids) if n is not None]
        rows = (await self._conn.execute(select(answers_t).where(answers_t.c.id.in_(numbers))
                                         .order_by(answers_t.c.id))).all() if numbers else []
        return [answer_event(r, now) for r in rows]

    async def snapshot_events(self, after: int, limit: int, now: datetime) -> list[EventEnvelope]:
        """Answers with a row id above `after` (deleted ones too), in id order, as new events at
        their current versions (for a rebuild of the projection)."""
        rows = (await self._conn.execute(select(answers_t).where(answers_t.c.id > after)
                                         .order_by(answers_t.c.id).limit(limit))).all()
        return [answer_event(r, now) for r in rows]

    async def _written(self, number: int, now: datetime) -> StoredAnswer:
        row = await self._row(number)
        assert row is not None
        await self._outbox.add([answer_event(row, now)])
        return stored(row)

    async def _row(self, number: int, *, for_update: bool = False) -> Row[Any] | None:
        query = select(answers_t).where(answers_t.c.id == number)
        return (await self._conn.execute(query.with_for_update() if for_update else query)).first()
