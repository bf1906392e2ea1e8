"""job_runs.summary: what a run found, in one line.

reconcile-projections compares the read model with the command store for every kind and reports
what lagged (missing or older, per kind) and what it republished; the run's record keeps that
line, so `make jobs` and GET /api/v1/admin/jobs show it next to the rows affected.

Revision ID: 0006
Revises: 0005
Create Date: 2026-11-26
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("job_runs") as batch:
        batch.add_column(sa.Column("summary", sa.String(1000), nullable=True))


def downgrade() -> None:
    with op.batch_alter_table("job_runs") as batch:
        batch.drop_column("summary")
