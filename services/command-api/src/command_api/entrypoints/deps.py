"""FastAPI dependencies: the caller (from techai_shared.web_auth) and each use case."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from command_api.bootstrap import Services
from command_api.service_layer.answers import VerifiedAnswerService
from command_api.service_layer.bookmarks import BookmarkService
from command_api.service_layer.budgets import UserBudgetService
from command_api.service_layer.catalog import CatalogService
from command_api.service_layer.catalog_import import CatalogImporter
from command_api.service_layer.jobs import JobRunner
from command_api.settings import CommandSettings
from techai_shared.web_auth import AdminUser, CurrentUser

__all__ = [
    "AdminUser", "BookmarkServiceDep", "CatalogImporterDep", "CatalogServiceDep", "CurrentUser",
    "JobRunnerDep", "SettingsDep", "UserBudgetServiceDep", "VerifiedAnswerServiceDep",
]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


def get_settings(request: Request) -> CommandSettings:
    return _services(request).settings


def get_catalog_service(request: Request) -> CatalogService:
    return _services(request).catalog


def get_bookmark_service(request: Request) -> BookmarkService:
    return _services(request).bookmarks


def get_catalog_importer(request: Request) -> CatalogImporter:
    return _services(request).importer


def get_job_runner(request: Request) -> JobRunner:
    return _services(request).ops.runner


def get_user_budget_service(request: Request) -> UserBudgetService:
    return _services(request).budgets


def get_verified_answer_service(request: Request) -> VerifiedAnswerService:
    return _services(request).answers


SettingsDep = Annotated[CommandSettings, Depends(get_settings)]
CatalogServiceDep = Annotated[CatalogService, Depends(get_catalog_service)]
BookmarkServiceDep = Annotated[BookmarkService, Depends(get_bookmark_service)]
CatalogImporterDep = Annotated[CatalogImporter, Depends(get_catalog_importer)]
JobRunnerDep = Annotated[JobRunner, Depends(get_job_runner)]
VerifiedAnswerServiceDep = Annotated[VerifiedAnswerService, Depends(get_verified_answer_service)]
UserBudgetServiceDep = Annotated[UserBudgetService, Depends(get_user_budget_service)]
