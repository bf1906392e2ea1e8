"""user_token_budgets: a user's own daily token budget, set by an administrator.

Users without a row have the default (CHATBOT_DAILY_TOKEN_BUDGET); a row's daily_tokens 0 means
no budget for that user.

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-27
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from techai_shared.db.types import UtcDateTime

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "user_token_budgets",
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("daily_tokens", sa.BigInteger, nullable=False),
        sa.Column("updated_by", sa.String(64), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("user_token_budgets")
