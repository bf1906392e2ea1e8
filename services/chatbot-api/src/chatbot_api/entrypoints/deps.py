"""FastAPI dependencies: the caller (from techai_shared.web_auth) and each use case."""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request

from chatbot_api.bootstrap import Services
from chatbot_api.service_layer.chat import ChatService
from chatbot_api.service_layer.feedback import FeedbackService
from chatbot_api.service_layer.sessions import SessionService
from techai_shared.web_auth import AdminUser, CurrentUser

__all__ = ["AdminUser", "ChatServiceDep", "CurrentUser", "FeedbackServiceDep", "SessionServiceDep"]


def _services(request: Request) -> Services:
    services: Services = request.app.state.services
    return services


# async: FastAPI runs a plain `def` dependency in its thread pool, a hand-off per request for
# what is an attribute read.
async def get_chat_service(request: Request) -> ChatService:
    return _services(request).chat


async def get_session_service(request: Request) -> SessionService:
    return _services(request).sessions


async def get_feedback_service(request: Request) -> FeedbackService:
    return _services(request).feedback


ChatServiceDep = Annotated[ChatService, Depends(get_chat_service)]
SessionServiceDep = Annotated[SessionService, Depends(get_session_service)]
FeedbackServiceDep = Annotated[FeedbackService, Depends(get_feedback_service)]
