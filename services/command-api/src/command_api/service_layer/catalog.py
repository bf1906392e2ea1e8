"""The catalog writes of the ADMIN role: contests and news articles, created, replaced, read and
deleted by id; and how every catalog write (bookmarks and the import too) runs.

Each write is one unit of work: the repository reads the item's row, decides, writes it
conditionally and adds its event to the outbox; the commit wakes the outbox relay. A write that
lost a race with a concurrent writer of the same item (LostRace) is rolled back and run again on a
fresh read, up to MAX_ATTEMPTS times; after that the caller gets a Conflict to retry later.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

from command_api.domain.catalog import WriteResult, new_item
from command_api.service_layer.ports import (
    CatalogRepository,
    CommandUnitOfWork,
    LostRace,
    UnitOfWorkFactory,
)
from techai_shared.errors import Conflict
from techai_shared.events import AggregateType
from techai_shared.events.catalog import CatalogItem

logger = logging.getLogger(__name__)

MAX_ATTEMPTS = 5

T = TypeVar("T")


async def write(uow: UnitOfWorkFactory, what: str,
                change: Callable[[CommandUnitOfWork], Awaitable[T]]) -> T:
    """Run `change` in a unit of work and commit it; on a lost race, roll back and run it again
    (`what` names the item in the Conflict raised when every attempt lost)."""
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            async with uow() as work:
                result = await change(work)
                await work.commit()
            return result
        except LostRace as exc:
            if attempt == MAX_ATTEMPTS:
                raise Conflict(f"{what} is being changed concurrently; try again") from exc
            logger.debug("retrying the write of %s after a lost race (%s)", what, exc)
    raise AssertionError("unreachable")


def repository(uow: CommandUnitOfWork, kind: AggregateType) -> CatalogRepository:
    """The repository of an aggregate type of the catalog (bookmarks included)."""
    if kind is AggregateType.CONTEST:
        return uow.contests
    if kind is AggregateType.NEWS:
        return uow.news
    if kind is AggregateType.BOOKMARK:
        return uow.bookmarks
    raise ValueError(f"{kind} is not a catalog aggregate")


async def upsert(uow: UnitOfWorkFactory, kind: AggregateType, item: CatalogItem) -> WriteResult:
    """Create `item` under its id, revive it, or replace its state; UNCHANGED if it is so."""
    return await write(uow, f"{kind} {item.id}", lambda work: repository(work, kind).upsert(item))


class CatalogService:
    """Contests (AggregateType.CONTEST) and news articles (AggregateType.NEWS) by id."""

    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def get(self, kind: AggregateType, item_id: str) -> WriteResult:
        """The live item; ItemNotFound otherwise."""
        async with self._uow() as work:
            return await repository(work, kind).get(item_id)

    async def create(self, kind: AggregateType, fields: dict[str, Any],
                     item_id: str | None = None) -> WriteResult:
        """A new item under `item_id` (Conflict if it is live already) or a generated id."""
        item = new_item(kind, fields, item_id)
        return await write(self._uow, f"{kind} {item.id}",
                           lambda work: repository(work, kind).create(item))

    async def put(self, kind: AggregateType, item_id: str, fields: dict[str, Any]) -> WriteResult:
        """The item's whole state: created, revived, replaced, or UNCHANGED if it is so already."""
        return await upsert(self._uow, kind, new_item(kind, fields, item_id))

    async def delete(self, kind: AggregateType, item_id: str) -> WriteResult:
        """Soft delete (ItemNotFound if there is no live item)."""
        return await write(self._uow, f"{kind} {item_id}",
                           lambda work: repository(work, kind).delete(item_id))
