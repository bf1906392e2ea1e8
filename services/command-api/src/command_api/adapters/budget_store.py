"""user_token_budgets (migration 0009): a user's own daily token budget, which chatbot-api reads
at each turn that calls the model."""

from __future__ import annotations

from sqlalchemy import delete, select
from sqlalchemy.dialects.mysql import insert as mysql_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.ext.asyncio import AsyncEngine

from command_api.service_layer.ports import UserBudget
from techai_shared.db.schema import user_token_budgets

_T = user_token_budgets.c


class SqlUserBudgets:
    def __init__(self, engine: AsyncEngine) -> None:
        self._engine = engine

    async def get(self, user_id: str) -> UserBudget | None:
        async with self._engine.connect() as conn:
            row = (await conn.execute(select(user_token_budgets).where(_T.user_id == user_id))).first()
        return None if row is None else UserBudget(row.user_id, int(row.daily_tokens), row.updated_by,
                                                   row.updated_at)

    async def put(self, budget: UserBudget) -> None:
        values = {"user_id": budget.user_id, "daily_tokens": budget.daily_tokens,
                  "updated_by": budget.updated_by, "updated_at": budget.updated_at}
        changed = {k: v for k, v in values.items() if k != "user_id"}
        async with self._engine.begin() as conn:
            if conn.dialect.name == "sqlite":
                await conn.execute(sqlite_insert(user_token_budgets).values(**values)
                                   .on_conflict_do_update(index_elements=["user_id"], set_=changed))
            else:
                await conn.execute(mysql_insert(user_token_budgets).values(**values)
                                   .on_duplicate_key_update(**changed))

    async def remove(self, user_id: str) -> None:
        async with self._engine.begin() as conn:
            await conn.execute(delete(user_token_budgets).where(_T.user_id == user_id))

