"""Kafka client factories and topic management (aiokafka), for Apache Kafka and Tansu alike."""

from __future__ import annotations

import logging

from aiokafka import AIOKafkaProducer
from aiokafka.admin import AIOKafkaAdminClient, NewTopic
from aiokafka.errors import TopicAlreadyExistsError

from techai_shared.events import AggregateType
from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)


def make_producer(settings: CommonSettings) -> AIOKafkaProducer:
    """A producer that waits for all replicas; idempotence only where the broker supports it."""
    return AIOKafkaProducer(
        bootstrap_servers=settings.kafka_bootstrap_servers,
        acks="all",
        enable_idempotence=settings.kafka_enable_idempotence,
        linger_ms=2,
        request_timeout_ms=settings.kafka_request_timeout_ms,
        retry_backoff_ms=200,
    )


def all_topics(settings: CommonSettings) -> list[str]:
    """Every event topic and its dead-letter topic."""
    topics = [settings.topic(agg.value) for agg in AggregateType]
    return topics + [f"{t}.dlq" for t in topics]


async def ensure_topics(settings: CommonSettings, topics: list[str] | None = None) -> None:
    """Create the topics that are missing; existing ones are left as they are."""
    wanted = topics or all_topics(settings)
    admin = AIOKafkaAdminClient(
        bootstrap_servers=settings.kafka_bootstrap_servers,
        request_timeout_ms=settings.kafka_request_timeout_ms,
    )
    await admin.start()
    try:
        existing = set(await admin.list_topics())
        missing = [t for t in wanted if t not in existing]
        if not missing:
            return
        new = [
            NewTopic(t, settings.kafka_topic_partitions, settings.kafka_replication_factor)
            for t in missing
        ]
        try:
            await admin.create_topics(new)
            logger.info("created topics %s", ", ".join(missing))
        except TopicAlreadyExistsError:
            pass  # another process created them between our list and create
    finally:
        await admin.close()


async def check_kafka(settings: CommonSettings) -> None:
    """Readiness probe: the cluster answers a metadata request."""
    admin = AIOKafkaAdminClient(
        bootstrap_servers=settings.kafka_bootstrap_servers, request_timeout_ms=3_000
    )
    await admin.start()
    try:
        await admin.list_topics()
    finally:
        await admin.close()
