"""The worker's health and metrics server: /healthz, /readyz, /metrics, run by uvicorn in the
worker's own event loop so readiness sees the real consumer and clients.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from fastapi import FastAPI

from techai_shared.health_server import HealthServer
from techai_shared.web import (
    ReadinessCheck,
    RequestContextMiddleware,
    install_error_handlers,
    install_ops_routes,
)

__all__ = ["HealthServer", "create_app"]

logger = logging.getLogger(__name__)


def create_app(checks: Callable[[], dict[str, ReadinessCheck]]) -> FastAPI:
    """The ops app; `checks` names each readiness dependency (mongodb, kafka, consumer)."""
    app = FastAPI(title="query-sync", docs_url=None, redoc_url=None, openapi_url=None)
    app.add_middleware(RequestContextMiddleware)
    install_error_handlers(app)
    install_ops_routes(app, checks)
    return app
