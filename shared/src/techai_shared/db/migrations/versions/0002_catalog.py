"""The catalog: contests, news articles and per-user bookmarks (soft-deleted, versioned).

Also widens outbox_events.body to MEDIUMTEXT on MySQL: an event carries a news article's full
state, and its content alone may exceed TEXT's 64 KB.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from techai_shared.db.types import LongText, UtcDateTime

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def _lifecycle() -> list[sa.Column[object]]:
    return [
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("created_at", UtcDateTime(), nullable=False),
        sa.Column("updated_at", UtcDateTime(), nullable=False),
        sa.Column("deleted_at", UtcDateTime(), nullable=True),
    ]


def upgrade() -> None:
    op.create_table(
        "contests",
        sa.Column("contest_id", sa.String(64), primary_key=True),
        sa.Column("title", sa.String(300), nullable=False),
        sa.Column("description", sa.Text(), nullable=False),
        sa.Column("start_date", UtcDateTime(), nullable=True),
        sa.Column("end_date", UtcDateTime(), nullable=True),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("url", sa.String(1000), nullable=True),
        sa.Column("source_name", sa.String(200), nullable=True),
        sa.Column("tags", sa.JSON(), nullable=False),
        *_lifecycle(),
    )
    op.create_index("ix_contests_status_start", "contests", ["status", "start_date"])
    op.create_table(
        "news_articles",
        sa.Column("news_id", sa.String(64), primary_key=True),
        sa.Column("title", sa.String(300), nullable=False),
        sa.Column("summary", sa.Text(), nullable=False),
        sa.Column("content", LongText, nullable=False),
        sa.Column("published_at", UtcDateTime(), nullable=True),
        sa.Column("url", sa.String(1000), nullable=True),
        sa.Column("source_name", sa.String(200), nullable=True),
        sa.Column("tags", sa.JSON(), nullable=False),
        *_lifecycle(),
    )
    op.create_index("ix_news_published", "news_articles", ["published_at"])
    op.create_table(
        "bookmarks",
        sa.Column("bookmark_id", sa.String(64), primary_key=True),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("item_type", sa.String(16), nullable=False),
        sa.Column("item_id", sa.String(64), nullable=False),
        sa.Column("item_title", sa.String(300), nullable=False),
        sa.Column("item_summary", sa.Text(), nullable=False),
        sa.Column("tag", sa.String(100), nullable=True),
        sa.Column("memo", sa.Text(), nullable=True),
        sa.Column("live", sa.Boolean(), nullable=True),
        *_lifecycle(),
        sa.UniqueConstraint("user_id", "item_type", "item_id", "live",
                            name="uq_bookmarks_user_item_live"),
    )
    op.create_index("ix_bookmarks_user_created", "bookmarks", ["user_id", "created_at"])
    if _is_mysql():
        op.alter_column("outbox_events", "body", type_=LongText, existing_type=sa.Text(),
                        existing_nullable=False)


def _is_mysql() -> bool:
    return op.get_bind().dialect.name in ("mysql", "mariadb")  # SQLite's TEXT has no limit


def downgrade() -> None:
    if _is_mysql():
        op.alter_column("outbox_events", "body", type_=sa.Text(), existing_type=LongText,
                        existing_nullable=False)
    op.drop_table("bookmarks")
    op.drop_table("news_articles")
    op.drop_table("contests")
