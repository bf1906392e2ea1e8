"""FastAPI dependencies: the wired services, and the caller (from techai_shared.web_auth)."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from chatbot_api.bootstrap import Container
from techai_shared.web_auth import AdminUser, CurrentUser

__all__ = ["AdminUser", "ContainerDep", "CurrentUser", "get_container"]


async def get_container(request: Request) -> Container:
    container: Container = request.app.state.container
    return container


ContainerDep = Annotated[Container, Depends(get_container)]
