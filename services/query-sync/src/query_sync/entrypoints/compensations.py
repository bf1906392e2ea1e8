"""Broker compensations: what the projection consumer does beyond plain Kafka, per broker.

The consumer loop (query_sync.entrypoints.consumer) is written for Apache Kafka. It calls the hooks
of a BrokerCompensations at a few points; this base class does nothing at any of them, which is
the right thing on Kafka (SYNC_BROKER_COMPENSATIONS=none). TansuCompensations (=tansu, the
default) covers what Tansu, the embedded broker of `make run` and of the tests, does differently
when it runs with memory storage:

- It forgets its topics when it restarts. The keeper re-creates missing topics every
  SYNC_TOPIC_CHECK_INTERVAL_SECONDS, and at once after a failed fetch or dead-letter publish
  (`broker_failed`), which is how a restart shows. Kafka's topics are durable: the consumer creates
  them once at start-up (that stays in the plain loop) and nothing removes them behind its back.
- It forgets its logs, so a member that outlived a restart holds positions past the new, shorter
  log end, and Tansu answers such a fetch with an empty response instead of OFFSET_OUT_OF_RANGE:
  the member would wait there for ever. `correct_position` moves such a position back to the
  beginning at each position check. Kafka keeps its logs, and where a position does fall outside
  the log (retention), the fetch fails and aiokafka applies auto_offset_reset by itself.
- A re-created topic must be noticed soon: `consumer_options` refreshes metadata every 30 s
  instead of aiokafka's 5 min. Kafka's topics do not come and go.

Not compensations but settings or plain-Kafka rules that Tansu made visible: SYNC_FETCH_MAX_WAIT_MS
is short because Tansu holds an empty fetch for the whole wait; the rebalance listener does not
commit for partitions whose membership was lost (Tansu accepts such a commit from a member it
no longer knows, after a restart, and would store offsets of a log it no longer has), see
query_sync.entrypoints.offsets.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

from aiokafka import AIOKafkaConsumer, TopicPartition

from query_sync.adapters.dead_letters import describe
from query_sync.metrics import TOPIC_CHECK_FAILURES
from query_sync.retry import Backoff
from query_sync.settings import SyncSettings
from techai_shared.kafka import ensure_topics

logger = logging.getLogger(__name__)

_ADMIN_TIMEOUT_SECONDS = 15.0
_TANSU_METADATA_MAX_AGE_MS = 30_000


class BrokerCompensations:
    """The hook interface of the consumer loop; every hook is a no-op here (Apache Kafka)."""

    name = "none"

    def consumer_options(self) -> dict[str, Any]:
        """Extra keyword arguments for AIOKafkaConsumer."""
        return {}

    async def start(self) -> None:
        """The member has joined its group: start any background work."""

    async def stop(self) -> None:
        """The consumer is closing: stop that work."""

    def broker_failed(self) -> None:
        """A fetch or a dead-letter publish failed (the broker may have restarted)."""

    async def correct_position(
        self, consumer: AIOKafkaConsumer, tp: TopicPartition, position: int, highwater: int
    ) -> bool:
        """Called at each position check of an assigned partition; True when it moved the
        position (the consumer then reports no lag for it until the next check)."""
        return False


class TansuCompensations(BrokerCompensations):
    """Topics re-created, positions past the log end rewound, metadata refreshed often."""

    name = "tansu"

    def __init__(self, settings: SyncSettings) -> None:
        self._settings = settings
        self._suspect = asyncio.Event()
        self._keeper: asyncio.Task[None] | None = None

    def consumer_options(self) -> dict[str, Any]:
        return {"metadata_max_age_ms": _TANSU_METADATA_MAX_AGE_MS}  # notice re-created topics soon

    async def start(self) -> None:
        if self._keeper is None:
            self._keeper = asyncio.create_task(self._keep_topics(), name="topic-keeper")

    async def stop(self) -> None:
        if self._keeper is not None:
            keeper, self._keeper = self._keeper, None
            keeper.cancel()
            await asyncio.gather(keeper, return_exceptions=True)

    def broker_failed(self) -> None:
        self._suspect.set()

    async def correct_position(
        self, consumer: AIOKafkaConsumer, tp: TopicPartition, position: int, highwater: int
    ) -> bool:
        if position <= highwater:
            return False
        logger.warning("%s: position %d is past the log end %d, the broker lost its log; "
                       "reading the partition again from the beginning", tp, position, highwater)
        await consumer.seek_to_beginning(tp)
        return True

    async def _keep_topics(self) -> None:
        """Re-create missing topics now and then, and soon after a broker error."""
        settings = self._settings
        backoff = Backoff(settings.sync_retry_initial_backoff_seconds,
                          settings.sync_retry_max_backoff_seconds)
        while True:
            try:
                await asyncio.wait_for(ensure_topics(settings), timeout=_ADMIN_TIMEOUT_SECONDS)
                backoff.reset()
                delay = settings.sync_topic_check_interval_seconds
            except Exception as exc:  # the broker may be down for any reason; try again later
                TOPIC_CHECK_FAILURES.inc()
                delay = backoff.next_delay()
                logger.warning("topic check failed (%s); next try in %.2fs", describe(exc), delay)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._suspect.wait(), timeout=delay)
            self._suspect.clear()


def broker_compensations(settings: SyncSettings) -> BrokerCompensations:
    """The compensations SYNC_BROKER_COMPENSATIONS names."""
    if settings.sync_broker_compensations == "tansu":
        return TansuCompensations(settings)
    return BrokerCompensations()
