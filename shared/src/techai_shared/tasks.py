"""Stopping a background task within a bound, whatever the code under it does with a cancellation."""

from __future__ import annotations

import asyncio
import logging
from typing import Any

logger = logging.getLogger(__name__)

RECANCEL_SECONDS = 0.25  # how long a cancelled task is given before it is cancelled again


async def cancel_and_wait(task: asyncio.Task[Any] | None, within: float = 5.0) -> bool:
    """Cancel `task` and wait until it has ended, at most `within` seconds; whether it ended.

    A library under the task may swallow a cancellation: PyMongo's async network layer, cancelled
    mid-read, let the refresh loop above it go on to its next turn, and a shutdown that awaited the
    task waited for ever. So the cancel is repeated until the task ends, and a task still running
    at the deadline is left behind with a warning rather than holding the shutdown. The task's own
    error, if it ended with one, is retrieved here (its owner logs failures where they happen).
    """
    if task is None:
        return True
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not task.done():
        remaining = deadline - loop.time()
        if remaining <= 0:
            logger.warning("background task %s did not stop within %.1fs; left behind",
                           task.get_name(), within)
            return False
        task.cancel()
        await asyncio.wait({task}, timeout=min(RECANCEL_SECONDS, remaining))
    if not task.cancelled():
        task.exception()  # retrieved, so asyncio does not report it as never retrieved
    return True
