"""An API application as both APIs build it: the services made in the lifespan, the shared edge
(request ids, body limit, UTF-8 JSON, error envelope, OpenAPI, ops routes), then the routers."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from contextlib import asynccontextmanager
from typing import Protocol

from fastapi import APIRouter, FastAPI

from techai_shared.settings import CommonSettings
from techai_shared.web.errors import ErrorShape, install_error_handlers
from techai_shared.web.middleware import (
    BodySizeLimitMiddleware,
    RequestContextMiddleware,
    Utf8JsonMiddleware,
)
from techai_shared.web.openapi import install_openapi
from techai_shared.web.ops import ReadinessCheck, install_ops_routes


class AppServices(Protocol):
    """What an API holds open while it runs (its bootstrap's result)."""

    def readiness_checks(self) -> dict[str, ReadinessCheck]: ...

    async def close(self) -> None: ...


def create_api(title: str, settings: CommonSettings, max_body_bytes: int,
               build: Callable[[], AppServices], routers: Sequence[APIRouter],
               error_shapes: Mapping[str, ErrorShape] | None = None,
               body_limits: Mapping[str, int] | None = None) -> FastAPI:
    """The app; `build` makes its services inside the lifespan (nothing is built at import).
    `error_shapes` renders the errors of paths under a prefix in another shape than the envelope;
    `body_limits` sets another body size limit than `max_body_bytes` for paths under a prefix."""

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        app.state.services = build()
        try:
            yield
        finally:
            await app.state.services.close()

    app = FastAPI(title=title, version="0.1.0", lifespan=lifespan)
    app.state.settings = settings  # the JWT rules of web_auth
    app.add_middleware(Utf8JsonMiddleware)
    app.add_middleware(BodySizeLimitMiddleware, max_bytes=max_body_bytes, shapes=error_shapes,
                       limits=body_limits)
    app.add_middleware(RequestContextMiddleware)
    install_error_handlers(app, error_shapes)
    install_openapi(app)
    install_ops_routes(app, lambda: app.state.services.readiness_checks())
    for router in routers:
        app.include_router(router)
    return app
