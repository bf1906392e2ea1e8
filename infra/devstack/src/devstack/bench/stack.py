"""What the bench runs on: the embedded servers, its own MariaDB databases, and service processes."""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from dataclasses import dataclass, field
from pathlib import Path

import httpx
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

from devstack.servers import (
    Server,
    free_port,
    port_open,
    start_redis,
    start_secantus,
    start_tansu,
    wait_until,
)
from techai_shared.db.engine import make_engine
from techai_shared.db.migrate import upgrade_to_head
from techai_shared.settings import CommonSettings

MYSQL_SERVER_URL = os.environ.get("BENCH_MYSQL_URL", "mysql+asyncmy://root@127.0.0.1:3306")


def log(message: str) -> None:
    print(f"[bench {time.strftime('%H:%M:%S')}] {message}", flush=True)


def profile(pid: int, seconds: float, out: Path | None) -> subprocess.Popen[bytes] | None:
    """py-spy sampling `pid` for `seconds` into `out` (folded stacks), when profiling was asked for."""
    if out is None:
        return None
    spy = Path(sys.executable).parent / "py-spy"
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out.with_suffix(".log"), "wb") as errors:  # py-spy's own messages
        return subprocess.Popen([str(spy), "record", "-p", str(pid), "-d", str(int(seconds)), "-r",
                                 "200", "--format", "raw", "--nonblocking", "-o", str(out)],
                                stdout=errors, stderr=subprocess.STDOUT)


def memory_mb(pid: int) -> dict[str, float]:
    """Resident set size now (VmRSS) and its peak so far (VmHWM), in MiB, from /proc: of `pid` and
    its descendants together (a service running several worker processes)."""
    values: dict[str, float] = {"VmRSS": 0.0, "VmHWM": 0.0}
    for member in process_tree(pid):
        try:
            for line in Path(f"/proc/{member}/status").read_text().splitlines():
                key, _, rest = line.partition(":")
                if key in values:
                    values[key] += int(rest.split()[0]) / 1024
        except OSError:
            continue
    return {"rss_mb": round(values["VmRSS"], 1), "peak_rss_mb": round(values["VmHWM"], 1)}


def process_tree(pid: int) -> list[int]:
    """`pid` and its descendants (uvicorn's worker processes), from /proc."""
    found, queue = [], [pid]
    while queue:
        current = queue.pop()
        found.append(current)
        try:
            for task in Path(f"/proc/{current}/task").iterdir():
                queue += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            continue
    return found


def cpu_seconds(pid: int, descendants: bool = False) -> float:
    """User plus system CPU time `pid` (and its descendants, uvicorn's workers) has used so far, from
    /proc (0.0 once gone)."""
    total = 0
    for member in process_tree(pid) if descendants else [pid]:
        try:
            fields = Path(f"/proc/{member}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def pids_named(*names: str) -> list[int]:
    """Processes whose command name is one of `names` (the MariaDB server, which the bench does not
    start)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if (entry / "comm").read_text().strip() in names:
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


class CpuMeter:
    """CPU seconds each named process used between start() and stop(); those named in `trees` with
    their worker processes (not the bench's own process: everything it started descends from it)."""

    def __init__(self, pids: dict[str, int], trees: frozenset[str] = frozenset()) -> None:
        self.pids = pids
        self.trees = trees
        self._start: dict[str, float] = {}

    def _now(self) -> dict[str, float]:
        return {name: cpu_seconds(pid, name in self.trees) for name, pid in self.pids.items()}

    def start(self) -> None:
        self._start = self._now()

    def stop(self) -> dict[str, float]:
        return {name: round(seconds - self._start[name], 2) for name, seconds in self._now().items()}


@dataclass
class Process:
    name: str
    proc: subprocess.Popen[bytes]
    port: int
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.terminate()
            try:
                self.proc.wait(15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait(5)


@dataclass
class BenchStack:
    workdir: Path
    tag: str = field(default_factory=lambda: uuid.uuid4().hex[:8])
    servers: list[Server] = field(default_factory=list)
    processes: list[Process] = field(default_factory=list)
    databases: list[str] = field(default_factory=list)
    kafka: Server | None = None
    mongo: Server | None = None
    redis: Server | None = None

    def start_servers(self) -> None:
        logs = self.workdir / "logs"
        self.kafka = start_tansu(free_port(), logs / "tansu.log")
        self.mongo = start_secantus(free_port(), self.workdir / "secantus", logs / "secantus.log")
        self.redis = start_redis(free_port(), self.workdir / "redis", logs / "redis.log")
        self.servers += [self.kafka, self.mongo, self.redis]

    def fresh_mongo(self, name: str) -> None:
        """Replace SecantusDB with a new one on an empty data directory. SecantusDB slows down as it
        accumulates data, dropped databases included (from ~200 to ~55 events/s over the sync
        part), so each part of the bench that writes MongoDB starts on a fresh one."""
        assert self.mongo is not None
        self.mongo.stop()
        self.servers.remove(self.mongo)
        self.mongo = start_secantus(free_port(), self.workdir / f"secantus-{name}",
                                    self.workdir / "logs" / f"secantus-{name}.log")
        self.servers.append(self.mongo)

    async def new_database(self, suffix: str) -> str:
        """A MariaDB database of the bench's own, migrated to head; dropped by close()."""
        name = f"techai_bench_{self.tag}_{suffix}"
        admin = create_async_engine(MYSQL_SERVER_URL + "/", isolation_level="AUTOCOMMIT")
        async with admin.connect() as conn:
            await conn.execute(text(f"CREATE DATABASE {name} CHARACTER SET utf8mb4"))
        await admin.dispose()
        self.databases.append(name)
        url = f"{MYSQL_SERVER_URL}/{name}"
        engine = make_engine(CommonSettings(mysql_url=url))
        await upgrade_to_head(engine)
        await engine.dispose()
        return url

    async def drop_databases(self) -> None:
        admin = create_async_engine(MYSQL_SERVER_URL + "/", isolation_level="AUTOCOMMIT")
        async with admin.connect() as conn:
            for name in self.databases:
                await conn.execute(text(f"DROP DATABASE IF EXISTS {name}"))
        await admin.dispose()

    def env(self, mysql_url: str, mongo_db: str, group: str = "query-sync-bench", topics: str = ""
            ) -> dict[str, str]:
        assert self.kafka and self.mongo and self.redis
        return {
            "ENVIRONMENT": "test",
            "MYSQL_URL": mysql_url,
            "KAFKA_BOOTSTRAP_SERVERS": self.kafka.url,
            "KAFKA_TOPIC_PREFIX": f"bench{self.tag}{topics}",
            "MONGODB_URI": self.mongo.url,
            "MONGODB_DATABASE": mongo_db,
            "REDIS_URL": self.redis.url,
            "SYNC_CONSUMER_GROUP": group,
            "LOG_LEVEL": "WARNING",
        }

    def spawn(self, name: str, argv: list[str], env: dict[str, str], port_env: str | None = None,
              ready_path: str | None = "/readyz", timeout: float = 90) -> Process:
        port = free_port()
        path = self.workdir / "logs" / f"{name}.log"
        path.parent.mkdir(parents=True, exist_ok=True)
        full_env = {**os.environ, **env}
        if port_env:
            full_env[port_env] = str(port)
        with open(path, "ab") as handle:
            proc = subprocess.Popen([sys.executable, *argv, *([] if port_env else ["--port", str(port)])],
                                    env=full_env, stdout=handle, stderr=subprocess.STDOUT,
                                    stdin=subprocess.DEVNULL)
        process = Process(name, proc, port, path)
        self.processes.append(process)
        if ready_path is None:
            wait_until(lambda: port_open(port), timeout, name, proc, path)
        else:
            wait_until(lambda: _ready(process.url + ready_path), timeout, name, proc, path)
        return process

    def spawn_worker(self, name: str, argv: list[str], env: dict[str, str] | None = None) -> Process:
        """A process without a port of its own (the bare sync loop)."""
        path = self.workdir / "logs" / f"{name}.log"
        with open(path, "ab") as handle:
            proc = subprocess.Popen([sys.executable, *argv], env={**os.environ, **(env or {})},
                                    stdout=handle, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
        process = Process(name, proc, 0, path)
        self.processes.append(process)
        return process

    def stop_process(self, process: Process) -> None:
        process.stop()
        if process in self.processes:
            self.processes.remove(process)

    def close(self) -> None:
        for process in reversed(self.processes):
            process.stop()
        for server in reversed(self.servers):
            server.stop()


def _ready(url: str) -> bool:
    try:
        return httpx.get(url, timeout=2).status_code == 200
    except httpx.HTTPError:
        return False
