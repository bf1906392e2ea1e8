"""The answer-improvement loop: ratings of answers and verified answers.

- message_feedback: one row per rated assistant message (unique message_id); a second rating
  replaces the first, a removal soft-deletes it, and `version` counts every change so the
  projection into the message's document is monotonic.
- verified_answers: operators' curated answers, public id `v-<id, 4 digits at least>`, with 1..10
  phrasings, optional catalog sources and a validity window; drafts are not served.

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from techai_shared.db.types import AutoIncrementId, UtcDateTime

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "message_feedback",
        sa.Column("feedback_id", sa.String(36), primary_key=True),
        sa.Column("message_id", sa.String(36), sa.ForeignKey("conversation_messages.message_id"),
                  nullable=False, unique=True),
        sa.Column("session_id", sa.String(36), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("rating", sa.String(8), nullable=False),
        sa.Column("reasons", sa.JSON(), nullable=False),
        sa.Column("comment", sa.Text(), nullable=True),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.Column("deleted_at", UtcDateTime(), nullable=True),
    )
    op.create_index("ix_feedback_updated", "message_feedback", ["updated_at"])
    op.create_table(
        "verified_answers",
        sa.Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("questions", sa.JSON(), nullable=False),
        sa.Column("answer", sa.Text(), nullable=False),
        sa.Column("sources", sa.JSON(), nullable=False),
        sa.Column("valid_from", UtcDateTime(), nullable=True),
        sa.Column("valid_until", UtcDateTime(), nullable=True),
        sa.Column("feedback_id", sa.String(36), nullable=True),
        sa.Column("author", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.Column("deleted_at", UtcDateTime(), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("verified_answers")
    op.drop_index("ix_feedback_updated", table_name="message_feedback")
    op.drop_table("message_feedback")
