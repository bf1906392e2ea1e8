"""FastAPI dependencies for the authenticated caller, shared by the APIs so JWT checks live once.

They are `async def` although they never await: FastAPI runs a plain `def` dependency in its thread
pool, a thread hand-off per request for work that takes microseconds.

Each app keeps its settings, which hold the JWT rules, on `app.state.settings`.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from techai_shared.auth import Principal, verify_token
from techai_shared.errors import Forbidden, Unauthenticated

_bearer = HTTPBearer(auto_error=False)


async def get_current_user(
    request: Request,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    """The verified caller, or 401 (4011)."""
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthenticated("a Bearer token is required")
    return verify_token(credentials.credentials, request.app.state.settings)


CurrentUser = Annotated[Principal, Depends(get_current_user)]


async def get_admin(user: CurrentUser) -> Principal:
    """The caller if it has the ADMIN role, or 403 (4031)."""
    if not user.is_admin:
        raise Forbidden("the ADMIN role is required")
    return user


AdminUser = Annotated[Principal, Depends(get_admin)]
