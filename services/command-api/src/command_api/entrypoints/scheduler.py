"""The scheduler process: APScheduler 3 (AsyncIOScheduler) firing the operations jobs, plus its
own /healthz, /readyz and /metrics. It runs alone (`python -m command_api.scheduler`), never in
the API workers, and any number of replicas may run: each fire time is claimed in the command store.

coalesce=True folds fire times missed while the process was down into one run, max_instances=1
keeps a job from overlapping itself in this process, and misfire_grace_time bounds how late a run
may still start (COMMAND_JOB_MISFIRE_GRACE_SECONDS).

As it starts, the process also runs reconcile-projections once (trigger "startup",
COMMAND_RECONCILE_AT_START): a read model that lost events while the stack was down (make run's
in-memory broker loses its log at every stop) is healed from the command store without waiting
for the schedule or anyone's hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
from datetime import UTC, datetime
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.executors.asyncio import AsyncIOExecutor
from apscheduler.schedulers.asyncio import AsyncIOScheduler
from apscheduler.triggers.base import BaseTrigger
from fastapi import FastAPI

from command_api.bootstrap import Operations, operations
from command_api.service_layer.jobs import RECONCILE_PROJECTIONS, STARTUP, JobBusy, JobRunner
from command_api.service_layer.ports import FAILED
from command_api.service_layer.schedule import cron_trigger
from command_api.settings import CommandSettings
from techai_shared.db.engine import check_database, make_engine
from techai_shared.health_server import HealthServer
from techai_shared.web import (
    ReadinessCheck,
    RequestContextMiddleware,
    install_error_handlers,
    install_ops_routes,
)

logger = logging.getLogger(__name__)

START_ATTEMPTS = 5
START_RETRY_SECONDS = 10.0

_fire_time: contextvars.ContextVar[datetime | None] = contextvars.ContextVar(
    "scheduled_fire_time", default=None
)


class FireTimeExecutor(AsyncIOExecutor):
    """Hands the scheduled fire time to the job, which APScheduler 3 does not pass on itself.

    The job's task is created inside super()._do_submit_job and copies the current context, so a
    context variable set around that call is what the task sees. With coalesce=True run_times holds
    one time, the latest one missed.
    """

    def _do_submit_job(self, job: Any, run_times: list[datetime]) -> None:
        token = _fire_time.set(run_times[-1])
        try:
            super()._do_submit_job(job, run_times)
        finally:
            _fire_time.reset(token)


async def fire(runner: JobRunner, name: str) -> None:
    """What APScheduler calls: the run of `name` for the fire time being executed."""
    fire_time = _fire_time.get()
    if fire_time is None:
        raise RuntimeError("fire() runs only from the FireTimeExecutor")
    await runner.run_scheduled(name, fire_time.astimezone(UTC))


def build_scheduler(runner: JobRunner, settings: CommandSettings,
                    triggers: dict[str, BaseTrigger] | None = None) -> AsyncIOScheduler:
    """An AsyncIOScheduler with every job (crontab triggers from settings unless given); call from
    inside the running loop, and start() it there."""
    timezone = ZoneInfo(settings.command_scheduler_timezone)
    scheduler = AsyncIOScheduler(
        timezone=timezone,
        executors={"default": FireTimeExecutor()},
        job_defaults={"coalesce": True, "max_instances": 1,
                      "misfire_grace_time": settings.command_job_misfire_grace_seconds},
    )
    for name, job in runner.jobs.items():
        trigger = (triggers or {}).get(name) or cron_trigger(job.cron,
                                                             settings.command_scheduler_timezone)
        scheduler.add_job(fire, trigger, args=[runner, name], id=name, name=name,
                          replace_existing=True)
    return scheduler


class SchedulerProcess:
    """The scheduler, its operations wiring and its health server, in one event loop."""

    def __init__(self, settings: CommandSettings) -> None:
        self.settings = settings
        self.engine = make_engine(settings)
        self.ops: Operations = operations(settings, self.engine)
        self.scheduler: AsyncIOScheduler | None = None
        self._startup: asyncio.Task[None] | None = None
        self.health = HealthServer(self._ops_app(), settings.command_scheduler_host,
                                   settings.command_scheduler_port)

    def _ops_app(self) -> FastAPI:
        app = FastAPI(title="command-scheduler", docs_url=None, redoc_url=None, openapi_url=None)
        app.add_middleware(RequestContextMiddleware)
        install_error_handlers(app)
        install_ops_routes(app, self.readiness_checks)
        return app

    def readiness_checks(self) -> dict[str, ReadinessCheck]:
        async def database() -> None:
            await check_database(self.engine)

        async def scheduler() -> None:
            if self.scheduler is None or not self.scheduler.running:
                raise RuntimeError("the scheduler is not running")

        return {"database": database, "mongodb": self.ops.read_model.ping,
                "scheduler": scheduler}

    async def run(self, stop: asyncio.Event) -> int:
        await self.health.start()
        self.scheduler = build_scheduler(self.ops.runner, self.settings)
        self.scheduler.start()
        for job in self.scheduler.get_jobs():
            logger.info("job %s: next run at %s", job.id, job.next_run_time)
        if self.settings.command_reconcile_at_start:
            self._startup = asyncio.create_task(self.reconcile_at_start(stop),
                                                name="reconcile-at-start")
        try:
            await stop.wait()
            return 0
        finally:
            await self.close()

    async def reconcile_at_start(self, stop: asyncio.Event) -> None:
        """Run reconcile-projections once now; retried while the stores are not reachable yet.
        A run already going elsewhere (another replica's start) does the same work: none here."""
        for attempt in range(1, START_ATTEMPTS + 1):
            try:
                _, task = await self.ops.runner.start_manual(RECONCILE_PROJECTIONS, STARTUP)
                if (await task).status != FAILED:  # a failed run is recorded, not raised
                    return
            except JobBusy:
                logger.info("%s is running elsewhere; no start-up run here", RECONCILE_PROJECTIONS)
                return
            except Exception:  # the command store not reachable yet: try again a little later
                logger.warning("start-up run of %s could not start", RECONCILE_PROJECTIONS,
                               exc_info=True)
            logger.warning("start-up run of %s: attempt %d of %d failed", RECONCILE_PROJECTIONS,
                           attempt, START_ATTEMPTS)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), START_RETRY_SECONDS)
            if stop.is_set():
                return

    async def close(self) -> None:
        if self._startup is not None and not self._startup.done():
            self._startup.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._startup
        if self.scheduler is not None and self.scheduler.running:
            self.scheduler.shutdown(wait=False)  # in-flight runs end with the loop; leases expire
        await self.health.stop()
        await self.ops.close()
        await self.engine.dispose()
