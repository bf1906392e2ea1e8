"""The ASGI middlewares of the edge: request ids and timing, the body size limit, UTF-8 JSON bodies."""

from __future__ import annotations

import codecs
import time
import uuid
from collections.abc import Mapping

from prometheus_client import Histogram
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from techai_shared.errors import ErrorCode
from techai_shared.logging import request_id_var
from techai_shared.web.errors import ErrorShape, shape_for

REQUEST_LATENCY = Histogram(
    "http_request_duration_seconds",
    "HTTP request latency by route and status",
    ["method", "route", "status"],
    buckets=(0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30),
)


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
    """Rejects bodies over the limit with 413 before the route reads them, declared or streamed.
    `limits` sets another limit for the paths under a prefix (the first prefix a path starts with)."""

    def __init__(self, app: ASGIApp, max_bytes: int,
                 shapes: Mapping[str, ErrorShape] | None = None,
                 limits: Mapping[str, int] | None = None) -> None:
        self.app = app
        self.max_bytes = max_bytes
        self.shapes = dict(shapes or {})
        self.limits = dict(limits or {})

    def _limit(self, path: str) -> int:
        return next((n for prefix, n in self.limits.items() if path.startswith(prefix)),
                    self.max_bytes)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        limit = self._limit(scope["path"])
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            await self._reject(scope, receive, send, limit)
            return
        received = 0

        async def limited_receive() -> Message:
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > limit:
                    raise StarletteHTTPException(413, "request body too large")
            return message

        await self.app(scope, limited_receive, send)

    async def _reject(self, scope: Scope, receive: Receive, send: Send, limit: int) -> None:
        shape = shape_for(scope["path"], self.shapes)
        response = shape(ErrorCode.PAYLOAD_TOO_LARGE, f"request body over {limit} bytes", None, None)
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
