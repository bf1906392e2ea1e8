"""`python -m command_api`: serve command-api with uvicorn."""

from __future__ import annotations

import uvicorn

from command_api.entrypoints.app import create_app
from command_api.settings import CommandSettings
from techai_shared.logging import configure_logging


def main() -> None:
    settings = CommandSettings()
    configure_logging(settings.log_level, settings.log_json)
    uvicorn.run(
        create_app(settings),
        host=settings.command_host,
        port=settings.command_port,
        log_config=None,  # keep the handler configure_logging installed
        timeout_graceful_shutdown=10,
    )


if __name__ == "__main__":
    main()
