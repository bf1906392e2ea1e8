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
Each step on the job's claim and lease is a unit of work of its own, committed at once. The jobs
themselves are conditional writes (and DELETEs), one bounded batch per transaction, so even a
repeated run changes nothing twice: the session jobs load their candidates, change each through
the session aggregate and save it only if it is still at the version they loaded.
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
from typing import TypeVar

from prometheus_client import Counter, Histogram

from command_api.domain.catalog import Outcome, WriteResult
from command_api.service_layer.catalog import write
from command_api.service_layer.ports import (
    FAILED,
    SUCCEEDED,
    CommandUnitOfWork,
    JobRepository,
    JobRun,
    OutboxLog,
    UnitOfWorkFactory,
)
from command_api.service_layer.reconcile import Reconciler
from command_api.settings import CommandSettings
from techai_shared.clock import Clock, utcnow
from techai_shared.conversation.model import ConcurrentChange, Session
from techai_shared.errors import AppError, Conflict, ErrorCode

logger = logging.getLogger(__name__)

JOB_RUNS = Counter("job_runs_total", "Job runs by job, trigger and outcome",
                   ["job", "trigger", "outcome"])
JOB_DURATION = Histogram("job_run_duration_seconds", "Duration of job runs", ["job"],
                         buckets=(0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300, 900, 3600))
JOB_ROWS = Counter("job_rows_affected_total", "Rows changed by job runs", ["job"])

SCHEDULE, MANUAL, STARTUP = "schedule", "manual", "startup"
RECONCILE_PROJECTIONS = "reconcile-projections"
ADVANCE_CONTEST_STATUS = "advance-contest-status"
PURGE_JOB_RUNS = "purge-job-runs"
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
    """What a job sees of its run: the time it runs as of, what started it, and a check between
    batches; a job may leave a one-line summary of what it found for the run's record."""

    now: datetime
    trigger: str = MANUAL
    lease_lost: bool = False
    summary: str | None = None

    def between_batches(self) -> None:
        if self.lease_lost:
            raise LeaseLost("the job's lease was lost; stopping between batches")


JobFunction = Callable[[JobContext], Awaitable[int]]
T = TypeVar("T")


@dataclass(frozen=True)
class BatchResult:
    """One bounded batch of a job: rows it looked at, and rows it changed."""

    candidates: int
    changed: int


# Changes an idle session (Session.deactivate or Session.expire); False if it no longer applies.
SessionChange = Callable[[Session, datetime, datetime], bool]


@dataclass(frozen=True)
class Job:
    name: str
    description: str
    cron: str
    run: JobFunction


def _restate(contest_id: str) -> Callable[[CommandUnitOfWork], Awaitable[WriteResult]]:
    """The write of a live contest's state again: the repository derives its status as of now."""

    async def change(work: CommandUnitOfWork) -> WriteResult:
        current = await work.contests.get(contest_id)
        return await work.contests.upsert(current.item)

    return change


def worker_id() -> str:
    """host:pid:random, so runs and leases name the process that holds them."""
    return f"{socket.gethostname()}:{os.getpid()}:{uuid.uuid4().hex[:6]}"[:128]


class LifecycleJobs:
    """The scheduled jobs (docs/operations.md, Jobs), each a loop of bounded, repeatable batches."""

    def __init__(self, settings: CommandSettings, uow: UnitOfWorkFactory, outbox: OutboxLog,
                 reconciler: Reconciler) -> None:
        self._settings = settings
        self._uow = uow
        self._outbox = outbox
        self._reconciler = reconciler

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
            Job(PURGE_JOB_RUNS,
                f"finished job runs older than {s.command_job_runs_retention_days:g} days are "
                "deleted", s.command_job_purge_job_runs_cron, self.purge_job_runs),
            Job(ADVANCE_CONTEST_STATUS,
                "contests whose start or end has passed take the status their dates give "
                "(UPCOMING, ONGOING, ENDED), each with a ContestUpserted event",
                s.command_job_advance_contest_status_cron, self.advance_contest_status),
            Job(RECONCILE_PROJECTIONS,
                "the read model is compared with the command store (catalog, verified answers, "
                "sessions, messages); whatever it lacks or holds at an older version is "
                "republished", s.command_job_reconcile_projections_cron,
                self.reconcile_projections),
        ]
        return {job.name: job for job in jobs}

    async def deactivate_idle_sessions(self, ctx: JobContext) -> int:
        """Live active sessions without a message for the idle time become inactive, each with a
        ConversationSessionUpdated event."""
        idle_since = ctx.now - timedelta(minutes=self._settings.command_session_idle_minutes)
        return await self._batches(
            ctx, lambda: self._session_batch(idle_since, ctx.now, Session.deactivate,
                                             active_only=True))

    async def expire_sessions(self, ctx: JobContext) -> int:
        """Live sessions without a message for the expiry time are soft-deleted and marked
        expired, each with a ConversationSessionDeleted event (the read model drops them)."""
        idle_since = ctx.now - timedelta(days=self._settings.command_session_expire_days)
        return await self._batches(
            ctx, lambda: self._session_batch(idle_since, ctx.now, Session.expire,
                                             active_only=False))

    async def _session_batch(self, idle_since: datetime, now: datetime, change: SessionChange, *,
                             active_only: bool) -> BatchResult:
        """One batch in one transaction. Each session is saved only if it is still at the version
        it was loaded at: one that got a message since (the exchange holds the row first) raises
        ConcurrentChange and is left alone, as a session that just became busy must be."""
        async with self._uow() as uow:
            sessions = await uow.sessions.idle(idle_since, self._settings.command_job_batch_size,
                                               active_only=active_only)
            changed = 0
            for session in sessions:
                if not change(session, idle_since, now):
                    continue
                try:
                    await uow.sessions.save(session)
                except ConcurrentChange:
                    continue
                changed += 1
            await uow.commit()
        return BatchResult(len(sessions), changed)

    async def purge_outbox(self, ctx: JobContext) -> int:
        before = ctx.now - timedelta(days=self._settings.command_outbox_retention_days)
        limit = self._settings.command_job_batch_size

        async def batch() -> BatchResult:
            deleted = await self._outbox.purge_published(before, limit)
            return BatchResult(deleted, deleted)

        return await self._batches(ctx, batch)

    async def purge_job_runs(self, ctx: JobContext) -> int:
        """Finished runs older than the retention, in batches; running ones stay."""
        before = ctx.now - timedelta(days=self._settings.command_job_runs_retention_days)
        limit = self._settings.command_job_batch_size

        async def batch() -> BatchResult:
            async with self._uow() as uow:
                deleted = await uow.jobs.purge_finished(before, limit)
                await uow.commit()
            return BatchResult(deleted, deleted)

        return await self._batches(ctx, batch)

    async def advance_contest_status(self, ctx: JobContext) -> int:
        """Rewrite each contest whose stored status its dates have left behind: the write derives
        the status as of now and emits the event, so the read model and every reader agree
        (chatbot-api derives it at query time anyway; this keeps the stores true)."""
        limit, total = self._settings.command_job_batch_size, 0
        while True:
            async with self._uow() as uow:
                due = await uow.contests.status_due(ctx.now, limit)
            changed = 0
            for item_id in due:
                result = await write(self._uow, f"contest {item_id}", _restate(item_id))
                changed += result.outcome is not Outcome.UNCHANGED
            total += changed
            # a batch that changed nothing would be read again: stop rather than spin
            if len(due) < limit or not changed:
                return total
            ctx.between_batches()

    async def reconcile_projections(self, ctx: JobContext) -> int:
        """Republish what the read model lacks; the aggregates republished."""
        s = self._settings
        grace = s.command_reconcile_grace_seconds
        if ctx.trigger == STARTUP and s.command_reconcile_start_grace_seconds is not None:
            grace = s.command_reconcile_start_grace_seconds
        # Events published within the grace are probably still on their way to MongoDB.
        drift = await self._reconciler.run(ctx.now - timedelta(seconds=grace),
                                           s.command_job_batch_size, ctx.between_batches)
        ctx.summary = drift.summary()
        return drift.republished

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

    def __init__(self, uow: UnitOfWorkFactory, jobs: dict[str, Job], settings: CommandSettings,
                 clock: Clock = utcnow, worker: str | None = None) -> None:
        self._uow = uow
        self.jobs = jobs
        self._settings = settings
        self._clock = clock
        self.worker = worker or worker_id()
        self._attempts = itertools.count(1)
        self._tasks: set[asyncio.Task[JobRun]] = set()  # the loop keeps only weak references

    async def _store(self, use: Callable[[JobRepository], Awaitable[T]]) -> T:
        """One step on the claims, leases or history, committed at once."""
        async with self._uow() as uow:
            result = await use(uow.jobs)
            await uow.commit()
        return result

    async def lease_holder(self, name: str, now: datetime) -> str | None:
        """Who holds the job's unexpired lease, if anyone."""
        return await self._store(lambda jobs: jobs.lease_holder(name, now))

    async def recent_runs(self, name: str, limit: int) -> list[JobRun]:
        """The job's latest runs, newest first."""
        return await self._store(lambda jobs: jobs.recent_runs(name, limit))

    async def _acquire_lease(self, name: str, holder: str) -> bool:
        now, seconds = self._clock(), self._settings.command_job_lease_seconds
        return await self._store(lambda jobs: jobs.acquire_lease(name, holder, now, seconds))

    async def _renew_lease(self, name: str, holder: str) -> bool:
        now, seconds = self._clock(), self._settings.command_job_lease_seconds
        return await self._store(lambda jobs: jobs.renew_lease(name, holder, now, seconds))

    async def _release_lease(self, name: str, holder: str) -> None:
        await self._store(lambda jobs: jobs.release_lease(name, holder))

    async def _claim(self, name: str, scheduled_for: datetime, trigger: str, holder: str,
                     now: datetime) -> JobRun | None:
        return await self._store(lambda jobs: jobs.claim(name, scheduled_for, trigger, holder, now))

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
        if await self._store(lambda jobs: jobs.is_claimed(name, fire_time)):
            self._skipped(name, fire_time, "claimed already")
            return None
        holder = self._holder()
        if not await self._wait_for_lease(name, holder):
            JOB_RUNS.labels(name, SCHEDULE, "skipped").inc()
            logger.warning("job %s (%s): lease still held after %.0fs; not run", name,
                           fire_time.isoformat(), self._settings.command_job_lease_wait_seconds)
            return None
        try:
            run = await self._claim(name, fire_time, SCHEDULE, holder, self._clock())
            if run is None:
                self._skipped(name, fire_time, "claimed by another worker")
                return None
            return await self._execute(job, run)
        finally:
            await self._release_lease(name, holder)

    def _skipped(self, name: str, fire_time: datetime, why: str) -> None:
        JOB_RUNS.labels(name, SCHEDULE, "skipped").inc()
        logger.info("job %s at %s: %s; skipping", name, fire_time.isoformat(), why)

    async def start_manual(self, name: str, trigger: str = MANUAL
                           ) -> tuple[JobRun, asyncio.Task[JobRun]]:
        """Start a run now, outside the schedule (by hand, or at the scheduler's start): JobBusy if
        the job is running; the run and its task."""
        job = self.job(name)
        holder = self._holder()
        if not await self._acquire_lease(name, holder):
            JOB_RUNS.labels(name, trigger, "refused").inc()
            raise JobBusy(f"job {name} is running; try again when it has finished")
        try:
            run = await self._claim_manual(name, holder, trigger)
        except BaseException:
            await self._release_lease(name, holder)
            raise

        async def execute() -> JobRun:
            try:
                return await self._execute(job, run)
            finally:
                await self._release_lease(name, holder)

        task = asyncio.create_task(execute(), name=f"job-{name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)
        return run, task

    async def _claim_manual(self, name: str, holder: str, trigger: str) -> JobRun:
        """A manual run is "scheduled for" the moment it starts; only the unique key needs it to
        differ from earlier runs (a frozen test clock, two runs in one microsecond)."""
        now = self._clock()
        for step in range(MANUAL_CLAIM_ATTEMPTS):
            run = await self._claim(name, now + timedelta(microseconds=step), trigger, holder, now)
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
            if await self._acquire_lease(name, holder):
                return True
            if loop.time() >= deadline:
                return False
            await asyncio.sleep(LEASE_POLL_SECONDS)

    async def _execute(self, job: Job, run: JobRun) -> JobRun:
        """Run the job under our lease, record its outcome; never raises for the job's failure."""
        ctx = JobContext(now=self._clock(), trigger=run.trigger)
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
        finished_at = self._clock()
        await self._store(lambda jobs: jobs.finish(run.run_id, status, rows, error, finished_at,
                                                   ctx.summary))
        JOB_RUNS.labels(job.name, run.trigger, status).inc()
        JOB_DURATION.labels(job.name).observe(asyncio.get_running_loop().time() - started)
        JOB_ROWS.labels(job.name).inc(rows)
        logger.info("job %s: run %d %s, %d rows%s", job.name, run.run_id, status, rows,
                    f" ({ctx.summary})" if ctx.summary else "")
        finished = await self._store(lambda jobs: jobs.get_run(run.run_id))
        return finished or run

    async def _renew(self, name: str, holder: str, ctx: JobContext) -> None:
        interval = self._settings.command_job_lease_seconds / 3
        while True:
            await asyncio.sleep(interval)
            try:
                held = await self._renew_lease(name, holder)
            except Exception:  # a failed renewal is retried; the lease outlives a few of them
                logger.warning("job %s: renewing the lease failed", name, exc_info=True)
                continue
            if not held:
                ctx.lease_lost = True
                logger.error("job %s: the lease was taken by another worker", name)
                return
