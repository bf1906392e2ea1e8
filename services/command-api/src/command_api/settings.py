"""command-api settings: the common ones plus COMMAND_*."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from techai_shared.settings import CommonSettings

# The sample catalog of the repository (infra/seed), found from this file in a source checkout.
BUNDLED_SEED_DIR = Path(__file__).resolve().parents[4] / "infra" / "seed"


class CommandSettings(CommonSettings):
    """COMMAND_HOST and COMMAND_PORT say where the API listens (loopback unless told otherwise);
    COMMAND_SEED_DIR holds the JSONL files the import endpoint loads."""

    command_host: str = "127.0.0.1"
    command_port: int = Field(default=8085, ge=1, le=65535)
    command_max_body_bytes: int = Field(default=1024 * 1024, ge=1024)  # a news article is <= 200k chars
    command_seed_dir: Path = BUNDLED_SEED_DIR

    # The scheduler process (python -m command_api.scheduler) and the jobs it runs. Schedules are
    # five-field crontab expressions in COMMAND_SCHEDULER_TIMEZONE; the API and the CLI read the
    # same values to show each job's next fire time.
    command_scheduler_host: str = "127.0.0.1"
    command_scheduler_port: int = Field(default=8087, ge=0, le=65535)  # /healthz /readyz /metrics
    command_scheduler_timezone: str = "Asia/Seoul"
    command_job_misfire_grace_seconds: int = Field(default=300, ge=1)
    command_job_lease_seconds: float = Field(default=120.0, gt=0)  # renewed while the job runs
    command_job_lease_wait_seconds: float = Field(default=600.0, ge=0)  # a scheduled run queues
    command_job_batch_size: int = Field(default=200, ge=1, le=10_000)
    command_job_manual_wait_seconds: float = Field(default=20.0, ge=0)  # POST .../run answers 202 after

    command_job_deactivate_idle_sessions_cron: str = "0 * * * *"
    command_job_expire_sessions_cron: str = "0 2 * * *"
    command_job_purge_outbox_cron: str = "30 3 * * *"
    command_job_purge_job_runs_cron: str = "40 3 * * *"
    command_job_reconcile_projections_cron: str = "*/10 * * * *"
    command_job_advance_contest_status_cron: str = "* * * * *"

    command_session_idle_minutes: float = Field(default=30, gt=0)
    command_session_expire_days: float = Field(default=90, gt=0)
    command_outbox_retention_days: float = Field(default=7, gt=0)
    # finished job runs are kept this long (advance-contest-status alone adds 1,440 runs a day)
    command_job_runs_retention_days: float = Field(default=14, gt=0)
    command_reconcile_grace_seconds: float = Field(default=60, ge=0)
    # The scheduler runs reconcile-projections once as it starts (trigger "startup"), with this
    # grace when set: 0 where the broker is known to have started empty (make run's in-memory
    # Tansu), so nothing can be in flight and whatever the read model lacks is republished at once.
    command_reconcile_at_start: bool = True
    command_reconcile_start_grace_seconds: float | None = Field(default=None, ge=0)
