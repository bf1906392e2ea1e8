"""Fixtures for the integration and end-to-end tiers: the real servers of this machine.

MariaDB and Redis are the machine's own (127.0.0.1:3306 and :6379, overridable with TEST_MYSQL_URL
and TEST_REDIS_URL). Tansu and SecantusDB are started from their wheels for the test session on
free loopback ports. Each test gets its own topic prefix, Mongo database and ids, so tests can run
in any order without truncating shared state.
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
from devstack.servers import Server, free_port, start_secantus, start_tansu
from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from techai_shared.db.engine import make_engine
from techai_shared.db.migrate import upgrade_to_head
from techai_shared.settings import CommonSettings

T = TypeVar("T")

MYSQL_SERVER_URL = os.environ.get("TEST_MYSQL_URL", "mysql+asyncmy://root@127.0.0.1:3306")
REDIS_URL = os.environ.get("TEST_REDIS_URL", "redis://127.0.0.1:6379/0")


def unique(prefix: str) -> str:
    return f"{prefix}{uuid.uuid4().hex[:10]}"


@pytest.fixture(scope="session")
def workdir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="techai-tests-") as tmp:
        yield Path(tmp)


@pytest.fixture(scope="session")
def kafka_server(workdir: Path) -> Iterator[Server]:
    server = start_tansu(free_port(), workdir / "logs" / "tansu.log")
    yield server
    server.stop()


@pytest.fixture(scope="session")
def mongo_server(workdir: Path) -> Iterator[Server]:
    server = start_secantus(free_port(), workdir / "secantus", workdir / "logs" / "secantus.log")
    yield server
    server.stop()


@contextlib.asynccontextmanager
async def fresh_database() -> AsyncIterator[str]:
    """A new MariaDB database migrated to head (about 60 ms), dropped afterwards."""
    name = unique("techai_test_")
    admin = create_async_engine(MYSQL_SERVER_URL + "/", isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
    url = f"{MYSQL_SERVER_URL}/{name}"
    engine = make_engine(CommonSettings(mysql_url=url))
    try:
        await upgrade_to_head(engine)
        await engine.dispose()
        yield url
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        await admin.dispose()


@pytest.fixture
async def mysql_database() -> AsyncIterator[str]:
    """Each test its own command store, so outbox relays never see another test's rows."""
    async with fresh_database() as url:
        yield url


@pytest.fixture
def settings(mysql_database: str, kafka_server: Server, mongo_server: Server) -> CommonSettings:
    """Settings for one test: shared servers, its own topics and Mongo database."""
    return CommonSettings(
        environment="test",
        mysql_url=mysql_database,
        kafka_bootstrap_servers=kafka_server.url,
        kafka_topic_prefix=unique("t"),
        kafka_topic_partitions=3,
        mongodb_uri=mongo_server.url,
        mongodb_database=unique("db_"),
        redis_url=REDIS_URL,
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
