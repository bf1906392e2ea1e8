"""The containers test mode's configuration, checked without a Docker engine: the mode switch,
the connection URLs, and the testcontainers objects (images, environment, ports, readiness) built
with testcontainers' Docker client replaced by a stand-in that never connects."""

from __future__ import annotations

import re

import pytest
from testcontainers.core import container as tc_container
from testcontainers.core.wait_strategies import HealthcheckWaitStrategy, LogMessageWaitStrategy

from techai_shared.settings import CommonSettings
from tests.support import containers as mode

pytestmark = pytest.mark.unit


class OfflineDockerClient:
    """testcontainers builds a Docker client in every container's constructor; this one is inert."""

    def __init__(self, **_: object) -> None:
        pass


@pytest.fixture
def offline(monkeypatch):
    monkeypatch.setattr(tc_container, "DockerClient", OfflineDockerClient)


@pytest.mark.parametrize(("value", "expected"), [(None, "local"), ("", "local"), ("local", "local"),
                                                 ("containers", "containers")])
def test_the_mode_defaults_to_the_local_servers(value, expected):
    environ = {} if value is None else {"TEST_INFRA": value}
    assert mode.infra_mode(environ) == expected


def test_an_unknown_mode_is_refused():
    with pytest.raises(ValueError, match="TEST_INFRA must be one of local, containers"):
        mode.infra_mode({"TEST_INFRA": "docker"})


def test_images_are_pinned_versions_of_the_servers_the_design_names():
    assert set(mode.IMAGES) == {"mysql", "kafka", "mongodb", "redis"}
    assert re.fullmatch(r"mysql:8\.4\.\d+", mode.IMAGES["mysql"])
    assert re.fullmatch(r"apache/kafka:3\.\d+\.\d+", mode.IMAGES["kafka"])
    assert re.fullmatch(r"mongodb/mongodb-atlas-local:8\.\d+\.\d+", mode.IMAGES["mongodb"])
    assert re.fullmatch(r"redis:7\.\d+\.\d+", mode.IMAGES["redis"])


def test_urls_are_what_the_settings_accept():
    settings = CommonSettings(
        mysql_url=mode.mysql_server_url("127.0.0.1", 32768, "pw") + "/techai_test_1",
        mongodb_uri=mode.mongodb_uri("127.0.0.1", 32769, "techai", "pw"),
        redis_url=mode.redis_url("127.0.0.1", 32770),
    )
    assert settings.mysql_url == "mysql+asyncmy://root:pw@127.0.0.1:32768/techai_test_1"
    assert not settings.is_sqlite
    assert settings.mongodb_uri == ("mongodb://techai:pw@127.0.0.1:32769/"
                                    "?directConnection=true&authSource=admin")
    assert settings.redis_url == "redis://127.0.0.1:32770/0"


def test_kafka_is_one_kraft_node_advertising_the_address_clients_use():
    env = mode.kafka_environment("docker.example", 41234)
    assert env["KAFKA_PROCESS_ROLES"] == "broker,controller"
    assert env["KAFKA_ADVERTISED_LISTENERS"] == "PLAINTEXT://docker.example:41234"
    assert env["KAFKA_CONTROLLER_QUORUM_VOTERS"] == "1@localhost:9093"
    assert "CONTROLLER:PLAINTEXT" in env["KAFKA_LISTENER_SECURITY_PROTOCOL_MAP"]
    assert env["KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"] == "1"  # one node: no replicas to wait for


def test_kafka_container_binds_the_advertised_port_and_waits_for_the_server(offline):
    kafka = mode.kafka_container("127.0.0.1", 41234)
    assert kafka.image.endswith(mode.IMAGES["kafka"])
    assert kafka.env == mode.kafka_environment("127.0.0.1", 41234)
    assert kafka.ports == {str(mode.KAFKA_PORT): 41234}
    assert isinstance(kafka._wait_strategy, LogMessageWaitStrategy)
    assert kafka._wait_strategy._message.search("[KafkaRaftServer nodeId=1] Kafka Server started")


def test_mysql_container_is_8_4_with_root_for_per_test_databases(offline):
    mysql = mode.mysql_container("pw")
    assert mysql.image.endswith(mode.IMAGES["mysql"])
    assert (mysql.username, mysql.root_password, mysql.port) == ("root", "pw", 3306)
    ready = re.compile(mysql.wait_strategy_check_string, re.DOTALL)  # mysqld starts twice on init
    assert ready.search("x: ready for connections\n...\ny: ready for connections\n")
    assert not ready.search("x: ready for connections\n")


def test_atlas_local_container_waits_for_its_own_healthcheck(offline, monkeypatch):
    waited: list[object] = []
    monkeypatch.setattr(HealthcheckWaitStrategy, "wait_until_ready",
                        lambda self, target: waited.append(target))
    mongo = mode.mongodb_container("pw")
    assert mongo.image.endswith(mode.IMAGES["mongodb"])
    assert (mongo.username, mongo.password, mongo.port) == ("techai", "pw", 27017)
    mongo._connect()  # what testcontainers runs after start: the image's HEALTHCHECK turning healthy
    assert waited == [mongo]


def test_redis_container_is_redis_7(offline):
    redis = mode.redis_container()
    assert redis.image.endswith(mode.IMAGES["redis"])
    assert redis.port == 6379


def test_no_engine_gives_a_reason_that_names_the_mode(monkeypatch):
    monkeypatch.setenv("DOCKER_HOST", "unix:///nonexistent/docker.sock")
    reason = mode.docker_unavailable_reason()
    assert reason is not None and reason.startswith("TEST_INFRA=containers needs a Docker engine")
