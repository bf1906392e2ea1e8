"""The operations jobs and how each run happens exactly once per fire time.

A run of a job, whoever starts it (the scheduler at a fire time, an admin through the API or the
CLI), goes through JobRunner:
1. scheduled runs skip at once if their (job, fire time) is already claimed (another replica ran
   it, or this process before a restart);
2. take the job's lease (job_locks): a scheduled run waits for it (serialised after a manual run),
   a manual run is refused with JobBusy while anyone holds it;
3. claim (job, fire time) in job_runs: the unique key is the authority; the loser skips;
4. run the job in bounded batches, renewing the lease; between batches it stops if the lease was
   lost; record the outcome, rows affected and error on the run; release the lease.
The jobs themselves are conditional UPDATEs (and DELETEs), so even a repeated run changes nothing
twice.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import socket
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime, timedelta

from prometheus_client import Counter, Histogram
from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.adapters.job_store import FAILED, SUCCEEDED, JobRun, JobStore
from command_api.service_layer.republish import Republisher
from command_api.settings import CommandSettings
from techai_shared.clock import Clock, utcnow
from techai_shared.conversations import BatchResult, ConversationStore
from techai_shared.db.outbox import purge_published
from techai_shared.errors import AppError, Conflict, ErrorCode

logger = logging.getLogger(__name__)

JOB_RUNS = Counter("job_runs_total", "Job runs by job, trigger and outcome",
                   ["job", "trigger", "outcome"])
JOB_DURATION = Histogram("job_run_duration_seconds", "Duration of job runs", ["job"],
                         buckets=(0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600))
JOB_ROWS = Counter("job_rows_affected_total", "Rows changed by job runs", ["job"])

SCHEDULE, MANUAL = "schedule", "manual"
LEASE_POLL_SECONDS = 1.0
MANUAL_CLAIM_ATTEMPTS = 1000


class JobNotFound(AppError):
    error_code = ErrorCode.NOT_FOUND


class JobBusy(Conflict):
    """The job is running (someone holds its lease): a manual run is refused, never doubled."""


class LeaseLost(Exception):
    """Our lease expired and another worker took it: stop between batches."""


@dataclass
class JobContext:
    """What a job sees of its run: the time it runs as of, and a check between batches."""

    now: datetime
    lease_lost: bool = False

    def between_batches(self) -> None:
        if self.lease_lost:
            raise LeaseLost("the job's lease was lost; stopping between batches")


JobFunction = Callable[[JobContext], Awaitable[int]]


@dataclass(frozen=True)
class Job:
    name: str
    description: str
    cron: str
    run: JobFunction


def worker_id() -> str:
    """host:pid:random, so runs and leases name the process that holds them."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"[:128]


class LifecycleJobs:
    """The four jobs (DESIGN.md section 7, issue 5), each a loop of bounded, repeatable batches."""

    def __init__(self, settings: CommandSettings, engine: AsyncEngine,
                 conversations: ConversationStore, republisher: Republisher) -> None:
        self._settings = settings
        self._engine = engine
        self._conversations = conversations
        self._republisher = republisher

    def jobs(self) -> dict[str, Job]:
        s = self._settings
        jobs = [
            Job("deactivate-idle-sessions",
                f"active sessions idle for {s.command_session_idle_minutes:g} minutes become "
                "inactive", s.command_job_deactivate_idle_sessions_cron,
                self.deactivate_idle_sessions),
            Job("expire-sessions",
                f"sessions idle for {s.command_session_expire_days:g} days are expired "
                "(soft-deleted, removed from the read model)", s.command_job_expire_sessions_cron,
                self.expire_sessions),
            Job("purge-outbox",
                f"published outbox rows older than {s.command_outbox_retention_days:g} days are "
                "deleted", s.command_job_purge_outbox_cron, self.purge_outbox),
            Job("reconcile-projections",
                f"sessions changed in the last {s.command_reconcile_window_minutes:g} minutes whose "
                "projection lags are republished", s.command_job_reconcile_projections_cron,
                self.reconcile_projections),
        ]
        return {job.name: job for job in jobs}

    async def deactivate_idle_sessions(self, ctx: JobContext) -> int:
        idle_since = ctx.now - timedelta(minutes=self._settings.command_session_idle_minutes)
        return await self._batches(
            ctx, lambda: self._conversations.deactivate_idle(
                idle_since, ctx.now, self._settings.command_job_batch_size))

    async def expire_sessions(self, ctx: JobContext) -> int:
        idle_since = ctx.now - timedelta(days=self._settings.command_session_expire_days)
        return await self._batches(
            ctx, lambda: self._conversations.expire_idle(
                idle_since, ctx.now, self._settings.command_job_batch_size))

    async def purge_outbox(self, ctx: JobContext) -> int:
        before = ctx.now - timedelta(days=self._settings.command_outbox_retention_days)
        limit = self._settings.command_job_batch_size

        async def batch() -> BatchResult:
            deleted = await purge_published(self._engine, before, limit)
            return BatchResult(deleted, deleted)

        return await self._batches(ctx, batch)

    async def reconcile_projections(self, ctx: JobContext) -> int:
        s = self._settings
        since = ctx.now - timedelta(minutes=s.command_reconcile_window_minutes)
        # Changes younger than the grace period are probably still on their way to MongoDB.
        until = ctx.now - timedelta(seconds=s.command_reconcile_grace_seconds)
        return await self._republisher.reconcile(since, until, s.command_job_batch_size,
                                                 ctx.between_batches)

    async def _batches(self, ctx: JobContext, batch: Callable[[], Awaitable[BatchResult]]) -> int:
        """Run batches until one comes back short; the total of rows changed."""
        total = 0
        while True:
            result = await batch()
            total += result.changed
            if result.candidates < self._settings.command_job_batch_size:
                return total
            ctx.between_batches()


class JobRunner:
    """Runs jobs with claim, lease and history; see the module docstring."""

    def __init__(self, store: JobStore, jobs: dict[str, Job], settings: CommandSettings,
                 clock: Clock = utcnow, worker: str | None = None) -> None:
        self.store = store
        self.jobs = jobs
        self._settings = settings
        self._clock = clock
        self.worker = worker or worker_id()
        self._attempts = itertools.count(1)
        self._tasks: set[asyncio.Task[JobRun]] = set()  # the loop keeps only weak references

    def _holder(self) -> str:
        """A lease holder per attempt: two runs started by one process must still exclude each
        other (the lease is re-entrant only for its own holder's renewals)."""
        return f"{self.worker}/{next(self._attempts)}"[:128]

    def job(self, name: str) -> Job:
        try:
            return self.jobs[name]
        except KeyError:
            raise JobNotFound(f"no job named {name!r}; jobs: {', '.join(self.jobs)}") from None

    async def run_scheduled(self, name: str, fire_time: datetime) -> JobRun | None:
        """The run of `name` for this fire time, or None when another worker had claimed it."""
        job = self.job(name)
        if await self.store.is_claimed(name, fire_time):
            self._skipped(name, fire_time, "claimed already")
            return None
        holder = self._holder()
        if not await self._wait_for_lease(name, holder):
            JOB_RUNS.labels(name, SCHEDULE, "skipped").inc()
            logger.warning("job %s (%s): lease still held after %.0fs; not run", name,
                           fire_time.isoformat(), self._settings.command_job_lease_wait_seconds)
            return None
        try:
            run = await self.store.claim(name, fire_time, SCHEDULE, holder, self._clock())
            if run is None:
                self._skipped(name, fire_time, "claimed by another worker")
                return None
            return await self._execute(job, run)
        finally:
            await self.store.release_lease(name, holder)

    def _skipped(self, name: str, fire_time: datetime, why: str) -> None:
        JOB_RUNS.labels(name, SCHEDULE, "skipped").inc()
        logger.info("job %s at %s: %s; skipping", name, fire_time.isoformat(), why)

    async def start_manual(self, name: str) -> tuple[JobRun, asyncio.Task[JobRun]]:
        """Start a manual run now: JobBusy if the job is running; the run and its task."""
        job = self.job(name)
        holder = self._holder()
        if not await self.store.acquire_lease(name, holder, self._clock(),
                                              self._settings.command_job_lease_seconds):
            JOB_RUNS.labels(name, MANUAL, "refused").inc()
            raise JobBusy(f"job {name} is running; try again when it has finished")
        try:
            run = await self._claim_manual(name, holder)
        except BaseException:
            await self.store.release_lease(name, holder)
            raise

        async def execute() -> JobRun:
            try:
                return await self._execute(job, run)
            finally:
                await self.store.release_lease(name, holder)

        task = asyncio.create_task(execute(), name=f"job-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run, task

    async def _claim_manual(self, name: str, holder: str) -> JobRun:
        """A manual run is "scheduled for" the moment it starts; only the unique key needs it to
        differ from earlier runs (a frozen test clock, two runs in one microsecond)."""
        now = self._clock()
        for step in range(MANUAL_CLAIM_ATTEMPTS):
            run = await self.store.claim(name, now + timedelta(microseconds=step), MANUAL, holder,
                                         now)
            if run is not None:
                return run
        raise JobBusy(f"job {name} was started at this very moment; try again")

    async def run_manual(self, name: str) -> JobRun:
        """A manual run to its end (the CLI's way)."""
        _, task = await self.start_manual(name)
        return await task

    async def _wait_for_lease(self, name: str, holder: str) -> bool:
        loop = asyncio.get_running_loop()
        deadline = loop.time() + self._settings.command_job_lease_wait_seconds
        while True:
            if await self.store.acquire_lease(name, holder, self._clock(),
                                              self._settings.command_job_lease_seconds):
                return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(LEASE_POLL_SECONDS)

    async def _execute(self, job: Job, run: JobRun) -> JobRun:
        """Run the job under our lease, record its outcome; never raises for the job's failure."""
        ctx = JobContext(now=self._clock())
        heartbeat = asyncio.create_task(self._renew(job.name, run.worker, ctx),
                                        name=f"lease-{job.name}")
        started = asyncio.get_running_loop().time()
        rows, status, error = 0, SUCCEEDED, None
        logger.info("job %s: run %d started (%s)", job.name, run.run_id, run.trigger)
        try:
            rows = await job.run(ctx)
        except Exception as exc:  # the run records any failure; the scheduler keeps going
            status, error = FAILED, f"{type(exc).__name__}: {exc}"
            logger.exception("job %s: run %d failed", job.name, run.run_id)
        finally:
            heartbeat.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await heartbeat
        await self.store.finish(run.run_id, status, rows, error, self._clock())
        JOB_RUNS.labels(job.name, run.trigger, status).inc()
        JOB_DURATION.labels(job.name).observe(asyncio.get_running_loop().time() - started)
        JOB_ROWS.labels(job.name).inc(rows)
        logger.info("job %s: run %d %s, %d rows", job.name, run.run_id, status, rows)
        finished = await self.store.get_run(run.run_id)
        return finished or run

    async def _renew(self, name: str, holder: str, ctx: JobContext) -> None:
        interval = self._settings.command_job_lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                held = await self.store.renew_lease(name, holder, self._clock(),
                                                    self._settings.command_job_lease_seconds)
            except Exception:  # a failed renewal is retried; the lease outlives a few of them
                logger.warning("job %s: renewing the lease failed", name, exc_info=True)
                continue
            if not held:
                ctx.lease_lost = True
                logger.error("job %s: the lease was taken by another worker", name)
                return
