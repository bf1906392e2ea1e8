"""Waiting for a command-store connection: units of work get one in the order they asked, each
waits at most the pool timeout, and past it the request is 503 with Retry-After in the envelope,
not a 500."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from fastapi import FastAPI
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from techai_shared.db.engine import CheckoutGate, checkout_gate, make_engine
from techai_shared.settings import CommonSettings
from techai_shared.web.errors import install_error_handlers

pytestmark = pytest.mark.unit


async def test_a_pool_timeout_is_503_with_retry_after_in_the_envelope():
    app = FastAPI()
    install_error_handlers(app)

    @app.get("/busy")
    async def busy() -> None:
        raise PoolTimeoutError("QueuePool limit of size 10 overflow 10 reached")

    transport = httpx.ASGITransport(app=app, raise_app_exceptions=False)
    async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
        response = await client.get("/busy")
    assert response.status_code == 503
    assert response.headers["Retry-After"] == "5"
    body = response.json()
    assert body["message"] == "the command store is busy" and body["data"] is None


def test_the_pool_timeout_is_a_setting_with_a_default_that_lets_a_burst_queue():
    assert CommonSettings().mysql_pool_timeout_seconds == 30.0
    assert CommonSettings(mysql_pool_timeout_seconds=5).mysql_pool_timeout_seconds == 5.0


async def test_the_gate_hands_out_slots_in_the_order_they_were_asked_for():
    gate = CheckoutGate(capacity=2, timeout_seconds=5)
    await gate.acquire()
    await gate.acquire()
    served: list[int] = []

    async def unit(i: int) -> None:
        await gate.acquire()
        served.append(i)
        await asyncio.sleep(0)  # hold the slot across a turn of the loop, as a statement does
        gate.release()

    waiters = [asyncio.create_task(unit(i)) for i in range(6)]
    await asyncio.sleep(0.01)  # all six are queued
    gate.release()
    # a newcomer that asks when a slot has just been handed back queues behind the six
    late = asyncio.create_task(unit(99))
    gate.release()
    await asyncio.gather(*waiters, late)
    assert served == [0, 1, 2, 3, 4, 5, 99]


async def test_past_the_timeout_the_gate_raises_the_pools_timeout_and_keeps_no_slot():
    gate = CheckoutGate(capacity=1, timeout_seconds=0.05)
    await gate.acquire()
    with pytest.raises(PoolTimeoutError, match=r"within 0\.05 s"):
        await gate.acquire()
    gate.release()
    await asyncio.wait_for(gate.acquire(), 1)  # the timed-out waiter took nothing with it


async def test_a_mysql_engine_has_a_gate_of_twice_its_pool_size_and_sqlite_none():
    mysql = make_engine(CommonSettings(mysql_url="mysql+asyncmy://root@127.0.0.1:1/x",
                                       mysql_pool_size=1, mysql_pool_timeout_seconds=0.05))
    sqlite = make_engine(CommonSettings(mysql_url="sqlite+aiosqlite:///:memory:"))
    try:
        gate = checkout_gate(mysql)
        assert gate is not None and checkout_gate(sqlite) is None
        await gate.acquire()
        await gate.acquire()  # twice the pool size of 1 (the pool has more, for the relay)
        with pytest.raises(PoolTimeoutError):
            await gate.acquire()
    finally:
        await mysql.dispose()
        await sqlite.dispose()
