"""A uvicorn server run inside a worker's own event loop: the /healthz, /readyz and /metrics of
processes that are not APIs (query-sync, the scheduler), so readiness sees their real clients."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import socket
from collections.abc import Iterator

import uvicorn
from fastapi import FastAPI

logger = logging.getLogger(__name__)

_START_TIMEOUT_SECONDS = 10.0


class _EmbeddedServer(uvicorn.Server):
    """uvicorn without its own signal handling: main() owns SIGTERM/SIGINT and stops things in
    order (consumer first, so it can commit), which uvicorn's re-raised signal would cut short."""

    @contextlib.contextmanager
    def capture_signals(self) -> Iterator[None]:
        yield


def _bind(host: str, port: int) -> socket.socket:
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError:
        sock.close()
        raise
    return sock


class HealthServer:
    """Serves `app` on host:port until stop(); port 0 picks a free one (see .port)."""

    def __init__(self, app: FastAPI, host: str, port: int) -> None:
        self._app = app
        self._host = host
        self._port = port
        self._server: _EmbeddedServer | None = None
        self._task: asyncio.Task[None] | None = None
        self._socket: socket.socket | None = None

    @property
    def port(self) -> int:
        return int(self._socket.getsockname()[1]) if self._socket is not None else self._port

    async def start(self) -> None:
        """Bind (OSError if the port is taken) and wait until uvicorn accepts connections."""
        self._socket = _bind(self._host, self._port)
        config = uvicorn.Config(self._app, log_config=None, access_log=False, lifespan="off")
        self._server = _EmbeddedServer(config)
        self._task = asyncio.create_task(self._server.serve(sockets=[self._socket]), name="health-http")
        deadline = asyncio.get_running_loop().time() + _START_TIMEOUT_SECONDS
        while not self._server.started and not self._task.done():
            if asyncio.get_running_loop().time() > deadline:
                raise TimeoutError("health server did not start")
            await asyncio.sleep(0.02)
        if self._task.done():
            self._task.result()  # re-raise why it ended
        logger.info("health and metrics on http://%s:%d", self._host, self.port)

    async def stop(self) -> None:
        if self._server is not None and self._task is not None:
            self._server.should_exit = True
            await asyncio.wait([self._task], timeout=5)
            if not self._task.done():
                self._server.force_exit = True
                await asyncio.wait([self._task], timeout=2)
        if self._socket is not None:
            self._socket.close()
            self._socket = None
