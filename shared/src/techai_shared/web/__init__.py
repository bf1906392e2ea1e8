"""The FastAPI edge shared by the APIs.

- errors: every exception mapped to the envelope, `error_response`, 405 with `Allow`;
- middleware: request ids and timing, the body size limit, UTF-8 JSON bodies;
- openapi: routers that declare their envelope and errors, the event-stream description, the 422 hook;
- ops: /healthz, /readyz, /metrics.
"""

from techai_shared.web.errors import error_response, install_error_handlers
from techai_shared.web.middleware import (
    REQUEST_LATENCY,
    BodySizeLimitMiddleware,
    RequestContextMiddleware,
    Utf8JsonMiddleware,
)
from techai_shared.web.openapi import (
    api_router,
    error_responses,
    event_stream_response,
    install_openapi,
)
from techai_shared.web.ops import ReadinessCheck, install_ops_routes

__all__ = [
    "REQUEST_LATENCY",
    "BodySizeLimitMiddleware",
    "ReadinessCheck",
    "RequestContextMiddleware",
    "Utf8JsonMiddleware",
    "api_router",
    "error_response",
    "error_responses",
    "event_stream_response",
    "install_error_handlers",
    "install_openapi",
    "install_ops_routes",
]
