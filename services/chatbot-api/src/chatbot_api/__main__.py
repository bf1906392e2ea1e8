"""`python -m chatbot_api`: serve chatbot-api with uvicorn."""

from __future__ import annotations

import os

# One BLAS thread, set before numpy loads OpenBLAS. A question's products with the question bank
# (2,803 x 384) and the catalog sample are small; OpenBLAS ran them on threads that spin on the two
# cores next to the requests served at the same time, which cost make bench's catalog questions
# 60 to 140 ms of p95 at 10 users and 350 ms at 50. The requests are the concurrency.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

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
