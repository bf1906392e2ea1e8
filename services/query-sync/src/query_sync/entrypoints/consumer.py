"""The projection consumer: Kafka records -> projectors -> MongoDB, offsets committed after the writes.

One consumer group member (aiokafka, manual commits, earliest reset) reads the projected topics
in batches. Records are handled in order within a partition, each until it is either projected
or dead-lettered, and the batch's offsets are committed only then: a crash re-delivers what was
not committed, which the idempotent projectors absorb.

Failures, in three kinds:
- poison (not an envelope, an unknown event, an impossible payload): to `<topic>.dlq` at once;
- transient (MongoDB or Kafka unreachable, timeouts): retried in place, forever, with capped
  exponential backoff; skipping the record would leave a hole in the projection;
- anything else: retried up to sync_max_attempts times, then dead-lettered.

Where a projector can apply several events at once (the catalog's, which embeds in batches; the
conversations', which writes in bulk), consecutive records of a partition go to it together, up to
its max_batch; if such a run fails for any reason, its records are handled one by one as above.

Tansu (the embedded broker) keeps topics, logs and committed offsets in memory, so a restart
forgets them. The member then rejoins and restarts from the earliest offset; a topic keeper
re-creates missing topics; and a position found past the (new, shorter) log end is moved back
to the beginning, since that broker answers such fetches with nothing instead of an error.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Mapping
from typing import Any, TypeAlias, cast

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError
from aiokafka.structs import ConsumerRecord

from query_sync.adapters.dead_letters import DeadLetterPublisher, describe
from query_sync.documents import as_utc
from query_sync.errors import ConsumerNotRunning, InvalidEnvelope, PoisonEvent, SyncError
from query_sync.metrics import (
    COMMIT_FAILURES,
    CONSUMER_LAG,
    DEAD_LETTERS,
    EVENTS,
    PROJECTION_LAG,
    RETRIES,
    TOPIC_CHECK_FAILURES,
)
from query_sync.projection import BatchProjector, Projector
from query_sync.retry import Backoff, is_transient
from query_sync.settings import SyncSettings
from techai_shared.clock import utcnow
from techai_shared.events import EventEnvelope
from techai_shared.kafka import ensure_topics

logger = logging.getLogger(__name__)

Record: TypeAlias = ConsumerRecord[Any, Any]
_ADMIN_TIMEOUT_SECONDS = 15.0
_CLOSE_TIMEOUT_SECONDS = 10.0
_STOP_TIMEOUT_SECONDS = 30.0
_METADATA_MAX_AGE_MS = 30_000


class _Stopped(SyncError):
    """Raised out of a retry wait when the consumer is asked to stop; the record stays uncommitted."""


def parse_event(record: Record) -> EventEnvelope:
    """The record's envelope, or InvalidEnvelope for an empty, non-JSON or invalid value."""
    if record.value is None:
        raise InvalidEnvelope("the record has no value")
    try:
        return EventEnvelope.from_json(record.value)
    except ValueError as exc:  # pydantic's ValidationError, for bad JSON as for bad fields
        raise InvalidEnvelope(f"not an event envelope: {exc}") from exc


class ProjectionConsumer:
    """Consumes the topics of `projectors` (topic -> projector) in the sync consumer group.

    Either start() it as a task and stop() it, or await run() and call stop() from elsewhere.
    """

    def __init__(
        self,
        settings: SyncSettings,
        projectors: Mapping[str, Projector],
        dead_letters: DeadLetterPublisher,
    ) -> None:
        if not projectors:
            raise ValueError("ProjectionConsumer needs at least one topic to project")
        self._settings = settings
        self._projectors = dict(projectors)
        self._dead_letters = dead_letters
        self._stopping = asyncio.Event()
        self._topics_suspect = asyncio.Event()
        self._consumer: AIOKafkaConsumer | None = None
        self._task: asyncio.Task[None] | None = None
        self._next_position_check = 0.0

    # -- lifecycle ---------------------------------------------------------------------------

    def start(self) -> asyncio.Task[None]:
        """Run the consumer as a task of the current loop; returns the task."""
        self._task = asyncio.create_task(self.run(), name="projection-consumer")
        return self._task

    async def stop(self) -> None:
        """Finish the current record, commit what was processed, leave the group, close."""
        self._stopping.set()
        if self._task is None:
            return
        await asyncio.wait([self._task], timeout=_STOP_TIMEOUT_SECONDS)
        if not self._task.done():
            logger.warning("consumer did not stop within %.0fs; cancelling it", _STOP_TIMEOUT_SECONDS)
            self._task.cancel()
            await asyncio.wait([self._task], timeout=5)

    async def check(self) -> None:
        """Readiness: raises ConsumerNotRunning unless the loop is up and consuming."""
        if self._task is None or self._task.done():
            raise ConsumerNotRunning("the consumer task is not running")
        if self._consumer is None:
            raise ConsumerNotRunning("the consumer is still starting")

    async def run(self) -> None:
        """Prepare the projectors, join the group and consume until stop() is called."""
        keeper: asyncio.Task[None] | None = None
        try:
            await self._until_done("index creation", self._prepare_projectors)
            await self._until_done("topic creation", self._ensure_topics)
            await self._until_done("consumer start", self._start_consumer)
            keeper = asyncio.create_task(self._keep_topics(), name="topic-keeper")
            await self._consume()
        except _Stopped:
            pass
        finally:
            if keeper is not None:
                keeper.cancel()
                await asyncio.gather(keeper, return_exceptions=True)
            await self._close()

    async def _prepare_projectors(self) -> None:
        for projector in self._projectors.values():
            await projector.prepare()

    async def _ensure_topics(self) -> None:
        await asyncio.wait_for(ensure_topics(self._settings), timeout=_ADMIN_TIMEOUT_SECONDS)

    async def _start_consumer(self) -> None:
        settings = self._settings
        consumer = AIOKafkaConsumer(
            *self._projectors,
            bootstrap_servers=settings.kafka_bootstrap_servers,
            group_id=settings.sync_consumer_group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            session_timeout_ms=settings.sync_session_timeout_ms,
            heartbeat_interval_ms=settings.sync_heartbeat_interval_ms,
            max_poll_records=settings.sync_batch_max_records,
            fetch_max_wait_ms=settings.sync_fetch_max_wait_ms,
            metadata_max_age_ms=_METADATA_MAX_AGE_MS,  # notice re-created topics soon
        )
        try:
            await consumer.start()
        except BaseException:
            await _stop_quietly(consumer)
            raise
        self._consumer = consumer
        logger.info("consuming %s as group %s", ", ".join(self._projectors), settings.sync_consumer_group)

    async def _close(self) -> None:
        if self._consumer is not None:
            consumer, self._consumer = self._consumer, None
            await _stop_quietly(consumer)
        await self._dead_letters.close()

    # -- the loop ----------------------------------------------------------------------------

    async def _consume(self) -> None:
        backoff = self._backoff()
        while not self._stopping.is_set():
            try:
                batch = await self._kafka.getmany(
                    timeout_ms=self._settings.sync_poll_timeout_ms,
                    max_records=self._settings.sync_batch_max_records,
                )
            except KafkaError as exc:
                logger.warning("fetch failed (%s); retrying", describe(exc))
                self._topics_suspect.set()
                await self._pause(backoff.next_delay())
                continue
            backoff.reset()
            await self._process_batch(batch)
            await self._check_positions_if_due()

    async def _process_batch(self, batch: Mapping[TopicPartition, list[Record]]) -> None:
        """Handle every record in order; commit the offsets of those handled, even when stopping."""
        done: dict[TopicPartition, int] = {}
        try:
            for tp, records in batch.items():
                for run in self._runs(tp.topic, records):
                    if len(run) > 1 and not self._stopping.is_set() and await self._project_together(run):
                        done[tp] = run[-1].offset + 1
                        continue
                    for record in run:
                        if self._stopping.is_set():
                            return
                        await self._handle(record)
                        done[tp] = record.offset + 1
        finally:
            await self._commit(done)

    def _runs(self, topic: str, records: list[Record]) -> list[list[Record]]:
        """Consecutive records projected together where the projector batches (embeddings, bulk
        writes), up to its max_batch (default: the embedding batch size)."""
        projector = self._projectors[topic]
        size = getattr(projector, "max_batch", None) or self._settings.embedding_batch_size
        if not isinstance(projector, BatchProjector) or size < 2:
            return [[record] for record in records]
        return [records[i:i + size] for i in range(0, len(records), size)]

    async def _project_together(self, records: list[Record]) -> bool:
        """The happy path of a run in one apply_many(); False sends it through _handle() one record
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

    async def _handle(self, record: Record) -> None:
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
        lag = (utcnow() - as_utc(event.occurred_at)).total_seconds()
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
                self._topics_suspect.set()
                await self._pause(delay)

    async def _commit(self, offsets: dict[TopicPartition, int]) -> None:
        """Commit; a failure only means re-delivery of records the projectors absorb."""
        if not offsets:
            return
        try:
            await asyncio.wait_for(
                self._kafka.commit(offsets), timeout=self._settings.sync_commit_timeout_seconds
            )
        except (KafkaError, TimeoutError) as exc:
            COMMIT_FAILURES.inc()
            logger.warning("offset commit failed (%s); those records will be redelivered",
                           describe(exc))

    # -- broker housekeeping -----------------------------------------------------------------

    async def _check_positions_if_due(self) -> None:
        now = asyncio.get_running_loop().time()
        if now < self._next_position_check:
            return
        self._next_position_check = now + self._settings.sync_position_check_interval_seconds
        for tp in sorted(self._kafka.assignment()):
            await self._check_position(tp)

    async def _check_position(self, tp: TopicPartition) -> None:
        """Report the lag; move a position past the log end (a broker that lost its log) back."""
        consumer = self._kafka
        if tp not in consumer.assignment():
            return  # revoked while we awaited a previous partition
        highwater = consumer.highwater(tp)
        if highwater is None:
            return  # not fetched yet
        try:
            position = await asyncio.wait_for(consumer.position(tp), timeout=1.0)
        except (KafkaError, TimeoutError):
            return
        if position > highwater:
            logger.warning("%s: position %d is past the log end %d, the broker lost its log; "
                           "reading the partition again from the beginning", tp, position, highwater)
            await consumer.seek_to_beginning(tp)
            return
        CONSUMER_LAG.labels(tp.topic, str(tp.partition)).set(highwater - position)

    async def _keep_topics(self) -> None:
        """Re-create missing topics now and then, and soon after a broker error."""
        backoff = self._backoff()
        while not self._stopping.is_set():
            try:
                await self._ensure_topics()
                backoff.reset()
                delay = self._settings.sync_topic_check_interval_seconds
            except Exception as exc:  # the broker may be down for any reason; try again later
                TOPIC_CHECK_FAILURES.inc()
                delay = backoff.next_delay()
                logger.warning("topic check failed (%s); next try in %.2fs", describe(exc), delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._topics_suspect.wait(), timeout=delay)
            self._topics_suspect.clear()

    # -- helpers -----------------------------------------------------------------------------

    @property
    def _kafka(self) -> AIOKafkaConsumer:
        if self._consumer is None:
            raise ConsumerNotRunning("the Kafka consumer is not started")
        return self._consumer

    def _backoff(self) -> Backoff:
        return Backoff(self._settings.sync_retry_initial_backoff_seconds,
                       self._settings.sync_retry_max_backoff_seconds)

    async def _pause(self, delay: float) -> None:
        """Wait `delay` seconds, or raise _Stopped as soon as stop() is called."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=delay)
        if self._stopping.is_set():
            raise _Stopped

    async def _until_done(self, what: str, step: Callable[[], Awaitable[None]]) -> None:
        """Run a start-up step until it succeeds; transient failures wait, others propagate."""
        backoff = self._backoff()
        while True:
            try:
                await step()
                return
            except Exception as exc:
                if not is_transient(exc):
                    raise
                delay = backoff.next_delay()
                logger.warning("%s failed (%s); retrying in %.2fs", what, describe(exc), delay)
                await self._pause(delay)


async def _stop_quietly(consumer: AIOKafkaConsumer) -> None:
    try:
        await asyncio.wait_for(consumer.stop(), timeout=_CLOSE_TIMEOUT_SECONDS)
    except Exception as exc:  # leaving the group of an unreachable broker may fail or time out
        logger.debug("consumer stop: %s", describe(exc))
