"""Which offsets may be committed, and committing them when a rebalance takes partitions away.

ProcessedOffsets is the consumer's ledger: per partition, the offset after the last record that
was projected into MongoDB (or dead-lettered), and the last offset committed. The loop marks a
record only once its write has returned, so nothing past what MongoDB holds is ever committable.

CommitOnRevoke is the rebalance listener. aiokafka runs its callbacks in the group coordinator's
task, concurrently with the loop, which may be in the middle of a batch. On revocation it
1. stops the loop from starting another step (a record, or a run projected together);
2. waits, for a bounded time, for the step in flight to finish, so its write counts;
3. closes the generation: a step that finishes later is not marked, and the rest of the batch,
   fetched under the old assignment, is dropped (the new owner reads it again from the commit);
4. commits the processed offsets of the revoked partitions, unless the membership was lost
   (see membership_lost; no commit, from the loop either, is sent then).
On assignment it forgets the per-partition state and lets the loop go on.

The budget of 2. and 4. is a quarter of the session timeout each: aiokafka uses the session
timeout as the rebalance timeout, the time the other members wait for this one to rejoin.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Collection, Iterator, Mapping

from aiokafka import AIOKafkaConsumer, ConsumerRebalanceListener, TopicPartition
from aiokafka.errors import KafkaError

from query_sync.adapters.dead_letters import describe
from query_sync.metrics import COMMIT_FAILURES, CONSUMER_LAG

logger = logging.getLogger(__name__)


class ProcessedOffsets:
    """The processed and committed offsets of the current assignment, and its generation.

    A generation is the life of one assignment; the loop takes it when it fetches a batch and
    hands it back with each mark, so that progress made under an earlier assignment is never
    committed under a later one.
    """

    def __init__(self) -> None:
        self.generation = 0
        self._processed: dict[TopicPartition, int] = {}
        self._committed: dict[TopicPartition, int] = {}
        self._revoking = False
        self._idle = asyncio.Event()
        self._idle.set()
        self._step_generation: int | None = None

    def is_current(self, generation: int) -> bool:
        """Whether a batch of `generation` may go on: not revoked, and no revocation under way."""
        return generation == self.generation and not self._revoking

    @contextlib.contextmanager
    def step(self, generation: int) -> Iterator[None]:
        """Around each step of the loop: a revocation waits (for a while) for it to finish."""
        self._idle.clear()
        self._step_generation = generation
        try:
            yield
        finally:
            self._step_generation = None
            self._idle.set()

    def step_interrupted(self) -> bool:
        """Whether the step in flight should give up (its partitions are being revoked)."""
        return self._step_generation is not None and not self.is_current(self._step_generation)

    def processed(self, tp: TopicPartition, next_offset: int, generation: int) -> None:
        """Records of `tp` before `next_offset` are in MongoDB (or the DLQ); ignored when the
        batch's generation has been closed by a revocation meanwhile."""
        if generation == self.generation:
            self._processed[tp] = next_offset  # may go down: the broker lost its log (Tansu)

    def uncommitted(self, generation: int | None = None,
                    partitions: Collection[TopicPartition] | None = None) -> dict[TopicPartition, int]:
        """The processed offsets not committed yet; none for a closed `generation`."""
        if generation is not None and generation != self.generation:
            return {}
        return {tp: offset for tp, offset in self._processed.items()
                if offset != self._committed.get(tp) and (partitions is None or tp in partitions)}

    def committed(self, offsets: Mapping[TopicPartition, int], generation: int) -> None:
        """The loop committed `offsets` of its batch of `generation` (ignored once closed)."""
        if generation == self.generation:
            self._committed.update(offsets)

    async def revoke(self, wait_seconds: float) -> None:
        """Stop new steps, wait up to `wait_seconds` for the one in flight, close the generation."""
        self._revoking = True
        if not self._idle.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._idle.wait(), timeout=wait_seconds)
        self.generation += 1

    def assigned(self) -> None:
        """A new assignment: forget every partition's state (the positions now come from the
        committed offsets) and let the loop start steps again."""
        self._processed.clear()
        self._committed.clear()
        self._revoking = False


async def commit(consumer: AIOKafkaConsumer, offsets: Mapping[TopicPartition, int],
                 within_seconds: float) -> bool:
    """Commit `offsets`, unless the member lost its group membership; a failure is logged and
    counted, and only means re-delivery of records the idempotent projectors absorb."""
    if not offsets:
        return True
    if membership_lost(consumer):
        logger.info("not committing %s: the group membership was lost", _offsets(offsets))
        return False
    try:
        await asyncio.wait_for(consumer.commit(dict(offsets)), timeout=within_seconds)
    except (KafkaError, TimeoutError) as exc:
        COMMIT_FAILURES.inc()
        logger.warning("offset commit failed (%s); those records will be redelivered", describe(exc))
        return False
    return True


def membership_lost(consumer: AIOKafkaConsumer) -> bool:
    """Whether the member was dropped from its group (its generation reset) rather than asked
    to rebalance. The Java client calls onPartitionsLost then, where committing is wrong: the
    partitions may be another member's by now, and a broker that restarted and forgot the group
    (Tansu) would store offsets of a log it no longer has. aiokafka 0.14 calls
    on_partitions_revoked in both cases and keeps the generation to itself, so this reads it;
    if it cannot, it answers lost, and the worst outcome is a re-delivery."""
    generation = getattr(getattr(consumer, "_coordinator", None), "generation", None)
    return not isinstance(generation, int) or generation < 0


class CommitOnRevoke(ConsumerRebalanceListener):
    """Commits the processed offsets of revoked partitions; resets the ledger on assignment."""

    def __init__(self, consumer: AIOKafkaConsumer, ledger: ProcessedOffsets, session_timeout_ms: int,
                 commit_timeout_seconds: float) -> None:
        self._consumer = consumer
        self._ledger = ledger
        self._budget = session_timeout_ms / 1000 / 4
        self._commit_timeout = min(commit_timeout_seconds, self._budget)
        self._owned: frozenset[TopicPartition] = frozenset()

    async def on_partitions_revoked(self, revoked: Collection[TopicPartition]) -> None:
        await self._ledger.revoke(wait_seconds=self._budget)
        if not revoked:
            return
        offsets = self._ledger.uncommitted(partitions=revoked)
        if await commit(self._consumer, offsets, self._commit_timeout):
            logger.info("partitions %s revoked; committed %s", _names(revoked),
                        _offsets(offsets) or "nothing new")

    async def on_partitions_assigned(self, assigned: Collection[TopicPartition]) -> None:
        self._ledger.assigned()
        for tp in self._owned - set(assigned):
            with contextlib.suppress(KeyError):  # its lag is the new owner's to report
                CONSUMER_LAG.remove(tp.topic, str(tp.partition))
        self._owned = frozenset(assigned)
        logger.info("partitions assigned: %s", _names(assigned) or "none")


def _names(partitions: Collection[TopicPartition]) -> str:
    return ", ".join(f"{tp.topic}[{tp.partition}]" for tp in sorted(partitions))


def _offsets(offsets: Mapping[TopicPartition, int]) -> str:
    return ", ".join(f"{tp.topic}[{tp.partition}]@{offset}" for tp, offset in sorted(offsets.items()))
