"""The FastAPI application of chatbot-api."""

from __future__ import annotations

from fastapi import FastAPI

from chatbot_api.bootstrap import Services, bootstrap
from chatbot_api.entrypoints import openai_routes
from chatbot_api.entrypoints.openai_schemas import openai_error
from chatbot_api.entrypoints.routes import router
from chatbot_api.settings import ChatbotSettings
from techai_shared.web.app import create_api


def create_app(settings: ChatbotSettings, services: Services | None = None) -> FastAPI:
    """An app whose adapters are built in its lifespan (or given, for tests)."""
    return create_api("chatbot-api", settings, settings.chatbot_max_body_bytes,
                      lambda: services or bootstrap(settings), [router, openai_routes.router],
                      {openai_routes.PREFIX + "/": openai_error},
                      # an OpenAI client resends the whole conversation with every question
                      {openai_routes.PREFIX + "/": settings.chatbot_openai_max_body_bytes})
