"""Bookmarks on the command store: each user's own, one live bookmark per user and item.

The write path is the catalog's (catalog_store.py: conditional writes, versions, outbox, on the
unit of work's connection; a lost race raises LostRace for the use case to retry). What is
added here is ownership (another user's bookmark is Forbidden, a missing or deleted one
BookmarkNotFound) and the rule that a user bookmarks an item once: creating a second live bookmark
of the same item is a Conflict naming the existing one, so a retried or repeated create never
overwrites the memo a user already wrote (PATCH changes it).
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import func, select
from sqlalchemy.engine import Row
from sqlalchemy.ext.asyncio import AsyncConnection

from command_api.adapters.catalog_store import (
    CONTESTS,
    NEWS_ARTICLES,
    CatalogRepository,
    ItemKind,
)
from command_api.domain.catalog import Outcome, WriteResult
from techai_shared.clock import Clock, utcnow
from techai_shared.db.schema import bookmarks
from techai_shared.db.unit_of_work import Outbox
from techai_shared.errors import BookmarkNotFound, Conflict, Forbidden, ItemNotFound
from techai_shared.events import AggregateType
from techai_shared.events.catalog import BookmarkItemType, BookmarkPayload

BOOKMARKS = ItemKind(
    bookmarks, "bookmark_id", AggregateType.BOOKMARK,
    ("user_id", "item_type", "item_id", "item_title", "item_summary", "tag", "memo"),
    not_found=BookmarkNotFound,
)

SUMMARY_LENGTH = 500  # of an item's description copied into a bookmark created without one
EDITABLE = ("tag", "memo")


def _owned(row: Row[Any] | None, bookmark_id: str, user_id: str) -> Row[Any]:
    if row is None or row.deleted_at is not None:
        raise BookmarkNotFound(f"bookmark {bookmark_id} not found")
    if row.user_id != user_id:
        raise Forbidden("this bookmark belongs to another user")
    return row


class BookmarkRepository(CatalogRepository):
    """Bookmark writes for their owner (the JWT's user) and by id for the importer (`upsert`)."""

    def __init__(self, conn: AsyncConnection, outbox: Outbox, clock: Clock = utcnow) -> None:
        super().__init__(conn, outbox, BOOKMARKS, clock)

    def _liveness(self, live: bool) -> dict[str, Any]:
        return {"live": True if live else None}  # NULL leaves the unique (user, item) key free

    async def _check(self, item_id: str, state: dict[str, Any]) -> None:
        t = bookmarks
        other = (await self._conn.execute(
            select(t.c.bookmark_id).where(
                t.c.user_id == state["user_id"], t.c.item_type == state["item_type"],
                t.c.item_id == state["item_id"], t.c.deleted_at.is_(None),
                t.c.bookmark_id != item_id,
            )
        )).scalar()
        if other is not None:
            raise Conflict("this item is already bookmarked", data={"bookmarkId": other})

    async def create_for(
        self, user_id: str, item_type: BookmarkItemType, item_id: str, *, tag: str | None = None,
        memo: str | None = None, item_title: str | None = None, item_summary: str | None = None,
        bookmark_id: str | None = None,
    ) -> WriteResult:
        """Bookmark a live catalog item for a user (ItemNotFound if there is none), under
        `bookmark_id` or a generated id."""
        title, summary = await self._describe(item_type, item_id)
        payload = BookmarkPayload(
            id=bookmark_id or self.kind.new_id(), user_id=user_id, item_type=item_type, item_id=item_id,
            item_title=title if item_title is None else item_title,
            item_summary=summary if item_summary is None else item_summary, tag=tag, memo=memo,
        )
        return await self.create(payload)

    async def _describe(self, item_type: BookmarkItemType, item_id: str) -> tuple[str, str]:
        """The title and a summary of the bookmarked item, from the command store."""
        kind, summary = ((CONTESTS, "description") if item_type is BookmarkItemType.CONTEST
                         else (NEWS_ARTICLES, "summary"))
        t = kind.table
        row = (await self._conn.execute(
            select(t.c.title, t.c[summary]).where(t.c[kind.id_column] == item_id,
                                                  t.c.deleted_at.is_(None))
        )).first()
        if row is None:
            raise ItemNotFound(f"{item_type} {item_id} not found")
        return row[0], row[1][:SUMMARY_LENGTH]

    async def get_owned(self, bookmark_id: str, user_id: str) -> WriteResult:
        """The user's live bookmark; BookmarkNotFound, or Forbidden if it is another user's."""
        owned = _owned(await self._row(bookmark_id), bookmark_id, user_id)
        return WriteResult(Outcome.UNCHANGED, self.kind.payload(owned), owned.version)

    async def update_owned(self, bookmark_id: str, user_id: str, changes: dict[str, str | None]
                           ) -> WriteResult:
        """Change the tag and/or memo (the keys given); no event when they are already so."""
        changes = {k: v for k, v in changes.items() if k in EDITABLE}

        async def change(row: Row[Any] | None) -> dict[str, Any] | None:
            current = _owned(row, bookmark_id, user_id)
            if all(getattr(current, k) == v for k, v in changes.items()):
                return None
            return {**changes, "updated_at": self._clock()}

        return await self._apply(bookmark_id, change)

    async def delete_owned(self, bookmark_id: str, user_id: str) -> WriteResult:
        async def change(row: Row[Any] | None) -> dict[str, Any]:
            _owned(row, bookmark_id, user_id)
            return self._deleted_values()

        return await self._apply(bookmark_id, change)

    async def list_owned(self, user_id: str, *, offset: int, limit: int
                         ) -> tuple[list[WriteResult], int]:
        """The user's live bookmarks, newest first, and their total count."""
        t = bookmarks
        cond = (t.c.user_id == user_id, t.c.deleted_at.is_(None))
        total = (await self._conn.execute(
            select(func.count()).select_from(t).where(*cond))).scalar_one()
        rows = (await self._conn.execute(
            select(t).where(*cond).order_by(t.c.created_at.desc(), t.c.bookmark_id.desc())
            .offset(offset).limit(limit)
        )).all()
        return [WriteResult(Outcome.UNCHANGED, self.kind.payload(r), r.version) for r in rows], int(total)
