"""Tables of the command store (SQLAlchemy Core). Migrations in ./migrations create the same schema."""

from __future__ import annotations

from sqlalchemy import (
    JSON,
    BigInteger,
    Boolean,
    Column,
    Date,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    Numeric,
    String,
    Table,
    Text,
    UniqueConstraint,
    false,
)

from techai_shared.db.types import AutoIncrementId, LongText, UtcDateTime

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
    Column("expired_at", UtcDateTime, nullable=True),  # set by the expiry job (with deleted_at)
    # The transcript key of the session's latest exchange (chatbot_api.domain.thread): how a client
    # of the OpenAI-compatible endpoint that resends the whole conversation finds its session.
    Column("thread_key", String(64), nullable=True),
    # The current path through the message tree, root first, as a JSON list of message ids
    # (migration 0008): what history shows and what the next question follows.
    Column("path", JSON, nullable=True),
    Index("ix_sessions_user_last", "user_id", "deleted_at", "last_message_at"),
    Index("ix_sessions_user_thread", "user_id", "thread_key"),
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
    # The version of its ConversationMessageCreated event (migration 0004; NULL on older rows).
    Column("version", Integer, nullable=True),
    # The message it follows, NULL for a first question (migration 0008): a regenerated answer or
    # an edited question is a sibling of the one it replaces, at the same sequence number (depth).
    Column("parent_message_id", String(36), nullable=True),
    Index("ix_messages_session_seq", "session_id", "sequence_number"),
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
    Column("body", LongText, nullable=False),  # MEDIUMTEXT on MySQL: news events can be large
    Column("created_at", UtcDateTime, nullable=False),
    Column("published_at", UtcDateTime, nullable=True),
    Column("attempts", Integer, nullable=False, default=0),
    Column("last_error", String(500), nullable=True),
    Index("ix_outbox_unpublished", "published_at", "id"),
    Index("ix_outbox_aggregate_created", "aggregate_type", "created_at"),  # migration 0004
)

# The catalog (docs/architecture.md, The catalog writes). Rows are soft-deleted (deleted_at) and
# never removed, so an id that is deleted and created again keeps counting versions upwards and the
# projection, which ignores versions it has already seen, accepts the new life.

contests = Table(
    "contests",
    metadata,
    Column("contest_id", String(64), primary_key=True),
    Column("title", String(300), nullable=False),
    Column("description", Text, nullable=False),
    Column("start_date", UtcDateTime, nullable=True),
    Column("end_date", UtcDateTime, nullable=True),
    Column("status", String(16), nullable=False),
    Column("url", String(1000), nullable=True),
    Column("source_name", String(200), nullable=True),
    Column("tags", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=True),
    Index("ix_contests_status_start", "status", "start_date"),
)

news_articles = Table(
    "news_articles",
    metadata,
    Column("news_id", String(64), primary_key=True),
    Column("title", String(300), nullable=False),
    Column("summary", Text, nullable=False),
    Column("content", LongText, nullable=False),
    Column("published_at", UtcDateTime, nullable=True),
    Column("url", String(1000), nullable=True),
    Column("source_name", String(200), nullable=True),
    Column("tags", JSON, nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=True),
    Index("ix_news_published", "published_at"),
)

bookmarks = Table(
    "bookmarks",
    metadata,
    Column("bookmark_id", String(64), primary_key=True),
    Column("user_id", String(64), nullable=False),
    Column("item_type", String(16), nullable=False),
    Column("item_id", String(64), nullable=False),
    Column("item_title", String(300), nullable=False),
    Column("item_summary", Text, nullable=False),
    Column("tag", String(100), nullable=True),
    Column("memo", Text, nullable=True),
    # TRUE while live, NULL once deleted: the unique key below then holds for live bookmarks only
    # (NULLs never collide, on MySQL/MariaDB and SQLite alike), so a deleted bookmark keeps its id
    # and versions while the user may bookmark the same item again.
    Column("live", Boolean, nullable=True),
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=True),
    UniqueConstraint("user_id", "item_type", "item_id", "live", name="uq_bookmarks_user_item_live"),
    Index("ix_bookmarks_user_created", "user_id", "created_at"),
)

# Operations (migration 0003): scheduled job runs, their locks, and per-user daily model usage.

job_runs = Table(
    "job_runs",
    metadata,
    Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
    Column("job_name", String(64), nullable=False),
    Column("scheduled_for", UtcDateTime, nullable=False),
    Column("trigger", String(16), nullable=False),  # schedule | manual | startup
    Column("status", String(16), nullable=False),  # running | succeeded | failed
    Column("worker", String(128), nullable=False),
    Column("started_at", UtcDateTime, nullable=False),
    Column("finished_at", UtcDateTime, nullable=True),
    Column("rows_affected", Integer, nullable=True),
    Column("error", Text, nullable=True),
    Column("summary", String(1000), nullable=True),  # what the run found (migration 0006)
    UniqueConstraint("job_name", "scheduled_for", name="uq_job_runs_fire"),
    Index("ix_job_runs_job_started", "job_name", "started_at"),
)

job_locks = Table(
    "job_locks",
    metadata,
    Column("job_name", String(64), primary_key=True),
    Column("holder", String(128), nullable=True),
    Column("locked_until", UtcDateTime, nullable=True),
)

usage_daily = Table(
    "usage_daily",
    metadata,
    Column("user_id", String(64), primary_key=True),
    Column("day", Date, primary_key=True),  # the Asia/Seoul calendar day
    Column("model", String(100), primary_key=True),
    Column("requests", Integer, nullable=False),
    Column("prompt_tokens", BigInteger, nullable=False),
    Column("completion_tokens", BigInteger, nullable=False),
    Column("cost_usd", Numeric(18, 8), nullable=False),
)

# A user's own daily token budget (migration 0009), set by an administrator; without a row, the
# default (CHATBOT_DAILY_TOKEN_BUDGET) applies; 0 means none.
user_token_budgets = Table(
    "user_token_budgets",
    metadata,
    Column("user_id", String(64), primary_key=True),
    Column("daily_tokens", BigInteger, nullable=False),
    Column("updated_by", String(64), nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
)

# The answer-improvement loop (migration 0005): users' ratings of answers, and the verified answers
# operators publish. Both are soft-deleted and keep counting versions, as the catalog does.

message_feedback = Table(
    "message_feedback",
    metadata,
    Column("feedback_id", String(36), primary_key=True),
    Column("message_id", String(36), ForeignKey("conversation_messages.message_id"), nullable=False,
           unique=True),  # one rating per answer; a second PUT replaces it
    Column("session_id", String(36), nullable=False),
    Column("user_id", String(64), nullable=False),
    Column("rating", String(8), nullable=False),  # up | down
    Column("reasons", JSON, nullable=False),
    Column("comment", Text, nullable=True),
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=True),
    Index("ix_feedback_updated", "updated_at"),
)

verified_answers = Table(
    "verified_answers",
    metadata,
    Column("id", AutoIncrementId, primary_key=True, autoincrement=True),  # public id v-0001
    Column("status", String(16), nullable=False),  # draft | published
    Column("questions", JSON, nullable=False),
    Column("answer", Text, nullable=False),
    Column("sources", JSON, nullable=False),
    Column("valid_from", UtcDateTime, nullable=True),
    Column("valid_until", UtcDateTime, nullable=True),
    Column("feedback_id", String(36), nullable=True),  # the rated exchange it was drafted from
    Column("author", String(64), nullable=False),
    Column("version", Integer, nullable=False),
    Column("created_at", UtcDateTime, nullable=False),
    Column("updated_at", UtcDateTime, nullable=False),
    Column("deleted_at", UtcDateTime, nullable=True),
)

# What each verified answer did for users (migration 0010): chatbot-api adds a row in the
# exchange's transaction when it serves an answer (the answer's message id: a rating of that message
# is a rating of the verified answer) and one per answer it suggests ("did you mean").
verified_answer_uses = Table(
    "verified_answer_uses",
    metadata,
    Column("id", AutoIncrementId, primary_key=True, autoincrement=True),
    Column("answer_id", String(24), nullable=False),  # public id, v-0001
    Column("kind", String(16), nullable=False),  # served | suggested
    Column("message_id", String(36), nullable=False),  # the chatbot's answer to the question
    Column("user_id", String(64), nullable=False),
    Column("question", Text, nullable=False),  # as the user asked it: a wording to add
    Column("judged", Boolean, nullable=False, default=False,
           server_default=false()),  # served on a model's yes
    Column("created_at", UtcDateTime, nullable=False),
    Index("ix_verified_uses_answer", "answer_id", "kind"),
    Index("ix_verified_uses_message", "message_id"),
)
