"""Routes of /api/v1/admin/jobs: see the operations jobs and run one now (ADMIN role).

A manual run takes the job's lease first: while the job runs anywhere (the scheduler or another
manual run) the answer is 409 and nothing is recorded. The run goes on in this process; the
answer waits for it up to COMMAND_JOB_MANUAL_WAIT_SECONDS (200 with the finished run), after
which it is 202 with the run still `running` (GET .../jobs shows how it ends).
"""

from __future__ import annotations

import asyncio
from typing import Annotated, Any

from fastapi import Path, Response, status

from command_api.entrypoints.deps import AdminUser, JobRunnerDep, SettingsDep
from command_api.entrypoints.schemas import JobList, JobRunPublic
from command_api.service_layer.schedule import describe_jobs
from techai_shared.clock import utcnow
from techai_shared.envelope import Envelope, success
from techai_shared.errors import ErrorCode
from techai_shared.web import api_router, error_responses

# Every route needs a token with the ADMIN role and uses the command store.
router = api_router("/api/v1/admin/jobs", ["jobs"], ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)

JobName = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[a-z][a-z0-9-]*$")]


@router.get("", response_model=Envelope[JobList])
async def read_jobs(_: AdminUser, runner: JobRunnerDep, settings: SettingsDep) -> Envelope[dict[str, Any]]:
    jobs = await describe_jobs(runner, settings.command_scheduler_timezone, utcnow())
    return success({"jobs": jobs})


@router.post("/{name}/run", response_model=Envelope[JobRunPublic], responses={
    202: {"model": Envelope[JobRunPublic], "description": "still running after the wait"},
    **error_responses(ErrorCode.INVALID_INPUT, ErrorCode.NOT_FOUND, ErrorCode.CONFLICT)})
async def run_job(name: JobName, _: AdminUser, runner: JobRunnerDep, settings: SettingsDep, response: Response
                  ) -> Envelope[dict[str, Any]]:
    run, task = await runner.start_manual(name)
    done, _pending = await asyncio.wait([task], timeout=settings.command_job_manual_wait_seconds)
    if not done:
        response.status_code = status.HTTP_202_ACCEPTED
        return success(run.public())
    return success(task.result().public())
