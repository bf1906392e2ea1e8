"""`make run`'s launcher (python -m devstack.run) started by a test on free ports in a folder of
its own, as a user would run it; a Ctrl-C (SIGINT), `make stop` or a kill -9 ends it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
from pathlib import Path

import httpx
from devstack.processes import PidRegistry
from devstack.servers import free_port, spawn, wait_until

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings

REPO = Path(__file__).resolve().parents[2]
STORE_VARIABLES = ("MYSQL_URL", "KAFKA_BOOTSTRAP_SERVERS", "MONGODB_URI", "REDIS_URL", "JWT_SECRET",
                   "OPENAI_API_KEY", "OPENAI_BASE_URL", "MONGODB_DATABASE", "ENVIRONMENT")


class Launcher:
    def __init__(self, root: Path) -> None:
        self.root = root
        self.ports = {name: free_port() for name in (
            "DEVSTACK_KAFKA_PORT", "DEVSTACK_MONGODB_PORT", "DEVSTACK_REDIS_PORT",
            "CHATBOT_PORT", "COMMAND_PORT", "SYNC_PORT", "COMMAND_SCHEDULER_PORT")}
        self.proc: subprocess.Popen[bytes] | None = None

    def url(self, var: str) -> str:
        return f"http://127.0.0.1:{self.ports[var]}"

    @property
    def pids(self) -> PidRegistry:
        return PidRegistry(self.root / ".run" / "pids")

    @property
    def sqlite_path(self) -> Path:
        return self.root / ".run" / "data" / "techai.db"

    @property
    def mongodb_uri(self) -> str:
        return f"mongodb://127.0.0.1:{self.ports['DEVSTACK_MONGODB_PORT']}"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if k not in STORE_VARIABLES}
        env.update({k: str(v) for k, v in self.ports.items()})
        return env

    def start(self, ready_within: float = 120) -> None:
        # spawn(): in a session of its own, and tied to the test session (tests/conftest.py)
        self.proc = spawn("launcher", [sys.executable, "-m", "devstack.run", "--root", str(self.root)],
                          self.root / "launcher.log", base_env=self.env())
        wait_until(self._ready, ready_within, "make run", self.proc, self.root / "launcher.log")

    def _ready(self) -> bool:
        for var in ("CHATBOT_PORT", "COMMAND_PORT", "SYNC_PORT", "COMMAND_SCHEDULER_PORT"):
            try:
                if httpx.get(self.url(var) + "/readyz", timeout=2).status_code != 200:
                    return False
            except httpx.HTTPError:
                return False
        return True

    def make_stop(self) -> subprocess.CompletedProcess[str]:
        """What `make stop` runs, for this launcher's --root."""
        return subprocess.run([sys.executable, "-m", "devstack.run", "--root", str(self.root), "--stop"],
                              env=self.env(), capture_output=True, text=True, timeout=120, check=False)

    def stop(self) -> int:
        assert self.proc is not None
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)  # what Ctrl-C sends
            try:
                self.proc.wait(60)
            except subprocess.TimeoutExpired:
                os.killpg(self.proc.pid, signal.SIGKILL)
                raise
        return self.proc.returncode


def headers(user: str, role: str = "USER") -> dict[str, str]:
    # make run uses the development secret: the same token `make token` prints.
    return {"Authorization": f"Bearer {mint_token(user, CommonSettings(), role=role)}"}
