"""Wiring: settings -> MongoDB client, embedder, projectors (the conversation topic, the three
catalog topics and the verified answers), dead-letter publisher, consumer, the conversation
search indexer, health server.

The only place that chooses concrete adapters; main() and the tests build the worker here.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from pymongo import AsyncMongoClient

from query_sync.adapters.catalog import CatalogProjector
from query_sync.adapters.conversations import ConversationProjector
from query_sync.adapters.dead_letters import DeadLetterPublisher
from query_sync.adapters.search_index import Deferral, SearchIndexer
from query_sync.adapters.search_indexes import ensure_conversation_indexes, ensure_vector_indexes
from query_sync.adapters.verified import VerifiedAnswerProjector
from query_sync.catalog_documents import CATALOG_KINDS
from query_sync.entrypoints.compensations import broker_compensations
from query_sync.entrypoints.consumer import ProjectionConsumer
from query_sync.entrypoints.http import HealthServer, create_app
from query_sync.projection import Projector
from query_sync.settings import SyncSettings
from techai_shared import korean
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.events import AggregateType
from techai_shared.kafka import check_kafka
from techai_shared.mongo import make_mongo_client
from techai_shared.web import ReadinessCheck

logger = logging.getLogger(__name__)


class SyncWorker:
    """The running worker: the projection consumer and its health server, in one event loop."""

    def __init__(
        self, settings: SyncSettings, mongo: AsyncMongoClient[dict[str, Any]], embedder: Embedder
    ) -> None:
        self.settings = settings
        self.mongo = mongo
        self.embedder = embedder
        db = mongo[settings.mongodb_database]
        projectors: dict[str, Projector] = {
            settings.conversation_topic: ConversationProjector(
                db,
                sessions_ttl_seconds=settings.sync_sessions_ttl_seconds,
                messages_ttl_seconds=settings.sync_messages_ttl_seconds,
            ),
        }
        for kind in CATALOG_KINDS:
            projectors[settings.topic(kind.aggregate_type.value)] = CatalogProjector(
                db, kind, embedder, batch_size=settings.embedding_batch_size,
                run_records=settings.sync_catalog_run_records,
            )
        projectors[settings.topic(AggregateType.VERIFIED_ANSWER.value)] = VerifiedAnswerProjector(
            db, embedder)
        self.consumer = ProjectionConsumer(settings, projectors, DeadLetterPublisher(settings),
                                           broker_compensations(settings))
        # the projection first: the indexer waits while it is busy (for at most a bounded time)
        self.search_indexer = SearchIndexer(
            db, ttl_seconds=settings.sync_messages_ttl_seconds,
            batch_size=settings.sync_search_batch_size,
            interval_seconds=settings.sync_search_interval_seconds,
            deferral=Deferral(lambda: self.consumer.busy(settings.sync_search_interval_seconds),
                              settings.sync_search_max_deferral_seconds))
        self._indexer_stop = asyncio.Event()
        self._indexer_task: asyncio.Task[None] | None = None
        self.health = HealthServer(create_app(self.readiness_checks), settings.sync_host, settings.sync_port)
        self._consumer_task: asyncio.Task[None] | None = None

    def readiness_checks(self) -> dict[str, ReadinessCheck]:
        return {
            "mongodb": self._ping_mongo,
            "kafka": lambda: check_kafka(self.settings),
            "consumer": self.consumer.check,
        }

    async def _ping_mongo(self) -> None:
        await self.mongo.admin.command("ping")

    async def start(self) -> None:
        """Serve health first (so a slow start shows as not ready), then start consuming."""
        await self.health.start()
        await self._warm_up_embedder()
        await self._ensure_vector_indexes()
        postings = (self.settings.sync_search_indexing
                    and not await self._conversation_search_on_atlas())
        if postings:  # Kiwi's model loads now (about 2 s), not in the middle of the projection
            await asyncio.to_thread(korean.warm_up)
        self._consumer_task = self.consumer.start()
        if postings:
            self._indexer_task = asyncio.create_task(self.search_indexer.run(self._indexer_stop),
                                                     name="search-indexer")

    async def _conversation_search_on_atlas(self) -> bool:
        """On Atlas the session search reads Atlas Search indexes (created here); elsewhere the
        posting index this worker keeps. A failure to tell is logged, and the postings kept."""
        try:
            return await ensure_conversation_indexes(
                self.mongo[self.settings.mongodb_database],
                timeout_seconds=self.settings.sync_search_index_timeout_seconds)
        except Exception:
            logger.exception("the conversation search indexes could not be ensured")
            return False

    async def _ensure_vector_indexes(self) -> None:
        """On Atlas, wait until the vector indexes are queryable; elsewhere this logs once that
        the exact strategy is in use. A failure is logged, not fatal: projecting goes on, and
        search falls back to what the deployment supports."""
        try:
            await ensure_vector_indexes(
                self.mongo[self.settings.mongodb_database], self.embedder.dimensions,
                timeout_seconds=self.settings.sync_search_index_timeout_seconds,
            )
        except Exception:
            logger.exception("the vector search indexes could not be ensured")

    async def _warm_up_embedder(self) -> None:
        """Load the model now, so the first catalog event is not the one that waits for it."""
        try:
            await self.embedder.warm_up()
        except Exception:  # the projector's own failures are retried and dead-lettered per record
            logger.exception("warming up the %s embedder failed", self.embedder.model_name)
        else:
            logger.info("embedding with %s (%d dimensions)", self.embedder.model_name,
                        self.embedder.dimensions)

    async def stop(self) -> None:
        """Consumer first (it commits what it processed), then the server, then the client."""
        await self.consumer.stop()
        self._indexer_stop.set()
        if self._indexer_task is not None:
            await asyncio.wait([self._indexer_task], timeout=30)
        await self.health.stop()
        await self.mongo.close()

    async def run(self, stop: asyncio.Event) -> int:
        """Run until `stop` is set (exit code 0) or the consumer dies (1); always cleans up."""
        await self.start()
        try:
            return await self._wait(stop)
        finally:
            await self.stop()

    async def _wait(self, stop: asyncio.Event) -> int:
        if self._consumer_task is None:
            raise RuntimeError("the worker was not started")
        stopper = asyncio.create_task(stop.wait(), name="stop-signal")
        await asyncio.wait([stopper, self._consumer_task], return_when=asyncio.FIRST_COMPLETED)
        stopper.cancel()
        if stop.is_set():
            return 0
        error = self._consumer_task.exception() if not self._consumer_task.cancelled() else None
        logger.error("the consumer stopped on its own", exc_info=error)
        return 1


def bootstrap(settings: SyncSettings, embedder: Embedder | None = None) -> SyncWorker:
    """Build the worker with the configured embedder unless given one; nothing connects until
    start()."""
    return SyncWorker(settings, make_mongo_client(settings), embedder or make_embedder(settings))
