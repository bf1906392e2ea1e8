"""Wires the concrete adapters of command-api; the only place that knows them all."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.adapters.job_store import JobStore
from command_api.adapters.read_model import ReadModel
from command_api.service_layer.catalog_import import CatalogImporter
from command_api.service_layer.jobs import JobRunner, LifecycleJobs
from command_api.service_layer.republish import Republisher
from command_api.settings import CommandSettings
from techai_shared.bookmark_store import BookmarkStore
from techai_shared.cache import make_redis
from techai_shared.catalog_store import CatalogStore, contest_store, news_store
from techai_shared.clock import Clock, utcnow
from techai_shared.conversations import ConversationStore
from techai_shared.db.engine import check_database, make_engine
from techai_shared.db.outbox import OutboxRelay
from techai_shared.kafka import check_kafka
from techai_shared.mongo import make_mongo_client
from techai_shared.web import ReadinessCheck


@dataclass
class Operations:
    """The jobs and the projection repair tools; used by the API, the scheduler and the CLI."""

    mongo: AsyncMongoClient[dict[str, Any]]
    read_model: ReadModel
    republisher: Republisher
    runner: JobRunner

    async def close(self) -> None:
        await self.mongo.close()


def operations(settings: CommandSettings, engine: AsyncEngine,
               on_commit: Callable[[], None] | None = None, clock: Clock = utcnow,
               worker: str | None = None) -> Operations:
    """Wire the jobs over this engine; nothing connects until first used."""
    mongo = make_mongo_client(settings)
    read_model = ReadModel(mongo[settings.mongodb_database])
    conversations = ConversationStore(engine, on_commit)
    catalog = [contest_store(engine, on_commit), news_store(engine, on_commit),
               BookmarkStore(engine, on_commit)]
    republisher = Republisher(engine, conversations, read_model, catalog, clock)
    jobs = LifecycleJobs(settings, engine, conversations, republisher).jobs()
    runner = JobRunner(JobStore(engine), jobs, settings, clock, worker)
    return Operations(mongo, read_model, republisher, runner)


@dataclass
class Container:
    """What the process holds open while it runs; closed in reverse order of need."""

    settings: CommandSettings
    engine: AsyncEngine
    redis: Redis
    relay: OutboxRelay
    contests: CatalogStore
    news: CatalogStore
    bookmarks: BookmarkStore
    importer: CatalogImporter
    ops: Operations

    def readiness_checks(self) -> dict[str, ReadinessCheck]:
        """The stores this API cannot work without, each checked with one round trip."""

        async def database() -> None:
            await check_database(self.engine)

        async def kafka() -> None:
            await check_kafka(self.settings)

        async def redis() -> None:
            await self.redis.ping()

        return {"database": database, "kafka": kafka, "redis": redis}

    async def close(self) -> None:
        await self.relay.stop()
        await self.ops.close()
        await self.redis.aclose()
        await self.engine.dispose()


def catalog_importer(contests: CatalogStore, news: CatalogStore, bookmarks: BookmarkStore,
                     report: Callable[[str], None] | None = None) -> CatalogImporter:
    """The bulk importer over the same stores the API writes through."""
    stores = {"contests": contests, "newsArticles": news, "bookmarks": bookmarks}
    return CatalogImporter(stores, report) if report else CatalogImporter(stores)


def bootstrap(settings: CommandSettings) -> Container:
    """Build every adapter and start the outbox relay (call from inside a running event loop)."""
    engine = make_engine(settings)
    relay = OutboxRelay(engine, settings)
    contests, news = contest_store(engine, relay.wake), news_store(engine, relay.wake)
    bookmarks = BookmarkStore(engine, relay.wake)
    relay.start()
    return Container(settings, engine, make_redis(settings), relay, contests, news, bookmarks,
                     catalog_importer(contests, news, bookmarks),
                     operations(settings, engine, relay.wake))
