"""The FastAPI application of command-api: the catalog's write API, ops routes and the outbox relay."""

from __future__ import annotations

from fastapi import FastAPI

from command_api.bootstrap import Services, bootstrap
from command_api.entrypoints import (
    admin_routes,
    answer_routes,
    bookmark_routes,
    budget_routes,
    job_routes,
)
from command_api.settings import CommandSettings
from techai_shared.web.app import create_api


def create_app(settings: CommandSettings, services: Services | None = None) -> FastAPI:
    """An app whose engine, clients and outbox relay are built in its lifespan (or given, for tests)."""
    return create_api("command-api", settings, settings.command_max_body_bytes,
                      lambda: services or bootstrap(settings),
                      [admin_routes.router, answer_routes.router, job_routes.router,
                       bookmark_routes.router, budget_routes.router])
