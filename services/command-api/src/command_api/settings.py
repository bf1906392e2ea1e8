"""command-api settings: the common ones plus COMMAND_*."""

from __future__ import annotations

from pydantic import Field

from techai_shared.settings import CommonSettings


class CommandSettings(CommonSettings):
    """COMMAND_HOST and COMMAND_PORT say where the API listens (loopback unless told otherwise)."""

    command_host: str = "127.0.0.1"
    command_port: int = Field(default=8085, ge=1, le=65535)
