"""A daily token budget per user: what a day's model calls may spend, and the admission of a turn.

The budget is the user's own (user_token_budgets, set by an administrator) or the default
(CHATBOT_DAILY_TOKEN_BUDGET); 0 is none. What counts is the usage the service records anyway
(usage_daily), the tokens of model calls only: answers made without a model (retrieval-only,
verified, cached, "nothing in those dates") are counted under names that are left out, and are
never refused. The day is the Asia/Seoul day, so a budget resets at midnight there.

Concurrent turns. A turn that will call the model is admitted only while the day's spent tokens
plus the holds of the turns in flight stay below the budget, and then holds the most a turn can
use (the prompt budget plus the model's output cap) until its usage is written. Spent tokens
and holds live in Redis and are read and changed by one script at a time, so of any number of
concurrent turns, those admitted can together exceed the budget only by the last one admitted:
the overspend is at most one turn. A turn settles its hold after its usage is committed (spent
then counts it); a turn that dies keeps its hold until it expires (CHATBOT_BUDGET_HOLD_SECONDS),
which refuses more, never less. Redis down: the check reads MySQL alone and lets the turn through
if the day's spent tokens are below the budget (fail-open like the rate limit, without the
bound on concurrent turns), counted on chatbot_budget_fail_open_total.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import date, datetime, time, timedelta
from time import monotonic

from prometheus_client import Counter

from chatbot_api.domain.context import KST
from chatbot_api.domain.usage import FREE_MODELS, usage_day
from chatbot_api.service_layer.ports import BudgetGate, UnitOfWorkFactory
from techai_shared.clock import Clock, iso
from techai_shared.errors import TokenBudgetExceeded

logger = logging.getLogger(__name__)

OWN_SECONDS = 5.0  # how long a user's own budget (or its absence) is remembered
OWN_CACHE_USERS = 100_000

REFUSED = Counter("chatbot_budget_refusals_total", "Turns refused because the day's token budget "
                  "was spent or held")
FAIL_OPEN = Counter("chatbot_budget_fail_open_total",
                    "Budget checks made on MySQL alone because Redis failed")


@dataclass(frozen=True)
class Hold:
    """An admitted turn's claim on the user's day; `hold_id` None when Redis was not reachable."""

    user_id: str
    day: date
    hold_id: str | None


@dataclass(frozen=True)
class BudgetStatus:
    daily_tokens: int | None  # None: no budget
    own: bool  # the user's own budget, not the default
    used_tokens: int
    remaining_tokens: int | None
    resets_at: datetime


def resets_at(day: date) -> datetime:
    """Midnight in Asia/Seoul after `day`."""
    return datetime.combine(day + timedelta(days=1), time(0), KST)


class TokenBudgets:
    def __init__(self, uow: UnitOfWorkFactory, gate: BudgetGate | None, *, default_tokens: int,
                 hold_tokens: int, hold_seconds: int, clock: Clock) -> None:
        self._uow = uow
        self._gate = gate
        self._default = default_tokens
        self._hold_tokens = hold_tokens
        self._hold_seconds = hold_seconds
        self._clock = clock
        self._own: dict[str, tuple[int | None, float]] = {}

    async def _limit(self, user_id: str) -> tuple[int, bool]:
        """The user's budget and whether it is their own; remembered OWN_SECONDS, so a turn
        without a budget costs no query (an administrator's change applies within that time)."""
        now = monotonic()
        known = self._own.get(user_id)
        if known is None or known[1] < now:
            async with self._uow() as uow:
                known = (await uow.usage.budget_of(user_id), now + OWN_SECONDS)
            if len(self._own) >= OWN_CACHE_USERS:
                self._own.clear()
            self._own[user_id] = known
        own = known[0]
        return (self._default if own is None else own), own is not None

    async def _spent(self, user_id: str, day: date) -> int:
        async with self._uow() as uow:
            return await uow.usage.model_tokens(user_id, day, not_models=FREE_MODELS)

    async def admit(self, user_id: str, tokens: int | None = None) -> Hold | None:
        """Admit a turn that will call the model, holding `tokens` (a turn's prompt budget and
        output cap by default), or raise TokenBudgetExceeded (429 with the reset time); None when
        the user has no budget. One Redis script when Redis holds the day's
        count; MySQL is read to seed it, to say what was spent in a refusal, and when Redis fails."""
        now = self._clock()
        day = usage_day(now)
        limit, _ = await self._limit(user_id)
        if limit <= 0:
            return None
        if self._gate is not None:
            try:
                hold_id = await self._gate.hold(
                    user_id, day, spent=lambda: self._spent(user_id, day), budget=limit,
                    tokens=tokens or self._hold_tokens, seconds=self._hold_seconds)
            except Exception as exc:  # Redis: MySQL alone decides
                FAIL_OPEN.inc()
                logger.warning("token budget checked without Redis: %s: %s", type(exc).__name__,
                               exc)
            else:
                if hold_id is None:
                    self._refuse(limit, await self._spent(user_id, day), day, now)
                return Hold(user_id, day, hold_id)
        spent = await self._spent(user_id, day)
        if spent >= limit:
            self._refuse(limit, spent, day, now)
        return Hold(user_id, day, None)

    async def settle(self, hold: Hold | None, used: int) -> None:
        """After the turn's usage is committed (or it failed, `used` 0): release its hold and count
        what it used. A failure is logged: the hold expires on its own."""
        if hold is None or hold.hold_id is None or self._gate is None:
            return
        try:
            await self._gate.release(hold.user_id, hold.day, hold.hold_id, used)
        except Exception as exc:
            logger.warning("token budget hold not released: %s: %s", type(exc).__name__, exc)

    async def count(self, user_id: str, at: datetime, used: int) -> None:
        """Tokens a model call spent outside a turn (a session's title), once written."""
        if self._gate is None or used <= 0:
            return
        try:
            await self._gate.release(user_id, usage_day(at), "-", used)
        except Exception as exc:
            logger.warning("token budget not counted: %s: %s", type(exc).__name__, exc)

    async def status(self, user_id: str) -> BudgetStatus:
        day = usage_day(self._clock())
        self._own.pop(user_id, None)  # the user asks what is left: read their budget afresh
        (limit, own), spent = await self._limit(user_id), await self._spent(user_id, day)
        if limit <= 0:
            return BudgetStatus(None, own, spent, None, resets_at(day))
        return BudgetStatus(limit, own, spent, max(0, limit - spent), resets_at(day))

    @staticmethod
    def _refuse(limit: int, spent: int, day: date, now: datetime) -> None:
        REFUSED.inc()
        reset = resets_at(day)
        wait = max(1, int((reset - now).total_seconds() + 0.999))
        raise TokenBudgetExceeded(
            f"the daily budget of {limit} tokens is spent (or held by answers in progress) until "
            f"{iso(reset)}; answers without the model (verified, retrieval-only) still work",
            headers={"Retry-After": str(wait)},
            data={"dailyTokens": limit, "usedTokens": spent, "resetsAt": iso(reset),
                  "retryAfterSeconds": wait})
