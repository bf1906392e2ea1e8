"""The ops controls over HTTP (command-api's /api/v1/admin/jobs) and the scheduler process's own
/readyz and /metrics, on the real stores."""

from __future__ import annotations

import asyncio
import json
from datetime import UTC, datetime, timedelta

import httpx
import pytest
from devstack.servers import free_port
from sqlalchemy import select

from command_api.entrypoints.app import create_app
from command_api.entrypoints.scheduler import SchedulerProcess
from techai_shared.auth import mint_token
from techai_shared.conversation.model import NewMessage
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import job_runs, outbox_events
from tests.conftest import eventually, unique
from tests.integration.ops_pipeline import command_settings, with_jobs
from tests.integration.test_command_api_ops import serving
from tests.support.conversations import Conversations

pytestmark = pytest.mark.integration

JOBS = "/api/v1/admin/jobs"


def _auth(settings, role: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {mint_token(unique('op-'), settings, role=role)}"}


async def test_admin_lists_jobs_and_runs_one_with_its_request_id_in_the_events(settings):
    cmd = command_settings(settings, command_session_idle_minutes=0.0001)
    engine = make_engine(cmd)
    store = Conversations(engine)
    idle = await store.append_exchange(unique("u-"), None, NewMessage("user", "q", 1),
                                       NewMessage("assistant", "a", 1),
                                       datetime.now(UTC) - timedelta(hours=1))
    try:
        async with serving(create_app(cmd)) as client:
            admin = _auth(cmd, "ADMIN")
            assert (await client.get(JOBS, headers=_auth(cmd, "USER"))).status_code == 403
            assert (await client.get(JOBS)).status_code == 401
            forbidden = await client.post(f"{JOBS}/purge-outbox/run", headers=_auth(cmd, "USER"))
            assert forbidden.status_code == 403 and forbidden.json()["code"] == "4031"
            unknown = await client.post(f"{JOBS}/no-such-job/run", headers=admin)
            assert unknown.status_code == 404 and unknown.json()["code"] == "4040"

            ran = await client.post(f"{JOBS}/deactivate-idle-sessions/run",
                                    headers={**admin, "X-Request-ID": "req-ops-42"})
            assert ran.status_code == 200, ran.text
            assert ran.headers["x-request-id"] == "req-ops-42"
            run = ran.json()["data"]
            assert (run["status"], run["trigger"], run["rowsAffected"]) == ("succeeded", "manual", 1)

            listed = (await client.get(JOBS, headers=admin)).json()["data"]["jobs"]
            by_name = {job["name"]: job for job in listed}
            assert set(by_name) == {"deactivate-idle-sessions", "expire-sessions", "purge-outbox",
                                    "reconcile-projections", "advance-contest-status",
                                    "purge-job-runs"}
            deactivate = by_name["deactivate-idle-sessions"]
            assert deactivate["schedule"] == "0 * * * *" and deactivate["timezone"] == "Asia/Seoul"
            assert deactivate["nextFireTime"].endswith(":00:00+09:00")
            assert deactivate["lastRuns"][0]["runId"] == run["runId"]
            assert by_name["expire-sessions"]["nextFireTime"].split("T")[1] == "02:00:00+09:00"

            metrics = (await client.get("/metrics")).text
            assert ('http_request_duration_seconds_count{method="POST",'
                    'route="/api/v1/admin/jobs/{name}/run",status="200"}') in metrics
            assert 'job_runs_total{job="deactivate-idle-sessions",outcome="succeeded",' \
                   'trigger="manual"}' in metrics
            for series in ("outbox_backlog", "outbox_oldest_unpublished_age_seconds",
                           "outbox_events_published_total"):
                assert f"\n{series}" in metrics

        async with engine.connect() as conn:
            bodies = (await conn.execute(select(outbox_events.c.body).where(
                outbox_events.c.aggregate_id == idle.session.session_id))).scalars().all()
        changed = [json.loads(b) for b in bodies if '"isActive":false' in b]
        assert len(changed) == 1 and changed[0]["requestId"] == "req-ops-42"
    finally:
        await engine.dispose()


async def test_run_is_refused_with_409_while_the_job_is_running_and_nothing_is_recorded(settings):
    cmd = command_settings(settings)
    engine = make_engine(cmd)
    try:
        now = datetime.now(UTC)
        assert await with_jobs(engine, lambda jobs: jobs.acquire_lease("purge-outbox", "scheduler-x/1",
                                                                       now, 60))
        async with serving(create_app(cmd)) as client:
            admin = _auth(cmd, "ADMIN")
            busy = await client.post(f"{JOBS}/purge-outbox/run", headers=admin)
            assert busy.status_code == 409 and busy.json()["code"] == "4091"
            assert busy.json()["data"] is None
            listed = (await client.get(JOBS, headers=admin)).json()["data"]["jobs"]
            purge = next(job for job in listed if job["name"] == "purge-outbox")
            assert purge["running"] is True and purge["runningOn"] == "scheduler-x/1"
            async with engine.connect() as conn:
                assert (await conn.execute(select(job_runs))).all() == []
            await with_jobs(engine, lambda jobs: jobs.release_lease("purge-outbox", "scheduler-x/1"))
            assert (await client.post(f"{JOBS}/purge-outbox/run", headers=admin)).status_code == 200
    finally:
        await engine.dispose()


async def test_scheduler_process_readiness_names_a_stopped_dependency(settings):
    dead_mongo = f"mongodb://127.0.0.1:{free_port()}"
    port = free_port()
    cmd = command_settings(settings, mongodb_uri=dead_mongo, mongodb_server_selection_timeout_ms=300,
                           command_scheduler_port=port)
    process = SchedulerProcess(cmd)
    stop = asyncio.Event()
    task = asyncio.create_task(process.run(stop))
    try:
        async def not_ready():
            async with httpx.AsyncClient(timeout=5) as client:
                try:
                    return await client.get(f"http://127.0.0.1:{port}/readyz")
                except httpx.TransportError:
                    return None

        answer = await eventually(not_ready, within=15)
        assert answer.status_code == 503
        body = answer.json()
        assert body["code"] == "5032" and "mongodb" in body["message"]
        assert body["data"]["database"] == "UP" and body["data"]["scheduler"] == "UP"
        assert body["data"]["mongodb"].startswith("DOWN")
        async with httpx.AsyncClient(timeout=5) as client:
            assert (await client.get(f"http://127.0.0.1:{port}/healthz")).status_code == 200
            metrics = (await client.get(f"http://127.0.0.1:{port}/metrics")).text
        assert "# TYPE job_runs_total counter" in metrics
        assert "# TYPE job_run_duration_seconds histogram" in metrics
        jobs = {job.id: job for job in process.scheduler.get_jobs()}
        assert set(jobs) == {"deactivate-idle-sessions", "expire-sessions", "purge-outbox",
                             "reconcile-projections", "advance-contest-status",
                             "purge-job-runs"}
        purge = jobs["purge-outbox"]
        assert (purge.coalesce, purge.max_instances, purge.misfire_grace_time) == (True, 1, 300)
        assert str(purge.next_run_time.tzinfo) == "Asia/Seoul"
    finally:
        stop.set()
        assert await asyncio.wait_for(task, 15) == 0
