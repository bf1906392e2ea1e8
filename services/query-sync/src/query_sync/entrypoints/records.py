"""One step of the projection consumer: records -> projector -> MongoDB, or the dead-letter topic.

Failures, in three kinds:
- poison (not an envelope, an unknown event, an impossible payload): to `<topic>.dlq` at once;
- transient (MongoDB or Kafka unreachable, timeouts): retried in place, with capped exponential
  backoff, until it works or the consumer lets the record go (stop, revocation); skipping the
  record instead would leave a hole in the projection;
- anything else: retried up to sync_max_attempts times, then dead-lettered.

Where a projector can apply several events at once (the catalog's, which embeds in batches; the
conversations', which writes in bulk), consecutive records of a partition go to it together, up to
its max_batch; if such a run fails for any reason, its records are handled one by one as above.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import Any, TypeAlias, cast

from aiokafka.structs import ConsumerRecord

from query_sync.adapters.dead_letters import DeadLetterPublisher, describe
from query_sync.errors import InvalidEnvelope, PoisonEvent, SyncError
from query_sync.metrics import DEAD_LETTERS, EVENTS, PROJECTION_LAG, RETRIES
from query_sync.projection import BatchProjector, Projector
from query_sync.retry import Backoff, is_transient
from query_sync.settings import SyncSettings
from techai_shared.clock import utcnow
from techai_shared.events import EventEnvelope

logger = logging.getLogger(__name__)

Record: TypeAlias = ConsumerRecord[Any, Any]
Pause: TypeAlias = Callable[[float], Awaitable[None]]


class Interrupted(SyncError):
    """Raised out of a retry wait when the consumer stops or the record's partition is revoked;
    the record stays uncommitted."""


def parse_event(record: Record) -> EventEnvelope:
    """The record's envelope, or InvalidEnvelope for an empty, non-JSON or invalid value."""
    if record.value is None:
        raise InvalidEnvelope("the record has no value")
    try:
        return EventEnvelope.from_json(record.value)
    except ValueError as exc:  # pydantic's ValidationError, for bad JSON as for bad fields
        raise InvalidEnvelope(f"not an event envelope: {exc}") from exc


class RecordProcessor:
    """Projects records with the projector of their topic; dead-letters what cannot be.

    `pause(delay)` waits between attempts and raises Interrupted when the record must be let go;
    `broker_failed()` is told when a dead-letter publish fails.
    """

    def __init__(self, settings: SyncSettings, projectors: Mapping[str, Projector],
                 dead_letters: DeadLetterPublisher, pause: Pause,
                 broker_failed: Callable[[], None]) -> None:
        self._settings = settings
        self._projectors = projectors
        self._dead_letters = dead_letters
        self._pause = pause
        self._broker_failed = broker_failed

    def runs(self, topic: str, records: list[Record]) -> list[list[Record]]:
        """Consecutive records projected together where the projector batches (embeddings, bulk
        writes), up to its max_batch (default: the embedding batch size)."""
        projector = self._projectors[topic]
        size = getattr(projector, "max_batch", None) or self._settings.embedding_batch_size
        if not isinstance(projector, BatchProjector) or size < 2:
            return [[record] for record in records]
        return [records[i:i + size] for i in range(0, len(records), size)]

    async def project_together(self, records: list[Record]) -> bool:
        """The happy path of a run in one apply_many(); False sends it through handle() one record
        at a time, where retries and dead letters are counted per record. The projectors are
        idempotent, so the records a failed run did apply are harmless to apply again."""
        topic = records[0].topic
        projector = cast(BatchProjector, self._projectors[topic])
        try:
            events = [parse_event(record) for record in records]
            outcomes = await projector.apply_many(events)
        except Exception as exc:  # whatever it was, the per-record path classifies it
            logger.info("%s: a run of %d records failed together (%s); handling them one by one",
                        topic, len(records), describe(exc))
            return False
        for event, outcome in zip(events, outcomes, strict=True):
            self._observe(topic, event, outcome.value)
        return True

    async def handle(self, record: Record) -> None:
        """Project one record, or dead-letter it; never skip it silently."""
        failures = 0
        backoff = self._backoff()
        while True:
            try:
                await self._project(record)
                return
            except PoisonEvent as exc:
                await self._dead_letter(record, exc, failures + 1)
                return
            except Exception as exc:  # classified below: transient waits, the rest is counted
                transient = is_transient(exc)
                failures += 0 if transient else 1
                if failures >= self._settings.sync_max_attempts:
                    await self._dead_letter(record, exc, failures)
                    return
                delay = backoff.next_delay()
                self._log_retry(record, exc, transient, delay)
                await self._pause(delay)

    async def _project(self, record: Record) -> None:
        event = parse_event(record)
        outcome = await self._projectors[record.topic].apply(event)
        self._observe(record.topic, event, outcome.value)

    def _observe(self, topic: str, event: EventEnvelope, outcome: str) -> None:
        EVENTS.labels(topic, event.event_type.value, outcome).inc()
        lag = (utcnow() - _aware(event.occurred_at)).total_seconds()
        PROJECTION_LAG.labels(topic).observe(max(lag, 0.0))

    def _log_retry(self, record: Record, exc: Exception, transient: bool, delay: float) -> None:
        kind = "transient" if transient else "error"
        RETRIES.labels(record.topic, kind).inc()
        logger.warning(
            "%s[%d]@%d: %s failure (%s); retrying in %.2fs",
            record.topic, record.partition, record.offset, kind, describe(exc), delay,
            exc_info=not transient,
        )

    async def _dead_letter(self, record: Record, error: BaseException, attempts: int) -> None:
        """Publish to the DLQ, retrying until the broker takes it: only then may we move on."""
        backoff = self._backoff()
        while True:
            try:
                await self._dead_letters.publish(record, error, attempts)
                DEAD_LETTERS.labels(record.topic, type(error).__name__).inc()
                return
            except Exception as exc:  # whatever the cause, the record must not be skipped
                delay = backoff.next_delay()
                logger.warning("%s[%d]@%d: dead-lettering failed (%s); retrying in %.2fs",
                               record.topic, record.partition, record.offset, describe(exc), delay)
                self._broker_failed()
                await self._pause(delay)

    def _backoff(self) -> Backoff:
        return Backoff(self._settings.sync_retry_initial_backoff_seconds,
                       self._settings.sync_retry_max_backoff_seconds)


def _aware(value: datetime) -> datetime:
    """UTC-aware; the writers' naive timestamps are UTC."""
    return value.replace(tzinfo=UTC) if value.tzinfo is None else value
