"""Job runs and job leases on the command store (tables job_runs and job_locks, migration 0003),
on the unit of work's connection: each use of them commits through the unit of work.

- A run is claimed by inserting (job_name, scheduled_for): the unique key lets exactly one
  scheduler replica, restart or retry claim a fire time; the loser's IntegrityError means "taken".
- A lease is one row per job, taken by a conditional UPDATE (free, expired, or already ours), so
  a manual run and a scheduled run of one job never overlap. The holder renews it while the job
  runs; if its process dies the lease expires and the next taker marks the dead run as failed.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import delete, insert, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from command_api.service_layer.ports import FAILED, RUNNING, JobRun
from techai_shared.db.schema import job_locks, job_runs


def _run(row: Row[Any]) -> JobRun:
    return JobRun(row.id, row.job_name, row.scheduled_for, row.trigger, row.status, row.worker,
                  row.started_at, row.finished_at, row.rows_affected, row.error, row.summary)


class JobRepository:
    """Claims, leases and history of the scheduled jobs."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn

    async def is_claimed(self, job_name: str, scheduled_for: datetime) -> bool:
        found = (await self._conn.execute(
            select(job_runs.c.id).where(job_runs.c.job_name == job_name,
                                        job_runs.c.scheduled_for == scheduled_for)
        )).first()
        return found is not None

    async def claim(self, job_name: str, scheduled_for: datetime, trigger: str, worker: str,
                    now: datetime) -> JobRun | None:
        """Insert the run as running; None when this (job, fire time) was claimed already."""
        try:
            async with self._conn.begin_nested():  # a lost claim leaves the transaction usable
                result = await self._conn.execute(insert(job_runs).values(
                    job_name=job_name, scheduled_for=scheduled_for, trigger=trigger,
                    status=RUNNING, worker=worker, started_at=now,
                ))
        except IntegrityError:
            return None
        run_id = result.inserted_primary_key[0]  # type: ignore[index]
        return JobRun(int(run_id), job_name, scheduled_for, trigger, RUNNING, worker, now,
                      None, None, None)

    async def finish(self, run_id: int, status: str, rows_affected: int, error: str | None,
                     now: datetime, summary: str | None = None) -> None:
        await self._conn.execute(
            update(job_runs).where(job_runs.c.id == run_id, job_runs.c.status == RUNNING)
            .values(status=status, rows_affected=rows_affected,
                    error=error[:4000] if error else None, finished_at=now,
                    summary=summary[:1000] if summary else None)
        )

    async def acquire_lease(self, job_name: str, holder: str, now: datetime,
                            seconds: float) -> bool:
        """Take the job's lease if it is free, expired or ours; True when we hold it now.

        Runs left `running` by a holder whose lease expired are marked failed: only the lease
        holder runs a job, so nobody else can be running them.
        """
        until = now + timedelta(seconds=seconds)
        exists = (await self._conn.execute(
            select(job_locks.c.job_name).where(job_locks.c.job_name == job_name)
        )).first()
        if exists is None:
            try:
                async with self._conn.begin_nested():
                    await self._conn.execute(insert(job_locks).values(
                        job_name=job_name, holder=holder, locked_until=until))
                return True
            except IntegrityError:
                pass  # another process created the row first: compete for it below
        taken = await self._conn.execute(
            update(job_locks).where(
                job_locks.c.job_name == job_name,
                or_(job_locks.c.holder.is_(None), job_locks.c.locked_until < now,
                    job_locks.c.holder == holder),
            ).values(holder=holder, locked_until=until)
        )
        if taken.rowcount != 1:
            return False
        await self._conn.execute(
            update(job_runs).where(job_runs.c.job_name == job_name,
                                   job_runs.c.status == RUNNING, job_runs.c.worker != holder)
            .values(status=FAILED, finished_at=now,
                    error="abandoned: its worker stopped renewing the job's lease")
        )
        return True

    async def renew_lease(self, job_name: str, holder: str, now: datetime, seconds: float) -> bool:
        """Extend our lease; False when it is no longer ours (it expired and was taken)."""
        renewed = await self._conn.execute(
            update(job_locks).where(job_locks.c.job_name == job_name,
                                    job_locks.c.holder == holder)
            .values(locked_until=now + timedelta(seconds=seconds))
        )
        return bool(renewed.rowcount == 1)

    async def release_lease(self, job_name: str, holder: str) -> None:
        await self._conn.execute(
            update(job_locks).where(job_locks.c.job_name == job_name,
                                    job_locks.c.holder == holder)
            .values(holder=None, locked_until=None)
        )

    async def lease_holder(self, job_name: str, now: datetime) -> str | None:
        """Who holds the job's unexpired lease, if anyone."""
        row = (await self._conn.execute(
            select(job_locks.c.holder).where(job_locks.c.job_name == job_name,
                                             job_locks.c.locked_until >= now)
        )).first()
        return row.holder if row is not None else None

    async def recent_runs(self, job_name: str, limit: int = 10) -> list[JobRun]:
        """The job's latest runs, newest first."""
        rows = (await self._conn.execute(
            select(job_runs).where(job_runs.c.job_name == job_name)
            .order_by(job_runs.c.started_at.desc(), job_runs.c.id.desc()).limit(limit)
        )).all()
        return [_run(r) for r in rows]

    async def purge_finished(self, finished_before: datetime, limit: int) -> int:
        oldest = (select(job_runs.c.id)
                  .where(job_runs.c.status != RUNNING, job_runs.c.finished_at < finished_before)
                  .order_by(job_runs.c.id).limit(limit))
        ids = [row.id for row in await self._conn.execute(oldest)]
        if not ids:
            return 0
        result = await self._conn.execute(delete(job_runs).where(job_runs.c.id.in_(ids)))
        return int(result.rowcount)

    async def get_run(self, run_id: int) -> JobRun | None:
        row = (await self._conn.execute(select(job_runs).where(job_runs.c.id == run_id))).first()
        return _run(row) if row is not None else None
