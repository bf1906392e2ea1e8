"""`python -m chatbot_api`: serve chatbot-api with uvicorn."""

from __future__ import annotations

import uvicorn

from chatbot_api.entrypoints.app import create_app
from chatbot_api.settings import ChatbotSettings
from techai_shared.logging import configure_logging


def main() -> None:
    settings = ChatbotSettings()
    configure_logging(settings.log_level, settings.log_json)
    uvicorn.run(
        create_app(settings),
        host=settings.chatbot_host,
        port=settings.chatbot_port,
        log_config=None,
        proxy_headers=True,
        timeout_graceful_shutdown=10,
    )


if __name__ == "__main__":
    main()
