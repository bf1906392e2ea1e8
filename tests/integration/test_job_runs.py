"""Each job runs once per fire time, whatever races it: two schedulers, a manual run, a restart."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

import pytest
from apscheduler.triggers.interval import IntervalTrigger
from sqlalchemy import func, select

from command_api.adapters.outbox_log import SqlOutboxLog
from command_api.adapters.read_model import MongoReadModel
from command_api.bootstrap import unit_of_work
from command_api.entrypoints.scheduler import build_scheduler
from command_api.service_layer.jobs import Job, JobBusy, JobRunner, LifecycleJobs
from command_api.service_layer.reconcile import Reconciler
from command_api.service_layer.republish import Republisher
from techai_shared.conversation.model import NewMessage
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import job_runs, outbox_events
from techai_shared.mongo import make_mongo_client
from tests.conftest import eventually, unique
from tests.integration.ops_pipeline import FakeClock, command_settings, minutes, with_jobs
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration

DEACTIVATE = "deactivate-idle-sessions"


def _runner(settings, engine, clock, worker, mongo, wrap=None) -> JobRunner:
    uow, outbox = unit_of_work(engine, clock=clock), SqlOutboxLog(engine)
    read_model = MongoReadModel(mongo[settings.mongodb_database])
    reconciler = Reconciler(uow, outbox, read_model, Republisher(uow, read_model, clock), clock)
    jobs = LifecycleJobs(settings, uow, outbox, reconciler).jobs()
    if wrap is not None:
        jobs = {name: Job(job.name, job.description, job.cron, wrap(job.run))
                for name, job in jobs.items()}
    return JobRunner(uow, jobs, settings, clock, worker)


async def _idle_sessions(engine, count: int, at: datetime) -> list[str]:
    store = Conversations(engine)
    ids = []
    for i in range(count):
        exchange = await store.append_exchange(unique("u-"), None, NewMessage("user", f"q{i}", 1),
                                               NewMessage("assistant", "a", 1), at)
        ids.append(exchange.session.session_id)
    return ids


async def _runs(engine, job: str) -> list:
    async with engine.connect() as conn:
        return (await conn.execute(select(job_runs).where(job_runs.c.job_name == job)
                                   .order_by(job_runs.c.id))).all()


async def _deactivation_events(engine) -> int:
    async with engine.connect() as conn:
        return (await conn.execute(
            select(func.count()).select_from(outbox_events).where(
                outbox_events.c.event_type == "ConversationSessionUpdated",
                outbox_events.c.body.like('%"isActive":false%'))
        )).scalar_one()


@pytest.fixture
async def stores(settings):
    cmd = command_settings(settings, command_job_lease_wait_seconds=10)
    engine_a, engine_b = make_engine(cmd), make_engine(cmd)  # two processes' pools
    mongo = make_mongo_client(cmd)
    yield cmd, engine_a, engine_b, mongo
    await mongo.close()
    await engine_a.dispose()
    await engine_b.dispose()


async def test_two_schedulers_at_the_same_fire_time_run_the_job_once(stores):
    cmd, engine_a, engine_b, mongo = stores
    t0 = datetime.now(UTC)
    sessions = await _idle_sessions(engine_a, 3, t0)
    clock = FakeClock(t0 + minutes(31))
    a = _runner(cmd, engine_a, clock, "replica-a", mongo)
    b = _runner(cmd, engine_b, clock, "replica-b", mongo)
    fire = t0.replace(microsecond=0) + minutes(31)

    results = await asyncio.gather(a.run_scheduled(DEACTIVATE, fire),
                                   b.run_scheduled(DEACTIVATE, fire))

    ran = [r for r in results if r is not None]
    assert len(ran) == 1 and ran[0].status == "succeeded" and ran[0].rows_affected == 3
    runs = await _runs(engine_a, DEACTIVATE)
    assert [(r.scheduled_for, r.trigger, r.status, r.rows_affected) for r in runs] == [
        (fire, "schedule", "succeeded", 3)]
    assert await _deactivation_events(engine_a) == len(sessions)  # one change per session

    # A restart (or a late replica) reaching the same fire time again does nothing.
    assert await b.run_scheduled(DEACTIVATE, fire) is None
    assert len(await _runs(engine_a, DEACTIVATE)) == 1


async def test_two_apscheduler_instances_fire_together_and_each_fire_time_runs_once(stores):
    cmd, engine_a, engine_b, mongo = stores
    clock = FakeClock(datetime.now(UTC))
    start = datetime.now(UTC).replace(microsecond=0) + timedelta(seconds=1)
    schedulers = []
    for name, engine in (("replica-a", engine_a), ("replica-b", engine_b)):
        runner = _runner(cmd, engine, clock, name, mongo)
        # Every second from the same start: both replicas reach identical fire times.
        trigger = IntervalTrigger(seconds=1, start_date=start)
        scheduler = build_scheduler(runner, cmd, {job: trigger for job in runner.jobs})
        for job in list(runner.jobs):
            if job != "purge-outbox":
                scheduler.remove_job(job)
        schedulers.append(scheduler)
    for scheduler in schedulers:
        scheduler.start()

    async def several_fire_times_done():
        runs = await _runs(engine_a, "purge-outbox")
        return len([r for r in runs if r.status == "succeeded"]) >= 3

    try:
        await eventually(several_fire_times_done, within=20)
    finally:
        for scheduler in schedulers:
            scheduler.shutdown(wait=False)
    await asyncio.sleep(0.5)
    runs = await _runs(engine_a, "purge-outbox")
    fire_times = [r.scheduled_for for r in runs]
    assert len(fire_times) == len(set(fire_times))  # never two runs of one fire time
    assert all(t.microsecond == 0 for t in fire_times)  # the fire times, not the start times
    assert {r.worker.split("/")[0] for r in runs} <= {"replica-a", "replica-b"}


async def test_manual_run_while_a_scheduled_run_holds_the_job_is_refused_not_doubled(stores):
    cmd, engine_a, engine_b, mongo = stores
    t0 = datetime.now(UTC)
    await _idle_sessions(engine_a, 2, t0)
    clock = FakeClock(t0 + minutes(45))
    release = asyncio.Event()
    entered = asyncio.Event()

    def slow(run):
        async def wrapped(ctx):
            entered.set()
            await release.wait()
            return await run(ctx)
        return wrapped

    scheduled = _runner(cmd, engine_a, clock, "scheduler-1", mongo, wrap=slow)
    manual = _runner(cmd, engine_b, clock, "api-1", mongo)
    fire = t0.replace(microsecond=0) + minutes(45)
    task = asyncio.create_task(scheduled.run_scheduled(DEACTIVATE, fire))
    await asyncio.wait_for(entered.wait(), 10)

    with pytest.raises(JobBusy):
        await manual.start_manual(DEACTIVATE)
    assert await manual.lease_holder(DEACTIVATE, clock()) is not None

    release.set()
    finished = await task
    assert finished is not None and finished.rows_affected == 2
    runs = await _runs(engine_a, DEACTIVATE)
    assert [(r.trigger, r.status) for r in runs] == [("schedule", "succeeded")]

    # Once the scheduled run is over, a manual run goes ahead and finds nothing left to do.
    after = await manual.run_manual(DEACTIVATE)
    assert (after.trigger, after.status, after.rows_affected) == ("manual", "succeeded", 0)
    assert await _deactivation_events(engine_a) == 2


async def test_scheduled_run_waits_for_a_manual_run_then_runs_its_fire_time(stores):
    cmd, engine_a, engine_b, mongo = stores
    clock = FakeClock(datetime.now(UTC))
    release = asyncio.Event()

    def slow(run):
        async def wrapped(ctx):
            await release.wait()
            return await run(ctx)
        return wrapped

    manual = _runner(cmd, engine_a, clock, "api-1", mongo, wrap=slow)
    scheduled = _runner(cmd, engine_b, clock, "scheduler-1", mongo)
    _, manual_task = await manual.start_manual("purge-outbox")
    fire = clock().replace(microsecond=0)
    scheduled_task = asyncio.create_task(scheduled.run_scheduled("purge-outbox", fire))
    await asyncio.sleep(1.5)
    assert not scheduled_task.done()  # serialised behind the manual run, not beside it
    release.set()
    await manual_task
    run = await asyncio.wait_for(scheduled_task, 10)
    assert run is not None and run.status == "succeeded"
    runs = await _runs(engine_a, "purge-outbox")
    assert [r.trigger for r in runs] == ["manual", "schedule"]
    assert runs[0].finished_at <= runs[1].started_at


async def test_a_dead_workers_expired_lease_is_taken_over_and_its_run_marked_failed(stores):
    _, engine_a, _, _ = stores
    now = datetime.now(UTC)
    assert await with_jobs(engine_a, lambda jobs: jobs.acquire_lease("purge-outbox", "dead-worker/1",
                                                                     now, 5))
    assert await with_jobs(engine_a, lambda jobs: jobs.claim("purge-outbox", now, "schedule",
                                                             "dead-worker/1", now))
    assert not await with_jobs(engine_a, lambda jobs: jobs.acquire_lease(
        "purge-outbox", "live/1", now + timedelta(seconds=1), 5))
    assert await with_jobs(engine_a, lambda jobs: jobs.acquire_lease(
        "purge-outbox", "live/1", now + timedelta(seconds=6), 5))
    runs = await _runs(engine_a, "purge-outbox")
    assert runs[0].status == "failed" and runs[0].error.startswith("abandoned")


async def test_finished_runs_older_than_the_retention_are_purged_and_running_ones_stay(stores):
    cmd, engine_a, _, mongo = stores
    now = datetime.now(UTC).replace(microsecond=0)
    job = unique("old-job-")
    old, recent = now - timedelta(days=cmd.command_job_runs_retention_days + 1), now - minutes(5)
    rows = [dict(job_name=job, scheduled_for=old + timedelta(seconds=i), trigger="schedule",
                 status="succeeded", worker="w", started_at=old, finished_at=old)
            for i in range(3)]
    rows += [dict(job_name=job, scheduled_for=old + minutes(1), trigger="schedule",
                  status="running", worker="w", started_at=old, finished_at=None),
             dict(job_name=job, scheduled_for=recent, trigger="schedule", status="failed",
                  worker="w", started_at=recent, finished_at=recent)]
    async with engine_a.begin() as conn:
        await conn.execute(job_runs.insert(), rows)
    runner = _runner(command_settings(cmd, command_job_batch_size=2), engine_a,
                     FakeClock(now), "purger", mongo)
    run = await runner.run_manual("purge-job-runs")
    assert run.status == "succeeded" and run.rows_affected >= 3  # in batches of two
    left = await _runs(engine_a, job)
    assert [(r.status, r.scheduled_for) for r in left] == [
        ("running", old + minutes(1)), ("failed", recent)]
