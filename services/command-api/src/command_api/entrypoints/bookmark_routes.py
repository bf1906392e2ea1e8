"""Routes of /api/v1/bookmarks: the JWT user's own bookmarks (never another user's)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import Query, status

from command_api.entrypoints.deps import BookmarkServiceDep, CurrentUser
from command_api.entrypoints.schemas import (
    BookmarkCreate,
    BookmarkPage,
    BookmarkPublic,
    BookmarkUpdate,
)
from techai_shared.envelope import Envelope, success
from techai_shared.errors import ErrorCode
from techai_shared.web import api_router, error_responses

# Every route needs the bearer token and uses the command store.
router = api_router("/api/v1/bookmarks", ["bookmarks"], ErrorCode.UNAUTHENTICATED,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)
# Another user's bookmark is 403, a missing or deleted one 404.
OWNED = (ErrorCode.FORBIDDEN, ErrorCode.BOOKMARK_NOT_FOUND)


@router.post("", status_code=status.HTTP_201_CREATED, response_model=Envelope[BookmarkPublic],
             responses=error_responses(ErrorCode.INVALID_INPUT, ErrorCode.ITEM_NOT_FOUND,
                                       ErrorCode.CONFLICT, ErrorCode.PAYLOAD_TOO_LARGE))
async def create_bookmark(body: BookmarkCreate, user: CurrentUser, bookmarks: BookmarkServiceDep
                          ) -> Envelope[dict[str, Any]]:
    """Bookmark a contest or news article; 409 (4091) if the user already has, 404 if no such item."""
    result = await bookmarks.create(
        user.user_id, body.item_type, body.item_id, tag=body.tag, memo=body.memo,
        item_title=body.item_title, item_summary=body.item_summary,
    )
    return success(result.public())


@router.get("", response_model=Envelope[BookmarkPage],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_bookmarks(
    user: CurrentUser,
    bookmarks: BookmarkServiceDep,
    page: Annotated[int, Query(ge=0, le=100_000)] = 0,
    size: Annotated[int, Query(ge=1, le=100)] = 20,
) -> Envelope[dict[str, Any]]:
    items, total = await bookmarks.list_bookmarks(user.user_id, offset=page * size, limit=size)
    return success({
        "bookmarks": [item.public() for item in items],
        "totalElements": total,
        "totalPages": (total + size - 1) // size,
        "currentPage": page,
        "pageSize": size,
    })


@router.get("/{bookmark_id}", response_model=Envelope[BookmarkPublic],
            responses=error_responses(*OWNED))
async def read_bookmark(bookmark_id: str, user: CurrentUser, bookmarks: BookmarkServiceDep
                        ) -> Envelope[dict[str, Any]]:
    return success((await bookmarks.get(bookmark_id, user.user_id)).public())


@router.patch("/{bookmark_id}", response_model=Envelope[BookmarkPublic],
              responses=error_responses(ErrorCode.INVALID_INPUT, *OWNED, ErrorCode.CONFLICT,
                                        ErrorCode.PAYLOAD_TOO_LARGE))
async def update_bookmark(bookmark_id: str, body: BookmarkUpdate, user: CurrentUser,
                          bookmarks: BookmarkServiceDep) -> Envelope[dict[str, Any]]:
    result = await bookmarks.update(bookmark_id, user.user_id, body.changes())
    return success(result.public())


@router.delete("/{bookmark_id}", response_model=Envelope[None],
               responses=error_responses(*OWNED, ErrorCode.CONFLICT))
async def delete_bookmark(bookmark_id: str, user: CurrentUser, bookmarks: BookmarkServiceDep
                          ) -> Envelope[None]:
    await bookmarks.delete(bookmark_id, user.user_id)
    return success(None)
