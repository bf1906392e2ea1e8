"""verified_answer_uses: each serve and suggestion of a verified answer, by the answer message.

chatbot-api adds the rows in the exchange's transaction, with the question as the user asked it;
command-api's admin API counts them per answer, joins the served ones with message_feedback for how
users rated them, and lists the questions (the wordings an operator may add as phrasings).

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from techai_shared.db.types import AutoIncrementId, UtcDateTime

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "verified_answer_uses",
        sa.Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
        sa.Column("answer_id", sa.String(24), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("message_id", sa.String(36), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("question", sa.Text, nullable=False),
        sa.Column("judged", sa.Boolean, nullable=False, server_default=sa.false()),
        sa.Column("created_at", UtcDateTime(), nullable=False),
    )
    op.create_index("ix_verified_uses_answer", "verified_answer_uses", ["answer_id", "kind"])
    op.create_index("ix_verified_uses_message", "verified_answer_uses", ["message_id"])


def downgrade() -> None:
    op.drop_table("verified_answer_uses")
