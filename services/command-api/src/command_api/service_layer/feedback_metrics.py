"""Users' ratings of answers in /metrics: live ratings by rating and day, refreshed in the
background from the command store (a scrape never waits for the database)."""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta

from prometheus_client import Gauge

from command_api.service_layer.ports import UnitOfWorkFactory
from techai_shared.clock import Clock
from techai_shared.tasks import cancel_and_wait

logger = logging.getLogger(__name__)

RATINGS = Gauge("feedback_ratings",
                "Live ratings of answers by rating and by the UTC day they were last given or "
                "changed, over the last FEEDBACK_METRICS_DAYS days", ["rating", "day"])


class FeedbackMetrics:
    def __init__(self, uow: UnitOfWorkFactory, clock: Clock, every_seconds: float = 60.0,
                 days: int = 30) -> None:
        self._uow = uow
        self._clock = clock
        self._every = every_seconds
        self._days = days
        self._task: asyncio.Task[None] | None = None

    async def refresh(self) -> None:
        async with self._uow() as uow:
            counts = await uow.feedback.counts_by_day(self._clock() - timedelta(days=self._days))
        RATINGS.clear()
        for rating, day, n in counts:
            RATINGS.labels(rating, day.isoformat()).set(n)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(self._run())

    async def _run(self) -> None:
        while True:
            try:
                await self.refresh()
            except Exception as exc:  # a database outage: the last figures stay, try again later
                logger.warning("feedback metrics not refreshed: %s: %s", type(exc).__name__, exc)
            await asyncio.sleep(self._every)

    async def stop(self) -> None:
        await cancel_and_wait(self._task)
        self._task = None
