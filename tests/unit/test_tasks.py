"""cancel_and_wait: a background task is stopped within its bound even when the code under it
swallows a cancellation, as PyMongo's async network layer did to the verified-answers refresh."""

from __future__ import annotations

import asyncio
import logging

import pytest

from techai_shared.tasks import cancel_and_wait


async def refresh_loop_that_swallows_one_cancel(turns: list[str]) -> None:
    """A refresh loop whose first read eats the cancellation and returns as if it had finished."""
    swallowed = False
    while True:
        try:
            await asyncio.sleep(10)  # the read
        except asyncio.CancelledError:
            if swallowed:
                raise
            swallowed = True
        turns.append("refreshed")
        await asyncio.sleep(10)  # the pause before the next turn


async def test_a_task_that_swallows_a_cancellation_is_cancelled_again_until_it_ends():
    turns: list[str] = []
    task = asyncio.get_running_loop().create_task(refresh_loop_that_swallows_one_cancel(turns))
    await asyncio.sleep(0)  # into the read
    started = asyncio.get_running_loop().time()
    assert await cancel_and_wait(task, within=5.0)
    assert task.cancelled() and turns == ["refreshed"]
    assert asyncio.get_running_loop().time() - started < 2.0, "it ended on the second cancel"


async def test_a_task_that_never_ends_is_left_behind_at_the_deadline(caplog: pytest.LogCaptureFixture):
    release = asyncio.Event()

    async def stubborn() -> None:
        while not release.is_set():
            try:
                await asyncio.sleep(10)
            except asyncio.CancelledError:
                continue

    task = asyncio.get_running_loop().create_task(stubborn(), name="stubborn")
    await asyncio.sleep(0)
    with caplog.at_level(logging.WARNING):
        assert not await cancel_and_wait(task, within=0.6)
    assert not task.done()
    assert "stubborn did not stop within 0.6s" in caplog.text
    release.set()
    task.cancel()
    await asyncio.wait({task}, timeout=1)
    assert task.done()


async def test_a_finished_failed_or_absent_task_returns_at_once():
    async def fails() -> None:
        raise RuntimeError("boom")

    failed = asyncio.get_running_loop().create_task(fails())
    await asyncio.wait({failed})
    assert await cancel_and_wait(failed)  # its error retrieved, not raised
    assert await cancel_and_wait(None)
