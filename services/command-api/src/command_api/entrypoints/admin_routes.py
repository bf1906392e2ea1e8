"""Routes of /api/v1/admin: contests, news articles and the catalog import, for the ADMIN role."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Response, status
from pydantic import BaseModel

from command_api.entrypoints.deps import AdminUser, ContainerDep
from command_api.entrypoints.schemas import (
    ContestCreate,
    ContestWrite,
    NewsArticleCreate,
    NewsArticleWrite,
    PathId,
)
from techai_shared.catalog import _Item
from techai_shared.catalog_store import CatalogStore, Outcome, WriteResult
from techai_shared.envelope import success
from techai_shared.errors import AppError, ErrorCode

router = APIRouter(prefix="/api/v1/admin", tags=["admin"])

CREATED: dict[int | str, dict[str, Any]] = {
    201: {"description": "created (200 when an upsert changed an existing item)"}}


def _item(store: CatalogStore, item_id: str | None, body: BaseModel) -> _Item:
    fields = body.model_dump(exclude={"id"})
    return store.kind.model.model_validate({**fields, "id": item_id or store.kind.new_id()})


def _written(result: WriteResult, response: Response) -> dict[str, Any]:
    if result.outcome is Outcome.CREATED:
        response.status_code = status.HTTP_201_CREATED
    return success(result.public())


@router.post("/contests", responses=CREATED)
async def create_contest(body: ContestCreate, _: AdminUser, c: ContainerDep, response: Response
                         ) -> dict[str, Any]:
    return _written(await c.contests.create(_item(c.contests, body.id, body)), response)


@router.put("/contests/{contest_id}", responses=CREATED)
async def update_contest(contest_id: PathId, body: ContestWrite, _: AdminUser, c: ContainerDep,
                         response: Response) -> dict[str, Any]:
    return _written(await c.contests.upsert(_item(c.contests, contest_id, body)), response)


@router.get("/contests/{contest_id}")
async def read_contest(contest_id: str, _: AdminUser, c: ContainerDep) -> dict[str, Any]:
    return success((await c.contests.get(contest_id)).public())


@router.delete("/contests/{contest_id}")
async def delete_contest(contest_id: str, _: AdminUser, c: ContainerDep) -> dict[str, Any]:
    return success((await c.contests.delete(contest_id)).public())


@router.post("/news-articles", responses=CREATED)
async def create_news_article(body: NewsArticleCreate, _: AdminUser, c: ContainerDep,
                              response: Response) -> dict[str, Any]:
    return _written(await c.news.create(_item(c.news, body.id, body)), response)


@router.put("/news-articles/{news_id}", responses=CREATED)
async def update_news_article(news_id: PathId, body: NewsArticleWrite, _: AdminUser,
                              c: ContainerDep, response: Response) -> dict[str, Any]:
    return _written(await c.news.upsert(_item(c.news, news_id, body)), response)


@router.get("/news-articles/{news_id}")
async def read_news_article(news_id: str, _: AdminUser, c: ContainerDep) -> dict[str, Any]:
    return success((await c.news.get(news_id)).public())


@router.delete("/news-articles/{news_id}")
async def delete_news_article(news_id: str, _: AdminUser, c: ContainerDep) -> dict[str, Any]:
    return success((await c.news.delete(news_id)).public())


@router.post("/catalog/import")
async def import_catalog(_: AdminUser, c: ContainerDep) -> dict[str, Any]:
    """Load the bundled sample catalog (COMMAND_SEED_DIR) idempotently; returns counts per kind."""
    directory = c.settings.command_seed_dir
    if not directory.is_dir():
        raise AppError(f"no catalog to import at {directory}", error_code=ErrorCode.NOT_FOUND)
    counts = await c.importer.import_dir(directory)
    return success({kind: n.public() for kind, n in counts.items()})
