"""Routes of /api/v1/bookmarks: the JWT user's own bookmarks (never another user's)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Query, status

from command_api.entrypoints.deps import ContainerDep, CurrentUser
from command_api.entrypoints.schemas import BookmarkCreate, BookmarkUpdate
from techai_shared.envelope import success

router = APIRouter(prefix="/api/v1/bookmarks", tags=["bookmarks"])


@router.post("", status_code=status.HTTP_201_CREATED)
async def create_bookmark(body: BookmarkCreate, user: CurrentUser, c: ContainerDep) -> dict[str, Any]:
    """Bookmark a contest or news article; 409 (4091) if the user already has, 404 if no such item."""
    result = await c.bookmarks.create_for(
        user.user_id, body.item_type, body.item_id, tag=body.tag, memo=body.memo,
        item_title=body.item_title, item_summary=body.item_summary,
    )
    return success(result.public())


@router.get("")
async def read_bookmarks(
    user: CurrentUser,
    c: ContainerDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    items, total = await c.bookmarks.list_owned(user.user_id, offset=page * size, limit=size)
    return success({
        "bookmarks": [item.public() for item in items],
        "totalElements": total,
        "totalPages": (total + size - 1) // size,
        "currentPage": page,
        "pageSize": size,
    })


@router.get("/{bookmark_id}")
async def read_bookmark(bookmark_id: str, user: CurrentUser, c: ContainerDep) -> dict[str, Any]:
    return success((await c.bookmarks.get_owned(bookmark_id, user.user_id)).public())


@router.patch("/{bookmark_id}")
async def update_bookmark(bookmark_id: str, body: BookmarkUpdate, user: CurrentUser,
                          c: ContainerDep) -> dict[str, Any]:
    result = await c.bookmarks.update_owned(bookmark_id, user.user_id, body.changes())
    return success(result.public())


@router.delete("/{bookmark_id}")
async def delete_bookmark(bookmark_id: str, user: CurrentUser, c: ContainerDep) -> dict[str, Any]:
    await c.bookmarks.delete_owned(bookmark_id, user.user_id)
    return success(None)
