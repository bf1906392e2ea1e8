"""Child processes of the launcher: start a service, probe its /readyz, stop whole process groups.

Every child is started in a session of its own (so a Ctrl-C in the terminal reaches only the
launcher, which then stops the children in order) and is stopped through its process group, so
nothing a child started itself is left behind.
"""

from __future__ import annotations

import contextlib
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path

from devstack.config import ServiceSpec
from devstack.servers import ServerError, spawn, wait_until

logger = logging.getLogger(__name__)


def mark_log(log: Path, name: str) -> None:
    """Write a header line so each run can be found in a log that grows across runs."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"----- {name} started by devstack at {datetime.now().isoformat(timespec='seconds')}\n")


def tail(log: Path, lines: int = 15) -> str:
    """The last lines of a log, for error messages that would otherwise say only 'see the log'."""
    try:
        text = log.read_text(encoding="utf-8", errors="replace")
    except OSError:
        return ""
    return "\n".join(text.splitlines()[-lines:])


class ReadyProbe:
    """GET <url> succeeds with 200; remembers the last answer for the message on timeout."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.last = "no answer yet"

    def __call__(self) -> bool:
        try:
            with urllib.request.urlopen(self.url, timeout=5) as response:
                self.last = f"HTTP {response.status}"
                return bool(response.status == 200)
        except urllib.error.HTTPError as exc:
            self.last = f"HTTP {exc.code}: {exc.read(500).decode('utf-8', 'replace')}"
        except (OSError, ValueError) as exc:
            self.last = f"{type(exc).__name__}: {exc}"
        return False


@dataclass
class ServiceProcess:
    """One of our services running as `python -m <module>`."""

    spec: ServiceSpec
    proc: subprocess.Popen[bytes]
    log: Path

    @property
    def name(self) -> str:
        return self.spec.name

    def wait_ready(self, timeout: float) -> None:
        """Poll /readyz until it answers 200; raise ServerError if it dies or time runs out."""
        probe = ReadyProbe(f"{self.spec.url}/readyz")
        try:
            wait_until(probe, timeout, f"{self.name} ({probe.url})", self.proc, self.log)
        except ServerError as exc:
            raise ServerError(f"{exc}; last answer: {probe.last}\n{tail(self.log)}") from None


def start_service(spec: ServiceSpec, env: Mapping[str, str], log: Path) -> ServiceProcess:
    """Spawn the service with this environment, output appended to its log."""
    mark_log(log, spec.name)
    argv = [sys.executable, "-m", spec.module]
    return ServiceProcess(spec, spawn(spec.name, argv, log, dict(env)), log)


def signal_group(proc: subprocess.Popen[bytes], signum: int) -> None:
    """Signal the child's whole process group (its session leader is the child itself)."""
    if proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signum)


def stop_all(procs: Iterable[subprocess.Popen[bytes]], timeout: float) -> None:
    """SIGTERM every group at once, wait up to `timeout` in all, then SIGKILL what is left."""
    procs = list(procs)
    for proc in procs:
        signal_group(proc, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for proc in procs:
        try:
            proc.wait(max(0.0, deadline - time.monotonic()))
        except subprocess.TimeoutExpired:
            logger.warning("pid %s did not stop within %.0fs; killing it", proc.pid, timeout)
            signal_group(proc, signal.SIGKILL)
            proc.wait(5)


def kill_all(procs: Iterable[subprocess.Popen[bytes]]) -> None:
    """SIGKILL every group now (the second Ctrl-C)."""
    for proc in procs:
        signal_group(proc, signal.SIGKILL)


def child_pids(parent: int) -> list[int]:
    """Live direct children of `parent`, read from /proc (empty where there is no /proc)."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = (entry / "stat").read_text()
            # the command name in parentheses may hold spaces: the fields after it are fixed
            fields = stat[stat.rindex(")") + 2 :].split()
            if int(fields[1]) == parent and fields[0] != "Z":
                found.append(int(entry.name))
    return found


def stop_strays(known: set[int], timeout: float = 10) -> None:
    """Stop children we lost track of (a Ctrl-C landed between spawning one and recording it)."""
    strays = [pid for pid in child_pids(os.getpid()) if pid not in known]
    for pid in strays:
        logger.warning("stopping untracked child process %s", pid)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pid, signal.SIGTERM)
    deadline = time.monotonic() + timeout
    for pid in strays:
        while time.monotonic() < deadline and _reap(pid) is None:
            time.sleep(0.1)
        if _reap(pid) is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(pid, signal.SIGKILL)
            _reap(pid, block=True)


def _reap(pid: int, block: bool = False) -> int | None:
    """The child's exit status once it has ended (and reaped), else None."""
    try:
        done, status = os.waitpid(pid, 0 if block else os.WNOHANG)
    except ChildProcessError:
        return 0  # already reaped elsewhere
    return status if done else None
