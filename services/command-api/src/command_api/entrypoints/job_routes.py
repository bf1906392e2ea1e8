"""Routes of /api/v1/admin/jobs: see the operations jobs and run one now (ADMIN role).

A manual run takes the job's lease first: while the job runs anywhere (the scheduler or another
manual run) the answer is 409 and nothing is recorded. The run goes on in this process; the
answer waits for it up to COMMAND_JOB_MANUAL_WAIT_SECONDS (200 with the finished run), after
which it is 202 with the run still `running` (GET .../jobs shows how it ends).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import APIRouter, Path, Response, status

from command_api.entrypoints.deps import AdminUser, ContainerDep
from command_api.service_layer.schedule import describe_jobs
from techai_shared.clock import utcnow
from techai_shared.envelope import success

router = APIRouter(prefix="/api/v1/admin/jobs", tags=["jobs"])

JobName = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9-]*$")]


@router.get("")
async def read_jobs(_: AdminUser, c: ContainerDep) -> dict[str, Any]:
    jobs = await describe_jobs(c.ops.runner, c.settings.command_scheduler_timezone, utcnow())
    return success({"jobs": jobs})


@router.post("/{name}/run", responses={202: {"description": "still running after the wait"}})
async def run_job(name: JobName, _: AdminUser, c: ContainerDep, response: Response
                  ) -> dict[str, Any]:
    run, task = await c.ops.runner.start_manual(name)
    done, _pending = await asyncio.wait([task], timeout=c.settings.command_job_manual_wait_seconds)
    if not done:
        response.status_code = status.HTTP_202_ACCEPTED
        return success(run.public())
    return success(task.result().public())
