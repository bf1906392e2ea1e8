"""The token budget's rules (chatbot_api.service_layer.budget) over fakes of its ports: what
counts, when a turn is refused and until when, the default and a user's own budget, and Redis
failing open. The concurrency bound is tested on the real Redis (tests/integration)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, date, datetime

import pytest

from chatbot_api.service_layer.budget import TokenBudgets, resets_at
from techai_shared.errors import TokenBudgetExceeded
from tests.unit.fakes import FakeDatabase, FakeUnitOfWork

# 23:59:30 in Seoul on 2026-11-27
NOW = datetime(2026, 11, 27, 14, 59, 30, tzinfo=UTC)
DAY = date(2026, 11, 27)


class MemoryGate:
    """The gate's rule in memory: hold while spent + held < budget."""

    def __init__(self, fail: bool = False) -> None:
        self.spent: dict[tuple[str, date], int] = {}
        self.holds: dict[str, tuple[str, date, int]] = {}
        self.fail = fail

    async def hold(self, user_id: str, day: date, *, spent: Callable[[], Awaitable[int]],
                   budget: int, tokens: int, seconds: int) -> str | None:
        if self.fail:
            raise ConnectionError("redis is down")
        if (user_id, day) not in self.spent:
            self.spent[(user_id, day)] = await spent()
        base = self.spent[(user_id, day)]
        held = sum(t for u, d, t in self.holds.values() if (u, d) == (user_id, day))
        if base + held >= budget:
            return None
        hold_id = f"h{len(self.holds)}"
        self.holds[hold_id] = (user_id, day, tokens)
        return hold_id

    async def release(self, user_id: str, day: date, hold_id: str, used: int) -> None:
        self.holds.pop(hold_id, None)
        if (user_id, day) in self.spent:
            self.spent[(user_id, day)] += used


def budgets(db: FakeDatabase, gate: MemoryGate | None = None, default: int = 0) -> TokenBudgets:
    return TokenBudgets(lambda: FakeUnitOfWork(db), gate or MemoryGate(), default_tokens=default,
                        hold_tokens=1_000, hold_seconds=60, clock=lambda: NOW)


async def test_only_model_tokens_of_the_seoul_day_count_and_a_refusal_says_until_midnight():
    db = FakeDatabase(budgets={"u": 500})
    db.usage += [("u", DAY, "gpt-4o-mini", 300, 200, 0.0, 1),
                 ("u", DAY, "retrieval-only", 9_000, 9_000, 0.0, 1),
                 ("u", DAY, "verified", 0, 0, 0.0, 1),
                 ("u", date(2026, 11, 26), "gpt-4o-mini", 9_000, 0, 0.0, 1)]
    with pytest.raises(TokenBudgetExceeded) as refused:
        await budgets(db).admit("u")
    assert refused.value.headers == {"Retry-After": "30"}
    assert refused.value.data == {"dailyTokens": 500, "usedTokens": 500,
                                  "resetsAt": "2026-11-27T15:00:00.000Z", "retryAfterSeconds": 30}
    status = await budgets(db).status("u")
    assert (status.daily_tokens, status.own, status.used_tokens, status.remaining_tokens) == (
        500, True, 500, 0)
    assert status.resets_at == resets_at(DAY) == datetime(2026, 11, 27, 15, tzinfo=UTC)


async def test_the_default_applies_unless_a_user_has_their_own_and_zero_is_none():
    db = FakeDatabase(budgets={"free": 0})
    db.usage += [(u, DAY, "gpt-4o-mini", 100, 0, 0.0, 1) for u in ("a", "free")]
    assert await budgets(db, default=0).admit("a") is None
    with pytest.raises(TokenBudgetExceeded):
        await budgets(db, default=100).admit("a")
    assert await budgets(db, default=100).admit("free") is None
    assert (await budgets(db, default=100).status("free")).daily_tokens is None


async def test_holds_bound_concurrent_turns_and_settling_counts_what_was_used():
    db = FakeDatabase(budgets={"u": 1_500})
    gate = MemoryGate()
    first = await budgets(db, gate).admit("u")
    second = await budgets(db, gate).admit("u")  # 0 spent + 1,000 held < 1,500
    with pytest.raises(TokenBudgetExceeded):
        await budgets(db, gate).admit("u")  # 2,000 held
    assert first is not None and second is not None
    await budgets(db, gate).settle(first, 120)
    await budgets(db, gate).settle(second, 80)
    assert gate.spent[("u", DAY)] == 200 and not gate.holds
    assert await budgets(db, gate).admit("u") is not None


async def test_redis_down_lets_mysql_decide_alone():
    db = FakeDatabase(budgets={"u": 100})
    hold = await budgets(db, MemoryGate(fail=True)).admit("u")
    assert hold is not None and hold.hold_id is None
    db.usage.append(("u", DAY, "gpt-4o-mini", 100, 0, 0.0, 1))
    with pytest.raises(TokenBudgetExceeded):
        await budgets(db, MemoryGate(fail=True)).admit("u")


async def test_a_small_call_holds_what_it_asks_for_not_a_turns_worth():
    """A verified answer's judgement holds 1,000 tokens of its own, not the turn's hold."""
    gate = MemoryGate()
    turns = TokenBudgets(lambda: FakeUnitOfWork(FakeDatabase(budgets={"u": 50_000})), gate,
                         default_tokens=0, hold_tokens=8_000, hold_seconds=60, clock=lambda: NOW)
    small = await turns.admit("u", tokens=1_000)
    whole = await turns.admit("u")
    assert small is not None and whole is not None
    assert [gate.holds[h.hold_id][2] for h in (small, whole)] == [1_000, 8_000]
