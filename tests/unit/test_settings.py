"""Settings read from the environment: names, defaults, empty values, secrets outside development."""

from __future__ import annotations

import pytest
from devstack.config import StackSettings, embedded_ports, external_stores
from pydantic import ValidationError

from command_api.settings import CommandSettings
from techai_shared.settings import DEV_JWT_SECRET, CommonSettings

pytestmark = pytest.mark.unit

_STORE_VARIABLES = ("MYSQL_URL", "KAFKA_BOOTSTRAP_SERVERS", "MONGODB_URI", "REDIS_URL")


@pytest.fixture(autouse=True)
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each test states the variables it depends on; none leak in from the shell running pytest."""
    for name in (*_STORE_VARIABLES, "ENVIRONMENT", "JWT_SECRET", "JWT_ALGORITHMS", "COMMAND_HOST",
                 "COMMAND_PORT", "CHATBOT_PORT", "SYNC_PORT", "DEVSTACK_KAFKA_PORT",
                 "DEVSTACK_MONGODB_PORT", "DEVSTACK_REDIS_PORT"):
        monkeypatch.delenv(name, raising=False)


def test_command_settings_default_to_the_embedded_stack_and_port_8085():
    settings = CommandSettings()
    assert (settings.command_host, settings.command_port) == ("127.0.0.1", 8085)
    assert settings.kafka_bootstrap_servers == "127.0.0.1:19092"
    assert settings.mongodb_uri == "mongodb://127.0.0.1:27117"
    assert settings.redis_url == "redis://127.0.0.1:16379/0"
    assert settings.jwt_secret == DEV_JWT_SECRET


def test_command_settings_read_prefixed_and_store_variables(monkeypatch):
    monkeypatch.setenv("COMMAND_HOST", "0.0.0.0")
    monkeypatch.setenv("COMMAND_PORT", "9085")
    monkeypatch.setenv("MYSQL_URL", "mysql+asyncmy://app@db:3306/techai")
    monkeypatch.setenv("KAFKA_BOOTSTRAP_SERVERS", "kafka:9092")
    settings = CommandSettings()
    assert (settings.command_host, settings.command_port) == ("0.0.0.0", 9085)
    assert settings.mysql_url == "mysql+asyncmy://app@db:3306/techai"
    assert settings.kafka_bootstrap_servers == "kafka:9092"


def test_empty_variable_counts_as_unset(monkeypatch):
    monkeypatch.setenv("COMMAND_PORT", "")
    monkeypatch.setenv("REDIS_URL", "")
    settings = CommandSettings()
    assert settings.command_port == 8085
    assert settings.redis_url == "redis://127.0.0.1:16379/0"


def test_command_port_out_of_range_is_rejected(monkeypatch):
    monkeypatch.setenv("COMMAND_PORT", "70000")
    with pytest.raises(ValidationError):
        CommandSettings()


def test_placeholder_jwt_secret_is_rejected_in_production(monkeypatch):
    monkeypatch.setenv("ENVIRONMENT", "production")
    with pytest.raises(ValidationError, match="JWT_SECRET"):
        CommandSettings()
    monkeypatch.setenv("JWT_SECRET", "a-real-secret-from-the-vault-0123456789")
    assert CommandSettings().environment == "production"


def test_jwt_algorithms_are_a_comma_list_and_never_none(monkeypatch):
    monkeypatch.setenv("JWT_ALGORITHMS", "HS256, HS512")
    assert CommonSettings().jwt_algorithms == ["HS256", "HS512"]
    monkeypatch.setenv("JWT_ALGORITHMS", "HS256,none")
    with pytest.raises(ValidationError):
        CommonSettings()


def test_stack_defaults_use_ports_of_their_own_not_the_usual_ones():
    settings = StackSettings()
    assert embedded_ports(settings) == {"kafka": 19092, "mongodb": 27117, "redis": 16379}
    assert (settings.chatbot_port, settings.command_port, settings.sync_port) == (8084, 8085, 8086)
    assert external_stores(settings) == {}


def test_stack_ports_are_configurable(monkeypatch):
    monkeypatch.setenv("DEVSTACK_KAFKA_PORT", "29092")
    monkeypatch.setenv("SYNC_PORT", "9086")
    settings = StackSettings()
    assert embedded_ports(settings)["kafka"] == 29092
    assert settings.sync_port == 9086


def test_store_given_by_environment_is_not_embedded(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://cache.internal:6379/2")
    monkeypatch.setenv("MONGODB_URI", "")  # empty: still embedded
    settings = StackSettings()
    assert external_stores(settings) == {"redis": "redis://cache.internal:6379/2"}
    assert set(embedded_ports(settings)) == {"kafka", "mongodb"}
