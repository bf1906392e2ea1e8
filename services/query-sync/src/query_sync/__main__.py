"""`python -m query_sync` / `query-sync`: the sync worker, until SIGTERM or SIGINT.

Reads SyncSettings from the environment, logs to stdout (JSON lines when LOG_JSON=true), consumes
and serves /healthz, /readyz and /metrics on SYNC_HOST:SYNC_PORT. Exits 0 after a signal (having
committed what it processed), 1 if the consumer fails on its own.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from query_sync.bootstrap import bootstrap
from query_sync.settings import SyncSettings
from techai_shared.logging import configure_logging

logger = logging.getLogger(__name__)


async def serve(settings: SyncSettings) -> int:
    """Run the worker in this loop until a signal; returns the process exit code."""
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, _on_signal, sig, stop)
    try:
        return await bootstrap(settings).run(stop)
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def _on_signal(sig: signal.Signals, stop: asyncio.Event) -> None:
    logger.info("%s received; stopping", sig.name)
    stop.set()


def main() -> None:
    settings = SyncSettings()
    configure_logging(settings.log_level, settings.log_json)
    raise SystemExit(asyncio.run(serve(settings)))


if __name__ == "__main__":
    main()
