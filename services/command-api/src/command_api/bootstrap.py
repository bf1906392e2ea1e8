"""Wires the concrete adapters of command-api into its use cases; the only place that knows them all."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.adapters.budget_store import SqlUserBudgets
from command_api.adapters.outbox_log import SqlOutboxLog
from command_api.adapters.read_model import MongoReadModel
from command_api.adapters.unit_of_work import SqlCommandUnitOfWork
from command_api.service_layer.answers import VerifiedAnswerService
from command_api.service_layer.bookmarks import BookmarkService
from command_api.service_layer.budgets import UserBudgetService
from command_api.service_layer.catalog import CatalogService
from command_api.service_layer.catalog_import import CatalogImporter
from command_api.service_layer.feedback_metrics import FeedbackMetrics
from command_api.service_layer.jobs import JobRunner, LifecycleJobs
from command_api.service_layer.ports import OutboxLog, UnitOfWorkFactory
from command_api.service_layer.reconcile import Reconciler
from command_api.service_layer.republish import Republisher
from command_api.settings import CommandSettings
from techai_shared.cache import make_redis
from techai_shared.clock import Clock, utcnow
from techai_shared.db.engine import check_database, make_engine
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.unit_of_work import Wakeable
from techai_shared.kafka import check_kafka
from techai_shared.mongo import make_mongo_client
from techai_shared.web import ReadinessCheck


def unit_of_work(engine: AsyncEngine, relay: Wakeable | None = None,
                 clock: Clock = utcnow) -> UnitOfWorkFactory:
    """A factory of command-api's unit of work on `engine`, waking `relay` after commits."""
    return lambda: SqlCommandUnitOfWork(engine, relay, clock)


@dataclass
class Operations:
    """The jobs and the projection repair tools; used by the API, the scheduler and the CLI."""

    runner: JobRunner
    republisher: Republisher
    outbox: OutboxLog
    read_model: MongoReadModel
    mongo: AsyncMongoClient[dict[str, Any]]

    async def close(self) -> None:
        await self.mongo.close()


def operations(settings: CommandSettings, engine: AsyncEngine, relay: Wakeable | None = None,
               clock: Clock = utcnow, worker: str | None = None) -> Operations:
    """Wire the jobs over this engine (waking `relay` after their commits, if given); nothing
    connects until first used."""
    mongo = make_mongo_client(settings)
    read_model = MongoReadModel(mongo[settings.mongodb_database])
    uow = unit_of_work(engine, relay, clock)
    outbox = SqlOutboxLog(engine)
    republisher = Republisher(uow, read_model, clock)
    reconciler = Reconciler(uow, outbox, read_model, republisher, clock)
    jobs = LifecycleJobs(settings, uow, outbox, reconciler).jobs()
    runner = JobRunner(uow, jobs, settings, clock, worker)
    return Operations(runner, republisher, outbox, read_model, mongo)


@dataclass
class Services:
    """The use cases the routes call, and what the process holds open for them; closed in
    reverse order of need."""

    settings: CommandSettings
    catalog: CatalogService
    bookmarks: BookmarkService
    importer: CatalogImporter
    answers: VerifiedAnswerService
    feedback_metrics: FeedbackMetrics
    budgets: UserBudgetService
    ops: Operations
    engine: AsyncEngine
    redis: Redis
    relay: OutboxRelay

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
        await self.feedback_metrics.stop()
        await self.relay.stop()
        await self.ops.close()
        await self.redis.aclose()
        await self.engine.dispose()


def bootstrap(settings: CommandSettings) -> Services:
    """Build every adapter and use case and start the outbox relay (call from inside a running
    event loop)."""
    engine = make_engine(settings)
    relay = OutboxRelay(engine, settings)
    uow = unit_of_work(engine, relay)
    ops = operations(settings, engine, relay)
    services = Services(
        settings=settings,
        catalog=CatalogService(uow),
        bookmarks=BookmarkService(uow),
        importer=CatalogImporter(uow),
        answers=VerifiedAnswerService(uow, ops.read_model, utcnow),
        feedback_metrics=FeedbackMetrics(uow, utcnow),
        budgets=UserBudgetService(SqlUserBudgets(engine), utcnow),
        ops=ops,
        engine=engine,
        redis=make_redis(settings),
        relay=relay,
    )
    relay.start()
    services.feedback_metrics.start()
    return services
