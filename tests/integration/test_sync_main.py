"""`python -m query_sync` as a process: configured from the environment, ready, clean on SIGTERM."""

from __future__ import annotations

import asyncio
import os
import signal
import sys

import httpx
import pytest
from devstack.servers import free_port

from tests.conftest import eventually, unique

pytestmark = pytest.mark.integration


async def _ready(url: str) -> bool:
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            return (await client.get(url)).status_code == 200
    except httpx.TransportError:
        return False


async def test_module_runs_until_sigterm_and_exits_cleanly(settings):
    port = free_port()
    env = {
        **os.environ,
        "ENVIRONMENT": "test",
        "KAFKA_BOOTSTRAP_SERVERS": settings.kafka_bootstrap_servers,
        "KAFKA_TOPIC_PREFIX": settings.kafka_topic_prefix,
        "MONGODB_URI": settings.mongodb_uri,
        "MONGODB_DATABASE": settings.mongodb_database,
        "SYNC_PORT": str(port),
        "SYNC_CONSUMER_GROUP": unique("sync-main-"),
        "SYNC_SESSION_TIMEOUT_MS": "2000",
        "SYNC_HEARTBEAT_INTERVAL_MS": "300",
    }
    proc = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "query_sync", env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT,
    )
    try:
        await eventually(lambda: _ready(f"http://127.0.0.1:{port}/readyz"), within=30)
        proc.send_signal(signal.SIGTERM)
        output, _ = await asyncio.wait_for(proc.communicate(), timeout=30)
    finally:
        if proc.returncode is None:
            proc.kill()
            await proc.wait()
    assert proc.returncode == 0, output.decode()
    assert b"SIGTERM received; stopping" in output
