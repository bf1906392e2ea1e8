"""App factories for `uvicorn --factory --workers N`: chatbot-api and the bare endpoint in several
worker processes (each builds its own adapters in its lifespan, as `python -m chatbot_api` does)."""

from __future__ import annotations

from fastapi import FastAPI

from chatbot_api.entrypoints.app import create_app
from chatbot_api.settings import ChatbotSettings
from techai_shared.logging import configure_logging


def chatbot_api() -> FastAPI:
    settings = ChatbotSettings()
    configure_logging(settings.log_level, settings.log_json)
    return create_app(settings)


def bare_chat() -> FastAPI:
    from devstack.bench.bare_chat import app

    return app
