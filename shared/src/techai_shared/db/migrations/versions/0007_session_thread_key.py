"""conversation_sessions.thread_key: the session a stateless OpenAI client continues.

A client of `POST /v1/chat/completions` that names no conversation resends the whole transcript
each turn; the key of that transcript (a hash chain over its messages) finds the caller's session
whose latest exchange it ends with.

Revision ID: 0007
Revises: 0006
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.add_column(sa.Column("thread_key", sa.String(64), nullable=True))
        batch.create_index("ix_sessions_user_thread", ["user_id", "thread_key"])


def downgrade() -> None:
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.drop_index("ix_sessions_user_thread")
        batch.drop_column("thread_key")
