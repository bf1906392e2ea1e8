"""The operations routes of every process: /healthz, /readyz, /metrics (not in the OpenAPI document)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import FastAPI
from fastapi.responses import JSONResponse
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest
from starlette.responses import Response

from techai_shared.envelope import success
from techai_shared.errors import ErrorCode
from techai_shared.web.errors import error_response

ReadinessCheck = Callable[[], Awaitable[None]]


def install_ops_routes(app: FastAPI, checks: Callable[[], dict[str, ReadinessCheck]]) -> None:
    """/healthz (alive), /readyz (each dependency checked; 503 naming the ones down), /metrics."""

    @app.get("/healthz", include_in_schema=False)
    async def read_health() -> dict[str, Any]:
        return success({"status": "UP"}).model_dump(mode="json", by_alias=True)

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
        return JSONResponse(success(results).model_dump(mode="json", by_alias=True))

    @app.get("/metrics", include_in_schema=False)
    async def read_metrics() -> Response:
        return Response(generate_latest(), media_type=CONTENT_TYPE_LATEST)
