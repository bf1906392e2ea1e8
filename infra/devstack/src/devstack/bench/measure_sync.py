"""Sync: commit -> MongoDB lag at a steady rate, and query-sync's throughput vs a bare loop."""

from __future__ import annotations

import asyncio
import time
from datetime import datetime
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient

from chatbot_api.bootstrap import unit_of_work
from chatbot_api.service_layer.ports import UnitOfWorkFactory
from devstack.bench.stack import BenchStack, log, profile
from devstack.bench.stats import latency_summary
from techai_shared.clock import utcnow
from techai_shared.conversation.exchange import append_exchange
from techai_shared.conversation.model import NewMessage, Session
from techai_shared.db.engine import make_engine
from techai_shared.db.outbox import OutboxRelay
from techai_shared.ids import new_id
from techai_shared.kafka import ensure_topics
from techai_shared.settings import CommonSettings

SESSIONS = "conversation_sessions"
MESSAGES = "conversation_messages"
FINAL_VERSION = 4  # a first exchange: SessionCreated v1, two messages v2 v3, SessionUpdated v4
QUESTION, ANSWER = "안녕하세요, 이번 주 해커톤 있어?", "네, 두 개가 있습니다."


async def first_exchange(uow: UnitOfWorkFactory, user_id: str) -> str:
    """A new session and its first exchange, committed as a chat turn commits them; its id."""
    now = utcnow()
    async with uow() as work:
        session = Session.start(new_id(), user_id, QUESTION, now)
        await append_exchange(work.sessions, session, user_id, NewMessage("user", QUESTION, 12),
                              NewMessage("assistant", ANSWER, 9), now)
        await work.commit()
    return session.session_id


async def lag_run(settings: CommonSettings, mongo: AsyncMongoClient[dict[str, Any]], rate: float,
                  seconds: float, run: int) -> dict[str, float]:
    """Write first exchanges at `rate` a second through chatbot-api's unit of work with a relay in
    this process (as chatbot-api does); the lag of each is the time from its commit to the
    projection's write of the session's last event (`updated_at`, query-sync's clock)."""
    engine = make_engine(settings)
    relay = OutboxRelay(engine, settings)
    uow = unit_of_work(engine, relay)
    relay.start()
    committed: dict[str, datetime] = {}

    async def one(i: int) -> None:
        committed[await first_exchange(uow, f"lag{run}-{i % 200}")] = utcnow()

    tasks: list[asyncio.Task[None]] = []
    count = int(rate * seconds)
    start = time.monotonic()
    for i in range(count):
        delay = start + i / rate - time.monotonic()
        if delay > 0:
            await asyncio.sleep(delay)
        tasks.append(asyncio.create_task(one(i)))
    await asyncio.gather(*tasks)
    achieved = count / (time.monotonic() - start)
    sessions = mongo[settings.mongodb_database][SESSIONS]
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        done = await sessions.count_documents({"session_id": {"$in": list(committed)},
                                               "version": FINAL_VERSION})
        if done >= count:
            break
        await asyncio.sleep(0.2)
    lags = []
    async for doc in sessions.find({"session_id": {"$in": list(committed)}, "version": FINAL_VERSION},
                                   {"session_id": 1, "updated_at": 1}):
        commit = committed.get(doc["session_id"])
        if commit is not None:
            written = doc["updated_at"].replace(tzinfo=commit.tzinfo)
            lags.append(max(0.0, (written - commit).total_seconds() * 1000))
    await relay.stop()
    await engine.dispose()
    summary = latency_summary(lags)
    return {**summary, "missing": count - len(lags), "rate": round(achieved, 1)}


async def projection_rate(mongo: AsyncMongoClient[dict[str, Any]], db: str, sessions_total: int,
                          messages_total: int, events_total: int, within: float = 180) -> float:
    """Events a second, from the first projected document to the last, watched from MongoDB."""
    d = mongo[db]
    goal = sessions_total + messages_total
    t0: float | None = None
    d0 = 0
    deadline = time.monotonic() + within
    while time.monotonic() < deadline:
        done = (await d[MESSAGES].count_documents({})
                + await d[SESSIONS].count_documents({"version": FINAL_VERSION}))
        now = time.monotonic()
        if t0 is None and done > 0:
            t0, d0 = now, done
        if done >= goal:
            assert t0 is not None
            if now - t0 < 0.05 or goal == d0:
                raise RuntimeError("projection finished before it could be watched; use more events")
            return events_total * (goal - d0) / goal / (now - t0)
        await asyncio.sleep(0.05)
    raise RuntimeError(f"projection into {db} did not finish within {within:.0f}s")


async def fill_topic(stack: BenchStack, settings: CommonSettings, exchanges: int) -> None:
    """`exchanges` first exchanges written through chatbot-api's unit of work into a database of their
    own, and their events published to topics of their own (4 events each)."""
    await ensure_topics(settings)
    engine = make_engine(settings)
    uow = unit_of_work(engine)
    queue = list(range(exchanges))

    async def writer() -> None:
        while queue:
            await first_exchange(uow, f"tp-{queue.pop() % 200}")

    await asyncio.gather(*(writer() for _ in range(8)))
    relay = OutboxRelay(engine, settings)
    while await relay.publish_pending():
        pass
    await relay.stop()
    await engine.dispose()


async def measure(stack: BenchStack, mysql_url: str, runs: int, lag_seconds: float,
                  rate: float, profile_dir: Path | None = None, exchanges: int = 500) -> dict[str, Any]:
    assert stack.mongo and stack.kafka
    env = stack.env(mysql_url, "bench_sync_lag", group="qs-lag")
    settings = CommonSettings(
        mysql_url=mysql_url, kafka_bootstrap_servers=stack.kafka.url,
        kafka_topic_prefix=env["KAFKA_TOPIC_PREFIX"], mongodb_uri=stack.mongo.url,
        mongodb_database=env["MONGODB_DATABASE"], redis_url=env["REDIS_URL"])
    await ensure_topics(settings)
    mongo: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(stack.mongo.url)
    result: dict[str, Any] = {}
    try:
        sync = stack.spawn("query-sync-lag", ["-m", "query_sync"], env, port_env="SYNC_PORT")
        lag_runs = []
        for run in range(runs):
            r = await lag_run(settings, mongo, rate, lag_seconds, run)
            log(f"sync lag run {run + 1}/{runs}: {r['rate']}/s p50 {r['p50']} p95 {r['p95']} "
                f"p99 {r['p99']} ms (missing {r['missing']})")
            lag_runs.append(r)
        stack.stop_process(sync)
        result["lag_runs"] = lag_runs

        # A topic of `exchanges` first exchanges, projected from its start alternately by
        # query-sync and by the bare loop, each into a fresh database. SecantusDB slows down as it
        # accumulates data, so which of the two goes first alternates from run to run.
        tp_env = stack.env(await stack.new_database("tp"), "unused", topics="tp")
        tp_settings = settings.model_copy(update={"mysql_url": tp_env["MYSQL_URL"],
                                                  "kafka_topic_prefix": tp_env["KAFKA_TOPIC_PREFIX"]})
        await fill_topic(stack, tp_settings, exchanges)
        sessions_total, messages_total, events_total = exchanges, 2 * exchanges, 4 * exchanges
        topic = tp_settings.topic("conversation")
        qs_rates: list[float] = []
        bare_rates: list[float] = []
        for run in range(runs):
            for kind in ("query-sync", "bare") if run % 2 == 0 else ("bare", "query-sync"):
                db, group = f"bench_tp_{kind.replace('-', '')}_{run}", f"tp-{kind}-{run}"
                if kind == "query-sync":
                    process = stack.spawn(f"query-sync-tp{run}", ["-m", "query_sync"],
                                          {**tp_env, "MONGODB_DATABASE": db, "SYNC_CONSUMER_GROUP": group},
                                          port_env="SYNC_PORT")
                else:
                    process = stack.spawn_worker(f"bare-sync-{run}", [
                        "-m", "devstack.bench.bare_sync", "--bootstrap", stack.kafka.url, "--topic", topic,
                        "--group", group, "--mongo", stack.mongo.url, "--db", db])
                spy = profile(process.proc.pid, 8, profile_dir / "query-sync.txt"
                              if profile_dir and run == 0 and kind == "query-sync" else None)
                try:
                    value = await projection_rate(mongo, db, sessions_total, messages_total, events_total)
                finally:
                    if spy is not None:
                        spy.wait()
                    stack.stop_process(process)
                    await mongo.drop_database(db)  # SecantusDB slows down as databases pile up
                (qs_rates if kind == "query-sync" else bare_rates).append(value)
                log(f"sync throughput run {run + 1}/{runs} {kind}: {value:.0f} events/s")
        result["events"] = events_total
        result["query_sync_events_per_s"] = qs_rates
        result["bare_events_per_s"] = bare_rates
        result["ratios"] = [q / b for q, b in zip(qs_rates, bare_rates, strict=True)]
    finally:
        await mongo.close()
    return result
