"""Tables of the command store (SQLAlchemy Core). Migrations in ./migrations create the same schema."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    Boolean,
    Column,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    UniqueConstraint,
)

from techai_shared.db.types import AutoIncrementId, UtcDateTime

metadata = MetaData()

conversation_sessions = Table(
    "conversation_sessions",
    metadata,
    Column("session_id", String(36), primary_key=True),
    Column("user_id", String(64), nullable=False),
    Column("title", String(200), nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("last_message_at", UtcDateTime, nullable=False),
    Column("is_active", Boolean, nullable=False, default=True),
    Column("message_count", Integer, nullable=False, default=0),
    Column("version", Integer, nullable=False, default=0),
    Column("deleted_at", UtcDateTime, nullable=True),
    Index("ix_sessions_user_last", "user_id", "deleted_at", "last_message_at"),
    Index("ix_sessions_active_last", "is_active", "last_message_at"),
)

conversation_messages = Table(
    "conversation_messages",
    metadata,
    Column("message_id", String(36), primary_key=True),
    Column(
        "session_id",
        String(36),
        ForeignKey("conversation_sessions.session_id"),
        nullable=False,
    ),
    Column("role", String(16), nullable=False),
    Column("content", Text, nullable=False),
    Column("sequence_number", Integer, nullable=False),
    Column("token_count", Integer, nullable=False),
    Column("sources", JSON, nullable=True),
    Column("created_at", UtcDateTime, nullable=False),
    UniqueConstraint("session_id", "sequence_number", name="uq_messages_session_seq"),
)

outbox_events = Table(
    "outbox_events",
    metadata,
    Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
    Column("event_id", String(36), nullable=False, unique=True),
    Column("aggregate_type", String(32), nullable=False),
    Column("aggregate_id", String(64), nullable=False),
    Column("event_type", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("body", Text, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("published_at", UtcDateTime, nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", String(500), nullable=True),
    Index("ix_outbox_unpublished", "published_at", "id"),
)
