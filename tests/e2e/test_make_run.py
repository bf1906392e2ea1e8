"""`make run` as a user meets it: the launcher starts the embedded stack (SQLite, Tansu, SecantusDB,
redis-server) and all services; a conversation flows to MongoDB; data survives a restart; no process
outlives a killed launcher; `make stop` stops a stack from another terminal."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from devstack.ports import port_in_use
from devstack.processes import PidRegistry, alive, child_pids, group_members, proc_stat
from devstack.servers import port_open
from pymongo import AsyncMongoClient

from tests.conftest import eventually
from tests.e2e.launcher import REPO, Launcher, headers

pytestmark = pytest.mark.e2e

@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launcher]:
    running = Launcher(tmp_path_factory.mktemp("make-run"))
    yield running
    if running.proc is not None and running.proc.poll() is None:
        running.stop()


async def _projected(launcher: Launcher, sid: str) -> int:
    client: AsyncMongoClient = AsyncMongoClient(
        f"mongodb://127.0.0.1:{launcher.ports['DEVSTACK_MONGODB_PORT']}")
    try:
        return await client["techai"]["conversation_messages"].count_documents({"session_id": sid})
    finally:
        await client.close()


async def test_make_run_serves_conversations_and_keeps_them_across_restarts(launcher):
    launcher.start()
    chat = launcher.url("CHATBOT_PORT") + "/api/v1/chatbot"
    owner = f"user-{uuid.uuid4().hex[:6]}"
    async with httpx.AsyncClient(timeout=30) as client:
        first = await client.post(chat, json={"message": "다음 달 해커톤 있어?"}, headers=headers(owner))
        assert first.status_code == 200, first.text
        assert first.json()["data"]["mode"] == "retrieval-only"  # no model configured by default
        # an empty catalog holds nothing next month, and the answer names the month
        assert "다음 달(" in first.json()["data"]["response"]
        assert "찾지 못했어요" in first.json()["data"]["response"]
        sid = first.json()["data"]["conversationId"]
        follow = await client.post(chat, json={"message": "그거 마감은 언제야?", "conversationId": sid},
                                   headers=headers(owner))
        assert follow.status_code == 200 and follow.json()["data"]["sessionInfo"]["messageCount"] == 4

        async def both_exchanges_in_mongodb() -> bool:
            return await _projected(launcher, sid) == 4

        await eventually(both_exchanges_in_mongodb, within=2.0, interval=0.05)
        messages = await client.get(f"{chat}/sessions/{sid}/messages", headers=headers(owner))
        assert [m["sequenceNumber"] for m in messages.json()["data"]["messages"]] == [1, 2, 3, 4]
        other = await client.get(f"{chat}/sessions/{sid}", headers=headers("1002"))
        assert other.status_code == 403

        kept = await client.post(chat, json={"message": "keep me"}, headers=headers(owner))
        kept_sid = kept.json()["data"]["conversationId"]
        assert (await client.delete(f"{chat}/sessions/{sid}", headers=headers(owner))).status_code == 200
        assert (await client.get(f"{chat}/sessions/{sid}", headers=headers(owner))).status_code == 404

        async def kept_projected() -> bool:
            return await _projected(launcher, kept_sid) == 2

        await eventually(kept_projected, within=10)

    assert launcher.stop() == 0
    for port in launcher.ports.values():
        assert not port_open(port), f"port {port} still open after Ctrl-C"

    launcher.start()
    async with httpx.AsyncClient(timeout=30) as client:
        listed = await client.get(f"{chat}/sessions", headers=headers(owner))
        assert [s["sessionId"] for s in listed.json()["data"]["sessions"]] == [kept_sid]
        history = await client.get(f"{chat}/sessions/{kept_sid}/messages", headers=headers(owner))
        contents = [m["content"] for m in history.json()["data"]["messages"]]
        assert len(contents) == 2 and contents[0] == "keep me"
        assert (await client.get(f"{chat}/sessions/{sid}", headers=headers(owner))).status_code == 404
        again = await client.post(chat, json={"message": "after restart", "conversationId": kept_sid},
                                  headers=headers(owner))
        assert again.status_code == 200

        async def new_exchange_projected() -> bool:
            return await _projected(launcher, kept_sid) == 4

        await eventually(new_exchange_projected, within=15)

        # the message tree on make run's store (SQLite): another answer, then back to the first
        answer_id = again.json()["data"]["messageId"]
        regenerated = await client.post(f"{chat}/sessions/{kept_sid}/messages/{answer_id}/regenerate",
                                        headers=headers(owner))
        assert regenerated.status_code == 200, regenerated.text
        newer = regenerated.json()["data"]["messageId"]
        history = (await client.get(f"{chat}/sessions/{kept_sid}/messages",
                                    headers=headers(owner))).json()["data"]["messages"]
        assert [m["messageId"] for m in history][3] == newer and len(history) == 4
        assert history[3]["siblingIds"] == [answer_id, newer]
        back = await client.put(f"{chat}/sessions/{kept_sid}/leaf", json={"messageId": answer_id},
                                headers=headers(owner))
        assert back.status_code == 200 and back.json()["data"]["leafMessageId"] == answer_id

        # The scheduler runs beside the APIs; an admin runs a job now and sees it in the history.
        jobs_url = launcher.url("COMMAND_PORT") + "/api/v1/admin/jobs"
        admin = headers("ops-1", role="ADMIN")
        assert (await client.post(f"{jobs_url}/deactivate-idle-sessions/run",
                                  headers=headers(owner))).status_code == 403
        ran = await client.post(f"{jobs_url}/deactivate-idle-sessions/run", headers=admin)
        assert ran.status_code == 200, ran.text
        assert ran.json()["data"]["status"] == "succeeded"
        listed = (await client.get(jobs_url, headers=admin)).json()["data"]["jobs"]
        job = next(j for j in listed if j["name"] == "deactivate-idle-sessions")
        assert job["lastRuns"][0]["runId"] == ran.json()["data"]["runId"]
        assert job["lastRuns"][0]["trigger"] == "manual" and job["nextFireTime"]
        assert {j["name"] for j in listed} == {
            "deactivate-idle-sessions", "expire-sessions", "purge-outbox", "reconcile-projections",
            "advance-contest-status", "purge-job-runs"}

        # search (query-sync's indexer on SecantusDB), export, and a budget (SQLite's migration)
        async def found_after_restart() -> list[str] | None:
            r = await client.get(f"{chat}/sessions/search", params={"q": "RESTART"},
                                 headers=headers(owner))
            return [x["session"]["sessionId"] for x in r.json()["data"]["results"]] or None

        assert await eventually(found_after_restart, within=15) == [kept_sid]
        deleted = await client.get(f"{chat}/sessions/search", params={"q": "해커톤"},
                                   headers=headers(owner))
        assert deleted.status_code == 200 and deleted.json()["data"]["results"] == []
        exported = await client.get(f"{chat}/sessions/{kept_sid}/export",
                                    params={"format": "markdown"}, headers=headers(owner))
        assert exported.status_code == 200 and "after restart" in exported.text
        budget_url = launcher.url("COMMAND_PORT") + f"/api/v1/admin/users/{owner}/budget"
        assert (await client.put(budget_url, json={"dailyTokens": 100}, headers=admin)
                ).status_code == 200
        usage = (await client.get(f"{chat}/usage", headers=headers(owner))).json()["data"]
        assert usage["budget"]["dailyTokens"] == 100 and usage["budget"]["own"] is True
    assert launcher.stop() == 0


def _pause(*, new_session: bool = False) -> subprocess.Popen[bytes]:
    """A process that waits for a signal and does nothing else."""
    return subprocess.Popen([sys.executable, "-c", "import signal; signal.pause()"],
                            stdin=subprocess.DEVNULL, start_new_session=new_session)


def _tree(pid: int) -> set[int]:
    """`pid` and all its descendants."""
    found, todo = set(), [pid]
    while todo:
        current = todo.pop()
        found.add(current)
        todo.extend(child_pids(current))
    return found


async def test_a_killed_launcher_leaves_no_process_and_no_port_behind(launcher):
    launcher.start()
    assert launcher.proc is not None
    recorded = {r.name: r.pid for r in launcher.pids.load()}
    assert set(recorded) == {"launcher", "guard", "tansu", "secantus", "redis", "chatbot-api",
                             "command-api", "query-sync", "scheduler"}
    assert recorded["launcher"] == launcher.proc.pid
    stack = _tree(launcher.proc.pid) - {launcher.proc.pid}
    groups = {recorded[name] for name in recorded if name not in ("launcher", "guard")}
    # every process the launcher's children run (grandchildren too) is in a group the guard kills
    assert stack and all(getattr(proc_stat(pid), "pgrp", None) in groups for pid in stack), stack
    everything = stack | {pid for group in groups for pid in group_members(group)} | {recorded["guard"]}

    os.kill(launcher.proc.pid, signal.SIGKILL)  # as the OOM killer would: no handler, no clean-up
    launcher.proc.wait(5)

    async def stack_gone() -> bool:
        assert not [pid for pid in everything if alive(pid)]
        assert not [port for port in launcher.ports.values() if port_in_use(port)]
        return True

    await eventually(stack_gone, within=5, interval=0.1)


def test_make_stop_names_what_it_stopped_and_nothing_runs_afterwards(launcher):
    # after the previous test the pid files are stale: the launcher must start anyway, at once
    launcher.start()
    assert launcher.proc is not None
    recorded = {r.name: r.pid for r in launcher.pids.load()}
    stopped = launcher.make_stop()
    assert stopped.returncode == 0, stopped.stdout + stopped.stderr
    for name, pid in recorded.items():
        assert f"stopped {name} (pid {pid})" in stopped.stdout
    # SIGTERM made the launcher stop everything in order, as Ctrl-C does
    assert launcher.proc.wait(5) == 0
    assert "stopped" in (launcher.root / "launcher.log").read_text()
    assert not [pid for pid in recorded.values() if alive(pid)]
    assert not [port for port in launcher.ports.values() if port_in_use(port)]
    assert launcher.pids.load() == []

    again = launcher.make_stop()
    assert again.returncode == 0 and "nothing to stop" in again.stdout
    dry = subprocess.run(["make", "-n", "stop"], cwd=REPO, capture_output=True, text=True, check=True)
    assert "-m devstack.run" in dry.stdout and "--stop" in dry.stdout


_LAUNCHER_WITH_GRANDCHILD = """
import signal, sys
from pathlib import Path
from devstack.processes import Lifeline, PidRegistry
from devstack.servers import spawn

root = Path(sys.argv[1])
lifeline = Lifeline.start(PidRegistry(root / "pids"), root / "guard.log")
# a child that starts a process of its own, as a wrapper script or uvicorn workers do
wrapper = ("import signal, subprocess, sys; "
           "subprocess.Popen([sys.executable, '-c', 'import signal; signal.pause()']); signal.pause()")
spawn("wrapper", [sys.executable, "-c", wrapper], root / "wrapper.log", tether=lifeline)
print("started", flush=True)
signal.pause()
"""


def _launch_with_grandchild(root: Path) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", _LAUNCHER_WITH_GRANDCHILD, str(root)],
                            stdout=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)


async def test_grandchildren_do_not_outlive_a_killed_launcher_either(tmp_path):
    launcher = _launch_with_grandchild(tmp_path)
    try:
        assert launcher.stdout is not None and launcher.stdout.readline() == b"started\n"
        recorded = {r.name: r.pid for r in PidRegistry(tmp_path / "pids").load()}
        wrapper = recorded["wrapper"]

        async def grandchild_started() -> list[int]:
            return [pid for pid in group_members(wrapper) if pid != wrapper]

        grandchildren = await eventually(grandchild_started, within=10)
        assert all(getattr(proc_stat(pid), "ppid", None) == wrapper for pid in grandchildren)

        os.kill(launcher.pid, signal.SIGKILL)
        launcher.wait(5)

        async def all_gone() -> bool:
            return not [pid for pid in (wrapper, recorded["guard"], *grandchildren) if alive(pid)]

        await eventually(all_gone, within=5, interval=0.1)
    finally:
        if launcher.poll() is None:
            os.killpg(launcher.pid, signal.SIGKILL)
            launcher.wait(5)


def test_make_stop_leaves_a_reused_pid_alone_and_stops_what_a_dead_launcher_left(tmp_path):
    pids = PidRegistry(tmp_path / ".run" / "pids")
    gone = _pause()
    pids.record("launcher", gone.pid)
    gone.kill()
    gone.wait(5)
    orphan = _pause(new_session=True)  # a service whose launcher died before this change existed
    pids.record("query-sync", orphan.pid, group=True)
    bystander = _pause()  # has the number of a recorded process, but started later: not ours
    pids.record("chatbot-api", bystander.pid, group=True)
    path = pids.directory / "chatbot-api.json"
    record = json.loads(path.read_text())
    path.write_text(json.dumps({**record, "start_ticks": record["start_ticks"] - 1}))
    try:
        result = subprocess.run([sys.executable, "-m", "devstack.run", "--root", str(tmp_path), "--stop"],
                                capture_output=True, text=True, timeout=60, check=False)
        assert result.returncode == 0, result.stdout + result.stderr
        assert f"stopped query-sync (pid {orphan.pid})" in result.stdout
        assert "removed 2 stale pid file(s)" in result.stdout
        assert "chatbot-api" not in result.stdout and "stopped launcher" not in result.stdout
        assert orphan.wait(5) == -signal.SIGTERM
        assert bystander.poll() is None
        assert list(pids.directory.glob("*.json")) == []
    finally:
        for proc in (orphan, bystander):
            if proc.poll() is None:
                proc.kill()
                proc.wait(5)
