"""`make run` as a user meets it: the launcher starts the embedded stack (SQLite, Tansu, SecantusDB,
redis-server) and all services; a conversation flows to MongoDB; data survives a restart."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from devstack.servers import free_port, port_open, wait_until
from pymongo import AsyncMongoClient

from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings
from tests.conftest import eventually

pytestmark = pytest.mark.e2e

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

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k not in STORE_VARIABLES}
        env.update({k: str(v) for k, v in self.ports.items()})
        log = open(self.root / "launcher.log", "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen([sys.executable, "-m", "devstack.run", "--root", str(self.root)],
                                     env=env, stdout=log, stderr=subprocess.STDOUT,
                                     stdin=subprocess.DEVNULL, start_new_session=True)
        log.close()
        wait_until(self._ready, 120, "make run", self.proc, self.root / "launcher.log")

    def _ready(self) -> bool:
        for var in ("CHATBOT_PORT", "COMMAND_PORT", "SYNC_PORT", "COMMAND_SCHEDULER_PORT"):
            try:
                if httpx.get(self.url(var) + "/readyz", timeout=2).status_code != 200:
                    return False
            except httpx.HTTPError:
                return False
        return True

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


@pytest.fixture(scope="module")
def launcher(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Launcher]:
    running = Launcher(tmp_path_factory.mktemp("make-run"))
    yield running
    if running.proc is not None and running.proc.poll() is None:
        running.stop()


def _headers(user: str, role: str = "USER") -> dict[str, str]:
    # make run uses the development secret: the same token `make token` prints.
    return {"Authorization": f"Bearer {mint_token(user, CommonSettings(), role=role)}"}


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
        first = await client.post(chat, json={"message": "다음 달 해커톤 있어?"}, headers=_headers(owner))
        assert first.status_code == 200, first.text
        assert first.json()["data"]["mode"] == "retrieval-only"  # no model configured by default
        assert "언어 모델이 설정되어 있지 않" in first.json()["data"]["response"]
        sid = first.json()["data"]["conversationId"]
        follow = await client.post(chat, json={"message": "그거 마감은 언제야?", "conversationId": sid},
                                   headers=_headers(owner))
        assert follow.status_code == 200 and follow.json()["data"]["sessionInfo"]["messageCount"] == 4

        async def both_exchanges_in_mongodb() -> bool:
            return await _projected(launcher, sid) == 4

        await eventually(both_exchanges_in_mongodb, within=2.0, interval=0.05)
        messages = await client.get(f"{chat}/sessions/{sid}/messages", headers=_headers(owner))
        assert [m["sequenceNumber"] for m in messages.json()["data"]["messages"]] == [1, 2, 3, 4]
        other = await client.get(f"{chat}/sessions/{sid}", headers=_headers("1002"))
        assert other.status_code == 403

        kept = await client.post(chat, json={"message": "keep me"}, headers=_headers(owner))
        kept_sid = kept.json()["data"]["conversationId"]
        assert (await client.delete(f"{chat}/sessions/{sid}", headers=_headers(owner))).status_code == 200
        assert (await client.get(f"{chat}/sessions/{sid}", headers=_headers(owner))).status_code == 404

        async def kept_projected() -> bool:
            return await _projected(launcher, kept_sid) == 2

        await eventually(kept_projected, within=10)

    assert launcher.stop() == 0
    for port in launcher.ports.values():
        assert not port_open(port), f"port {port} still open after Ctrl-C"

    launcher.start()
    async with httpx.AsyncClient(timeout=30) as client:
        listed = await client.get(f"{chat}/sessions", headers=_headers(owner))
        assert [s["sessionId"] for s in listed.json()["data"]["sessions"]] == [kept_sid]
        history = await client.get(f"{chat}/sessions/{kept_sid}/messages", headers=_headers(owner))
        contents = [m["content"] for m in history.json()["data"]["messages"]]
        assert len(contents) == 2 and contents[0] == "keep me"
        assert (await client.get(f"{chat}/sessions/{sid}", headers=_headers(owner))).status_code == 404
        again = await client.post(chat, json={"message": "after restart", "conversationId": kept_sid},
                                  headers=_headers(owner))
        assert again.status_code == 200

        async def new_exchange_projected() -> bool:
            return await _projected(launcher, kept_sid) == 4

        await eventually(new_exchange_projected, within=15)

        # The scheduler runs beside the APIs; an admin runs a job now and sees it in the history.
        jobs_url = launcher.url("COMMAND_PORT") + "/api/v1/admin/jobs"
        admin = _headers("ops-1", role="ADMIN")
        assert (await client.post(f"{jobs_url}/deactivate-idle-sessions/run",
                                  headers=_headers(owner))).status_code == 403
        ran = await client.post(f"{jobs_url}/deactivate-idle-sessions/run", headers=admin)
        assert ran.status_code == 200, ran.text
        assert ran.json()["data"]["status"] == "succeeded"
        listed = (await client.get(jobs_url, headers=admin)).json()["data"]["jobs"]
        job = next(j for j in listed if j["name"] == "deactivate-idle-sessions")
        assert job["lastRuns"][0]["runId"] == ran.json()["data"]["runId"]
        assert job["lastRuns"][0]["trigger"] == "manual" and job["nextFireTime"]
        assert {j["name"] for j in listed} == {"deactivate-idle-sessions", "expire-sessions",
                                               "purge-outbox", "reconcile-projections"}
    assert launcher.stop() == 0
