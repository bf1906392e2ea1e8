"""Every exception mapped to the error envelope in one place; never a stack trace on the wire.

Routes under a prefix can answer errors in another shape (`ErrorShape`): the OpenAI-compatible
routes of chatbot-api answer in OpenAI's, so that its clients raise their own exceptions. The
error is the same (an ErrorCode, a message, the invalid fields); only its rendering differs.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Mapping
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse
from fastapi.routing import iter_route_contexts
from sqlalchemy.exc import InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.routing import Match

from techai_shared.envelope import failure
from techai_shared.errors import AppError, ErrorCode

logger = logging.getLogger(__name__)

_HTTP_STATUS_CODES = {
    400: ErrorCode.INVALID_INPUT,
    404: ErrorCode.NOT_FOUND,
    405: ErrorCode.METHOD_NOT_ALLOWED,
    413: ErrorCode.PAYLOAD_TOO_LARGE,
}


def error_response(error_code: ErrorCode, message: str, data: Any = None, **kw: Any) -> JSONResponse:
    return JSONResponse(failure(error_code, message, data), status_code=error_code.status, **kw)


ErrorShape = Callable[[ErrorCode, str, Any, Mapping[str, str] | None], JSONResponse]
"""An error rendered as a response: (code, message, data, headers)."""


def envelope_shape(error_code: ErrorCode, message: str, data: Any,
                   headers: Mapping[str, str] | None) -> JSONResponse:
    return error_response(error_code, message, data, headers=dict(headers) if headers else None)


def shape_for(path: str, shapes: Mapping[str, ErrorShape]) -> ErrorShape:
    """The shape of the errors of a request path: the first prefix of `shapes` it starts with,
    else the envelope."""
    for prefix, shape in shapes.items():
        if path.startswith(prefix):
            return shape
    return envelope_shape


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def allowed_methods(request: Request) -> list[str]:
    """The methods of every route whose path matches the request's: a path's operations are often
    separate routes (GET and DELETE of /sessions/{id}), and Starlette's own 405 names only the
    first one it tried."""
    probe = {"type": "http", "path": request.scope["path"],
             "root_path": request.scope.get("root_path", ""), "method": request.method}
    methods: set[str] = set()
    for route in iter_route_contexts(request.app.router.routes):  # included routers' routes too
        match, _ = route.matches(probe)
        if match is not Match.NONE:
            methods |= set(route.methods or ())
    return sorted(methods)


def install_error_handlers(app: FastAPI, shapes: Mapping[str, ErrorShape] | None = None) -> None:
    """Map every exception to the envelope (or the shape of its path's prefix) in one place; never
    leak a stack trace."""
    shapes = dict(shapes or {})

    def respond(request: Request, code: ErrorCode, message: str, data: Any = None,
                headers: Mapping[str, str] | None = None) -> JSONResponse:
        return shape_for(request.scope["path"], shapes)(code, message, data, headers)

    @app.exception_handler(AppError)
    async def _app_error(request: Request, exc: AppError) -> JSONResponse:
        return respond(request, exc.error_code, exc.message, exc.data, exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(request: Request, exc: RequestValidationError) -> JSONResponse:
        fields = {_field_name(tuple(err["loc"])): err["msg"] for err in exc.errors()}
        return respond(request, ErrorCode.INVALID_INPUT, "invalid request", fields)

    @app.exception_handler(StarletteHTTPException)
    async def _http(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _HTTP_STATUS_CODES.get(exc.status_code, ErrorCode.INTERNAL_SERVER_ERROR)
        headers = dict(exc.headers or {})
        if exc.status_code == 405:  # RFC 9110 section 15.5.6: a 405 lists what the resource allows
            headers["Allow"] = ", ".join(allowed_methods(request))
        return respond(request, code, str(exc.detail), None, headers or None)

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def _store_down(request: Request, exc: Exception) -> JSONResponse:
        # Connection-level failures of the command store: nothing was written, a retry may succeed.
        logger.warning("command store unavailable: %s", type(exc).__name__)
        return respond(request, ErrorCode.SERVICE_UNAVAILABLE, "the command store is unavailable",
                       None, {"Retry-After": "5"})

    @app.exception_handler(PoolTimeoutError)
    async def _store_busy(request: Request, exc: Exception) -> JSONResponse:
        # Every pooled connection stayed busy for MYSQL_POOL_TIMEOUT_SECONDS: nothing was written.
        logger.warning("command store busy: no pooled connection within the pool timeout")
        return respond(request, ErrorCode.SERVICE_UNAVAILABLE, "the command store is busy",
                       None, {"Retry-After": "5"})

    @app.exception_handler(Exception)
    async def _unexpected(request: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error: %s", type(exc).__name__)
        return respond(request, ErrorCode.INTERNAL_SERVER_ERROR, "internal server error")
