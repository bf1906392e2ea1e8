"""Each user's bookmarks: created, read, listed, changed and deleted by their owner only.

The rules (ownership, one live bookmark per user and item, the item's title and summary copied at
creation) are the bookmark repository's; each write is a unit of work, retried on a lost race as
every catalog write is (service_layer.catalog.write).
"""

from __future__ import annotations

from command_api.domain.catalog import WriteResult, new_id
from command_api.service_layer.catalog import write
from command_api.service_layer.ports import UnitOfWorkFactory
from techai_shared.events import AggregateType
from techai_shared.events.catalog import BookmarkItemType


class BookmarkService:
    def __init__(self, uow: UnitOfWorkFactory) -> None:
        self._uow = uow

    async def create(
        self, user_id: str, item_type: BookmarkItemType, item_id: str, *, tag: str | None = None,
        memo: str | None = None, item_title: str | None = None, item_summary: str | None = None,
    ) -> WriteResult:
        """Bookmark a live contest or news article; Conflict if the user has already, ItemNotFound
        if there is no such item. itemTitle/itemSummary default to the item's own."""
        bookmark_id = new_id(AggregateType.BOOKMARK)
        return await write(self._uow, f"bookmark {bookmark_id}", lambda work: work.bookmarks.create_for(
            user_id, item_type, item_id, tag=tag, memo=memo, item_title=item_title,
            item_summary=item_summary, bookmark_id=bookmark_id))

    async def get(self, bookmark_id: str, user_id: str) -> WriteResult:
        async with self._uow() as work:
            return await work.bookmarks.get_owned(bookmark_id, user_id)

    async def list_bookmarks(self, user_id: str, *, offset: int, limit: int
                             ) -> tuple[list[WriteResult], int]:
        """The user's live bookmarks, newest first, and their total count."""
        async with self._uow() as work:
            return await work.bookmarks.list_owned(user_id, offset=offset, limit=limit)

    async def update(self, bookmark_id: str, user_id: str, changes: dict[str, str | None]
                     ) -> WriteResult:
        """Change the tag and/or memo (the keys given); no event when they are already so."""
        return await write(self._uow, f"bookmark {bookmark_id}",
                           lambda work: work.bookmarks.update_owned(bookmark_id, user_id, changes))

    async def delete(self, bookmark_id: str, user_id: str) -> WriteResult:
        return await write(self._uow, f"bookmark {bookmark_id}",
                           lambda work: work.bookmarks.delete_owned(bookmark_id, user_id))
