"""`make run` (`python -m devstack.run`): the embedded stack and all services on this machine, no Docker.

Order: refuse if an earlier run from this checkout is alive or a port is taken; start Tansu,
SecantusDB and redis-server (each unless the env points at a real server); migrate the command
store; start chatbot-api, command-api, query-sync and the scheduler and wait for their /readyz; print
where everything is; then watch. Ctrl-C, SIGTERM or SIGHUP (the terminal closed) stops the services
first, then the servers; a second Ctrl-C kills them all at once. Logs: .run/logs/<name>.log; each
start moves the previous run's to <name>.log.1 (older ones to .2, ..., DEVSTACK_LOG_GENERATIONS).

The embedded broker keeps its log in memory, so what it held is gone after a stop or a crash; the
command store keeps every change, and the scheduler's start-up run of reconcile-projections
republishes whatever the read model lacks (docs/operations.md, What a stop of make run keeps).

No child outlives this launcher, even when it dies without stopping them (kill -9, the OOM killer):
each child gets the kernel's parent-death signal (SIGKILL), and a guard process that reads a pipe
from the launcher kills every child's process group, grandchildren included, once the pipe closes
(devstack.processes explains why both). So the ports are free again as soon as the launcher is gone.

The launcher, the guard and every child are recorded in .run/pids/<name>.json (pid, start time,
executable). `make stop` (`python -m devstack.run --stop`) reads them from another terminal: it sends
the launcher SIGTERM, which stops everything in order as Ctrl-C would, then SIGTERMs and after a
bounded wait SIGKILLs whatever recorded process is still alive (also when the launcher is already
dead), and prints each process it stopped. A pid whose start time or executable no longer matches
is another process that got the number: it is left alone and its stale pid file removed.
"""

from __future__ import annotations

import argparse
import logging
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path
from types import FrameType

from pydantic import ValidationError

from devstack.config import (
    MONGODB_DATABASE,
    Endpoints,
    ServiceSpec,
    StackLayout,
    StackSettings,
    embedded_ports,
    external_stores,
    service_env,
    services,
)
from devstack.ports import busy_ports
from devstack.processes import (
    Lifeline,
    PidRegistry,
    ServiceProcess,
    kill_all,
    mark_log,
    rotate_logs,
    start_service,
    stop_all,
    stop_recorded,
    stop_strays,
    tail,
)
from devstack.servers import Server, ServerError, Tether, start_redis, start_secantus, start_tansu
from techai_shared.logging import configure_logging

logger = logging.getLogger("devstack.run")

MIGRATION_TIMEOUT = 120.0
WATCH_INTERVAL = 0.5
REPEAT_GRACE = 1.0  # seconds in which a repeated signal counts as the same one

_STARTERS: dict[str, Callable[[int, StackLayout, Tether | None], Server]] = {
    "kafka": lambda port, layout, tether: start_tansu(port, layout.log("tansu"), tether=tether),
    "mongodb": lambda port, layout, tether: start_secantus(
        port, layout.data_dir / "secantus", layout.log("secantus"), tether=tether
    ),
    "redis": lambda port, layout, tether: start_redis(
        port, layout.data_dir / "redis", layout.log("redis"), tether=tether
    ),
}
_SERVER_NAMES = {"kafka": "Tansu (Kafka)", "mongodb": "SecantusDB (MongoDB)", "redis": "redis-server"}
_PORT_VARIABLES = {"kafka": "DEVSTACK_KAFKA_PORT", "mongodb": "DEVSTACK_MONGODB_PORT",
                   "redis": "DEVSTACK_REDIS_PORT", "chatbot-api": "CHATBOT_PORT",
                   "command-api": "COMMAND_PORT", "query-sync": "SYNC_PORT",
                   "scheduler": "COMMAND_SCHEDULER_PORT"}


class LaunchError(RuntimeError):
    """The stack cannot start; the message says why and what to do."""


class StopRequested(Exception):
    """Ctrl-C or SIGTERM arrived: unwind whatever is in progress and stop everything."""


class DevStack:
    """The servers and services of one `make run`, started in order and stopped in reverse."""

    def __init__(self, settings: StackSettings, layout: StackLayout, base_env: Mapping[str, str],
                 only: Sequence[str] | None = None) -> None:
        self.settings = settings
        self.layout = layout
        self.base_env = dict(base_env)
        self.specs = [s for s in services(settings) if not only or s.name in only]
        self.servers: list[Server] = []
        self.services: list[ServiceProcess] = []
        self.stopping = False
        self.registry = PidRegistry(pid_dir(layout))
        self.lifeline: Lifeline | None = None

    def wanted_ports(self) -> dict[str, int]:
        """Every port this run will listen on, by what listens there."""
        ports = dict(embedded_ports(self.settings))
        ports.update({spec.name: spec.port for spec in self.specs})
        return ports

    def check_earlier_run(self) -> None:
        """Fail if the pid files name a live process: two runs would share .run/data and the pid files.

        Pid files of processes that are gone (a launcher killed with -9) are removed.
        """
        running = [r for r in self.registry.load() if r.running() or r.leftovers()]
        if running:
            raise LaunchError(
                "an earlier `make run` from this checkout is still running: "
                + ", ".join(r.label() for r in running) + "\nStop it with `make stop` and retry."
            )
        self.registry.clear()

    def check_ports(self) -> None:
        """Fail before starting anything if another process (an earlier run?) holds a port."""
        busy = busy_ports(self.wanted_ports())
        if not busy:
            return
        lines = [f"  {port} ({name}; change it with {_PORT_VARIABLES[name]}=...)" for name, port in busy]
        raise LaunchError(
            "cannot listen on 127.0.0.1 on these ports (in use, or given twice):\n" + "\n".join(lines)
            + "\nIs an earlier `make run` still running? `make stop` stops one started from this"
            " checkout, even when its terminal is gone; then retry. (`ss -ltnp` shows who listens.)"
        )

    def start(self) -> Endpoints:
        """Everything, in order; returns where the stores are."""
        self.check_earlier_run()
        self.check_ports()
        self.layout.log_dir.mkdir(parents=True, exist_ok=True)
        self.layout.data_dir.mkdir(parents=True, exist_ok=True)
        if rotate_logs(self.layout.log_dir, self.settings.log_generations):
            logger.info("the previous run's logs are in %s/<name>.log.1", self.layout.log_dir)
        self.lifeline = Lifeline.start(self.registry, self.layout.log("guard"))
        endpoints = self.start_servers()
        self.migrate(endpoints)
        self.start_services(endpoints)
        self.wait_for_services()
        return endpoints

    def start_servers(self) -> Endpoints:
        """Start the embedded servers not replaced by a real one; the addresses of all four stores."""
        external = external_stores(self.settings)
        for name, value in external.items():
            logger.info("%s: using %s from the environment, not starting %s", name, _redact(value),
                        _SERVER_NAMES[name])
        if self.settings.mysql_url:
            logger.info("command store: using MYSQL_URL %s from the environment",
                        _redact(self.settings.mysql_url))
        addresses = dict(external)
        for name, port in embedded_ports(self.settings).items():
            logger.info("starting %s on 127.0.0.1:%d ...", _SERVER_NAMES[name], port)
            started = time.monotonic()
            server = _STARTERS[name](port, self.layout, self.lifeline)
            self.servers.append(server)
            addresses[name] = server.url
            logger.info("%s ready in %.1fs", _SERVER_NAMES[name], time.monotonic() - started)
        return Endpoints(
            mysql_url=self.settings.mysql_url or self.layout.sqlite_url,
            kafka_bootstrap_servers=addresses["kafka"],
            mongodb_uri=addresses["mongodb"],
            redis_url=addresses["redis"],
        )

    def migrate(self, endpoints: Endpoints) -> None:
        """`python -m techai_shared.db.migrate` against the command store, before any writer starts."""
        log = self.layout.log("migrate")
        mark_log(log, "migrate")
        logger.info("migrating the command store (%s) ...", _redact(endpoints.mysql_url))
        env = {**self.base_env, "MYSQL_URL": endpoints.mysql_url, "PYTHONUNBUFFERED": "1"}
        lifeline = self.lifeline
        # In the launcher's own process group (a Ctrl-C reaches it too), so the guard, which kills
        # whole groups, must not watch it: the parent-death signal alone ties it to the launcher.
        with open(log, "ab") as out, subprocess.Popen(
            [sys.executable, "-m", "techai_shared.db.migrate"], env=env, stdout=out,
            stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL,
            preexec_fn=lifeline.preexec if lifeline is not None else None,
        ) as proc:
            if lifeline is not None:
                lifeline.registry.record("migrate", proc.pid)
            try:
                returncode = proc.wait(MIGRATION_TIMEOUT)
            except subprocess.TimeoutExpired:
                proc.kill()
                raise LaunchError(
                    f"migrations did not finish in {MIGRATION_TIMEOUT:.0f}s; see {log}"
                ) from None
            except BaseException:  # a Ctrl-C: do not leave it writing to the store
                proc.kill()
                raise
            finally:
                if lifeline is not None:
                    lifeline.registry.forget("migrate")
        if returncode != 0:
            raise LaunchError(f"migrations failed (exit {returncode}); see {log}\n{tail(log)}")

    def start_services(self, endpoints: Endpoints) -> None:
        fresh_broker = "kafka" in embedded_ports(self.settings)
        for spec in self.specs:
            logger.info("starting %s on %s ...", spec.name, spec.url)
            env = service_env(self.base_env, endpoints, spec)
            if fresh_broker:
                # The embedded broker starts empty (memory storage): no event can be on its way,
                # so the scheduler's start-up reconcile republishes at once whatever the read
                # model lacks (docs/operations.md, What a stop of make run keeps).
                env.setdefault("COMMAND_RECONCILE_START_GRACE_SECONDS", "0")
            self.services.append(start_service(spec, env, self.layout.log(spec.name), self.lifeline))

    def wait_for_services(self) -> None:
        deadline = time.monotonic() + self.settings.ready_timeout_seconds
        for service in self.services:
            service.wait_ready(max(1.0, deadline - time.monotonic()))
            logger.info("%s is ready", service.name)

    def watch(self) -> int:
        """Block until a child exits on its own (then 1); a signal interrupts this with StopRequested."""
        while True:
            for name, proc, log in self._children():
                code = proc.poll()
                if code is not None:
                    logger.error("%s exited with %s; see %s\n%s", name, code, log, tail(log))
                    return 1
            time.sleep(WATCH_INTERVAL)

    def stop(self) -> None:
        """Services first (they flush to the stores), then the servers; nothing left running."""
        self.stopping = True
        if not self.services and not self.servers:
            return
        if self.services:
            logger.info("stopping %s ...", ", ".join(s.name for s in reversed(self.services)))
            stop_all([s.proc for s in reversed(self.services)], self.settings.stop_timeout_seconds)
        if self.servers:
            logger.info("stopping %s ...", ", ".join(_SERVER_NAMES[s.name] for s in reversed(self.servers)))
            stop_all([s.proc for s in reversed(self.servers)], self.settings.stop_timeout_seconds)
        logger.info("stopped")

    def kill(self) -> None:
        """Kill every child now, without waiting for a graceful shutdown."""
        kill_all(self.processes())

    def release(self) -> None:
        """After stop(): nothing of this run is left, so no pid file may name it and the guard can go."""
        if self.lifeline is not None:
            self.lifeline.release()
            self.lifeline = None

    def processes(self) -> list[subprocess.Popen[bytes]]:
        return [proc for _, proc, _ in self._children()]

    def _children(self) -> list[tuple[str, subprocess.Popen[bytes], Path]]:
        return [(s.name, s.proc, s.log) for s in self.services] + [
            (_SERVER_NAMES[s.name], s.proc, s.log) for s in self.servers
        ]


def pid_dir(layout: StackLayout) -> Path:
    return layout.run_dir / "pids"


def _redact(url: str) -> str:
    """The URL without its password, for logs and the banner."""
    scheme, sep, rest = url.partition("://")
    if "@" not in rest or ":" not in rest.split("@", 1)[0]:
        return url
    credentials, _, host = rest.partition("@")
    return f"{scheme}{sep}{credentials.split(':', 1)[0]}:***@{host}"


def banner(stack: DevStack, ep: Endpoints) -> str:
    """Where everything is and how to call it."""
    embedded = embedded_ports(stack.settings)

    def origin(store: str) -> str:
        return "(embedded)" if store in embedded else "(external)"

    database = stack.base_env.get("MONGODB_DATABASE", MONGODB_DATABASE)
    lines = ["", "techai dev stack is up. Ctrl-C stops everything (a second Ctrl-C kills);",
             "so does `make stop` from another terminal.", ""]
    lines += [f"  {s.name:<13}  {s.url}   (/readyz, /metrics{_docs(s)})" for s in stack.specs]
    lines += [
        "",
        f"  command store  {_redact(ep.mysql_url)}",
        f"  Kafka          {ep.kafka_bootstrap_servers} {origin('kafka')}",
        f"  MongoDB        {_redact(ep.mongodb_uri)} {origin('mongodb')}, database {database}",
        f"  Redis          {_redact(ep.redis_url)} {origin('redis')}",
        f"  logs           {stack.layout.log_dir}/<name>.log",
        "",
        "  a token:       make token USER=1001 [ROLE=ADMIN]   (the last line printed is the JWT)",
    ]
    chatbot = next((spec for spec in stack.specs if spec.name == "chatbot-api"), None)
    if chatbot is not None:
        lines += [
            '  e.g.           curl -H "Authorization: Bearer $(make -s token USER=1001 | tail -n1)" \\',
            f"                     {chatbot.url}/api/v1/chatbot/sessions",
        ]
    lines.append("")
    return "\n".join(lines)


def _docs(spec: ServiceSpec) -> str:
    return ", /docs" if spec.name in ("chatbot-api", "command-api") else ""


def install_signal_handlers(stack: DevStack) -> None:
    """First SIGINT/SIGTERM/SIGHUP unwinds to a graceful stop; another one during the stop kills all.

    A repeat within a second is the same request delivered twice (a terminal signals the whole
    process group, and wrappers such as `timeout` pass the signal on again), not a second Ctrl-C.
    SIGHUP (the terminal closed) is left alone when it was ignored at start: `nohup make run`.
    """
    first: list[float] = []

    def on_signal(signum: int, _: FrameType | None) -> None:
        name = signal.Signals(signum).name
        if first and time.monotonic() - first[0] < REPEAT_GRACE:
            return
        if stack.stopping:
            logger.warning("%s again: killing everything", name)
            stack.kill()
            return
        first.append(time.monotonic())
        stack.stopping = True
        logger.info("%s received: stopping (press Ctrl-C again to kill)", name)
        raise StopRequested(signum)

    signal.signal(signal.SIGINT, on_signal)
    signal.signal(signal.SIGTERM, on_signal)
    if signal.getsignal(signal.SIGHUP) is not signal.SIG_IGN:
        signal.signal(signal.SIGHUP, on_signal)


def _parse(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="python -m devstack.run", description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=Path.cwd(),
                        help="the repository; .run/ (data and logs) is made here (default: cwd)")
    parser.add_argument("--only", default=os.environ.get("DEVSTACK_SERVICES", ""),
                        help="comma-separated services to start (default: all; env DEVSTACK_SERVICES)")
    parser.add_argument("--stop", action="store_true",
                        help="stop the `make run` of this --root that is running elsewhere (make stop)")
    return parser.parse_args(argv)


def stop_earlier_run(layout: StackLayout, stop_timeout: float) -> int:
    """`make stop`: stop what .run/pids names, say what was stopped; 0 also when nothing ran."""
    registry = PidRegistry(pid_dir(layout))
    # the launcher stops services and then servers, each set within stop_timeout
    report = stop_recorded(registry, stop_timeout, 2 * stop_timeout + 10,
                           lambda line: print(line, flush=True))
    for record in report.stopped:
        print(f"stopped {record.label()}")
    for name, pids in report.leftovers.items():
        print(f"stopped {len(pids)} leftover process(es) of {name}: pid {', '.join(map(str, pids))}")
    stale = f" (removed {len(report.stale)} stale pid file(s))" if report.stale else ""
    if report.failed:
        print("could not stop " + ", ".join(r.label() for r in report.failed), file=sys.stderr)
        return 1
    if not report.stopped and not report.leftovers:
        print(f"nothing to stop: no `make run` is running from {layout.root}{stale}")
    else:
        print(f"the `make run` of {layout.root} is stopped{stale}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    args = _parse(argv)
    configure_logging(os.environ.get("DEVSTACK_LOG_LEVEL", "INFO"))
    try:
        settings = StackSettings()
    except ValidationError as exc:
        logger.error("invalid devstack settings:\n%s", exc)
        return 2
    if args.stop:
        return stop_earlier_run(StackLayout(args.root.resolve()), settings.stop_timeout_seconds)
    only = [name.strip() for name in args.only.split(",") if name.strip()]
    unknown = set(only) - {spec.name for spec in services(settings)}
    if unknown:
        logger.error("unknown service(s) %s; choose from %s", ", ".join(sorted(unknown)),
                     ", ".join(spec.name for spec in services(settings)))
        return 2
    stack = DevStack(settings, StackLayout(args.root.resolve()), os.environ, only)
    install_signal_handlers(stack)
    try:
        print(banner(stack, stack.start()), flush=True)
        return stack.watch()
    except StopRequested:
        return 0
    except (LaunchError, ServerError) as exc:
        logger.error("%s", exc)
        return 1
    finally:
        stack.stop()
        # This process is the launcher and nothing else: any child of it still alive is ours.
        stop_strays({proc.pid for proc in stack.processes()})
        stack.release()


if __name__ == "__main__":
    sys.exit(main())
