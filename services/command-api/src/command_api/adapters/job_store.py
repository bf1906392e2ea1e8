"""Job runs and job leases on the command store (tables job_runs and job_locks, migration 0003).

- A run is claimed by inserting (job_name, scheduled_for): the unique key lets exactly one
  scheduler replica, restart or retry claim a fire time; the loser's IntegrityError means "taken".
- A lease is one row per job, taken by a conditional UPDATE (free, expired, or already ours), so
  a manual run and a scheduled run of one job never overlap. The holder renews it while the job
  runs; if its process dies the lease expires and the next taker marks the dead run as failed.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from sqlalchemy import insert, or_, select, update
from sqlalchemy.engine import Row
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.clock import iso
from techai_shared.db.schema import job_locks, job_runs

RUNNING, SUCCEEDED, FAILED = "running", "succeeded", "failed"


@dataclass(frozen=True)
class JobRun:
    run_id: int
    job_name: str
    scheduled_for: datetime
    trigger: str
    status: str
    worker: str
    started_at: datetime
    finished_at: datetime | None
    rows_affected: int | None
    error: str | None

    def public(self) -> dict[str, Any]:
        return {
            "runId": str(self.run_id),
            "jobName": self.job_name,
            "scheduledFor": iso(self.scheduled_for),
            "trigger": self.trigger,
            "status": self.status,
            "worker": self.worker,
            "startedAt": iso(self.started_at),
            "finishedAt": iso(self.finished_at) if self.finished_at else None,
            "rowsAffected": self.rows_affected,
            "error": self.error,
        }


def _run(row: Row[Any]) -> JobRun:
    return JobRun(row.id, row.job_name, row.scheduled_for, row.trigger, row.status, row.worker,
                  row.started_at, row.finished_at, row.rows_affected, row.error)


class JobStore:
    """Claims, leases and history of the scheduled jobs."""

    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def is_claimed(self, job_name: str, scheduled_for: datetime) -> bool:
        async with self._engine.connect() as conn:
            found = (await conn.execute(
                select(job_runs.c.id).where(job_runs.c.job_name == job_name,
                                            job_runs.c.scheduled_for == scheduled_for)
            )).first()
            await conn.commit()
        return found is not None

    async def claim(self, job_name: str, scheduled_for: datetime, trigger: str, worker: str,
                    now: datetime) -> JobRun | None:
        """Insert the run as running; None when this (job, fire time) was claimed already."""
        try:
            async with self._engine.begin() as conn:
                result = await conn.execute(insert(job_runs).values(
                    job_name=job_name, scheduled_for=scheduled_for, trigger=trigger,
                    status=RUNNING, worker=worker, started_at=now,
                ))
                run_id = result.inserted_primary_key[0]  # type: ignore[index]
        except IntegrityError:
            return None
        return JobRun(int(run_id), job_name, scheduled_for, trigger, RUNNING, worker, now,
                      None, None, None)

    async def finish(self, run_id: int, status: str, rows_affected: int, error: str | None,
                     now: datetime) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(job_runs).where(job_runs.c.id == run_id, job_runs.c.status == RUNNING)
                .values(status=status, rows_affected=rows_affected,
                        error=error[:4000] if error else None, finished_at=now)
            )

    async def acquire_lease(self, job_name: str, holder: str, now: datetime,
                            seconds: float) -> bool:
        """Take the job's lease if it is free, expired or ours; True when we hold it now.

        Runs left `running` by a holder whose lease expired are marked failed: only the lease
        holder runs a job, so nobody else can be running them.
        """
        until = now + timedelta(seconds=seconds)
        async with self._engine.begin() as conn:
            exists = (await conn.execute(
                select(job_locks.c.job_name).where(job_locks.c.job_name == job_name)
            )).first()
            if exists is None:
                try:
                    async with conn.begin_nested():
                        await conn.execute(insert(job_locks).values(
                            job_name=job_name, holder=holder, locked_until=until))
                    return True
                except IntegrityError:
                    pass  # another process created the row first: compete for it below
            taken = await conn.execute(
                update(job_locks).where(
                    job_locks.c.job_name == job_name,
                    or_(job_locks.c.holder.is_(None), job_locks.c.locked_until < now,
                        job_locks.c.holder == holder),
                ).values(holder=holder, locked_until=until)
            )
            if taken.rowcount != 1:
                return False
            await conn.execute(
                update(job_runs).where(job_runs.c.job_name == job_name,
                                       job_runs.c.status == RUNNING, job_runs.c.worker != holder)
                .values(status=FAILED, finished_at=now,
                        error="abandoned: its worker stopped renewing the job's lease")
            )
        return True

    async def renew_lease(self, job_name: str, holder: str, now: datetime, seconds: float) -> bool:
        """Extend our lease; False when it is no longer ours (it expired and was taken)."""
        async with self._engine.begin() as conn:
            renewed = await conn.execute(
                update(job_locks).where(job_locks.c.job_name == job_name,
                                        job_locks.c.holder == holder)
                .values(locked_until=now + timedelta(seconds=seconds))
            )
        return bool(renewed.rowcount == 1)

    async def release_lease(self, job_name: str, holder: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(
                update(job_locks).where(job_locks.c.job_name == job_name,
                                        job_locks.c.holder == holder)
                .values(holder=None, locked_until=None)
            )

    async def lease_holder(self, job_name: str, now: datetime) -> str | None:
        """Who holds the job's unexpired lease, if anyone."""
        async with self._engine.connect() as conn:
            row = (await conn.execute(
                select(job_locks.c.holder).where(job_locks.c.job_name == job_name,
                                                 job_locks.c.locked_until >= now)
            )).first()
            await conn.commit()
        return row.holder if row is not None else None

    async def recent_runs(self, job_name: str, limit: int = 10) -> list[JobRun]:
        """The job's latest runs, newest first."""
        async with self._engine.connect() as conn:
            rows = (await conn.execute(
                select(job_runs).where(job_runs.c.job_name == job_name)
                .order_by(job_runs.c.started_at.desc(), job_runs.c.id.desc()).limit(limit)
            )).all()
            await conn.commit()
        return [_run(r) for r in rows]

    async def get_run(self, run_id: int) -> JobRun | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(job_runs).where(job_runs.c.id == run_id))).first()
            await conn.commit()
        return _run(row) if row is not None else None
