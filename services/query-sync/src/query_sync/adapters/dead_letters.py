"""The dead-letter topic: poison records are copied to `<topic>.dlq` with why and where from.

The copy keeps the original key, value and headers and adds dlq_error, dlq_attempts,
dlq_original_topic, dlq_original_partition and dlq_original_offset (docs/architecture.md, The events), so an
operator can see what failed and re-drive it to the original topic after a fix.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Sequence
from typing import Any

from aiokafka import AIOKafkaProducer
from aiokafka.structs import ConsumerRecord

from query_sync.settings import dead_letter_topic
from techai_shared.kafka import make_producer
from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)

DLQ_HEADER_PREFIX = "dlq_"
MAX_ERROR_LENGTH = 2_000


def describe(error: BaseException) -> str:
    """`Type: message` on one line, bounded: a header is no place for a whole validation report."""
    return " ".join(f"{type(error).__name__}: {error}".split())[:MAX_ERROR_LENGTH]


def dead_letter_headers(
    record: ConsumerRecord[Any, Any], error: BaseException, attempts: int
) -> list[tuple[str, bytes]]:
    """The original headers (minus dlq_* ones of an earlier trip) plus why and where from."""
    original: Sequence[tuple[str, bytes]] = record.headers or ()
    kept = [(key, value) for key, value in original if not key.startswith(DLQ_HEADER_PREFIX)]
    return [
        *kept,
        ("dlq_error", describe(error).encode()),
        ("dlq_attempts", str(attempts).encode()),
        ("dlq_original_topic", record.topic.encode()),
        ("dlq_original_partition", str(record.partition).encode()),
        ("dlq_original_offset", str(record.offset).encode()),
    ]


class DeadLetterPublisher:
    """Publishes poison records; the producer is started on first use and rebuilt after a failure."""

    def __init__(
        self,
        settings: CommonSettings,
        *,
        producer_factory: Callable[[CommonSettings], AIOKafkaProducer] = make_producer,
        timeout_seconds: float = 15.0,
    ) -> None:
        self._settings = settings
        self._factory = producer_factory
        self._timeout = timeout_seconds
        self._producer: AIOKafkaProducer | None = None

    async def publish(self, record: ConsumerRecord[Any, Any], error: BaseException, attempts: int) -> None:
        """Copy the record to its DLQ and wait for the broker's acknowledgement."""
        topic = dead_letter_topic(record.topic)
        try:
            producer = await self._ensure_producer()
            await asyncio.wait_for(
                producer.send_and_wait(
                    topic, value=record.value, key=record.key,
                    headers=dead_letter_headers(record, error, attempts),
                ),
                timeout=self._timeout,
            )
        except BaseException:
            await self.close()  # a fresh producer re-reads the metadata (topics may be new)
            raise
        logger.warning("dead-lettered %s[%d]@%d to %s after %d attempt(s): %s",
                       record.topic, record.partition, record.offset, topic, attempts, describe(error))

    async def _ensure_producer(self) -> AIOKafkaProducer:
        if self._producer is None:
            producer = self._factory(self._settings)
            try:
                await asyncio.wait_for(producer.start(), timeout=self._timeout)
            except BaseException:
                await _stop_quietly(producer)
                raise
            self._producer = producer
        return self._producer

    async def close(self) -> None:
        if self._producer is not None:
            producer, self._producer = self._producer, None
            await _stop_quietly(producer)


async def _stop_quietly(producer: AIOKafkaProducer) -> None:
    with contextlib.suppress(Exception):  # closing a producer of an unreachable broker may fail
        await asyncio.wait_for(producer.stop(), timeout=5)
