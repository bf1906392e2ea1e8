"""The FastAPI application of command-api: ops routes now; the catalog's write API comes later."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from command_api.bootstrap import Container, bootstrap
from command_api.settings import CommandSettings
from techai_shared.web import RequestContextMiddleware, install_error_handlers, install_ops_routes


def create_app(settings: CommandSettings) -> FastAPI:
    """An app whose engine, clients and outbox relay are built in its lifespan, not at import."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        container: Container = bootstrap(settings)
        app.state.container = container
        try:
            yield
        finally:
            await container.close()

    app = FastAPI(title="command-api", version="0.1.0", lifespan=lifespan)
    app.add_middleware(RequestContextMiddleware)
    install_error_handlers(app)
    install_ops_routes(app, lambda: app.state.container.readiness_checks())
    return app
