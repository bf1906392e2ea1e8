"""Contests and news articles on the command store: each write with its event, in the unit of work's
transaction.

Every write reads the item's row (locking it when it exists, so writers of one item queue up),
decides what changes, and writes it with a conditional statement: an UPDATE ... WHERE version =
<the version read> or an INSERT of a new id. If the UPDATE matches nothing, or a concurrent insert
of the same id fails on the primary key, the write raises `LostRace`: the use case rolls the unit
of work back and runs it again on a fresh read (service_layer.catalog.write). The new version and
one event carrying the full state go into the outbox in the same transaction.

A write whose resulting state equals the stored one changes nothing and emits nothing: this is what
makes the bulk import idempotent. Rows are only soft-deleted, so versions of an id keep rising.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import Enum
from functools import cache
from typing import Any

from sqlalchemy import Select, Table, bindparam, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from command_api.domain.catalog import Outcome, WriteResult, item_model, new_id
from command_api.service_layer.ports import LostRace, StoredVersion
from techai_shared.clock import Clock, utcnow
from techai_shared.contest_status import contest_status
from techai_shared.db.schema import contests, news_articles
from techai_shared.db.unit_of_work import Outbox
from techai_shared.errors import AppError, Conflict, ItemNotFound
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.events.catalog import CATALOG_EVENTS, CatalogItem
from techai_shared.logging import request_id_var

_LIFECYCLE = ("created_at", "updated_at", "deleted_at")


@dataclass(frozen=True)
class ItemKind:
    """How one aggregate type maps onto its table."""

    table: Table
    id_column: str
    aggregate_type: AggregateType
    fields: tuple[str, ...]  # the payload's own fields, named like their columns
    not_found: type[AppError] = ItemNotFound

    @property
    def model(self) -> type[CatalogItem]:
        return item_model(self.aggregate_type)

    def new_id(self) -> str:
        """A generated public id, e.g. c-1f0c3a9e5b7d4e21."""
        return new_id(self.aggregate_type)

    def state(self, item: CatalogItem, now: datetime) -> dict[str, Any]:
        """The stored columns of a payload (enums as their values) as of `now`: a contest's status
        is the one its dates give then, whatever the payload said (techai_shared.contest_status)."""
        values = {name: getattr(item, name) for name in self.fields}
        state = {k: v.value if isinstance(v, Enum) else v for k, v in values.items()}
        if self.aggregate_type is AggregateType.CONTEST:
            state["status"] = contest_status(state["start_date"], state["end_date"], now,
                                             state["status"]).value
        return state

    def payload(self, row: Row[Any]) -> CatalogItem:
        """The full state of a row, as every event of this aggregate carries it."""
        data = {name: getattr(row, name) for name in (*self.fields, *_LIFECYCLE)}
        return self.model.model_validate({"id": getattr(row, self.id_column), **data})

    def same(self, row: Row[Any] | None, state: dict[str, Any]) -> bool:
        """True when the row is live and already holds this state."""
        return (row is not None and row.deleted_at is None
                and all(getattr(row, k) == v for k, v in state.items()))


CONTESTS = ItemKind(
    contests, "contest_id", AggregateType.CONTEST,
    ("title", "description", "start_date", "end_date", "status", "url", "source_name", "tags"),
)
NEWS_ARTICLES = ItemKind(
    news_articles, "news_id", AggregateType.NEWS,
    ("title", "summary", "content", "published_at", "url", "source_name", "tags"),
)


@dataclass(frozen=True)
class _Statements:
    """The reads of one kind's row by id, built once (only the id changes from call to call)."""

    by_id: Select[Any]
    by_id_for_update: Select[Any]


@cache
def _statements(kind: ItemKind) -> _Statements:
    by_id = select(kind.table).where(kind.table.c[kind.id_column] == bindparam("p_id"))
    return _Statements(by_id, by_id.with_for_update())


# Decides a write from the current row (None if the id was never used): the column values to
# write, or None when nothing changes. Raises a domain error to refuse the write.
Change = Callable[[Row[Any] | None], Awaitable[dict[str, Any] | None]]


class CatalogRepository:
    """Reads and writes of one catalog aggregate (contests or news articles) on the unit of work's
    connection; events go to its outbox."""

    def __init__(self, conn: AsyncConnection, outbox: Outbox, kind: ItemKind,
                 clock: Clock = utcnow) -> None:
        self._conn = conn
        self._outbox = outbox
        self.kind = kind
        self._clock = clock
        self._id = kind.table.c[kind.id_column]
        self._statements = _statements(kind)

    async def get(self, item_id: str) -> WriteResult:
        """The live item (as an UNCHANGED result), or the kind's not-found error."""
        row = await self._row(item_id)
        if row is None or row.deleted_at is not None:
            raise self.kind.not_found(f"{self.kind.aggregate_type} {item_id} not found")
        return WriteResult(Outcome.UNCHANGED, self.kind.payload(row), row.version)

    async def upsert(self, item: CatalogItem) -> WriteResult:
        """Create the item under its id, revive it if deleted, or replace its state; no-op if equal."""
        return await self._apply(item.id, self._put(item, must_be_new=False))

    async def create(self, item: CatalogItem) -> WriteResult:
        """Create an item; Conflict if its id is live already."""
        return await self._apply(item.id, self._put(item, must_be_new=True))

    async def delete(self, item_id: str) -> WriteResult:
        """Soft delete; the event carries the last state with deletedAt set."""

        async def change(row: Row[Any] | None) -> dict[str, Any]:
            if row is None or row.deleted_at is not None:
                raise self.kind.not_found(f"{self.kind.aggregate_type} {item_id} not found")
            return self._deleted_values()

        return await self._apply(item_id, change)

    def _deleted_values(self) -> dict[str, Any]:
        now = self._clock()
        return {"deleted_at": now, "updated_at": now, **self._liveness(False)}

    def _liveness(self, live: bool) -> dict[str, Any]:
        """Extra columns that follow the item's life (none here; bookmarks have one)."""
        return {}

    def _put(self, item: CatalogItem, *, must_be_new: bool) -> Change:
        state = self.kind.state(item, self._clock())

        async def change(row: Row[Any] | None) -> dict[str, Any] | None:
            live = row is not None and row.deleted_at is None
            if must_be_new and live:
                raise Conflict(f"{self.kind.aggregate_type} {item.id} already exists")
            if self.kind.same(row, state):
                return None
            await self._check(item.id, state)
            now = self._clock()
            values = {**state, "updated_at": now, "deleted_at": None, **self._liveness(True)}
            if not live:
                values["created_at"] = now  # a new life for a new or deleted id
            return values

        return change

    async def _check(self, item_id: str, state: dict[str, Any]) -> None:
        """A hook to refuse a create or update that breaks a rule of the aggregate."""

    async def _row(self, item_id: str) -> Row[Any] | None:
        return (await self._conn.execute(self._statements.by_id, {"p_id": item_id})).first()

    async def _locked_row(self, item_id: str) -> Row[Any]:
        return (await self._conn.execute(self._statements.by_id_for_update,
                                         {"p_id": item_id})).one()

    async def _apply(self, item_id: str, change: Change) -> WriteResult:
        """One write and its event; LostRace when a concurrent writer got there in between."""
        try:
            return await self._write(item_id, change)
        except IntegrityError as exc:  # a concurrent insert of the same id (or unique key) won
            raise LostRace(f"{self.kind.aggregate_type} {item_id}") from exc

    async def _write(self, item_id: str, change: Change) -> WriteResult:
        table = self.kind.table
        row = await self._row(item_id)
        if row is not None:
            # Lock the existing row and read its latest version, so concurrent writers queue
            # here instead of retrying. Only an id found to exist is locked: a locking read
            # of a missing key takes a gap lock, and two such inserters would deadlock.
            # (SQLite ignores FOR UPDATE; BEGIN IMMEDIATE has serialised writers already.)
            row = await self._locked_row(item_id)
        values = await change(row)
        if values is None and row is not None:
            return WriteResult(Outcome.UNCHANGED, self.kind.payload(row), row.version)
        if values is None:
            raise self.kind.not_found(f"{self.kind.aggregate_type} {item_id} not found")
        if row is None:
            await self._conn.execute(insert(table).values(
                {self.kind.id_column: item_id, "version": 1, **values}))
        else:
            written = await self._conn.execute(
                update(table).where(self._id == item_id, table.c.version == row.version)
                .values(version=table.c.version + 1, **values))
            if written.rowcount != 1:
                raise LostRace(f"{self.kind.aggregate_type} {item_id} changed since it was read")
        after = (await self._conn.execute(self._statements.by_id, {"p_id": item_id})).one()
        outcome = self._outcome(row, after)
        item = self.kind.payload(after)
        await self._outbox.add([self._event(outcome, item, after.version)])
        return WriteResult(outcome, item, after.version)

    async def snapshot_events(self, after_id: str, limit: int) -> list[EventEnvelope]:
        """Items with an id above `after_id` (deleted ones too), in id order, each as a new event at
        its current version: what rebuilding the projection republishes."""
        rows = (await self._conn.execute(
            select(self.kind.table).where(self._id > after_id).order_by(self._id).limit(limit)
        )).all()
        return [self._snapshot(row) for row in rows]

    async def status_due(self, now: datetime, limit: int) -> list[str]:
        """Live contests whose stored status is not the one their dates give as of `now` (one that
        ended while still ONGOING, one that started, ...), in id order; none for the other kinds."""
        if self.kind.aggregate_type is not AggregateType.CONTEST:
            return []
        t = self.kind.table
        not_ended = t.c.end_date.is_(None) | (t.c.end_date >= now)
        ended = (t.c.end_date < now) & (t.c.status != "ENDED")
        upcoming = (t.c.start_date > now) & not_ended & (t.c.status != "UPCOMING")
        ongoing = (t.c.start_date <= now) & not_ended & (t.c.status != "ONGOING")
        found = await self._conn.execute(
            select(self._id).where(t.c.deleted_at.is_(None), ended | upcoming | ongoing)
            .order_by(self._id).limit(limit))
        ids: Sequence[Any] = found.scalars().all()
        return [str(i) for i in ids]

    async def versions(self, after_id: str, limit: int) -> list[StoredVersion]:
        """Id, version and deletion of the items above `after_id`, in id order: what a
        comparison with the read model reads (no payload columns)."""
        table = self.kind.table
        rows = (await self._conn.execute(
            select(self._id, table.c.version, table.c.deleted_at.is_not(None))
            .where(self._id > after_id).order_by(self._id).limit(limit)
        )).all()
        return [StoredVersion(str(row[0]), row[1], bool(row[2])) for row in rows]

    async def snapshots_of(self, item_ids: Sequence[str]) -> list[EventEnvelope]:
        """These items as new events at their current versions (deleted ones as Deleted)."""
        rows = (await self._conn.execute(
            select(self.kind.table).where(self._id.in_(list(item_ids))).order_by(self._id)
        )).all() if item_ids else []
        return [self._snapshot(row) for row in rows]

    def _snapshot(self, row: Row[Any]) -> EventEnvelope:
        return self._event(Outcome.DELETED if row.deleted_at else Outcome.UPDATED,
                           self.kind.payload(row), row.version)

    @staticmethod
    def _outcome(before: Row[Any] | None, after: Row[Any]) -> Outcome:
        if after.deleted_at is not None:
            return Outcome.DELETED
        if before is None or before.deleted_at is not None:
            return Outcome.CREATED
        return Outcome.UPDATED

    def _event(self, outcome: Outcome, item: CatalogItem, version: int) -> EventEnvelope:
        _, upserted, deleted = CATALOG_EVENTS[self.kind.aggregate_type]
        occurred_at: datetime = item.updated_at or self._clock()
        return EventEnvelope(
            event_type=deleted if outcome is Outcome.DELETED else upserted,
            aggregate_type=self.kind.aggregate_type,
            aggregate_id=item.id,
            version=version,
            occurred_at=occurred_at,
            payload=item.model_dump(mode="json", by_alias=True),
            request_id=request_id_var.get(),
        )
