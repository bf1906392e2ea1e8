"""Per-user daily usage (usage_daily): upserted in the exchange's transaction, read for /usage."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime
from decimal import Decimal
from typing import Any

from sqlalchemy import select
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from chatbot_api.domain.context import KST
from techai_shared.db.schema import usage_daily


@dataclass(frozen=True)
class UsageRow:
    day: date
    model: str
    requests: int
    prompt_tokens: int
    completion_tokens: int
    cost_usd: float


def _upsert(insert: Any) -> Any:
    """INSERT ... ON DUPLICATE KEY UPDATE / ON CONFLICT DO UPDATE adding the new row's counts to the
    existing row's. Built once per dialect: every chat turn runs it, with only its values changing."""
    t, new = usage_daily.c, insert.inserted if hasattr(insert, "inserted") else insert.excluded
    sums = {name: t[name] + new[name]
            for name in ("requests", "prompt_tokens", "completion_tokens", "cost_usd")}
    if hasattr(insert, "on_duplicate_key_update"):
        return insert.on_duplicate_key_update(**sums)
    return insert.on_conflict_do_update(index_elements=["user_id", "day", "model"], set_=sums)


_UPSERTS = {"mysql": _upsert(mysql_insert(usage_daily)), "sqlite": _upsert(sqlite_insert(usage_daily))}


async def add_usage(conn: AsyncConnection, user_id: str, day: date, model: str,
                    prompt_tokens: int, completion_tokens: int, cost_usd: float,
                    requests: int = 1) -> None:
    """Add to the user's totals of that day and model (MySQL/MariaDB or SQLite): `requests` chat
    requests (0 for a model call that is not one, such as a session title) and their tokens."""
    await conn.execute(_UPSERTS["sqlite" if conn.dialect.name == "sqlite" else "mysql"], {
        "user_id": user_id, "day": day, "model": model, "requests": requests,
        "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
        "cost_usd": Decimal(str(cost_usd))})


async def usage_between(engine: AsyncEngine, user_id: str, first: date, last: date) -> list[UsageRow]:
    """The user's daily rows with first <= day <= last, oldest first."""
    t = usage_daily.c
    query = (select(usage_daily).where(t.user_id == user_id, t.day >= first, t.day <= last)
             .order_by(t.day, t.model))
    async with engine.connect() as conn:
        rows = (await conn.execute(query)).all()
        await conn.commit()
    return [UsageRow(r.day, r.model, int(r.requests), int(r.prompt_tokens),
                     int(r.completion_tokens), float(r.cost_usd)) for r in rows]


class SideUsage:
    """Model calls made for a session rather than for a question (its title): their tokens and
    cost go to the user's daily totals too, in their own transaction, without counting a request."""

    def __init__(self, engine: AsyncEngine, model: str, input_price_per_million: float,
                 output_price_per_million: float, clock: Callable[[], datetime]) -> None:
        self._engine = engine
        self._model = model
        self._prices = (input_price_per_million, output_price_per_million)
        self._clock = clock

    async def record(self, user_id: str, prompt_tokens: int, completion_tokens: int) -> None:
        cost = (prompt_tokens * self._prices[0] + completion_tokens * self._prices[1]) / 1_000_000
        day = self._clock().astimezone(KST).date()
        async with self._engine.begin() as conn:
            await add_usage(conn, user_id, day, self._model, prompt_tokens, completion_tokens,
                            round(cost, 8), requests=0)
