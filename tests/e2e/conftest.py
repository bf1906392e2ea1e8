"""The end-to-end stack: every service as a process, on MariaDB, Tansu, SecantusDB and Redis."""

from __future__ import annotations

from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from devstack.servers import Server

from tests.conftest import fresh_database
from tests.e2e.launcher import Launcher
from tests.e2e.stack import Stack, load_sample_catalog, make_stack
from tests.support.fake_llm import FakeLlm


@pytest.fixture(scope="module")
async def e2e_database(mysql_server_url: str) -> AsyncIterator[str]:
    async with fresh_database(mysql_server_url) as url:
        yield url


@pytest.fixture(scope="module")
def stack(workdir: Path, e2e_database: str, mongo_server: Server, redis_url: str,
          llm: FakeLlm) -> Iterator[Stack]:
    running = make_stack(workdir, e2e_database, mongo_server.url, redis_url, llm.base_url).start()
    yield running
    running.stop()


@pytest.fixture(scope="module")
def catalog_stack(workdir: Path, e2e_database: str, mongo_server: Server, redis_url: str,
                  llm: FakeLlm) -> Iterator[Stack]:
    """The stack with the sample catalog in its read model before it starts, so catalog questions
    are answered (with sources) from the first request; query-sync keeps the search index."""
    created = make_stack(workdir, e2e_database, mongo_server.url, redis_url, llm.base_url,
                         search=True)
    load_sample_catalog(created, mongo_server.url)
    running = created.start()
    yield running
    running.stop()


@pytest.fixture
def own_launcher(tmp_path: Path) -> Iterator[Launcher]:
    """`make run` of a test's own, in its own folder; stopped at the end if still running."""
    running = Launcher(tmp_path)
    yield running
    if running.proc is not None and running.proc.poll() is None:
        running.stop()
