"""FastAPI dependencies: the authenticated caller, the admin, and the wired services."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from command_api.bootstrap import Container
from techai_shared.auth import Principal, verify_token
from techai_shared.errors import Forbidden, Unauthenticated

_bearer = HTTPBearer(auto_error=False)


def get_container(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


ContainerDep = Annotated[Container, Depends(get_container)]


def get_current_user(
    container: ContainerDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Principal:
    if credentials is None or credentials.scheme.lower() != "bearer":
        raise Unauthenticated("a Bearer token is required")
    return verify_token(credentials.credentials, container.settings)


CurrentUser = Annotated[Principal, Depends(get_current_user)]


def get_admin(user: CurrentUser) -> Principal:
    if not user.is_admin:
        raise Forbidden("the ADMIN role is required")
    return user


AdminUser = Annotated[Principal, Depends(get_admin)]
