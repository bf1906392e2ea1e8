"""The FastAPI application of command-api: the catalog's write API, ops routes and the outbox relay."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from command_api.bootstrap import Services, bootstrap
from command_api.entrypoints import admin_routes, bookmark_routes, job_routes
from command_api.settings import CommandSettings
from techai_shared.web import (
    BodySizeLimitMiddleware,
    RequestContextMiddleware,
    Utf8JsonMiddleware,
    install_error_handlers,
    install_openapi,
    install_ops_routes,
)


def create_app(settings: CommandSettings, services: Services | None = None) -> FastAPI:
    """An app whose engine, clients and outbox relay are built in its lifespan (or given, for tests)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = services or bootstrap(settings)
        try:
            yield
        finally:
            await app.state.services.close()

    app = FastAPI(title="command-api", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.add_middleware(Utf8JsonMiddleware)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=settings.command_max_body_bytes)
    app.add_middleware(RequestContextMiddleware)
    install_error_handlers(app)
    install_openapi(app)
    install_ops_routes(app, lambda: app.state.services.readiness_checks())
    app.include_router(admin_routes.router)
    app.include_router(job_routes.router)
    app.include_router(bookmark_routes.router)
    return app
