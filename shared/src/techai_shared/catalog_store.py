"""The catalog command layer: contests and news articles written with their events in one transaction.

Every write reads the item's row (locking it when it exists, so writers of one item queue up),
decides what changes, and writes it with a conditional statement: an UPDATE ... WHERE version =
<the version read> (a safety net: if it matches nothing the transaction is retried on a fresh read)
or an INSERT of a new id (a concurrent insert of the same id fails on the primary key, and the retry
finds the row and updates it). The new version and one event
carrying the full state go into the outbox in the same transaction.

A write whose resulting state equals the stored one changes nothing and emits nothing: this is what
makes the bulk import idempotent. Rows are only soft-deleted, so versions of an id keep rising.
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from enum import Enum, StrEnum
from typing import Any

from sqlalchemy import Table, insert, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from techai_shared.catalog import CATALOG_EVENTS, _Item
from techai_shared.clock import Clock, utcnow
from techai_shared.db.outbox import add_events
from techai_shared.db.schema import contests, news_articles
from techai_shared.errors import AppError, Conflict, ItemNotFound
from techai_shared.events import AggregateType, EventEnvelope
from techai_shared.logging import request_id_var

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5
_LIFECYCLE = ("created_at", "updated_at", "deleted_at")


class Outcome(StrEnum):
    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    DELETED = "deleted"


@dataclass(frozen=True)
class ItemKind:
    """How one aggregate type maps onto its table."""

    table: Table
    id_column: str
    aggregate_type: AggregateType
    id_prefix: str
    fields: tuple[str, ...]  # the payload's own fields, named like their columns
    not_found: type[AppError] = ItemNotFound

    @property
    def model(self) -> type[_Item]:
        return CATALOG_EVENTS[self.aggregate_type][0]

    def new_id(self) -> str:
        """A generated public id, e.g. c-1f0c3a9e5b7d4e21."""
        return f"{self.id_prefix}{uuid.uuid4().hex[:16]}"

    def state(self, item: _Item) -> dict[str, Any]:
        """The stored columns of a payload (enums as their values)."""
        values = {name: getattr(item, name) for name in self.fields}
        return {k: v.value if isinstance(v, Enum) else v for k, v in values.items()}

    def payload(self, row: Row[Any]) -> _Item:
        """The full state of a row, as every event of this aggregate carries it."""
        data = {name: getattr(row, name) for name in (*self.fields, *_LIFECYCLE)}
        return self.model.model_validate({"id": getattr(row, self.id_column), **data})

    def same(self, row: Row[Any] | None, state: dict[str, Any]) -> bool:
        """True when the row is live and already holds this state."""
        return (row is not None and row.deleted_at is None
                and all(getattr(row, k) == v for k, v in state.items()))


CONTESTS = ItemKind(
    contests, "contest_id", AggregateType.CONTEST, "c-",
    ("title", "description", "start_date", "end_date", "status", "url", "source_name", "tags"),
)
NEWS_ARTICLES = ItemKind(
    news_articles, "news_id", AggregateType.NEWS, "n-",
    ("title", "summary", "content", "published_at", "url", "source_name", "tags"),
)


@dataclass(frozen=True)
class WriteResult:
    outcome: Outcome
    item: _Item
    version: int

    def public(self) -> dict[str, Any]:
        """The item in camelCase with its version, as the API shows it."""
        return {**self.item.model_dump(mode="json", by_alias=True), "version": self.version}


# Decides a write from the current row (None if the id was never used): the column values to
# write, or None when nothing changes. Raises a domain error to refuse the write.
Change = Callable[[AsyncConnection, Row[Any] | None], Awaitable[dict[str, Any] | None]]


class _Stale(Exception):
    """The row changed between our read and our conditional write; retry on a fresh read."""


class CatalogStore:
    """Reads and writes of one catalog aggregate (contests or news articles) on the command store."""

    def __init__(self, engine: AsyncEngine, kind: ItemKind,
                 on_commit: Callable[[], None] | None = None, clock: Clock = utcnow) -> None:
        self._engine = engine
        self.kind = kind
        self._on_commit = on_commit or (lambda: None)
        self._clock = clock

    @property
    def _id(self) -> Any:
        return self.kind.table.c[self.kind.id_column]

    async def get(self, item_id: str) -> WriteResult:
        """The live item (as an UNCHANGED result), or the kind's not-found error."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(self.kind.table).where(self._id == item_id))).first()
            await conn.commit()
        if row is None or row.deleted_at is not None:
            raise self.kind.not_found(f"{self.kind.aggregate_type} {item_id} not found")
        return WriteResult(Outcome.UNCHANGED, self.kind.payload(row), row.version)

    async def upsert(self, item: _Item) -> WriteResult:
        """Create the item under its id, revive it if deleted, or replace its state; no-op if equal."""
        return await self._apply(item.id, self._put(item, must_be_new=False))

    async def create(self, item: _Item | None = None, **fields: Any) -> WriteResult:
        """Create an item; Conflict if its id is live already. Without an id, one is generated."""
        if item is None:
            item = self.kind.model.model_validate({"id": self.kind.new_id(), **fields})
        return await self._apply(item.id, self._put(item, must_be_new=True))

    async def delete(self, item_id: str) -> WriteResult:
        """Soft delete; the event carries the last state with deletedAt set."""

        async def change(_: AsyncConnection, row: Row[Any] | None) -> dict[str, Any]:
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

    def _put(self, item: _Item, *, must_be_new: bool) -> Change:
        state = self.kind.state(item)

        async def change(conn: AsyncConnection, row: Row[Any] | None) -> dict[str, Any] | None:
            live = row is not None and row.deleted_at is None
            if must_be_new and live:
                raise Conflict(f"{self.kind.aggregate_type} {item.id} already exists")
            if self.kind.same(row, state):
                return None
            await self._check(conn, item.id, state)
            now = self._clock()
            values = {**state, "updated_at": now, "deleted_at": None, **self._liveness(True)}
            if not live:
                values["created_at"] = now  # a new life for a new or deleted id
            return values

        return change

    async def _check(self, conn: AsyncConnection, item_id: str, state: dict[str, Any]) -> None:
        """A hook to refuse a create or update that breaks a rule of the aggregate."""

    async def _apply(self, item_id: str, change: Change) -> WriteResult:
        """Run one write with its event in a transaction, retrying lost races on a fresh read."""
        for _ in range(MAX_ATTEMPTS - 1):
            try:
                result = await self._attempt(item_id, change)
            except (_Stale, IntegrityError) as exc:
                logger.debug("retrying the write of %s %s after %s", self.kind.aggregate_type,
                             item_id, type(exc).__name__)
                continue
            return self._committed(result)
        try:
            return self._committed(await self._attempt(item_id, change))
        except (_Stale, IntegrityError) as exc:
            raise Conflict(f"{self.kind.aggregate_type} {item_id} is being changed concurrently; "
                           "try again") from exc

    def _committed(self, result: WriteResult) -> WriteResult:
        if result.outcome is not Outcome.UNCHANGED:
            self._on_commit()
        return result

    async def _attempt(self, item_id: str, change: Change) -> WriteResult:
        table = self.kind.table
        async with self._engine.begin() as conn:
            row = (await conn.execute(select(table).where(self._id == item_id))).first()
            if row is not None:
                # Lock the existing row and read its latest version, so concurrent writers queue
                # here instead of retrying. Only an id found to exist is locked: a locking read
                # of a missing key takes a gap lock, and two such inserters would deadlock.
                # (SQLite ignores FOR UPDATE; BEGIN IMMEDIATE has serialised writers already.)
                row = (await conn.execute(
                    select(table).where(self._id == item_id).with_for_update())).one()
            values = await change(conn, row)
            if values is None and row is not None:
                return WriteResult(Outcome.UNCHANGED, self.kind.payload(row), row.version)
            if values is None:
                raise self.kind.not_found(f"{self.kind.aggregate_type} {item_id} not found")
            if row is None:
                await conn.execute(insert(table).values(
                    {self.kind.id_column: item_id, "version": 1, **values}))
            else:
                written = await conn.execute(
                    update(table).where(self._id == item_id, table.c.version == row.version)
                    .values(version=table.c.version + 1, **values))
                if written.rowcount != 1:
                    raise _Stale(item_id)
            after = (await conn.execute(select(table).where(self._id == item_id))).one()
            outcome = self._outcome(row, after)
            item = self.kind.payload(after)
            await add_events(conn, [self._event(outcome, item, after.version)])
        return WriteResult(outcome, item, after.version)

    async def snapshot_events(self, after_id: str, limit: int) -> list[EventEnvelope]:
        """Items with an id above `after_id` (deleted ones too), in id order, each as a new event at
        its current version: what rebuilding the projection republishes."""
        table = self.kind.table
        async with self._engine.connect() as conn:
            rows = (await conn.execute(
                select(table).where(self._id > after_id).order_by(self._id).limit(limit)
            )).all()
            await conn.commit()
        return [
            self._event(Outcome.DELETED if row.deleted_at else Outcome.UPDATED,
                        self.kind.payload(row), row.version)
            for row in rows
        ]

    @staticmethod
    def _outcome(before: Row[Any] | None, after: Row[Any]) -> Outcome:
        if after.deleted_at is not None:
            return Outcome.DELETED
        if before is None or before.deleted_at is not None:
            return Outcome.CREATED
        return Outcome.UPDATED

    def _event(self, outcome: Outcome, item: _Item, version: int) -> EventEnvelope:
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


def contest_store(engine: AsyncEngine, on_commit: Callable[[], None] | None = None,
                  clock: Clock = utcnow) -> CatalogStore:
    return CatalogStore(engine, CONTESTS, on_commit, clock)


def news_store(engine: AsyncEngine, on_commit: Callable[[], None] | None = None,
               clock: Clock = utcnow) -> CatalogStore:
    return CatalogStore(engine, NEWS_ARTICLES, on_commit, clock)

