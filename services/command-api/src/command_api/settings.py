"""command-api settings: the common ones plus COMMAND_*."""

from __future__ import annotations

from pathlib import Path

from pydantic import Field

from techai_shared.settings import CommonSettings

# The sample catalog of the repository (infra/seed), found from this file in a source checkout.
BUNDLED_SEED_DIR = Path(__file__).resolve().parents[4] / "infra" / "seed"


class CommandSettings(CommonSettings):
    """COMMAND_HOST and COMMAND_PORT say where the API listens (loopback unless told otherwise);
    COMMAND_SEED_DIR holds the JSONL files the import endpoint loads."""

    command_host: str = "127.0.0.1"
    command_port: int = Field(default=8085, ge=1, le=65535)
    command_max_body_bytes: int = Field(default=1024 * 1024, ge=1024)  # a news article is <= 200k chars
    command_seed_dir: Path = BUNDLED_SEED_DIR
