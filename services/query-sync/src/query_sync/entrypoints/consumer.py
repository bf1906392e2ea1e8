"""The projection consumer: Kafka records -> projectors -> MongoDB, offsets committed after the writes.

One consumer group member (aiokafka, manual commits, earliest reset) reads the projected topics
in batches. Records are handled in order within a partition, each until it is either projected
or dead-lettered (query_sync.entrypoints.records), and only then counted as processed; the
processed offsets are committed after each batch, and when a rebalance revokes partitions
(query_sync.entrypoints.offsets). A crash re-delivers what was not committed, which the
idempotent projectors absorb.

This loop is plain Kafka. What a particular broker needs besides (Tansu's, by default) is behind
the hooks of query_sync.entrypoints.compensations, chosen by SYNC_BROKER_COMPENSATIONS.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import time
from collections.abc import Awaitable, Callable, Iterator, Mapping

from aiokafka import AIOKafkaConsumer, TopicPartition
from aiokafka.errors import KafkaError

from query_sync.adapters.dead_letters import DeadLetterPublisher, describe
from query_sync.entrypoints.compensations import BrokerCompensations, broker_compensations
from query_sync.entrypoints.offsets import CommitOnRevoke, ProcessedOffsets, commit
from query_sync.entrypoints.records import Interrupted, Record, RecordProcessor, parse_event
from query_sync.errors import ConsumerNotRunning
from query_sync.metrics import CONSUMER_LAG
from query_sync.projection import Projector
from query_sync.retry import Backoff, is_transient
from query_sync.settings import SyncSettings
from techai_shared.kafka import ensure_topics

__all__ = ["ProjectionConsumer", "parse_event"]

logger = logging.getLogger(__name__)

_ADMIN_TIMEOUT_SECONDS = 15.0
_CLOSE_TIMEOUT_SECONDS = 10.0
_STOP_TIMEOUT_SECONDS = 30.0
_POSITION_TIMEOUT_SECONDS = 1.0


class Activity:
    """Whether the consumer is applying records, or was in the last seconds: what the search
    indexer gives way to. A batch can take seconds to apply (embeddings, a slow store); it counts
    as busy from its fetch to its last write, not only at the moment it was fetched."""

    def __init__(self, monotonic: Callable[[], float] = time.monotonic) -> None:
        self._monotonic = monotonic
        self._applying = False
        self._last = -math.inf  # when records were last being applied

    @contextlib.contextmanager
    def applying(self, records: bool) -> Iterator[None]:
        if not records:
            yield
            return
        self._applying = True
        try:
            yield
        finally:
            self._applying = False
            self._last = self._monotonic()

    @contextlib.contextmanager
    def waiting(self) -> Iterator[None]:
        """A wait inside a batch (a retry's backoff): not busy meanwhile, the CPU is free."""
        applying, self._applying = self._applying, False
        try:
            yield
        finally:
            self._applying = applying

    def busy(self, within: float) -> bool:
        return self._applying or self._monotonic() - self._last < within


class ProjectionConsumer:
    """Consumes the topics of `projectors` (topic -> projector) in the sync consumer group.

    Either start() it as a task and stop() it, or await run() and call stop() from elsewhere.
    `compensations` defaults to the ones SYNC_BROKER_COMPENSATIONS names.
    """

    def __init__(
        self,
        settings: SyncSettings,
        projectors: Mapping[str, Projector],
        dead_letters: DeadLetterPublisher,
        compensations: BrokerCompensations | None = None,
    ) -> None:
        if not projectors:
            raise ValueError("ProjectionConsumer needs at least one topic to project")
        self._settings = settings
        self._projectors = dict(projectors)
        self._dead_letters = dead_letters
        self.compensations = compensations or broker_compensations(settings)
        self._records = RecordProcessor(settings, self._projectors, dead_letters,
                                        pause=self._retry_pause,
                                        broker_failed=self.compensations.broker_failed)
        self._offsets = ProcessedOffsets()
        self._stopping = asyncio.Event()
        self._consumer: AIOKafkaConsumer | None = None
        self._task: asyncio.Task[None] | None = None
        self._next_position_check = 0.0
        self.activity = Activity()

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

    def busy(self, within: float) -> bool:
        """Whether records are being applied now or were in the last `within` seconds."""
        return self.activity.busy(within)

    async def check(self) -> None:
        """Readiness: raises ConsumerNotRunning unless the loop is up and consuming."""
        if self._task is None or self._task.done():
            raise ConsumerNotRunning("the consumer task is not running")
        if self._consumer is None:
            raise ConsumerNotRunning("the consumer is still starting")

    async def run(self) -> None:
        """Prepare the projectors, join the group and consume until stop() is called."""
        try:
            await self._until_done("index creation", self._prepare_projectors)
            await self._until_done("topic creation", self._ensure_topics)
            await self._until_done("consumer start", self._start_consumer)
            await self.compensations.start()
            await self._consume()
        except Interrupted:
            pass
        finally:
            await self.compensations.stop()
            await self._close()

    async def _prepare_projectors(self) -> None:
        for projector in self._projectors.values():
            await projector.prepare()

    async def _ensure_topics(self) -> None:
        await asyncio.wait_for(ensure_topics(self._settings), timeout=_ADMIN_TIMEOUT_SECONDS)

    async def _start_consumer(self) -> None:
        settings = self._settings
        consumer = AIOKafkaConsumer(
            bootstrap_servers=settings.kafka_bootstrap_servers,
            group_id=settings.sync_consumer_group,
            enable_auto_commit=False,
            auto_offset_reset="earliest",
            session_timeout_ms=settings.sync_session_timeout_ms,
            heartbeat_interval_ms=settings.sync_heartbeat_interval_ms,
            max_poll_records=settings.sync_batch_max_records,
            fetch_max_wait_ms=settings.sync_fetch_max_wait_ms,
            **self.compensations.consumer_options(),
        )
        listener = CommitOnRevoke(consumer, self._offsets, settings.sync_session_timeout_ms,
                                  settings.sync_commit_timeout_seconds)
        consumer.subscribe(list(self._projectors), listener=listener)
        try:
            await consumer.start()
        except BaseException:
            await _stop_quietly(consumer)
            raise
        self._consumer = consumer
        logger.info("consuming %s as group %s (broker compensations: %s)", ", ".join(self._projectors),
                    settings.sync_consumer_group, self.compensations.name)

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
                self.compensations.broker_failed()
                await self._pause(backoff.next_delay())
                continue
            backoff.reset()
            with self.activity.applying(bool(batch)):
                await self._process_batch(batch, self._offsets.generation)
            await self._check_positions_if_due()

    async def _process_batch(self, batch: Mapping[TopicPartition, list[Record]], generation: int) -> None:
        """Handle the records in order within each partition, until stopped or revoked; then commit
        what was processed (nothing if the batch's partitions were revoked: the listener committed
        it). Partitions of cheap topics go first and those whose projector embeds a lot
        (`heavy`) last; once sync_batch_time_budget_seconds have passed no further heavy run
        starts, and the partitions not finished are sought back to their first record not
        processed, to be fetched again with whatever arrived meanwhile (a batch of cheap records
        only is always processed whole)."""
        loop = asyncio.get_running_loop()
        budget = self._settings.sync_batch_time_budget_seconds
        started = loop.time()
        ordered = sorted(batch.items(), key=lambda item: self._heavy(item[0].topic))
        todo = [(tp, run) for tp, records in ordered for run in self._records.runs(tp.topic, records)]
        try:
            for done, (tp, run) in enumerate(todo):
                if done and budget and self._heavy(tp.topic) and loop.time() - started > budget:
                    self._fetch_again(todo[done:])
                    break
                await self._process_run(tp, run, generation)
        except Interrupted:
            pass
        finally:
            offsets = self._offsets.uncommitted(generation, partitions=batch.keys())
            if await commit(self._kafka, offsets, self._settings.sync_commit_timeout_seconds):
                self._offsets.committed(offsets, generation)

    def _heavy(self, topic: str) -> bool:
        return bool(getattr(self._projectors[topic], "heavy", False))

    def _fetch_again(self, left: list[tuple[TopicPartition, list[Record]]]) -> None:
        """Seek each partition with runs left to the first of them (still assigned ones only)."""
        first: dict[TopicPartition, int] = {}
        for tp, run in left:
            first.setdefault(tp, run[0].offset)
        assigned = self._kafka.assignment()
        for tp, offset in first.items():
            if tp in assigned:
                self._kafka.seek(tp, offset)
        logger.debug("batch time budget spent: %d runs fetched again", len(left))

    async def _process_run(self, tp: TopicPartition, run: list[Record], generation: int) -> None:
        """The run at once where the projector batches and that works, else record by record."""
        if len(run) > 1:
            with self._step(generation):
                if await self._records.project_together(run):
                    self._offsets.processed(tp, run[-1].offset + 1, generation)
                    return
        for record in run:
            with self._step(generation):
                await self._records.handle(record)
                self._offsets.processed(tp, record.offset + 1, generation)

    @contextlib.contextmanager
    def _step(self, generation: int) -> Iterator[None]:
        """One unit of work of a batch; none starts once stopping or revoked."""
        if self._stopping.is_set() or not self._offsets.is_current(generation):
            raise Interrupted
        with self._offsets.step(generation):
            yield

    async def _retry_pause(self, delay: float) -> None:
        """The wait between attempts at a record; cut short by stop(), given up on revocation."""
        if self._offsets.step_interrupted():
            raise Interrupted
        with self.activity.waiting():  # a record stuck on a failing store leaves the CPU to others
            await self._pause(delay)
        if self._offsets.step_interrupted():
            raise Interrupted

    # -- positions ---------------------------------------------------------------------------

    async def _check_positions_if_due(self) -> None:
        now = asyncio.get_running_loop().time()
        if now < self._next_position_check:
            return
        self._next_position_check = now + self._settings.sync_position_check_interval_seconds
        for tp in sorted(self._kafka.assignment()):
            await self._check_position(tp)

    async def _check_position(self, tp: TopicPartition) -> None:
        """Report the lag, unless the compensations had to move the position."""
        consumer = self._kafka
        if tp not in consumer.assignment():
            return  # revoked while we awaited a previous partition
        highwater = consumer.highwater(tp)
        if highwater is None:
            return  # not fetched yet
        try:
            position = await asyncio.wait_for(consumer.position(tp), timeout=_POSITION_TIMEOUT_SECONDS)
        except (KafkaError, TimeoutError):
            return
        if await self.compensations.correct_position(consumer, tp, position, highwater):
            return
        CONSUMER_LAG.labels(tp.topic, str(tp.partition)).set(highwater - position)

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
        """Wait `delay` seconds, or raise Interrupted as soon as stop() is called."""
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._stopping.wait(), timeout=delay)
        if self._stopping.is_set():
            raise Interrupted

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
