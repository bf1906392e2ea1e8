"""When each job fires (crontab expressions in the scheduler's time zone), and the job listing
the API and the CLI show: schedule, next fire time, whether it runs now, its last runs."""

from __future__ import annotations

from datetime import datetime
from typing import Any
from zoneinfo import ZoneInfo

from apscheduler.triggers.cron import CronTrigger

from command_api.service_layer.jobs import Job, JobRunner
from techai_shared.clock import iso


def cron_trigger(expression: str, timezone: str) -> CronTrigger:
    """A five-field crontab expression (minute hour day month weekday) in `timezone`."""
    return CronTrigger.from_crontab(expression, timezone=ZoneInfo(timezone))


def next_fire_time(job: Job, timezone: str, now: datetime) -> datetime | None:
    trigger = cron_trigger(job.cron, timezone)
    fire: datetime | None = trigger.get_next_fire_time(None, now.astimezone(ZoneInfo(timezone)))
    return fire


async def describe_jobs(runner: JobRunner, timezone: str, now: datetime,
                        last_runs: int = 5) -> list[dict[str, Any]]:
    """Every job with its schedule, next fire time, current lease holder and latest runs."""
    listing = []
    for job in runner.jobs.values():
        fire = next_fire_time(job, timezone, now)
        holder = await runner.lease_holder(job.name, now)
        listing.append({
            "name": job.name,
            "description": job.description,
            "schedule": job.cron,
            "timezone": timezone,
            "nextFireTime": fire.isoformat() if fire else None,
            "nextFireTimeUtc": iso(fire) if fire else None,
            "running": holder is not None,
            "runningOn": holder,
            "lastRuns": [run.public() for run in await runner.recent_runs(job.name, last_runs)],
        })
    return listing
