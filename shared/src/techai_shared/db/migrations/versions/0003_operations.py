"""Operations: scheduled job runs and their locks, per-user daily model usage, session expiry.

- job_runs: one row per (job, fire time). The unique key is the claim: a second scheduler replica,
  a restart or a retry that reaches the same fire time fails to insert and does not run the job.
- job_locks: one row per job; a conditional UPDATE takes it, so a manual run and a scheduled run
  of the same job never overlap (the holder's lease expires if its process dies).
- usage_daily: model tokens and cost per user, day (Asia/Seoul) and model, written in the same
  transaction as the exchange that used them.
- conversation_sessions.expired_at: set when the expiry job soft-deletes an idle session.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-23
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from techai_shared.db.types import AutoIncrementId, UtcDateTime

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "job_runs",
        sa.Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
        sa.Column("job_name", sa.String(64), nullable=False),
        sa.Column("scheduled_for", UtcDateTime(), nullable=False),
        sa.Column("trigger", sa.String(16), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("worker", sa.String(128), nullable=False),
        sa.Column("started_at", UtcDateTime(), nullable=False),
        sa.Column("finished_at", UtcDateTime(), nullable=True),
        sa.Column("rows_affected", sa.Integer(), nullable=True),
        sa.Column("error", sa.Text(), nullable=True),
        sa.UniqueConstraint("job_name", "scheduled_for", name="uq_job_runs_fire"),
    )
    op.create_index("ix_job_runs_job_started", "job_runs", ["job_name", "started_at"])
    op.create_table(
        "job_locks",
        sa.Column("job_name", sa.String(64), primary_key=True),
        sa.Column("holder", sa.String(128), nullable=True),
        sa.Column("locked_until", UtcDateTime(), nullable=True),
    )
    op.create_table(
        "usage_daily",
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("day", sa.Date(), primary_key=True),
        sa.Column("model", sa.String(100), primary_key=True),
        sa.Column("requests", sa.Integer(), nullable=False),
        sa.Column("prompt_tokens", sa.BigInteger(), nullable=False),
        sa.Column("completion_tokens", sa.BigInteger(), nullable=False),
        sa.Column("cost_usd", sa.Numeric(18, 8), nullable=False),
    )
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.add_column(sa.Column("expired_at", UtcDateTime(), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.drop_column("expired_at")
    op.drop_table("usage_daily")
    op.drop_table("job_locks")
    op.drop_index("ix_job_runs_job_started", table_name="job_runs")
    op.drop_table("job_runs")
