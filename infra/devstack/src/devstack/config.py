"""What `make run` starts and where: ports, folders, and which stores are real servers given by env.

Each store runs embedded unless its usual variable (MYSQL_URL, KAFKA_BOOTSTRAP_SERVERS, MONGODB_URI,
REDIS_URL) is set, in which case that value is passed to the services as it is and nothing is started.
The embedded servers' ports are DEVSTACK_KAFKA_PORT, DEVSTACK_MONGODB_PORT and DEVSTACK_REDIS_PORT;
the services' are the CHATBOT_/COMMAND_/SYNC_ PORT and HOST variables the services read themselves.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from pydantic import Field
from pydantic_settings import BaseSettings, SettingsConfigDict

MONGODB_DATABASE = "techai"
_WILDCARD_HOSTS = {"0.0.0.0", "::", ""}


class StackSettings(BaseSettings):
    """The launcher's own knobs, read from the environment (empty values count as unset)."""

    model_config = SettingsConfigDict(env_prefix="DEVSTACK_", env_ignore_empty=True, extra="ignore")

    kafka_port: int = Field(default=19092, ge=1, le=65535)
    mongodb_port: int = Field(default=27117, ge=1, le=65535)
    redis_port: int = Field(default=16379, ge=1, le=65535)
    ready_timeout_seconds: float = Field(default=180.0, gt=0)
    stop_timeout_seconds: float = Field(default=15.0, gt=0)
    # earlier runs' logs kept as .run/logs/<name>.log.1 (the last run) ... .log.<n>
    log_generations: int = Field(default=5, ge=0, le=50)

    mysql_url: str | None = Field(default=None, validation_alias="MYSQL_URL")
    kafka_bootstrap_servers: str | None = Field(
        default=None, validation_alias="KAFKA_BOOTSTRAP_SERVERS"
    )
    mongodb_uri: str | None = Field(default=None, validation_alias="MONGODB_URI")
    redis_url: str | None = Field(default=None, validation_alias="REDIS_URL")

    chatbot_host: str = Field(default="127.0.0.1", validation_alias="CHATBOT_HOST")
    chatbot_port: int = Field(default=8084, ge=1, le=65535, validation_alias="CHATBOT_PORT")
    command_host: str = Field(default="127.0.0.1", validation_alias="COMMAND_HOST")
    command_port: int = Field(default=8085, ge=1, le=65535, validation_alias="COMMAND_PORT")
    sync_host: str = Field(default="127.0.0.1", validation_alias="SYNC_HOST")
    sync_port: int = Field(default=8086, ge=1, le=65535, validation_alias="SYNC_PORT")
    scheduler_host: str = Field(default="127.0.0.1", validation_alias="COMMAND_SCHEDULER_HOST")
    scheduler_port: int = Field(default=8087, ge=1, le=65535,
                                validation_alias="COMMAND_SCHEDULER_PORT")


@dataclass(frozen=True)
class ServiceSpec:
    """One of our services: how to start it and where it answers /readyz."""

    name: str
    module: str
    env_prefix: str
    host: str
    port: int

    @property
    def probe_host(self) -> str:
        """Where to reach it from here: loopback when it listens on every interface."""
        return "127.0.0.1" if self.host in _WILDCARD_HOSTS else self.host

    @property
    def url(self) -> str:
        host = f"[{self.probe_host}]" if ":" in self.probe_host else self.probe_host
        return f"http://{host}:{self.port}"

    def env(self) -> dict[str, str]:
        return {f"{self.env_prefix}_HOST": self.host, f"{self.env_prefix}_PORT": str(self.port)}


@dataclass(frozen=True)
class Endpoints:
    """The four stores as the services see them."""

    mysql_url: str
    kafka_bootstrap_servers: str
    mongodb_uri: str
    redis_url: str

    def env(self) -> dict[str, str]:
        return {
            "MYSQL_URL": self.mysql_url,
            "KAFKA_BOOTSTRAP_SERVERS": self.kafka_bootstrap_servers,
            "MONGODB_URI": self.mongodb_uri,
            "REDIS_URL": self.redis_url,
        }


@dataclass(frozen=True)
class StackLayout:
    """The folders of one `make run`: .run/logs/<name>.log and .run/data/<store>."""

    root: Path

    @property
    def run_dir(self) -> Path:
        return self.root / ".run"

    @property
    def log_dir(self) -> Path:
        return self.run_dir / "logs"

    @property
    def data_dir(self) -> Path:
        return self.run_dir / "data"

    def log(self, name: str) -> Path:
        return self.log_dir / f"{name}.log"

    @property
    def sqlite_url(self) -> str:
        return f"sqlite+aiosqlite:///{(self.data_dir / 'techai.db').resolve()}"


def services(settings: StackSettings) -> list[ServiceSpec]:
    """The services, in the order they are started (and stopped in reverse); the scheduler is
    command-api's separate jobs process (python -m command_api.scheduler)."""
    return [
        ServiceSpec("chatbot-api", "chatbot_api", "CHATBOT", settings.chatbot_host, settings.chatbot_port),
        ServiceSpec("command-api", "command_api", "COMMAND", settings.command_host, settings.command_port),
        ServiceSpec("query-sync", "query_sync", "SYNC", settings.sync_host, settings.sync_port),
        ServiceSpec("scheduler", "command_api.scheduler", "COMMAND_SCHEDULER",
                    settings.scheduler_host, settings.scheduler_port),
    ]


def external_stores(settings: StackSettings) -> dict[str, str]:
    """The stores the environment points at real servers: store name -> the value to pass on."""
    given = {
        "kafka": settings.kafka_bootstrap_servers,
        "mongodb": settings.mongodb_uri,
        "redis": settings.redis_url,
    }
    return {name: value for name, value in given.items() if value}


def embedded_ports(settings: StackSettings) -> dict[str, int]:
    """The embedded servers to start (those not given by env) and their ports."""
    ports = {"kafka": settings.kafka_port, "mongodb": settings.mongodb_port, "redis": settings.redis_port}
    external = external_stores(settings)
    return {name: port for name, port in ports.items() if name not in external}


def service_env(base: Mapping[str, str], endpoints: Endpoints, spec: ServiceSpec) -> dict[str, str]:
    """A service's environment: the caller's, the stores' addresses and its own host and port.

    MONGODB_DATABASE and ENVIRONMENT keep a value the user set; JWT_SECRET is left alone so the
    services and `make token` agree on the development secret unless the user chose another.
    """
    env = dict(base)
    env.setdefault("MONGODB_DATABASE", MONGODB_DATABASE)
    env.setdefault("ENVIRONMENT", "development")
    env.update(endpoints.env())
    env.update(spec.env())
    env["PYTHONUNBUFFERED"] = "1"  # log lines reach .run/logs as they happen
    return env
