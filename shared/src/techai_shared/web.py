"""FastAPI edge pieces shared by the APIs: error mapping, request ids, body limit, health routes."""

from __future__ import annotations

import codecs
import logging
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.openapi.utils import get_openapi
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, Histogram, generate_latest
from sqlalchemy.exc import InterfaceError, OperationalError
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.responses import Response
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from techai_shared.envelope import failure, success
from techai_shared.errors import AppError, ErrorCode
from techai_shared.logging import request_id_var

logger = logging.getLogger(__name__)

REQUEST_LATENCY = Histogram(
    "http_request_duration_seconds",
    "HTTP request latency by route and status",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)

ReadinessCheck = Callable[[], Awaitable[None]]


def error_response(error_code: ErrorCode, message: str, data: Any = None, **kw: Any) -> JSONResponse:
    return JSONResponse(failure(error_code, message, data), status_code=error_code.status, **kw)


def _field_name(loc: tuple[Any, ...]) -> str:
    parts = [str(p) for p in loc if p not in ("body", "query", "path", "header")]
    return ".".join(parts) or "body"


def install_error_handlers(app: FastAPI) -> None:
    """Map every exception to the envelope in one place; never leak a stack trace."""

    @app.exception_handler(AppError)
    async def _app_error(_: Request, exc: AppError) -> JSONResponse:
        return error_response(exc.error_code, exc.message, exc.data, headers=exc.headers)

    @app.exception_handler(RequestValidationError)
    async def _validation(_: Request, exc: RequestValidationError) -> JSONResponse:
        fields = {_field_name(tuple(err["loc"])): err["msg"] for err in exc.errors()}
        return error_response(ErrorCode.INVALID_INPUT, "invalid request", fields)

    @app.exception_handler(StarletteHTTPException)
    async def _http(_: Request, exc: StarletteHTTPException) -> JSONResponse:
        mapping = {
            404: ErrorCode.NOT_FOUND,
            405: ErrorCode.METHOD_NOT_ALLOWED,
            413: ErrorCode.PAYLOAD_TOO_LARGE,
            400: ErrorCode.INVALID_INPUT,
        }
        code = mapping.get(exc.status_code, ErrorCode.INTERNAL_SERVER_ERROR)
        return error_response(code, str(exc.detail))

    @app.exception_handler(OperationalError)
    @app.exception_handler(InterfaceError)
    async def _store_down(_: Request, exc: Exception) -> JSONResponse:
        # Connection-level failures of the command store: nothing was written, a retry may succeed.
        logger.warning("command store unavailable: %s", type(exc).__name__)
        return error_response(ErrorCode.SERVICE_UNAVAILABLE, "the command store is unavailable",
                              headers={"Retry-After": "5"})

    @app.exception_handler(Exception)
    async def _unexpected(_: Request, exc: Exception) -> JSONResponse:
        logger.exception("unhandled error: %s", type(exc).__name__)
        return error_response(ErrorCode.INTERNAL_SERVER_ERROR, "internal server error")


class RequestContextMiddleware:
    """Assigns a request id (or keeps the caller's X-Request-ID), echoes it, times the request."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        incoming = dict(scope["headers"]).get(b"x-request-id", b"").decode("latin-1")
        request_id = incoming[:64] if incoming.isprintable() and incoming else uuid.uuid4().hex
        token = request_id_var.set(request_id)
        status = {"code": 500}
        started = time.perf_counter()

        async def send_wrapper(message: Message) -> None:
            if message["type"] == "http.response.start":
                status["code"] = message["status"]
                message.setdefault("headers", [])
                message["headers"].append((b"x-request-id", request_id.encode()))
            await send(message)

        try:
            await self.app(scope, receive, send_wrapper)
        finally:
            route = scope.get("route")
            path = getattr(route, "path", "unmatched")
            REQUEST_LATENCY.labels(scope["method"], path, str(status["code"])).observe(
                time.perf_counter() - started
            )
            request_id_var.reset(token)


class BodySizeLimitMiddleware:
    """Rejects bodies over the limit with 413 before the route reads them, declared or streamed."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > self.max_bytes:
            await self._reject(scope, receive, send)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_bytes:
                    raise StarletteHTTPException(413, "request body too large")
            return message

        await self.app(scope, limited_receive, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send) -> None:
        response = error_response(
            ErrorCode.PAYLOAD_TOO_LARGE, f"request body over {self.max_bytes} bytes"
        )
        await response(scope, receive, send)


class Utf8JsonMiddleware:
    """Rejects a JSON body that is not UTF-8 with 400 (4001), as RFC 8259 requires of JSON exchanged
    between systems: json.loads alone would accept UTF-16 and UTF-32 and read them as text."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        content_type = dict(scope.get("headers", [])).get(b"content-type", b"").lower()
        if scope["type"] != "http" or b"json" not in content_type:
            await self.app(scope, receive, send)
            return
        decoder = codecs.getincrementaldecoder("utf-8")()

        async def checked_receive() -> Message:
            message = await receive()
            if message["type"] == "http.request":
                try:
                    decoder.decode(message.get("body", b""), final=not message.get("more_body", False))
                except UnicodeDecodeError as exc:
                    raise StarletteHTTPException(400, "the request body is not UTF-8") from exc
            return message

        await self.app(scope, checked_receive, send)


# What the shared edge can answer with on any /api route, besides the route's own successes: input
# (400, never FastAPI's 422), token (401), role or owner (403), ids (404), duplicates (409), body size
# (413), rate (429), and the dependencies (500, 503, 504), each in the envelope.
EDGE_ERRORS = {
    "400": "invalid input (4001) or over the token budget (4002); `data` maps fields to messages",
    "401": "missing or invalid bearer token (4011)",
    "403": "the ADMIN role is required, or the resource belongs to another user (4031)",
    "404": "no such route, session, bookmark or item, or deleted (4040-4043)",
    "409": "already exists or already running (4091)",
    "413": "request body over the limit (4131)",
    "429": "rate limited (4291), with Retry-After",
    "500": "internal server error (5000)",
    "503": "the model or a dependency is unavailable (5031, 5032)",
    "504": "the model timed out (5041)",
}


def install_openapi(app: FastAPI) -> None:
    """Make the OpenAPI document say what the edge really answers: the envelope on every documented
    error status, and no 422 (validation errors are 400 here)."""

    def openapi() -> dict[str, Any]:
        if app.openapi_schema is not None:
            return app.openapi_schema
        schema = get_openapi(title=app.title, version=app.version, routes=app.routes)
        components = schema.setdefault("components", {}).setdefault("schemas", {})
        components["ErrorEnvelope"] = {
            "type": "object",
            "required": ["code", "messageCode", "message", "data"],
            "properties": {
                "code": {"type": "string", "pattern": "^[45][0-9]{3}$"},
                "messageCode": {"type": "object", "required": ["code", "text"],
                                "properties": {"code": {"type": "string"}, "text": {"type": "string"}}},
                "message": {"type": "string"},
                "data": {"anyOf": [{"type": "object"}, {"type": "null"}]},
            },
        }
        ref = {"$ref": "#/components/schemas/ErrorEnvelope"}
        for path, item in schema.get("paths", {}).items():
            for operation in item.values():
                responses = operation.setdefault("responses", {})
                responses.pop("422", None)
                if path.startswith("/api/"):
                    for status, description in EDGE_ERRORS.items():
                        responses.setdefault(status, {"description": description,
                                                      "content": {"application/json": {"schema": ref}}})
        for name in ("HTTPValidationError", "ValidationError"):
            components.pop(name, None)
        app.openapi_schema = schema
        return schema

    app.openapi = openapi  # type: ignore[method-assign]


def install_ops_routes(app: FastAPI, checks: Callable[[], dict[str, ReadinessCheck]]) -> None:
    """/healthz (alive), /readyz (each dependency checked; 503 naming the ones down), /metrics."""

    @app.get("/healthz", include_in_schema=False)
    async def read_health() -> dict[str, Any]:
        return success({"status": "UP"})

    @app.get("/readyz", include_in_schema=False)
    async def read_readiness() -> JSONResponse:
        results: dict[str, str] = {}
        for name, check in checks().items():
            try:
                await check()
                results[name] = "UP"
            except Exception as exc:  # readiness reports every failure, whatever its type
                results[name] = f"DOWN: {type(exc).__name__}: {exc}"[:300]
        down = [name for name, state in results.items() if state != "UP"]
        if down:
            return error_response(
                ErrorCode.SERVICE_UNAVAILABLE, f"not ready: {', '.join(down)}", results
            )
        return JSONResponse(success(results))

    @app.get("/metrics", include_in_schema=False)
    async def read_metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
