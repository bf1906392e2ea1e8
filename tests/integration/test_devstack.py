"""The `make run` launcher's building blocks: ports, pass-through of real stores, readiness, stopping.

The full `make run` with every service is driven by the end-to-end tier; these stay fast by starting
only what each behaviour needs.
"""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from devstack.config import Endpoints, ServiceSpec, StackLayout, StackSettings, service_env
from devstack.ports import busy_ports, port_in_use
from devstack.processes import alive, child_pids, start_service
from devstack.run import DevStack, LaunchError
from devstack.servers import Server, ServerError, free_port, wait_until

from tests.conftest import eventually, unique

pytestmark = pytest.mark.integration

_STORE_VARIABLES = ("MYSQL_URL", "KAFKA_BOOTSTRAP_SERVERS", "MONGODB_URI", "REDIS_URL")


@pytest.fixture
def listening() -> Iterator[int]:
    """A loopback port some other process is listening on."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen()
        yield sock.getsockname()[1]


@pytest.fixture
def clean_env(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in (*_STORE_VARIABLES, "MONGODB_DATABASE", "ENVIRONMENT", "JWT_SECRET"):
        monkeypatch.delenv(name, raising=False)


def _launcher_env(**overrides: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in {*_STORE_VARIABLES, "JWT_SECRET"}}
    env.update(
        DEVSTACK_KAFKA_PORT=str(free_port()), DEVSTACK_MONGODB_PORT=str(free_port()),
        DEVSTACK_REDIS_PORT=str(free_port()), CHATBOT_PORT=str(free_port()),
        COMMAND_PORT=str(free_port()), SYNC_PORT=str(free_port()),
        COMMAND_SCHEDULER_PORT=str(free_port()),
    )
    env.update(overrides)
    return env


def _launch(root: Path, env: dict[str, str], *args: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "devstack.run", "--root", str(root), *args], env=env, text=True,
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
    )


def _environ(pid: int) -> dict[str, str]:
    raw = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
    return dict(entry.decode().split("=", 1) for entry in raw if b"=" in entry)


def test_port_in_use_is_detected_and_a_port_wanted_twice_too(listening):
    assert port_in_use(listening)
    free = free_port()
    assert not port_in_use(free)
    assert busy_ports({"kafka": listening, "redis": free, "command-api": free}) == [
        ("kafka", listening), ("command-api", free)
    ]


def test_free_ports_lie_below_the_ephemeral_range_and_are_never_handed_out_twice():
    """A client connection's local end can take a port of the ephemeral range between free_port
    and the server's bind (a make-run test failed so): the ports chosen lie below it."""
    start = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    ports = [free_port() for _ in range(200)]
    assert len(set(ports)) == len(ports)
    assert all(1024 <= port < start for port in ports)
    for port in ports[:20]:
        assert not port_in_use(port)
        with socket.socket() as sock:
            sock.bind(("127.0.0.1", port))


def test_launcher_refuses_a_busy_port_before_starting_anything(tmp_path, listening):
    proc = _launch(tmp_path, _launcher_env(COMMAND_PORT=str(listening)))
    output, _ = proc.communicate(timeout=30)
    assert proc.returncode == 1
    assert f"{listening} (command-api; change it with COMMAND_PORT=...)" in output
    assert "earlier `make run` still running" in output
    assert not (tmp_path / ".run" / "data").exists()


def test_service_env_passes_the_stores_and_keeps_what_the_user_chose():
    endpoints = Endpoints("mysql+asyncmy://u@db/x", "k:9092", "mongodb://m", "redis://r/1")
    spec = ServiceSpec("command-api", "command_api", "COMMAND", "127.0.0.1", 9999)
    base = {"MONGODB_DATABASE": "mine", "MYSQL_URL": "stale", "PATH": "/bin"}
    env = service_env(base, endpoints, spec)
    assert env["MYSQL_URL"] == "mysql+asyncmy://u@db/x"
    assert (env["KAFKA_BOOTSTRAP_SERVERS"], env["MONGODB_URI"], env["REDIS_URL"]) == (
        "k:9092", "mongodb://m", "redis://r/1"
    )
    assert (env["COMMAND_HOST"], env["COMMAND_PORT"]) == ("127.0.0.1", "9999")
    assert env["MONGODB_DATABASE"] == "mine"
    assert env["ENVIRONMENT"] == "development"
    assert "JWT_SECRET" not in env  # the services and `make token` share the development default
    assert service_env({}, endpoints, spec)["MONGODB_DATABASE"] == "techai"


def test_only_the_stores_not_given_by_env_are_started(tmp_path, monkeypatch, clean_env):
    monkeypatch.setenv("MONGODB_URI", "mongodb://mongo.example:27017")
    monkeypatch.setenv("REDIS_URL", "redis://cache.example:6379/0")
    kafka_port = free_port()
    monkeypatch.setenv("DEVSTACK_KAFKA_PORT", str(kafka_port))
    stack = DevStack(StackSettings(), StackLayout(tmp_path), os.environ, only=["command-api"])
    try:
        endpoints = stack.start_servers()
        assert [server.name for server in stack.servers] == ["kafka"]
        assert endpoints == Endpoints(
            mysql_url=f"sqlite+aiosqlite:///{tmp_path / '.run' / 'data' / 'techai.db'}",
            kafka_bootstrap_servers=f"127.0.0.1:{kafka_port}",
            mongodb_uri="mongodb://mongo.example:27017",
            redis_url="redis://cache.example:6379/0",
        )
        assert (tmp_path / ".run" / "logs" / "tansu.log").exists()
    finally:
        stack.stop()
    assert all(server.proc.poll() is not None for server in stack.servers)
    assert not port_in_use(kafka_port)


def test_busy_port_raises_launch_error_naming_the_variable(tmp_path, monkeypatch, clean_env, listening):
    monkeypatch.setenv("DEVSTACK_REDIS_PORT", str(listening))
    stack = DevStack(StackSettings(), StackLayout(tmp_path), os.environ)
    with pytest.raises(LaunchError, match="DEVSTACK_REDIS_PORT"):
        stack.check_ports()


def test_service_that_exits_during_start_up_is_reported_with_its_log(tmp_path):
    spec = ServiceSpec("broken", "devstack.no_such_module", "BROKEN", "127.0.0.1", free_port())
    service = start_service(spec, dict(os.environ), tmp_path / "broken.log")
    with pytest.raises(ServerError, match="exited with 1") as error:
        service.wait_ready(timeout=30)
    assert "No module named devstack.no_such_module" in str(error.value)


async def test_launcher_passes_real_stores_through_and_stops_on_sigint(
    tmp_path, settings, kafka_server: Server, mongo_server: Server
):
    command_port = free_port()
    env = _launcher_env(
        MYSQL_URL=settings.mysql_url, KAFKA_BOOTSTRAP_SERVERS=kafka_server.url,
        MONGODB_URI=mongo_server.url, REDIS_URL=settings.redis_url, COMMAND_PORT=str(command_port),
        KAFKA_TOPIC_PREFIX=unique("t"), DEVSTACK_SERVICES="command-api",
    )
    launcher = _launch(tmp_path, env)
    try:
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{command_port}") as client:

            async def ready() -> bool:
                assert launcher.poll() is None, launcher.communicate()[0]
                try:
                    return (await client.get("/readyz")).status_code == 200
                except httpx.TransportError:
                    return False

            await eventually(ready, within=60, interval=0.2)
        children = child_pids(launcher.pid)
        assert len(children) == 1  # command-api only: no embedded server was started
        service_env = _environ(children[0])
        assert service_env["MYSQL_URL"] == settings.mysql_url
        assert service_env["KAFKA_BOOTSTRAP_SERVERS"] == kafka_server.url
        assert service_env["MONGODB_URI"] == mongo_server.url
        assert service_env["REDIS_URL"] == settings.redis_url
        assert service_env["MONGODB_DATABASE"] == "techai"
        assert service_env["ENVIRONMENT"] == "development"
        assert "JWT_SECRET" not in service_env

        launcher.send_signal(signal.SIGINT)
        output, _ = launcher.communicate(timeout=30)
        assert launcher.returncode == 0, output
        assert "stopped" in output
        assert not Path(f"/proc/{children[0]}").exists()
        assert (tmp_path / ".run" / "logs" / "command-api.log").exists()
    finally:
        if launcher.poll() is None:
            launcher.kill()
            launcher.wait(10)


_HOLDS_A_BROKER = """
import os, signal

def test_hold(kafka_server):
    with open(os.environ["HOLD_PID_FILE"], "w") as out:
        out.write(str(kafka_server.proc.pid))
    signal.pause()
"""


def test_servers_a_killed_test_session_started_do_not_outlive_it(tmp_path):
    # A pytest session with this suite's fixtures (tests/conftest.py) starts its Tansu, then is
    # killed as a CI timeout kills it: no teardown runs, yet the broker must go.
    (tmp_path / "test_hold.py").write_text(_HOLDS_A_BROKER)
    pid_file = tmp_path / "broker.pid"
    repo = Path(__file__).resolve().parents[2]
    session = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-p", "tests.conftest", "-p", "no:cacheprovider",
         "-c", str(repo / "pyproject.toml"), "--rootdir", str(tmp_path), "-q",
         str(tmp_path / "test_hold.py")],
        cwd=repo, env={**os.environ, "HOLD_PID_FILE": str(pid_file)}, stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_until(lambda: pid_file.exists() and pid_file.read_text() != "", 60,
                   "the inner session's broker", session)
        broker = int(pid_file.read_text())
        assert alive(broker)
        os.killpg(session.pid, signal.SIGKILL)
        session.wait(10)
        wait_until(lambda: not alive(broker), 10, "the broker to be gone")
    finally:
        if session.poll() is None:
            os.killpg(session.pid, signal.SIGKILL)
            session.wait(10)
