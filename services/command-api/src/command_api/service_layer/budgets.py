"""Users' own daily token budgets, set by an administrator (chatbot-api enforces them; its
CHATBOT_DAILY_TOKEN_BUDGET is the default for users without one)."""

from __future__ import annotations

from command_api.service_layer.ports import UserBudget, UserBudgetStore
from techai_shared.clock import Clock


class UserBudgetService:
    def __init__(self, store: UserBudgetStore, clock: Clock) -> None:
        self._store = store
        self._clock = clock

    async def get(self, user_id: str) -> UserBudget | None:
        """The user's own budget; None when the default applies."""
        return await self._store.get(user_id)

    async def set(self, user_id: str, daily_tokens: int | None, admin_id: str) -> UserBudget | None:
        """Set the user's own budget (0: none for this user), or with None go back to the default."""
        if daily_tokens is None:
            await self._store.remove(user_id)
            return None
        budget = UserBudget(user_id, daily_tokens, admin_id, self._clock())
        await self._store.put(budget)
        return budget
