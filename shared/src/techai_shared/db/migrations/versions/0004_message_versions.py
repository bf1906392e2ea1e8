"""Message event versions and an outbox index for the reconcile and rebuild operations.

- conversation_messages.version: the aggregate version of the message's
  ConversationMessageCreated event. Rebuilding or repairing the read model re-emits that event
  from the command store, and the projected message document carries the version, so it must be
  the original one for the rebuilt document to equal the first. Existing rows are backfilled
  from the outbox, which still holds every event (nothing purged the outbox before the
  purge-outbox job that comes with this revision).
- ix_outbox_aggregate_created: reconcile-projections finds the sessions changed in a recent
  window from the outbox (every change of a session writes a row there).

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-24
"""

from __future__ import annotations

import json

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("conversation_messages") as batch:
        batch.add_column(sa.Column("version", sa.Integer(), nullable=True))
    op.create_index("ix_outbox_aggregate_created", "outbox_events", ["aggregate_type", "created_at"])
    _backfill_message_versions()


_BATCH = 1000


def _backfill_message_versions() -> None:
    """Copy each message's event version from its ConversationMessageCreated outbox row."""
    bind = op.get_bind()
    outbox = sa.table("outbox_events", sa.column("id", sa.BigInteger), sa.column("event_type"),
                      sa.column("version", sa.Integer), sa.column("body"))
    messages = sa.table("conversation_messages", sa.column("message_id"),
                        sa.column("version", sa.Integer))
    last_id = 0
    while True:
        rows = bind.execute(
            sa.select(outbox.c.id, outbox.c.version, outbox.c.body)
            .where(outbox.c.event_type == "ConversationMessageCreated", outbox.c.id > last_id)
            .order_by(outbox.c.id).limit(_BATCH)
        ).all()
        if not rows:
            return
        for row in rows:
            message_id = json.loads(row.body)["payload"]["messageId"]
            bind.execute(
                sa.update(messages)
                .where(messages.c.message_id == message_id, messages.c.version.is_(None))
                .values(version=row.version)
            )
        last_id = rows[-1].id


def downgrade() -> None:
    op.drop_index("ix_outbox_aggregate_created", table_name="outbox_events")
    with op.batch_alter_table("conversation_messages") as batch:
        batch.drop_column("version")
