"""Child processes of the launcher: start a service, probe its /readyz, stop whole process groups,
and tie every child's lifetime to the launcher's.

Every child is started in a session of its own (so a Ctrl-C in the terminal reaches only the
launcher, which then stops the children in order) and is stopped through its process group, so
nothing a child started itself is left behind.

A launcher that dies without stopping them (SIGKILL, the OOM killer) takes them along two ways,
because each alone has a gap: the kernel's parent-death signal (SIGKILL) reaches each direct child
but not what that child started, and a guard process reading a pipe from the launcher sees it close
when the launcher dies however it dies, then kills each child's whole process group (grandchildren
included), but the guard itself could be killed. Each live process is recorded in .run/pids/ so that
`make stop` (`stop_recorded`) can find a stack whose terminal is gone.

`python -m devstack.processes --guard FD LOG` is the guard's entry point; only Guard.start runs it.
"""

from __future__ import annotations

import contextlib
import ctypes
import json
import logging
import os
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Callable, Iterable, Mapping
from dataclasses import asdict, dataclass
from datetime import datetime
from pathlib import Path
from typing import TYPE_CHECKING

from devstack.servers import ServerError, spawn, wait_until

if TYPE_CHECKING:  # not at run time: the guard imports this module and should start in milliseconds
    from devstack.config import ServiceSpec

logger = logging.getLogger(__name__)


def mark_log(log: Path, name: str) -> None:
    """Write a header line so each run can be found in a log that grows across runs."""
    log.parent.mkdir(parents=True, exist_ok=True)
    with open(log, "a", encoding="utf-8") as handle:
        handle.write(f"----- {name} started by devstack at {datetime.now().isoformat(timespec='seconds')}\n")


def rotate_logs(log_dir: Path, keep: int) -> list[Path]:
    """Move each <name>.log of the previous run to <name>.log.1 (.1 to .2, and so on, the oldest
    beyond `keep` generations dropped), so a new run starts new logs and the evidence of the last
    one stays; the logs moved."""
    moved = []
    for log in sorted(log_dir.glob("*.log")):
        for generation in range(keep, 0, -1):
            older = log.with_name(f"{log.name}.{generation}")
            if generation == keep:
                older.unlink(missing_ok=True)
                continue
            if older.exists():
                older.rename(log.with_name(f"{log.name}.{generation + 1}"))
        if keep > 0:
            log.rename(log.with_name(f"{log.name}.1"))
            moved.append(log)
    return moved


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


def start_service(spec: ServiceSpec, env: Mapping[str, str], log: Path,
                  lifeline: Lifeline | None = None) -> ServiceProcess:
    """Spawn the service with this environment, output appended to its log."""
    mark_log(log, spec.name)
    argv = [sys.executable, "-m", spec.module]
    return ServiceProcess(spec, spawn(spec.name, argv, log, dict(env), tether=lifeline), log)


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


# ---------------------------------------------------------------------------------------------
# What /proc says about a process

_BOOT_ID = Path("/proc/sys/kernel/random/boot_id")


@dataclass(frozen=True)
class ProcStat:
    """The fields of /proc/<pid>/stat we use."""

    state: str
    ppid: int
    pgrp: int
    start_ticks: int  # clock ticks after boot: with the pid, names one process for the whole boot


def proc_stat(pid: int) -> ProcStat | None:
    """The process's stat, or None if there is no such process (or no /proc)."""
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    # the command name in parentheses may hold spaces: the fields after it are fixed
    fields = stat[stat.rindex(")") + 2 :].split()
    return ProcStat(fields[0], int(fields[1]), int(fields[2]), int(fields[19]))


def _exe(pid: int) -> str | None:
    try:
        target = os.readlink(f"/proc/{pid}/exe")
    except OSError:
        return None
    # a binary replaced on disk (a reinstall) while it runs still is the same process
    return target.removesuffix(" (deleted)")


def _cmdline(pid: int) -> list[str]:
    with contextlib.suppress(OSError):
        return Path(f"/proc/{pid}/cmdline").read_bytes().decode(errors="replace").split("\0")[:-1]
    return []


def _boot_id() -> str:
    with contextlib.suppress(OSError):
        return _BOOT_ID.read_text().strip()
    return ""


def alive(pid: int) -> bool:
    """The process exists and is not a zombie (a zombie holds no port and runs no code)."""
    stat = proc_stat(pid)
    return stat is not None and stat.state not in ("Z", "X")


def group_members(pgid: int) -> list[int]:
    """Live processes in process group `pgid`."""
    found = []
    for entry in Path("/proc").glob("[0-9]*"):
        with contextlib.suppress(OSError, ValueError, IndexError):
            stat = proc_stat(int(entry.name))
            if stat is not None and stat.pgrp == pgid and stat.state not in ("Z", "X"):
                found.append(int(entry.name))
    return found


# ---------------------------------------------------------------------------------------------
# The parent-death signal

_PR_SET_PDEATHSIG = 1
_prctl: Callable[..., int] | None = None
if sys.platform == "linux":
    # resolved here, in the parent: the child between fork and exec should only make the call
    with contextlib.suppress(OSError, AttributeError):
        _libc = ctypes.CDLL(None, use_errno=True)
        _prctl = _libc.prctl
        _prctl.argtypes = [ctypes.c_int, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong, ctypes.c_ulong]
        _prctl.restype = ctypes.c_int


def die_with_parent(parent: int, signum: int = signal.SIGKILL) -> None:
    """In a forked child before exec: have the kernel send `signum` when `parent` ends.

    The setting survives exec but not fork, so it reaches this child only, not what it starts.
    SIGKILL rather than SIGTERM: a launcher that died has crashed, and a graceful stop has no bound
    (uvicorn waits for open streams) while the ports must come free at once. It is what the second
    Ctrl-C (kill_all) does already.
    """
    if _prctl is not None:
        _prctl(_PR_SET_PDEATHSIG, signum, 0, 0, 0)
    if os.getppid() != parent:  # the parent died before prctl: nobody will send the signal now
        os.kill(os.getpid(), signum)


# ---------------------------------------------------------------------------------------------
# Pid files: .run/pids/<name>.json


@dataclass(frozen=True)
class ProcessRecord:
    """One process of a `make run`, as its pid file describes it."""

    name: str
    pid: int
    start_ticks: int
    boot_id: str
    exe: str
    argv: list[str]
    group: bool  # the pid leads a process group of its own (signal the group, not just the pid)

    @classmethod
    def describe(cls, name: str, pid: int, group: bool) -> ProcessRecord | None:
        stat, exe = proc_stat(pid), _exe(pid)
        if stat is None or exe is None:
            return None
        return cls(name, pid, stat.start_ticks, _boot_id(), exe, _cmdline(pid), group)

    def running(self) -> bool:
        """Is this pid still the process recorded, not a later one that got the same number?"""
        stat = proc_stat(self.pid)
        return (stat is not None and stat.state not in ("Z", "X") and stat.start_ticks == self.start_ticks
                and self.boot_id == _boot_id() and _exe(self.pid) == self.exe)

    def leftovers(self) -> list[int]:
        """Members of the recorded process group alive although its leader is gone.

        While any member lives the kernel keeps the group's number from being given to a new process,
        so with the leader's pid unused they can only be what the leader started.
        """
        if not self.group or self.boot_id != _boot_id() or proc_stat(self.pid) is not None:
            return []
        return group_members(self.pid)

    def signal(self, signum: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            if self.group:
                os.killpg(self.pid, signum)
            else:
                os.kill(self.pid, signum)

    def label(self) -> str:
        return f"{self.name} (pid {self.pid})"


class PidRegistry:
    """The pid files of one checkout's `make run`, one JSON file per process."""

    def __init__(self, directory: Path) -> None:
        self.directory = directory

    def record(self, name: str, pid: int, group: bool = False) -> None:
        record = ProcessRecord.describe(name, pid, group)
        if record is None:
            return  # it died already: nothing to stop later
        self.directory.mkdir(parents=True, exist_ok=True)
        path = self._path(name)
        partial = path.with_suffix(".tmp")
        partial.write_text(json.dumps(asdict(record)) + "\n", encoding="utf-8")
        partial.replace(path)  # `make stop` never reads half a file

    def forget(self, name: str) -> None:
        self._path(name).unlink(missing_ok=True)

    def load(self) -> list[ProcessRecord]:
        """The records in the order their processes started; unreadable files are removed."""
        records = []
        for path in sorted(self.directory.glob("*.json")):
            try:
                records.append(ProcessRecord(**json.loads(path.read_text(encoding="utf-8"))))
            except (OSError, ValueError, TypeError):
                logger.warning("removing unreadable pid file %s", path)
                path.unlink(missing_ok=True)
        return sorted(records, key=lambda record: record.start_ticks)

    def clear(self, records: Iterable[ProcessRecord] | None = None) -> None:
        """Remove these pid files (default: all)."""
        names = [r.name for r in records] if records is not None else [
            path.stem for path in self.directory.glob("*.json")]
        for name in names:
            self.forget(name)

    def _path(self, name: str) -> Path:
        return self.directory / f"{name}.json"


# ---------------------------------------------------------------------------------------------
# The guard

_GUARD_START_TIMEOUT = 30.0


class Guard:
    """The launcher's end of a pipe whose other end a guard process reads (see the module docstring).

    The guard is not a child of the launcher (it forks once more and its starter exits), so that
    it outlives the launcher and the launcher's children are only its servers and services.
    """

    def __init__(self, pid: int, fd: int) -> None:
        self.pid = pid
        self._fd: int | None = fd

    @classmethod
    def start(cls, log: Path) -> Guard:
        read_fd, write_fd = os.pipe()  # not inherited by anything else the launcher starts
        try:
            mark_log(log, "guard")
            starter = subprocess.run(
                [sys.executable, "-m", "devstack.processes", "--guard", str(read_fd), str(log)],
                pass_fds=(read_fd,), stdin=subprocess.DEVNULL, capture_output=True,
                start_new_session=True, timeout=_GUARD_START_TIMEOUT, check=False,
            )
        except BaseException:
            os.close(write_fd)
            raise
        finally:
            os.close(read_fd)
        try:
            pid = int(starter.stdout)
        except ValueError:
            os.close(write_fd)
            raise ServerError(f"the guard did not start (exit {starter.returncode}): "
                              f"{starter.stderr.decode(errors='replace')[-500:]}") from None
        return cls(pid, write_fd)

    def watch(self, pgid: int, start_ticks: int) -> None:
        """Kill this process group (led by a child started at `start_ticks`) if the launcher dies."""
        self._send(f"+{pgid} {start_ticks}\n")

    def release(self) -> None:
        """Everything is stopped: the guard exits without killing anything."""
        self._send("done\n")
        self.close()

    def close(self) -> None:
        """Let go of the pipe as a dying launcher would: the guard kills what it still watches."""
        if self._fd is not None:
            os.close(self._fd)
            self._fd = None

    def _send(self, line: str) -> None:
        if self._fd is None:
            return
        try:
            os.write(self._fd, line.encode())  # one short write: atomic on a pipe
        except OSError as exc:  # the guard was killed; the parent-death signal still holds
            logger.warning("the guard process %s is gone (%s)", self.pid, exc)
            os.close(self._fd)
            self._fd = None


def _guard_main(fd: int, log: str) -> int:
    """The guard: record process groups from the pipe; at EOF without "done", kill them all."""
    pid = os.fork()
    if pid:
        print(pid, flush=True)  # the starter: tell the launcher the guard's pid, then exit
        return 0
    out = os.open(log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    os.dup2(out, 1)  # also lets go of the starter's stdout pipe, which the launcher reads to EOF
    os.dup2(out, 2)
    os.close(out)
    for signum in (signal.SIGINT, signal.SIGHUP):
        signal.signal(signum, signal.SIG_IGN)
    groups: dict[int, int] = {}
    released = False
    with os.fdopen(fd, "rb") as lifeline:
        for raw in lifeline:
            line = raw.decode().strip()
            if line == "done":
                released = True
            elif line.startswith("+"):
                group, start = line[1:].split()
                groups[int(group)] = int(start)
    if released:
        return 0
    for pgid, ticks in groups.items():
        leader = proc_stat(pgid)
        if leader is not None and leader.start_ticks != ticks:
            continue  # that number belongs to another process now
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(pgid, signal.SIGKILL)
            print(f"{datetime.now().isoformat(timespec='seconds')} launcher gone: "
                  f"killed process group {pgid}", flush=True)
    return 0


# ---------------------------------------------------------------------------------------------
# The launcher's side: everything together


class Lifeline:
    """What ties `make run`'s children to the launcher: parent-death signal, guard and pid files.

    Create it in the launcher's main thread and spawn from there only: the parent-death signal
    fires when the forking *thread* ends, not the process.
    """

    def __init__(self, registry: PidRegistry, guard: Guard | None) -> None:
        self.registry = registry
        self.guard = guard
        self.parent = os.getpid()

    @classmethod
    def start(cls, registry: PidRegistry, guard_log: Path) -> Lifeline:
        registry.record("launcher", os.getpid())
        guard = None
        try:
            guard = Guard.start(guard_log)
        except (OSError, ServerError, subprocess.SubprocessError) as exc:
            logger.warning("no guard process (%s): grandchildren may outlive a killed launcher", exc)
        if guard is not None:
            registry.record("guard", guard.pid)
        return cls(registry, guard)

    def preexec(self) -> None:
        die_with_parent(self.parent)

    def adopt(self, name: str, proc: subprocess.Popen[bytes]) -> None:
        """A child spawned in a session of its own: record it and have the guard watch its group."""
        self.registry.record(name, proc.pid, group=True)
        stat = proc_stat(proc.pid)
        if self.guard is not None and stat is not None:
            self.guard.watch(proc.pid, stat.start_ticks)

    def release(self) -> None:
        """Everything stopped normally: remove the pid files and let the guard go."""
        self.registry.clear()
        if self.guard is not None:
            self.guard.release()


class GuardTether:
    """Ties children to this process through a guard alone: for a process that spawns from any
    thread (the test session), where the parent-death signal, which fires when the forking *thread*
    ends, would kill a server started from a thread that has finished."""

    def __init__(self, guard: Guard) -> None:
        self.guard = guard

    @classmethod
    def start(cls, guard_log: Path) -> GuardTether:
        return cls(Guard.start(guard_log))

    def preexec(self) -> None:
        """Nothing to do in the child (see the class docstring)."""

    def adopt(self, name: str, proc: subprocess.Popen[bytes]) -> None:
        stat = proc_stat(proc.pid)
        if stat is not None:
            self.guard.watch(proc.pid, stat.start_ticks)

    def close(self) -> None:
        """Kill whatever of ours is still running, as our death would."""
        self.guard.close()


# ---------------------------------------------------------------------------------------------
# `make stop`


def _wait_gone(records: Iterable[ProcessRecord], timeout: float) -> bool:
    records = list(records)
    deadline = time.monotonic() + timeout
    while any(r.running() or r.leftovers() for r in records):
        if time.monotonic() >= deadline:
            return False
        time.sleep(0.1)
    return True


@dataclass
class StopReport:
    stopped: list[ProcessRecord]
    failed: list[ProcessRecord]
    stale: list[ProcessRecord]
    leftovers: dict[str, list[int]]


def stop_recorded(registry: PidRegistry, timeout: float, launcher_timeout: float,
                  say: Callable[[str], None]) -> StopReport:
    """Stop what the pid files name: the launcher first (it stops the rest in order), then whatever
    is still alive, SIGTERM then SIGKILL. A pid that now belongs to another process is left alone."""
    records = registry.load()
    live = [r for r in records if r.running()]
    stale = [r for r in records if r not in live]
    leftovers = {r.name: pids for r in stale if (pids := r.leftovers())}
    launcher = next((r for r in live if r.name == "launcher"), None)
    if launcher is not None:
        say(f"stopping the launcher, pid {launcher.pid}: it stops its services, then its servers ...")
        launcher.signal(signal.SIGTERM)
        if not _wait_gone([launcher], launcher_timeout):
            say(f"the launcher did not stop within {launcher_timeout:.0f}s; killing it")
            launcher.signal(signal.SIGKILL)
            _wait_gone([launcher], 5)
    rest = [r for r in live if r.running() or r.leftovers()]
    rest += [r for r in stale if r.name in leftovers]
    for record in rest:
        record.signal(signal.SIGTERM)
    if not _wait_gone(rest, timeout):
        for record in rest:
            if record.running() or record.leftovers():
                say(f"{record.label()} did not stop within {timeout:.0f}s; killing it")
                record.signal(signal.SIGKILL)
        _wait_gone(rest, 5)
    candidates = live + [r for r in rest if r not in live]
    failed = [r for r in candidates if r.running() or r.leftovers()]
    stopped = [r for r in live if r not in failed]
    registry.clear([r for r in records if r not in failed])
    return StopReport(stopped, failed, stale, leftovers)


if __name__ == "__main__":
    if sys.argv[1:2] != ["--guard"] or len(sys.argv) != 4:
        sys.exit("usage: python -m devstack.processes --guard FD LOG (started by the launcher only)")
    sys.exit(_guard_main(int(sys.argv[2]), sys.argv[3]))
