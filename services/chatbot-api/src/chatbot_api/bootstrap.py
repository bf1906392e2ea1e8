"""Wires the concrete adapters of chatbot-api; the only place that knows them all."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from chatbot_api.adapters.llm import ChatModel, make_model
from chatbot_api.adapters.rate_limit import RedisRateLimiter
from chatbot_api.adapters.read_model import MongoReadModel
from chatbot_api.adapters.response_cache import ResponseCache
from chatbot_api.adapters.usage import SideUsage
from chatbot_api.service_layer.chat import ChatService, load_prompt
from chatbot_api.service_layer.history import ConversationReader
from chatbot_api.service_layer.retrieval import CatalogFinder, MemoEmbedder
from chatbot_api.service_layer.titles import TitleWriter
from chatbot_api.settings import ChatbotSettings
from techai_shared.cache import make_redis
from techai_shared.clock import Clock, utcnow
from techai_shared.conversations import ConversationStore
from techai_shared.db.engine import check_database, make_engine
from techai_shared.db.outbox import OutboxRelay
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.mongo import make_mongo_client
from techai_shared.retrieval.lookup import CatalogLookup
from techai_shared.retrieval.service import CatalogRetriever
from techai_shared.tokens import TokenCounter
from techai_shared.web import ReadinessCheck

logger = logging.getLogger(__name__)


@dataclass
class Container:
    settings: ChatbotSettings
    engine: AsyncEngine
    mongo: AsyncMongoClient[dict[str, Any]]
    redis: Redis
    relay: OutboxRelay
    store: ConversationStore
    reader: ConversationReader
    chat: ChatService
    clock: Clock
    model: ChatModel

    def readiness_checks(self) -> dict[str, ReadinessCheck]:
        async def mongo() -> None:
            await self.mongo.admin.command("ping")

        async def redis() -> None:
            await self.redis.ping()

        async def database() -> None:
            await check_database(self.engine)

        return {"database": database, "mongodb": mongo, "redis": redis}

    async def close(self) -> None:
        await self.chat.drain()
        await self.model.aclose()
        await self.relay.stop()
        await self.redis.aclose()
        await self.mongo.close()
        await self.engine.dispose()


def build_chat(settings: ChatbotSettings, store: ConversationStore,
               mongo: AsyncMongoClient[dict[str, Any]], redis: Redis, model: ChatModel,
               embedder: Embedder, clock: Clock) -> ChatService:
    """The chat use case over its adapters (also used by devstack's evaluate_chat)."""
    db = mongo[settings.mongodb_database]
    embedder = MemoEmbedder(embedder)
    return ChatService(
        settings=settings,
        store=store,
        model=model,
        limiter=RedisRateLimiter(redis, settings.chatbot_rate_limit_per_minute),
        tokens=TokenCounter(),
        clock=clock,
        finder=CatalogFinder(CatalogRetriever(db, embedder), CatalogLookup(db), embedder),
        cache=ResponseCache(redis, db, settings.chatbot_cache_ttl_seconds,
                            settings.chatbot_cache_prefix),
        titles=(TitleWriter(model, store, load_prompt("title", settings.chatbot_title_prompt_version),
                            SideUsage(store.engine, settings.openai_model,
                                      settings.openai_input_price_per_million,
                                      settings.openai_output_price_per_million, clock))
                if settings.chatbot_generate_titles else None),
    )


def bootstrap(settings: ChatbotSettings, model: ChatModel | None = None,
              clock: Clock = utcnow, embedder: Embedder | None = None) -> Container:
    """Build every adapter and service; starts the outbox relay."""
    engine = make_engine(settings)
    mongo = make_mongo_client(settings)
    redis = make_redis(settings)
    relay = OutboxRelay(engine, settings)
    store = ConversationStore(engine, on_commit=relay.wake)
    reader = ConversationReader(MongoReadModel(mongo[settings.mongodb_database]), store)
    model = model or make_model(settings)
    chat = build_chat(settings, store, mongo, redis, model, embedder or make_embedder(settings),
                      clock)
    relay.start()
    return Container(settings, engine, mongo, redis, relay, store, reader, chat, clock, model)
