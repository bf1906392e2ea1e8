"""Per-user daily usage (usage_daily): added in the exchange's transaction, read for /usage."""

from __future__ import annotations

from datetime import date
from decimal import Decimal
from typing import Any

from sqlalchemy import func, select
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncConnection

from chatbot_api.service_layer.ports import UsageRow
from techai_shared.db.schema import usage_daily, user_token_budgets


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


class SqlUsageRepository:
    """usage_daily on the unit of work's connection (MySQL/MariaDB or SQLite)."""

    def __init__(self, conn: AsyncConnection) -> None:
        self._conn = conn
        self._upsert = _UPSERTS["sqlite" if conn.dialect.name == "sqlite" else "mysql"]

    async def add(self, user_id: str, day: date, model: str, prompt_tokens: int,
                  completion_tokens: int, cost_usd: float, requests: int = 1) -> None:
        """Add `requests` chat requests (0 for a model call that is not one, such as a session
        title) and their tokens to the user's totals of that day and model."""
        await self._conn.execute(self._upsert, {
            "user_id": user_id, "day": day, "model": model, "requests": requests,
            "prompt_tokens": prompt_tokens, "completion_tokens": completion_tokens,
            "cost_usd": Decimal(str(cost_usd))})

    async def model_tokens(self, user_id: str, day: date, *, not_models: tuple[str, ...]) -> int:
        """The user's prompt and completion tokens of that day, but those of `not_models` (the
        answers made without a model are counted under their mode's name)."""
        t = usage_daily.c
        total: Any = (await self._conn.execute(
            select(func.coalesce(func.sum(t.prompt_tokens + t.completion_tokens), 0))
            .where(t.user_id == user_id, t.day == day, t.model.not_in(not_models)))).scalar_one()
        return int(total)

    async def budget_of(self, user_id: str) -> int | None:
        """The user's own daily token budget, None when the default applies."""
        found = (await self._conn.execute(select(user_token_budgets.c.daily_tokens)
                                          .where(user_token_budgets.c.user_id == user_id))).scalar()
        return None if found is None else int(found)

    async def between(self, user_id: str, first: date, last: date) -> list[UsageRow]:
        """The user's daily rows with first <= day <= last, oldest first."""
        t = usage_daily.c
        rows = (await self._conn.execute(
            select(usage_daily).where(t.user_id == user_id, t.day >= first, t.day <= last)
            .order_by(t.day, t.model))).all()
        return [UsageRow(r.day, r.model, int(r.requests), int(r.prompt_tokens),
                         int(r.completion_tokens), float(r.cost_usd)) for r in rows]
