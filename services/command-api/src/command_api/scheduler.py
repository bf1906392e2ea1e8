"""`python -m command_api.scheduler`: the operations jobs on their schedules, until SIGTERM/SIGINT.

Serves /healthz, /readyz and /metrics on COMMAND_SCHEDULER_HOST:COMMAND_SCHEDULER_PORT.
"""

from __future__ import annotations

import asyncio
import logging
import signal

from command_api.entrypoints.scheduler import SchedulerProcess
from command_api.settings import CommandSettings
from techai_shared.logging import configure_logging

logger = logging.getLogger(__name__)


async def serve(settings: CommandSettings) -> int:
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    try:
        return await SchedulerProcess(settings).run(stop)
    finally:
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.remove_signal_handler(sig)


def main() -> None:
    settings = CommandSettings()
    configure_logging(settings.log_level, settings.log_json)
    raise SystemExit(asyncio.run(serve(settings)))


if __name__ == "__main__":
    main()
