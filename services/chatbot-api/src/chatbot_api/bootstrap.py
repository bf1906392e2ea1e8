"""Wires the concrete adapters of chatbot-api into its use cases; the only place that knows them all."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from pymongo import AsyncMongoClient
from redis.asyncio import Redis
from sqlalchemy.ext.asyncio import AsyncEngine

from chatbot_api.adapters.budget_gate import RedisBudgetGate
from chatbot_api.adapters.catalog_lookup import CatalogLookup
from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.adapters.llm import make_model
from chatbot_api.adapters.rate_limit import RedisRateLimiter
from chatbot_api.adapters.read_model import MongoReadModel
from chatbot_api.adapters.response_cache import ResponseCache
from chatbot_api.adapters.stream_log import RedisStreamLog
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.adapters.unit_of_work import SqlChatUnitOfWork
from chatbot_api.domain.usage import PriceTable, Pricing
from chatbot_api.retrieval.question_bank import QuestionBank
from chatbot_api.retrieval.relevance import RelevanceGate
from chatbot_api.service_layer.budget import TokenBudgets
from chatbot_api.service_layer.chat import ChatService, load_prompt
from chatbot_api.service_layer.feedback import FeedbackService
from chatbot_api.service_layer.ports import ChatModel, UnitOfWorkFactory
from chatbot_api.service_layer.retrieval import CatalogFinder, MemoEmbedder
from chatbot_api.service_layer.sessions import SessionService
from chatbot_api.service_layer.titles import TitleWriter
from chatbot_api.service_layer.verified_judge import VerifiedJudge
from chatbot_api.settings import ChatbotSettings
from chatbot_api.verified.index import VerifiedAnswers
from chatbot_api.verified.match import MIN_COSINE
from techai_shared.cache import make_redis
from techai_shared.clock import Clock, utcnow
from techai_shared.db.engine import check_database, make_engine
from techai_shared.db.outbox import OutboxRelay
from techai_shared.db.unit_of_work import Wakeable
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.mongo import make_mongo_client
from techai_shared.web import ReadinessCheck

logger = logging.getLogger(__name__)


@dataclass
class Services:
    """The use cases the routes call, and what the process holds open for them."""

    settings: ChatbotSettings
    chat: ChatService
    sessions: SessionService
    feedback: FeedbackService
    engine: AsyncEngine
    mongo: AsyncMongoClient[dict[str, Any]]
    redis: Redis
    relay: OutboxRelay
    model: ChatModel
    retriever: CatalogRetriever
    verified: VerifiedAnswers
    gate: RelevanceGate

    def readiness_checks(self) -> dict[str, ReadinessCheck]:
        async def mongo() -> None:
            await self.mongo.admin.command("ping")

        async def redis() -> None:
            await self.redis.ping()

        async def database() -> None:
            await check_database(self.engine)

        async def catalog() -> None:
            self.retriever.start()  # again, if the start failed
            if not self.retriever.ready:
                raise RuntimeError("the catalog search is starting (loading the catalog index)")

        async def verified() -> None:
            if self.verified.enabled and not self.verified.ready:
                raise RuntimeError("the verified answers are loading")

        async def gate() -> None:
            self.gate.start()  # again, if the embedding failed
            if not self.gate.ready:
                raise RuntimeError("the relevance gate is embedding its question bank")

        return {"database": database, "mongodb": mongo, "redis": redis, "catalog": catalog,
                "verified": verified, "relevance_gate": gate}

    async def close(self) -> None:
        await self.gate.close()
        await self.verified.close()
        await self.retriever.close()
        await self.chat.drain()
        await self.model.aclose()
        await self.relay.stop()
        await self.redis.aclose()
        await self.mongo.close()
        await self.engine.dispose()


def unit_of_work(engine: AsyncEngine, relay: Wakeable | None = None) -> UnitOfWorkFactory:
    """A factory of chatbot-api's unit of work on `engine`, waking `relay` after commits."""
    return lambda: SqlChatUnitOfWork(engine, relay)


_UNPRICED: set[str] = set()  # models warned about, so each is warned about once per process


def pricing(settings: ChatbotSettings, *, warn: bool = True) -> Pricing:
    """The answering model's prices from CHATBOT_MODEL_PRICES, whichever provider serves it; a
    model the table lacks costs 0 (its tokens are still counted), with a warning logged once."""
    model = settings.model_name
    found = PriceTable(settings.model_prices).find(model)
    if found is not None:
        return found
    if warn and model not in _UNPRICED:
        _UNPRICED.add(model)
        logger.warning("no price for the model %r in CHATBOT_MODEL_PRICES: its estimated cost is 0 "
                       "(add model=input/output, USD per million tokens)", model)
    return Pricing(model, 0.0, 0.0)


def verified_answers(settings: ChatbotSettings, mongo: AsyncMongoClient[dict[str, Any]],
                     embedder: Embedder, clock: Clock = utcnow,
                     bank: QuestionBank | None = None) -> VerifiedAnswers:
    """The verified answers at the cosine calibrated for the embedding model (or configured); their
    suggestions read the general questions of `bank` (the relevance gate's, shared: it is embedded
    once) or of a bank of their own."""
    min_cosine = settings.chatbot_verified_min_cosine or MIN_COSINE.get(embedder.model_name)
    if min_cosine is None:
        logger.warning("no verified-answer cosine is calibrated for %s: verified answers are not "
                       "served (set CHATBOT_VERIFIED_MIN_COSINE)", embedder.model_name)
    return VerifiedAnswers(mongo[settings.mongodb_database], embedder, min_cosine,
                           bank=bank or QuestionBank.read(embedder), clock=clock)


def build_chat(settings: ChatbotSettings, uow: UnitOfWorkFactory,
               mongo: AsyncMongoClient[dict[str, Any]], redis: Redis, model: ChatModel,
               embedder: Embedder, clock: Clock,
               retriever: CatalogRetriever | None = None,
               verified: VerifiedAnswers | None = None,
               gate: RelevanceGate | None = None,
               budgets: TokenBudgets | None = None) -> ChatService:
    """The chat use case over its adapters (also used by devstack's evaluate_chat)."""
    db = mongo[settings.mongodb_database]
    embedder = embedder if isinstance(embedder, MemoEmbedder) else MemoEmbedder(embedder)
    retriever = retriever or CatalogRetriever(db, embedder,
                                              sample=CatalogSample(db, embedder.model_name),
                                              clock=clock)
    sample = retriever.sample or CatalogSample(db, embedder.model_name)
    gate = gate or RelevanceGate.for_model(sample, embedder)
    prices = pricing(settings, warn=model.configured)
    tokens = TokenCounter()
    budgets = budgets or token_budgets(settings, uow, redis, clock)
    titles = (TitleWriter(model, uow, load_prompt("title", settings.chatbot_title_prompt_version),
                          prices, clock, tokens, budgets)
              if settings.chatbot_generate_titles else None)
    return ChatService(
        settings=settings,
        uow=uow,
        model=model,
        limiter=RedisRateLimiter(redis, settings.chatbot_rate_limit_per_minute),
        tokens=tokens,
        clock=clock,
        finder=CatalogFinder(retriever, CatalogLookup(db, clock), embedder,
                             gate=gate, clock=clock),
        cache=ResponseCache(redis, db, settings.chatbot_cache_ttl_seconds,
                            settings.chatbot_cache_prefix),
        pricing=prices,
        titles=titles,
        verified=verified,
        stream_log=RedisStreamLog(redis, settings.chatbot_stream_resume_seconds,
                                  idle_seconds=settings.chatbot_model_total_timeout_seconds + 10),
        budgets=budgets,
        judge=(VerifiedJudge(model, tokens, prices, settings.chatbot_verified_judge_timeout_seconds)
               if settings.chatbot_verified_judge else None),
    )


def token_budgets(settings: ChatbotSettings, uow: UnitOfWorkFactory, redis: Redis,
                  clock: Clock) -> TokenBudgets:
    """A turn holds the most it can use: the whole prompt and the model's output cap."""
    return TokenBudgets(
        uow, RedisBudgetGate(redis), default_tokens=settings.chatbot_daily_token_budget,
        hold_tokens=settings.chatbot_prompt_token_budget + settings.chatbot_model_max_output_tokens,
        hold_seconds=max(settings.chatbot_budget_hold_seconds,
                         int(settings.chatbot_model_total_timeout_seconds) + 10),
        clock=clock)


def bootstrap(settings: ChatbotSettings, model: ChatModel | None = None,
              clock: Clock = utcnow, embedder: Embedder | None = None) -> Services:
    """Build every adapter and use case; starts the outbox relay."""
    engine = make_engine(settings)
    mongo = make_mongo_client(settings)
    redis = make_redis(settings)
    relay = OutboxRelay(engine, settings)
    uow = unit_of_work(engine, relay)
    model = model or make_model(settings)
    embedder = MemoEmbedder(embedder or make_embedder(settings))
    db = mongo[settings.mongodb_database]
    retriever = CatalogRetriever(db, embedder, sample=CatalogSample(db, embedder.model_name),
                                 clock=clock)
    gate = RelevanceGate.for_model(retriever.sample or CatalogSample(db, embedder.model_name),
                                   embedder)
    verified = verified_answers(settings, mongo, embedder, clock, bank=gate.bank)
    budgets = token_budgets(settings, uow, redis, clock)  # one, so /usage refreshes the turns' view
    chat = build_chat(settings, uow, mongo, redis, model, embedder, clock, retriever, verified,
                      gate, budgets)
    sessions = SessionService(uow, MongoReadModel(mongo[settings.mongodb_database]), clock,
                              budgets=budgets)
    relay.start()
    retriever.start()
    gate.start()
    verified.start()
    return Services(settings, chat, sessions, FeedbackService(uow, clock), engine, mongo, redis,
                    relay, model, retriever, verified, gate)
