"""Fixtures for the integration and end-to-end tiers: the real servers of this machine.

MariaDB and Redis are the machine's own (127.0.0.1:3306 and :6379, overridable with TEST_MYSQL_URL
and TEST_REDIS_URL). Tansu and SecantusDB are started from their wheels for the test session on
free loopback ports. Each test gets its own topic prefix, Mongo database and ids, so tests can run
in any order without truncating shared state.

With TEST_INFRA=containers the same fixtures hand out MySQL 8.4, Kafka, MongoDB Atlas Local and
Redis 7 started with testcontainers instead (tests/support/containers.py); without a reachable
Docker engine the integration and e2e tests are then skipped with the reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import tempfile
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import pytest
from devstack.processes import GuardTether
from devstack.servers import Server, free_port, start_secantus, start_tansu, tether_by_default
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from techai_shared.db.engine import make_engine
from techai_shared.db.migrate import upgrade_to_head
from techai_shared.settings import CommonSettings
from tests.support.containers import ContainerStack, docker_unavailable_reason, infra_mode
from tests.support.fake_llm import FakeLlm

T = TypeVar("T")

MYSQL_SERVER_URL = os.environ.get("TEST_MYSQL_URL", "mysql+asyncmy://root@127.0.0.1:3306")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")
INFRA_MODE = infra_mode()
CONTAINERS = INFRA_MODE == "containers"


def pytest_report_header() -> str:
    return f"test infrastructure: {INFRA_MODE} (TEST_INFRA=local|containers)"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """In the containers mode without a Docker engine, skip what needs servers, saying why."""
    if not CONTAINERS:
        return
    reason = docker_unavailable_reason()
    if reason is None:
        return
    for item in items:
        if item.get_closest_marker("integration") or item.get_closest_marker("e2e"):
            item.add_marker(pytest.mark.skip(reason=reason))


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="techai-tests-") as tmp:
        yield Path(tmp)


@pytest.fixture(scope="session", autouse=True)
def servers_end_with_the_session(workdir: Path) -> Iterator[None]:
    """Every server a test starts (Tansu, SecantusDB, redis-server, through devstack.servers)
    is watched by a guard process that kills it when this pytest process ends, however it ends
    (a CI timeout's SIGKILL too); at a normal end it kills whatever a test left running."""
    tether = GuardTether.start(workdir / "logs" / "guard.log")
    tether_by_default(tether)
    yield
    tether_by_default(None)
    tether.close()


@pytest.fixture(scope="session")
def containers() -> Iterator[ContainerStack | None]:
    """The started containers in the containers mode (None in the local mode)."""
    if not CONTAINERS:
        yield None
        return
    stack = ContainerStack().start()
    yield stack
    stack.stop()


@pytest.fixture(scope="session")
def mysql_server_url(containers: ContainerStack | None) -> str:
    """The MySQL/MariaDB server (no database) tests create their databases on."""
    return containers.mysql_url if containers is not None else MYSQL_SERVER_URL


@pytest.fixture(scope="session")
def redis_url(containers: ContainerStack | None) -> str:
    return containers.redis_url if containers is not None else REDIS_URL


@pytest.fixture(scope="session")
def kafka_server(workdir: Path, containers: ContainerStack | None) -> Iterator[Server]:
    if containers is not None and containers.kafka is not None:
        yield containers.kafka  # type: ignore[misc]  # the same .url/.stop() shape
        return
    server = start_tansu(free_port(), workdir / "logs" / "tansu.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def mongo_server(workdir: Path, containers: ContainerStack | None) -> Iterator[Server]:
    if containers is not None and containers.mongodb is not None:
        yield containers.mongodb  # type: ignore[misc]
        return
    server = start_secantus(free_port(), workdir / "secantus", workdir / "logs" / "secantus.log")
    yield server
    server.stop()


@contextlib.asynccontextmanager
async def fresh_database(server_url: str = MYSQL_SERVER_URL) -> AsyncIterator[str]:
    """A new database on `server_url` migrated to head (about 60 ms), dropped afterwards."""
    name = unique("techai_test_")
    admin = create_async_engine(server_url + "/", isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
    url = f"{server_url}/{name}"
    engine = make_engine(CommonSettings(mysql_url=url))
    try:
        await upgrade_to_head(engine)
        await engine.dispose()
        yield url
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        await admin.dispose()


@pytest.fixture(scope="module")
def llm() -> Iterator[FakeLlm]:
    """The local OpenAI-compatible model server, one per test module (tests set its mode)."""
    server = FakeLlm().start()
    yield server
    server.stop()


@pytest.fixture
def own_servers() -> Iterator[list[Server]]:
    """Servers a test starts and stops itself; stopped at the end whatever happens."""
    servers: list[Server] = []
    yield servers
    for server in servers:
        server.stop()


@pytest.fixture
async def mysql_database(mysql_server_url: str) -> AsyncIterator[str]:
    """Each test its own command store, so outbox relays never see another test's rows."""
    async with fresh_database(mysql_server_url) as url:
        yield url


@pytest.fixture
def settings(mysql_database: str, kafka_server: Server, mongo_server: Server,
             redis_url: str) -> CommonSettings:
    """Settings for one test: shared servers, its own topics and Mongo database."""
    return CommonSettings(
        environment="test",
        mysql_url=mysql_database,
        kafka_bootstrap_servers=kafka_server.url,
        kafka_enable_idempotence=CONTAINERS,  # Apache Kafka has it; Tansu rejects InitProducerId
        kafka_topic_prefix=unique("t"),
        kafka_topic_partitions=3,
        mongodb_uri=mongo_server.url,
        mongodb_database=unique("db_"),
        redis_url=redis_url,
        outbox_poll_interval_seconds=0.1,
    )


@pytest.fixture
async def engine(settings: CommonSettings) -> AsyncIterator[AsyncEngine]:
    eng = make_engine(settings)
    yield eng
    await eng.dispose()


async def eventually(check: Callable[[], Awaitable[T]], within: float = 15.0,
                     interval: float = 0.1) -> T:
    """Await `check()` until it returns a truthy value or `within` seconds pass (then assert).

    An AssertionError inside `check` counts as "not yet"; any other exception fails at once.
    """
    timeout = within
    deadline = asyncio.get_running_loop().time() + timeout
    last = None
    while True:
        try:
            last = await check()
            if last:
                return last
        except AssertionError:
            if asyncio.get_running_loop().time() > deadline:
                raise
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"condition not met within {timeout}s; last value: {last!r}")
        await asyncio.sleep(interval)
