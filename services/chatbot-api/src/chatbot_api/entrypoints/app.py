"""The FastAPI application of chatbot-api."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

from fastapi import FastAPI

from chatbot_api.bootstrap import Services, bootstrap
from chatbot_api.entrypoints.routes import router
from chatbot_api.settings import ChatbotSettings
from techai_shared.web import (
    BodySizeLimitMiddleware,
    RequestContextMiddleware,
    Utf8JsonMiddleware,
    install_error_handlers,
    install_openapi,
    install_ops_routes,
)


def create_app(settings: ChatbotSettings, services: Services | None = None) -> FastAPI:
    """An app whose adapters are built in its lifespan (or given, for tests)."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = services or bootstrap(settings)
        try:
            yield
        finally:
            await app.state.services.close()

    app = FastAPI(title="chatbot-api", version="0.1.0", lifespan=lifespan)
    app.state.settings = settings
    app.add_middleware(Utf8JsonMiddleware)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=settings.chatbot_max_body_bytes)
    app.add_middleware(RequestContextMiddleware)
    install_error_handlers(app)
    install_openapi(app)
    install_ops_routes(app, lambda: app.state.services.readiness_checks())
    app.include_router(router)
    return app
