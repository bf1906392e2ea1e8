"""The unit of work and the command store's checkout gate on a real MariaDB pool: a slot is given
back however the unit of work ends, a unit of work is entered once at a time, and a wait that
times out is counted with the others."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy.exc import TimeoutError as PoolTimeoutError

from techai_shared.db.engine import checkout_gate, make_engine
from techai_shared.db.unit_of_work import STORE_WAIT, UnitOfWork
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.integration


class Failing(UnitOfWork):
    def _bind(self, conn: object) -> None:
        raise RuntimeError("a repository failed to bind")


def _waits() -> float:
    return sum(s.value for s in STORE_WAIT.collect()[0].samples if s.name.endswith("_count"))


async def test_every_way_out_of_a_unit_of_work_gives_its_slot_back(mysql_database: str):
    engine = make_engine(CommonSettings(mysql_url=mysql_database, mysql_pool_size=1,
                                        mysql_pool_timeout_seconds=0.5))
    try:
        for _ in range(3):  # twice the pool size of 1: a leaked slot would block by the third
            with pytest.raises(RuntimeError, match="failed to bind"):
                async with Failing(engine):
                    pass
            with pytest.raises(ValueError):
                async with UnitOfWork(engine):
                    raise ValueError("the use case failed")
        uow = UnitOfWork(engine)
        async with uow:
            with pytest.raises(RuntimeError, match="once at a time"):
                await uow.__aenter__()
        async with UnitOfWork(engine), UnitOfWork(engine):  # both slots still there
            pass
    finally:
        await engine.dispose()


async def test_a_wait_past_the_timeout_is_a_pool_timeout_and_is_counted(mysql_database: str):
    engine = make_engine(CommonSettings(mysql_url=mysql_database, mysql_pool_size=1,
                                        mysql_pool_timeout_seconds=0.2))
    gate = checkout_gate(engine)
    assert gate is not None
    try:
        async with UnitOfWork(engine), UnitOfWork(engine):
            before = _waits()
            with pytest.raises(PoolTimeoutError):
                async with UnitOfWork(engine):
                    pass
            assert _waits() == before + 1
        await asyncio.wait_for(gate.acquire(), 1)  # the timed-out wait took no slot with it
        gate.release()
    finally:
        await engine.dispose()
