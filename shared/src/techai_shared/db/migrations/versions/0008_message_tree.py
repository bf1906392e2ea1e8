"""Messages form a tree: conversation_messages.parent_message_id and conversation_sessions.path.

A regenerated answer is a sibling of the answer it replaces and an edited question a sibling of
the question it replaces, at the same sequence number (the depth), so the unique index on
(session_id, sequence_number) becomes a plain one. The session row keeps its current path (a JSON
list of message ids, root first). Existing sessions are linear: each message's parent is the one
before it, and the path is every message in sequence order.

Revision ID: 0008
Revises: 0007
Create Date: 2026-11-27
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_BATCH = 500


def upgrade() -> None:
    with op.batch_alter_table("conversation_messages") as batch:
        batch.add_column(sa.Column("parent_message_id", sa.String(36), nullable=True))
        # the new index first: MySQL keeps the foreign key on session_id on one of them
        batch.create_index("ix_messages_session_seq", ["session_id", "sequence_number"])
        batch.drop_constraint("uq_messages_session_seq", type_="unique")
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.add_column(sa.Column("path", sa.JSON(), nullable=True))
    _backfill()


def _backfill() -> None:
    """Each existing session's messages in sequence order are its path; each follows the one
    before it."""
    bind = op.get_bind()
    sessions = sa.table("conversation_sessions", sa.column("session_id"), sa.column("path"))
    messages = sa.table("conversation_messages", sa.column("message_id"), sa.column("session_id"),
                        sa.column("sequence_number"), sa.column("parent_message_id"))
    after = ""
    while True:
        ids: list[str] = list(bind.execute(
            sa.select(sessions.c.session_id).where(sessions.c.session_id > after)
            .order_by(sessions.c.session_id).limit(_BATCH)).scalars().all())
        if not ids:
            return
        rows = bind.execute(
            sa.select(messages.c.session_id, messages.c.message_id)
            .where(messages.c.session_id.in_(ids))
            .order_by(messages.c.session_id, messages.c.sequence_number)).all()
        paths: dict[str, list[str]] = {sid: [] for sid in ids}
        for row in rows:
            path = paths[row.session_id]
            if path:
                bind.execute(sa.update(messages).where(messages.c.message_id == row.message_id)
                             .values(parent_message_id=path[-1]))
            path.append(row.message_id)
        for sid, path in paths.items():
            bind.execute(sa.update(sessions).where(sessions.c.session_id == sid)
                         .values(path=json.dumps(path)))
        after = ids[-1]


def downgrade() -> None:
    with op.batch_alter_table("conversation_sessions") as batch:
        batch.drop_column("path")
    with op.batch_alter_table("conversation_messages") as batch:
        batch.create_unique_constraint("uq_messages_session_seq", ["session_id", "sequence_number"])
        batch.drop_index("ix_messages_session_seq")
        batch.drop_column("parent_message_id")
