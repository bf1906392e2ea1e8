"""Routes of /api/v1/admin: contests, news articles and the catalog import, for the ADMIN role."""

from __future__ import annotations

from typing import Any

from fastapi import Response, status

from command_api.domain.catalog import Outcome, WriteResult
from command_api.entrypoints.deps import AdminUser, CatalogImporterDep, CatalogServiceDep, SettingsDep
from command_api.entrypoints.schemas import (
    ContestCreate,
    ContestPublic,
    ContestWrite,
    ImportCountsPublic,
    NewsArticleCreate,
    NewsArticlePublic,
    NewsArticleWrite,
    PathId,
)
from techai_shared.envelope import Envelope, success
from techai_shared.errors import AppError, ErrorCode
from techai_shared.events import AggregateType
from techai_shared.web import api_router, error_responses

# Every route needs a token with the ADMIN role and uses the command store.
router = api_router("/api/v1/admin", ["admin"], ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)

# A write: its body, a concurrent change of the same item (or a live id on create), its size.
WRITE = error_responses(ErrorCode.INVALID_INPUT, ErrorCode.CONFLICT, ErrorCode.PAYLOAD_TOO_LARGE)
CONTEST_UPSERT: dict[int | str, dict[str, Any]] = {
    201: {"model": Envelope[ContestPublic], "description": "created (200: changed or unchanged)"},
    **WRITE}
NEWS_UPSERT: dict[int | str, dict[str, Any]] = {
    201: {"model": Envelope[NewsArticlePublic], "description": "created (200: changed or unchanged)"},
    **WRITE}
ITEM_NOT_FOUND = error_responses(ErrorCode.ITEM_NOT_FOUND)


CONTEST, NEWS = AggregateType.CONTEST, AggregateType.NEWS


def _written(result: WriteResult, response: Response) -> Envelope[dict[str, Any]]:
    if result.outcome is Outcome.CREATED:
        response.status_code = status.HTTP_201_CREATED
    return success(result.public())


@router.post("/contests", status_code=status.HTTP_201_CREATED,
             response_model=Envelope[ContestPublic], responses=WRITE)
async def create_contest(body: ContestCreate, _: AdminUser, catalog: CatalogServiceDep, response: Response
                         ) -> Envelope[dict[str, Any]]:
    return _written(await catalog.create(CONTEST, body.model_dump(exclude={"id"}), body.id), response)


@router.put("/contests/{contest_id}", response_model=Envelope[ContestPublic],
            responses=CONTEST_UPSERT)
async def update_contest(contest_id: PathId, body: ContestWrite, _: AdminUser, catalog: CatalogServiceDep,
                         response: Response) -> Envelope[dict[str, Any]]:
    return _written(await catalog.put(CONTEST, contest_id, body.model_dump()), response)


@router.get("/contests/{contest_id}", response_model=Envelope[ContestPublic],
            responses=ITEM_NOT_FOUND)
async def read_contest(contest_id: str, _: AdminUser, catalog: CatalogServiceDep) -> Envelope[dict[str, Any]]:
    return success((await catalog.get(CONTEST, contest_id)).public())


@router.delete("/contests/{contest_id}", response_model=Envelope[ContestPublic],
               responses=error_responses(ErrorCode.ITEM_NOT_FOUND, ErrorCode.CONFLICT))
async def delete_contest(contest_id: str, _: AdminUser, catalog: CatalogServiceDep
                         ) -> Envelope[dict[str, Any]]:
    return success((await catalog.delete(CONTEST, contest_id)).public())


@router.post("/news-articles", status_code=status.HTTP_201_CREATED,
             response_model=Envelope[NewsArticlePublic], responses=WRITE)
async def create_news_article(body: NewsArticleCreate, _: AdminUser, catalog: CatalogServiceDep,
                              response: Response) -> Envelope[dict[str, Any]]:
    return _written(await catalog.create(NEWS, body.model_dump(exclude={"id"}), body.id), response)


@router.put("/news-articles/{news_id}", response_model=Envelope[NewsArticlePublic],
            responses=NEWS_UPSERT)
async def update_news_article(news_id: PathId, body: NewsArticleWrite, _: AdminUser,
                              catalog: CatalogServiceDep, response: Response) -> Envelope[dict[str, Any]]:
    return _written(await catalog.put(NEWS, news_id, body.model_dump()), response)


@router.get("/news-articles/{news_id}", response_model=Envelope[NewsArticlePublic],
            responses=ITEM_NOT_FOUND)
async def read_news_article(news_id: str, _: AdminUser, catalog: CatalogServiceDep
                            ) -> Envelope[dict[str, Any]]:
    return success((await catalog.get(NEWS, news_id)).public())


@router.delete("/news-articles/{news_id}", response_model=Envelope[NewsArticlePublic],
               responses=error_responses(ErrorCode.ITEM_NOT_FOUND, ErrorCode.CONFLICT))
async def delete_news_article(news_id: str, _: AdminUser, catalog: CatalogServiceDep
                              ) -> Envelope[dict[str, Any]]:
    return success((await catalog.delete(NEWS, news_id)).public())


@router.post("/catalog/import", response_model=Envelope[dict[str, ImportCountsPublic]],
             responses=error_responses(ErrorCode.NOT_FOUND))
async def import_catalog(_: AdminUser, importer: CatalogImporterDep, settings: SettingsDep
                         ) -> Envelope[dict[str, Any]]:
    """Load the bundled sample catalog (COMMAND_SEED_DIR) idempotently; returns counts per kind
    (contests, newsArticles, bookmarks: those whose file is there). 404 without a catalog."""
    directory = settings.command_seed_dir
    if not directory.is_dir():
        raise AppError(f"no catalog to import at {directory}", error_code=ErrorCode.NOT_FOUND)
    counts = await importer.import_dir(directory)
    return success({kind: n.public() for kind, n in counts.items()})
