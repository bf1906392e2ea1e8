"""Routes of /api/v1/admin/users/{userId}/budget: a user's own daily token budget (ADMIN role)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Path

from command_api.entrypoints.deps import AdminUser, UserBudgetServiceDep
from command_api.entrypoints.schemas import UserBudgetPublic, UserBudgetWrite
from techai_shared.envelope import Envelope, success
from techai_shared.errors import ErrorCode
from techai_shared.web import api_router, error_responses

router = api_router("/api/v1/admin", ["admin"], ErrorCode.UNAUTHENTICATED, ErrorCode.FORBIDDEN,
                    ErrorCode.INTERNAL_SERVER_ERROR, ErrorCode.SERVICE_UNAVAILABLE)

UserId = Annotated[str, Path(min_length=1, max_length=64, pattern=r"^[A-Za-z0-9._@:-]+$",
                             description="the user's id (the `sub` of their token)")]


@router.get("/users/{user_id}/budget", response_model=Envelope[UserBudgetPublic],
            responses=error_responses(ErrorCode.INVALID_INPUT))
async def read_budget(user_id: UserId, _: AdminUser, budgets: UserBudgetServiceDep
                      ) -> Envelope[UserBudgetPublic]:
    """The user's own daily token budget; `dailyTokens` null when chatbot-api's default
    (CHATBOT_DAILY_TOKEN_BUDGET) applies."""
    return success(UserBudgetPublic.of(user_id, await budgets.get(user_id)))


@router.put("/users/{user_id}/budget", response_model=Envelope[UserBudgetPublic],
            responses=error_responses(ErrorCode.INVALID_INPUT, ErrorCode.PAYLOAD_TOO_LARGE))
async def put_budget(user_id: UserId, body: UserBudgetWrite, admin: AdminUser,
                     budgets: UserBudgetServiceDep) -> Envelope[UserBudgetPublic]:
    """Set the model tokens the user may spend per Asia/Seoul day: a number (0: no budget for
    this user), or null to go back to the default. chatbot-api applies it within 5 seconds (it
    remembers a user's budget that long); answers made without the model are never refused."""
    return success(UserBudgetPublic.of(user_id, await budgets.set(user_id, body.daily_tokens,
                                                                  admin.user_id)))
