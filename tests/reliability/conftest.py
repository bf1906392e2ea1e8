"""Fixtures of the reliability suite: a whole stack of processes per test (its own command store,
broker, topics and Mongo database), so a test can count everything and stop anything."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from devstack.servers import Server

from tests.conftest import fresh_database
from tests.e2e.stack import Stack, make_stack
from tests.support.fake_llm import FakeLlm


@pytest.fixture
async def own_stack(workdir: Path, mysql_server_url: str, mongo_server: Server, redis_url: str,
                    llm: FakeLlm) -> AsyncIterator[Stack]:
    """chatbot-api, command-api and query-sync as processes on a fresh database and its own Tansu."""
    llm.mode, llm.delay, llm.reply = "ok", 0.0, None
    async with fresh_database(mysql_server_url) as url:
        running = make_stack(workdir, url, mongo_server.url, redis_url, llm.base_url)
        running.env.update({  # a restarted broker is noticed within seconds
            "SYNC_SESSION_TIMEOUT_MS": "3000", "SYNC_HEARTBEAT_INTERVAL_MS": "500",
            "SYNC_POLL_TIMEOUT_MS": "200", "SYNC_RETRY_MAX_BACKOFF_SECONDS": "1",
            "SYNC_TOPIC_CHECK_INTERVAL_SECONDS": "1", "SYNC_POSITION_CHECK_INTERVAL_SECONDS": "1",
            "CHATBOT_GENERATE_TITLES": "false",
            "CHATBOT_RATE_LIMIT_PER_MINUTE": "100",  # raised from 10: a load user sends 20+ a minute
            # The fake model runs in the test process, which also drives up to 200 clients on 2 cores:
            # under the load test its answers queue for seconds. What is measured here is the stores'
            # invariant, not model latency (test_model_faults.py checks the timeouts themselves).
            "OPENAI_TIMEOUT_SECONDS": "30", "OPENAI_TOTAL_TIMEOUT_SECONDS": "60",
        })
        running.start()
        try:
            yield running
        finally:
            running.stop()
