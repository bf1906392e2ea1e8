"""The ops shell's commands (`python -m command_api.ops ...`, `make jobs`, `make rebuild`).

  jobs list                  every job: schedule, next fire time, running or not, last runs
  jobs run NAME              run a job now and wait for it (exit 3 if it is running elsewhere)
  rebuild-projections        empty the MongoDB projections (conversations and catalog) and
                             republish everything from the command store, with progress; the
                             outbox relays of the running APIs publish it (--wait watches them)
  feedback-export            users' ratings of answers with their exchanges, as JSONL (--from,
                             --to: Asia/Seoul days; --rating; --out, default feedback.jsonl)

They work on the command store and MongoDB named by the usual variables (MYSQL_URL, MONGODB_URI...).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from collections.abc import Sequence
from datetime import date
from pathlib import Path

from command_api.bootstrap import Operations, operations
from command_api.service_layer.jobs import JobBusy, JobNotFound
from command_api.service_layer.schedule import describe_jobs
from command_api.settings import CommandSettings
from techai_shared.clock import day_window, utcnow
from techai_shared.db.engine import make_engine
from techai_shared.logging import configure_logging

EXIT_FAILED, EXIT_BUSY, EXIT_UNKNOWN = 1, 3, 4


def _print(line: str) -> None:
    print(line, flush=True)


async def list_jobs(ops: Operations, settings: CommandSettings) -> int:
    for job in await describe_jobs(ops.runner, settings.command_scheduler_timezone, utcnow(), 3):
        state = f"running on {job['runningOn']}" if job["running"] else "idle"
        _print(f"{job['name']:<26} {job['schedule']:<14} next {job['nextFireTime']}  {state}")
        _print(f"    {job['description']}")
        for run in job["lastRuns"]:
            _print(f"    run {run['runId']:>5} {run['trigger']:<8} {run['status']:<9} "
                   f"started {run['startedAt']} rows {run['rowsAffected']}"
                   + (f" error {run['error']}" if run["error"] else "")
                   + (f" ({run['summary']})" if run['summary'] else ""))
    return 0


async def run_job(ops: Operations, name: str) -> int:
    try:
        _print(f"running {name} ...")
        run = await ops.runner.run_manual(name)
    except JobNotFound as exc:
        _print(exc.message)
        return EXIT_UNKNOWN
    except JobBusy as exc:
        _print(exc.message)
        return EXIT_BUSY
    _print(f"run {run.run_id}: {run.status}, {run.rows_affected} rows"
           + (f", error: {run.error}" if run.error else "")
           + (f"; {run.summary}" if run.summary else ""))
    return 0 if run.status == "succeeded" else EXIT_FAILED


async def rebuild(ops: Operations, settings: CommandSettings, wait: float) -> int:
    counts = await ops.republisher.rebuild(settings.command_job_batch_size, _print)
    _print(f"republished {counts.sessions} sessions, {counts.messages} messages, "
           + ", ".join(f"{n} {kind}" for kind, n in counts.catalog.items())
           + f", {counts.ratings} ratings, {counts.verified_answers} verified answers")
    if wait <= 0:
        _print("the outbox relays of the running APIs publish them; query-sync projects them")
        return 0
    return await _watch_outbox(ops, wait)


async def _watch_outbox(ops: Operations, wait: float) -> int:
    deadline = asyncio.get_running_loop().time() + wait
    while True:
        backlog, age = await ops.outbox.backlog()
        _print(f"outbox: {backlog} events not yet published (oldest {age:.1f}s)")
        if backlog == 0:
            return 0
        if asyncio.get_running_loop().time() > deadline:
            _print("the outbox is not drained yet: is an API (its outbox relay) running?")
            return EXIT_FAILED
        await asyncio.sleep(2)


EXPORT_PAGE = 500


async def export_feedback(ops: Operations, args: argparse.Namespace) -> int:
    since, until = day_window(args.first, args.last)
    out = Path(args.out)
    await asyncio.to_thread(out.write_text, "", "utf-8")
    written = 0
    while True:
        entries, total = await ops.read_model.feedback_page(args.rating, since, until, written,
                                                            EXPORT_PAGE)
        lines = "".join(json.dumps(e.public(), ensure_ascii=False) + "\n" for e in entries)
        await asyncio.to_thread(_append, out, lines)
        written += len(entries)
        if entries:
            _print(f"feedback: {written}/{total} written")
        if len(entries) < EXPORT_PAGE:
            break
    _print(f"wrote {written} ratings to {out}")
    return 0


def _append(path: Path, text: str) -> None:
    with path.open("a", encoding="utf-8") as f:
        f.write(text)


async def execute(args: argparse.Namespace, settings: CommandSettings) -> int:
    engine = make_engine(settings)
    ops = operations(settings, engine)
    try:
        if args.command == "jobs" and args.action == "list":
            return await list_jobs(ops, settings)
        if args.command == "jobs":
            return await run_job(ops, args.name)
        if args.command == "feedback-export":
            return await export_feedback(ops, args)
        return await rebuild(ops, settings, args.wait)
    finally:
        await ops.close()
        await engine.dispose()


def parser() -> argparse.ArgumentParser:
    root = argparse.ArgumentParser(prog="python -m command_api.ops",
                                   description="operations: jobs, projection rebuilds, the feedback export")
    commands = root.add_subparsers(dest="command", required=True)
    jobs = commands.add_parser("jobs", help="list the jobs or run one now")
    actions = jobs.add_subparsers(dest="action", required=True)
    actions.add_parser("list", help="schedules, next fire times, last runs")
    run = actions.add_parser("run", help="run a job now and wait for it")
    run.add_argument("name")
    rebuild_cmd = commands.add_parser("rebuild-projections",
                                      help="empty the MongoDB projections and republish everything")
    rebuild_cmd.add_argument("--wait", type=float, default=0.0, metavar="SECONDS",
                             help="then watch the outbox drain for up to SECONDS")
    export = commands.add_parser("feedback-export",
                                 help="users' ratings of answers with their exchanges, as JSONL")
    export.add_argument("--from", dest="first", type=date.fromisoformat, metavar="YYYY-MM-DD",
                        help="first day (Asia/Seoul) of the ratings' last change")
    export.add_argument("--to", dest="last", type=date.fromisoformat, metavar="YYYY-MM-DD",
                        help="last day, included")
    export.add_argument("--rating", choices=("up", "down"))
    export.add_argument("--out", default="feedback.jsonl", help="the file to write")
    return root


def main(argv: Sequence[str] | None = None) -> int:
    args = parser().parse_args(argv)
    settings = CommandSettings()
    configure_logging(settings.log_level, settings.log_json)
    return asyncio.run(execute(args, settings))


if __name__ == "__main__":
    sys.exit(main())
