"""The containers test mode: `TEST_INFRA=containers make test`.

The integration and end-to-end tiers then run on MySQL 8.4, Apache Kafka (KRaft, one node),
MongoDB Atlas Local (real `$vectorSearch` and search indexes) and Redis 7 started with
testcontainers, instead of this machine's MariaDB and Redis and the embedded Tansu and SecantusDB.
The images are the ones docker-compose.yml runs (a unit test holds them equal). Readiness:
MySQL's "ready for connections" twice (after its init restart), Kafka's "Kafka Server started",
Atlas Local's own Docker healthcheck (mongod, mongot and the init scripts ready), Redis PING.

Without a reachable Docker engine the mode cannot start anything: the integration and e2e tests
are skipped with the reason, the unit tests still run. Tests that stop and restart a broker or a
store on purpose (Kafka outage, consumer restarts) keep their own Tansu/SecantusDB in both modes.
"""

from __future__ import annotations

import contextlib
import os
import secrets
from dataclasses import dataclass, field
from typing import Any

MODE_VARIABLE = "TEST_INFRA"
MODES = ("local", "containers")

IMAGES = {
    "mysql": "mysql:8.4.5",
    "kafka": "apache/kafka:3.9.1",
    "mongodb": "mongodb/mongodb-atlas-local:8.0.13",
    "redis": "redis:7.4.2",
}

KAFKA_PORT = 9092
KAFKA_READY = r"Kafka Server started"
MONGODB_USER = "techai"
START_TIMEOUT_SECONDS = 180


def infra_mode(environ: dict[str, str] | None = None) -> str:
    """`local` (the default) or `containers`; anything else is a mistake worth stopping for."""
    value = (environ if environ is not None else os.environ).get(MODE_VARIABLE, "").strip() or "local"
    if value not in MODES:
        raise ValueError(f"{MODE_VARIABLE} must be one of {', '.join(MODES)}, not {value!r}")
    return value


def docker_unavailable_reason() -> str | None:
    """None when a Docker engine answers a ping; otherwise why the containers mode cannot run."""
    try:
        import docker

        client = docker.from_env(timeout=5)
        try:
            client.ping()
        finally:
            client.close()
    except Exception as exc:
        return (f"{MODE_VARIABLE}=containers needs a Docker engine and none is reachable "
                f"({type(exc).__name__}: {exc})")
    return None


def mysql_server_url(host: str, port: int, root_password: str) -> str:
    """The server URL without a database: each test creates its own (tests.conftest)."""
    return f"mysql+asyncmy://root:{root_password}@{host}:{port}"


def mongodb_uri(host: str, port: int, user: str, password: str) -> str:
    """Atlas Local is a one-member replica set that names itself by its container hostname:
    directConnection=true makes the driver talk to the mapped port instead of that name."""
    return f"mongodb://{user}:{password}@{host}:{port}/?directConnection=true&authSource=admin"


def redis_url(host: str, port: int) -> str:
    return f"redis://{host}:{port}/0"


def kafka_environment(advertised_host: str, advertised_port: int) -> dict[str, str]:
    """A single KRaft node (broker and controller) that clients reach at the advertised address.

    The apache/kafka image sends the metadata of the advertised listener to clients, so it must be
    the address the tests connect to: the host port is chosen before start and bound 1:1.
    """
    return {
        "KAFKA_NODE_ID": "1",
        "KAFKA_PROCESS_ROLES": "broker,controller",
        "KAFKA_LISTENERS": f"PLAINTEXT://:{KAFKA_PORT},CONTROLLER://:9093",
        "KAFKA_ADVERTISED_LISTENERS": f"PLAINTEXT://{advertised_host}:{advertised_port}",
        "KAFKA_LISTENER_SECURITY_PROTOCOL_MAP": "PLAINTEXT:PLAINTEXT,CONTROLLER:PLAINTEXT",
        "KAFKA_CONTROLLER_LISTENER_NAMES": "CONTROLLER",
        "KAFKA_CONTROLLER_QUORUM_VOTERS": "1@localhost:9093",
        "KAFKA_INTER_BROKER_LISTENER_NAME": "PLAINTEXT",
        "KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR": "1",
        "KAFKA_TRANSACTION_STATE_LOG_REPLICATION_FACTOR": "1",
        "KAFKA_TRANSACTION_STATE_LOG_MIN_ISR": "1",
        "KAFKA_GROUP_INITIAL_REBALANCE_DELAY_MS": "0",
        "KAFKA_NUM_PARTITIONS": "3",
    }


def mysql_container(root_password: str) -> Any:
    from testcontainers.community.mysql import MySqlContainer

    # testcontainers waits for "ready for connections" twice: the entrypoint restarts mysqld once.
    return MySqlContainer(IMAGES["mysql"], username="root", password=root_password,
                          root_password=root_password, dbname="techai")


def kafka_container(advertised_host: str, host_port: int) -> Any:
    from testcontainers.core.container import DockerContainer
    from testcontainers.core.wait_strategies import LogMessageWaitStrategy

    return (DockerContainer(IMAGES["kafka"])
            .with_envs(**kafka_environment(advertised_host, host_port))
            .with_bind_ports(KAFKA_PORT, host_port)
            .waiting_for(LogMessageWaitStrategy(KAFKA_READY).with_startup_timeout(START_TIMEOUT_SECONDS)))


def mongodb_container(password: str) -> Any:
    from testcontainers.community.mongodb import MongoDBAtlasLocalContainer

    # Readiness is the image's own HEALTHCHECK (HealthcheckWaitStrategy in testcontainers).
    return MongoDBAtlasLocalContainer(IMAGES["mongodb"], username=MONGODB_USER, password=password)


def redis_container() -> Any:
    from testcontainers.community.redis import RedisContainer

    return RedisContainer(IMAGES["redis"])  # ready when it answers PING


@dataclass
class Endpoint:
    """What tests use of a session server: its URL (the same shape as devstack's Server)."""

    name: str
    url: str

    def stop(self) -> None:
        """The container stack stops everything at the end of the session."""


@dataclass
class ContainerStack:
    """The four containers of the mode, started together and stopped in reverse order."""

    mysql_url: str = ""
    kafka: Endpoint | None = None
    mongodb: Endpoint | None = None
    redis_url: str = ""
    _started: list[Any] = field(default_factory=list)

    def start(self) -> ContainerStack:
        from devstack.servers import free_port
        from testcontainers.core.docker_client import DockerClient

        password = secrets.token_urlsafe(16)
        try:
            mysql = self._start(mysql_container(password))
            self.mysql_url = mysql_server_url(mysql.get_container_host_ip(),
                                              int(mysql.get_exposed_port(3306)), password)
            redis = self._start(redis_container())
            self.redis_url = redis_url(redis.get_container_host_ip(), int(redis.get_exposed_port(6379)))
            mongo = self._start(mongodb_container(password))
            self.mongodb = Endpoint("mongodb", mongodb_uri(
                mongo.get_container_host_ip(), int(mongo.get_exposed_port(27017)), MONGODB_USER, password))
            host, host_port = DockerClient().host(), free_port()
            self._start(kafka_container(host, host_port))
            self.kafka = Endpoint("kafka", f"{host}:{host_port}")
        except BaseException:
            self.stop()
            raise
        return self

    def _start(self, container: Any) -> Any:
        container.start()
        self._started.append(container)
        return container

    def stop(self) -> None:
        while self._started:
            container = self._started.pop()
            # the Ryuk reaper removes whatever is left when the session ends
            with contextlib.suppress(Exception):
                container.stop()
