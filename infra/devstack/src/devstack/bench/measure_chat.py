"""Chat: throughput at saturation vs a bare endpoint, latency at 1/10/50 users, memory under load."""

from __future__ import annotations

import asyncio
import signal
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx

from devstack.bench import profile_parts
from devstack.bench.questions import distinct_questions
from devstack.bench.stack import CpuMeter, Process, log, memory_mb, profile
from devstack.bench.stats import latency_summary
from techai_shared.auth import mint_token
from techai_shared.settings import CommonSettings

GENERAL = {"message": "안녕하세요! 오늘도 잘 부탁해요",
           "options": {"includeContests": False, "includeNews": False, "includeBookmarks": False}}
Send = Callable[[int, int], Awaitable[dict[str, Any]]]


@dataclass
class Load:
    completed: int
    seconds: float
    latencies_ms: list[float]
    errors: int
    first_error: str = ""

    @property
    def rps(self) -> float:
        return self.completed / self.seconds if self.seconds else 0.0


async def closed_loop(send: Send, users: int, seconds: float, ramp_s: float = 0.0) -> Load:
    """`users` clients, each sending its next request when the last one is answered.

    With `ramp_s`, user u sends its first request u * ramp_s / users after the start, as load tools
    ramp up: users that all send in the same millisecond measure one queue at the start, not the
    service. Every answered request counts, those of the ramp too.
    """
    latencies: list[float] = []
    errors = 0
    first_error = ""
    stop_at = time.monotonic() + ramp_s + seconds

    async def user(u: int) -> None:
        nonlocal errors, first_error
        await asyncio.sleep(u * ramp_s / users)
        i = 0
        while time.monotonic() < stop_at:
            began = time.perf_counter()
            try:
                await send(u, i)
                latencies.append((time.perf_counter() - began) * 1000)
            except Exception as exc:
                errors += 1
                first_error = first_error or f"{type(exc).__name__}: {exc}"[:300]
            i += 1

    start = time.monotonic()
    await asyncio.gather(*(user(u) for u in range(users)))
    return Load(len(latencies), time.monotonic() - start, latencies, errors, first_error)


async def _nothing() -> None:
    return None


class ChatClient:
    """Users of chatbot-api, each with a token and a session of its own."""

    def __init__(self, service: Process, settings: CommonSettings, users: int,
                 client: httpx.AsyncClient) -> None:
        self.url = service.url + "/api/v1/chatbot"
        self.client = client
        self.headers = [{"Authorization": f"Bearer {mint_token(str(70000 + u), settings)}"}
                        for u in range(users)]
        self.sessions: list[str] = []
        self.modes: set[str] = set()
        self._questions = iter(distinct_questions(200_000))

    async def open_sessions(self) -> None:
        self.sessions = [(await self._post(u, dict(GENERAL)))["conversationId"]
                         for u in range(len(self.headers))]

    async def _post(self, u: int, body: dict[str, Any]) -> dict[str, Any]:
        response = await self.client.post(self.url, json=body, headers=self.headers[u])
        if response.status_code != 200:
            raise RuntimeError(f"chat answered {response.status_code}: {response.text[:300]}")
        data: dict[str, Any] = response.json()["data"]
        self.modes.add(data["mode"])
        return data

    async def general(self, u: int, i: int) -> dict[str, Any]:
        return await self._post(u, {**GENERAL, "conversationId": self.sessions[u]})

    async def catalog(self, u: int, i: int) -> dict[str, Any]:
        """A first-turn catalog question (a new session, so no follow-up rule skips retrieval), never
        asked before in the run: no answer or query-vector cache serves it."""
        return await self._post(u, {"message": next(self._questions)})


class OpenAICompatibleClient:
    """The same users and sessions as a ChatClient, asking through POST /v1/chat/completions (the
    OpenAI-compatible endpoint) with the conversation named in the body, as a client of it would."""

    def __init__(self, chat: ChatClient, model: str = "techai-chat") -> None:
        self.chat = chat
        self.url = chat.url.removesuffix("/api/v1/chatbot") + "/v1/chat/completions"
        self.model = model
        self.modes: set[str] = set()

    async def general(self, u: int, i: int) -> dict[str, Any]:
        response = await self.chat.client.post(self.url, headers=self.chat.headers[u], json={
            "model": self.model, "messages": [{"role": "user", "content": GENERAL["message"]}],
            "conversation_id": self.chat.sessions[u]})
        if response.status_code != 200:
            raise RuntimeError(f"/v1/chat/completions answered {response.status_code}: "
                               f"{response.text[:300]}")
        data: dict[str, Any] = response.json()
        self.modes.add(data["mode"])
        return data


class BareClient:
    """Users of a bare endpoint (bare_chat.py): general turns in sessions of their own, and
    first-turn catalog questions, each never asked before in the run."""

    def __init__(self, service: Process, users: int, client: httpx.AsyncClient) -> None:
        self.url = service.url
        self.client = client
        self.users = users
        self.sessions: list[str] = []
        self._questions = iter(distinct_questions(200_000))

    async def open_sessions(self) -> None:
        for u in range(self.users):
            r = await self.client.post(self.url + "/session", json={"userId": str(70000 + u)})
            self.sessions.append(r.json()["conversationId"])

    async def general(self, u: int, i: int) -> dict[str, Any]:
        response = await self.client.post(self.url + "/chat", json={
            "conversationId": self.sessions[u], "userId": str(70000 + u), "message": GENERAL["message"]})
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data

    async def catalog(self, u: int, i: int) -> dict[str, Any]:
        response = await self.client.post(self.url + "/catalog", json={
            "userId": str(70000 + u), "message": next(self._questions)})
        response.raise_for_status()
        data: dict[str, Any] = response.json()
        return data


async def set_model_delay(model: Process, seconds: float) -> None:
    async with httpx.AsyncClient() as client:
        (await client.post(model.url + "/control", json={"delay": seconds})).raise_for_status()


async def measure(chatbot: Process, bare: Process, bare_sdk: Process, model: Process,
                  settings: CommonSettings,
                  watched: dict[str, Process], runs: int, seconds: float, saturation_users: int,
                  latency_users: list[int], model_ms: int, profile_dir: Path | None = None,
                  cpu_pids: dict[str, int] | None = None,
                  caught_up: Callable[[], Awaitable[None]] = _nothing,
                  chatbot_anthropic: Process | None = None) -> dict[str, Any]:
    """`bare` is the bare endpoint on LangChain's client, `bare_sdk` the same on the OpenAI SDK:
    both are measured at saturation next to chatbot-api, with the CPU each process spends per
    turn; `bare` answers catalog questions too, at 10 and 50 users, next to chatbot-api with the
    projection paused (_catalog_pair), with the CPU per catalog turn at 10 users.
    `caught_up` returns once query-sync has projected every message chatbot-api stored.
    `chatbot_anthropic`, the same service on the Anthropic wire, is measured at 10 users in general
    mode, on the same sessions, each run right after chatbot-api's own (OpenAI's wire); so is
    chatbot-api's OpenAI-compatible endpoint (POST /v1/chat/completions)."""
    limits = httpx.Limits(max_connections=200, max_keepalive_connections=200)
    result: dict[str, Any] = {"memory_at_rest": {n: memory_mb(p.proc.pid) for n, p in watched.items()}}
    async with httpx.AsyncClient(timeout=60, limits=limits) as client:
        users = max(saturation_users, *latency_users)
        chat = ChatClient(chatbot, settings, users, client)
        compatible = OpenAICompatibleClient(chat)
        base = BareClient(bare, users, client)
        base_sdk = BareClient(bare_sdk, users, client)
        await set_model_delay(model, 0)
        await chat.open_sessions()
        await base.open_sessions()
        await base_sdk.open_sessions()
        if chat.modes != {"general"}:
            raise RuntimeError(f"general-mode chat answered in modes {chat.modes}")
        # Throughput at saturation, chatbot-api and the bare endpoint in turn.
        chat_rps, bare_rps, sdk_rps, live_rps = [], [], [], []
        meter = CpuMeter(cpu_pids or {}, trees=frozenset({"chatbot-api", "bare-chat", "bare-sdk"}))
        cpu_runs: list[dict[str, dict[str, float]]] = []
        claude: ChatClient | None = None
        if chatbot_anthropic is not None:
            claude = ChatClient(chatbot_anthropic, settings, users, client)
            claude.sessions = chat.sessions
        await closed_loop(chat.general, saturation_users, 2)  # warm-up (every worker's first calls)
        await closed_loop(base.general, saturation_users, 2)
        await closed_loop(base_sdk.general, saturation_users, 2)
        if claude is not None:
            await closed_loop(claude.general, saturation_users, 2)
        for run in range(runs):
            await caught_up()
            live = await closed_loop(chat.general, saturation_users, seconds)
            if live.errors:
                raise RuntimeError(f"throughput run with the projection live failed {live.errors} "
                                   f"requests, the first: {live.first_error}")
            live_rps.append(live.rps)
            await caught_up()
            # The pair measured against each other runs with query-sync stopped: neither request
            # path includes the projection, and on this machine it would take CPU from one side
            # only (the bare endpoint's events are never projected). It catches up after the pair.
            sync_proc = watched["query-sync"].proc
            sync_proc.send_signal(signal.SIGSTOP)
            try:
                spy = profile(chatbot.proc.pid, seconds, profile_dir / "chatbot-api.txt"
                              if profile_dir and run == 0 else None)
                meter.start()
                c = await closed_loop(chat.general, saturation_users, seconds)
                chat_cpu = meter.stop()
                if spy is not None and profile_dir is not None:
                    spy.wait()
                    result["profile_general"] = _parts(profile_dir, "chatbot-api.txt", c.completed,
                                                       chat_cpu.get("chatbot-api", 0.0))
                meter.start()
                b = await closed_loop(base.general, saturation_users, seconds)
                bare_cpu = meter.stop()
                meter.start()
                k = await closed_loop(base_sdk.general, saturation_users, seconds)
                sdk_cpu = meter.stop()
            finally:
                sync_proc.send_signal(signal.SIGCONT)
            cpu_runs.append({"chatbot_api_ms_per_request": _per_request(chat_cpu, c.completed),
                             "bare_ms_per_request": _per_request(bare_cpu, b.completed),
                             "bare_sdk_ms_per_request": _per_request(sdk_cpu, k.completed)})
            if c.errors or b.errors or k.errors:
                raise RuntimeError(f"throughput run failed requests: chat {c.errors}, bare {b.errors}, "
                                   f"bare on the SDK {k.errors}: "
                                   f"{c.first_error or b.first_error or k.first_error}")
            chat_rps.append(c.rps)
            bare_rps.append(b.rps)
            sdk_rps.append(k.rps)
            log(f"chat throughput run {run + 1}/{runs}: chatbot-api {c.rps:.1f}/s, bare {b.rps:.1f}/s, "
                f"bare on the SDK {k.rps:.1f}/s ({saturation_users} users); chatbot-api with the "
                f"projection live {live.rps:.1f}/s")
            if cpu_pids:
                for side, key in (("chatbot-api", "chatbot_api_ms_per_request"),
                                  ("bare", "bare_ms_per_request"),
                                  ("bare on the SDK", "bare_sdk_ms_per_request")):
                    log(f"  CPU ms per request, {side} run: {_top(cpu_runs[-1][key])}")
        result["throughput"] = {"users": saturation_users, "chat_rps": chat_rps, "bare_rps": bare_rps,
                                "bare_sdk_rps": sdk_rps,
                                "ratios": [c / b for c, b in zip(chat_rps, bare_rps, strict=True)],
                                "chat_rps_projection_live": live_rps, "cpu": cpu_runs}
        await caught_up()
        # Latency with a model taking model_ms, general mode then retrieval on.
        await set_model_delay(model, model_ms / 1000)
        latency: dict[str, Any] = {}
        catalog_cpu: list[dict[str, dict[str, float]]] = []
        for mode, send in (("general", chat.general), ("retrieval", chat.catalog)):
            chat.modes = set()
            for n in latency_users:
                per_run, per_run_claude, per_run_compatible = [], [], []
                per_run_bare, per_run_paused = [], []
                for run in range(runs):
                    per_run.append(await _latency_run(send, n, seconds, model_ms, f"{mode} {n} users",
                                                      run, runs))
                    if mode == "retrieval" and n in (10, 50):
                        pair = await _catalog_pair(chat, base, n, seconds, model_ms, run, runs,
                                                   watched["query-sync"], meter, caught_up,
                                                   chatbot if profile_dir and (n, run) == (10, 0)
                                                   else None, profile_dir)
                        per_run_paused.append(pair["chatbot"])
                        per_run_bare.append(pair["bare"])
                        if n == 10:
                            catalog_cpu.append(pair["cpu"])
                        if "profile" in pair:
                            result["profile_catalog"] = pair["profile"]
                    if (mode, n) == ("general", 10):
                        per_run_compatible.append(await _latency_run(
                            compatible.general, n, seconds, model_ms,
                            f"{mode} {n} users, /v1/chat/completions", run, runs))
                    if claude is not None and (mode, n) == ("general", 10):
                        per_run_claude.append(await _latency_run(
                            claude.general, n, seconds, model_ms, f"{mode} {n} users, Anthropic wire",
                            run, runs))
                latency[f"{mode}_{n}u"] = per_run
                if per_run_bare:
                    latency[f"bare_{mode}_{n}u"] = per_run_bare
                    latency[f"{mode}_{n}u_projection_paused"] = per_run_paused
                if per_run_claude:
                    latency[f"anthropic_{mode}_{n}u"] = per_run_claude
                if per_run_compatible:
                    latency[f"openai_compatible_{mode}_{n}u"] = per_run_compatible
            latency[f"{mode}_modes"] = sorted(chat.modes)
        if compatible.modes != {"general"}:
            raise RuntimeError(f"/v1/chat/completions answered in modes {compatible.modes}")
        if claude is not None and claude.modes != {"general"}:
            raise RuntimeError(f"chatbot-api on the Anthropic wire answered in modes {claude.modes}")
        if "rag" not in latency["retrieval_modes"]:
            raise RuntimeError(f"catalog questions were never answered with sources: {latency}")
        result["latency"] = latency
        result["catalog_cpu"] = catalog_cpu
    result["memory_under_load"] = {n: memory_mb(p.proc.pid) for n, p in watched.items()}
    return result


async def _catalog_pair(chat: ChatClient, base: BareClient, users: int, seconds: float,
                        model_ms: int, run: int, runs: int, sync: Process, meter: CpuMeter,
                        caught_up: Callable[[], Awaitable[None]], profiled: Process | None,
                        profile_dir: Path | None) -> dict[str, Any]:
    """Catalog questions on chatbot-api, then on the bare catalog endpoint, each with the CPU its
    turns cost, with query-sync stopped as for the throughput pair: neither request path includes
    the projection (the bare endpoint's events go to topics nothing consumes), which would
    otherwise take CPU from chatbot-api's side only. The projection catches up first."""
    await caught_up()
    sync.proc.send_signal(signal.SIGSTOP)
    try:
        spy = (profile(profiled.proc.pid, seconds + 1, profile_dir / "chatbot-api-catalog.txt")
               if profiled is not None and profile_dir is not None else None)
        meter.start()
        chatbot = await _latency_run(chat.catalog, users, seconds, model_ms,
                                     f"retrieval {users} users, projection paused", run, runs)
        chat_cpu = meter.stop()
        if spy is not None:
            spy.wait()
        meter.start()
        bare = await _latency_run(base.catalog, users, seconds, model_ms,
                                  f"retrieval {users} users, bare catalog endpoint", run, runs)
        bare_cpu = meter.stop()
    finally:
        sync.proc.send_signal(signal.SIGCONT)
    cpu = {"chatbot_api_ms_per_request": _per_request(chat_cpu, chatbot["n_window"]),
           "bare_ms_per_request": _per_request(bare_cpu, bare["n_window"])}
    log(f"  CPU ms per catalog turn at {users} users, chatbot-api: "
        f"{_top(cpu['chatbot_api_ms_per_request'])}; "
        f"bare: {_top(cpu['bare_ms_per_request'])}")
    pair: dict[str, Any] = {"chatbot": chatbot, "bare": bare, "cpu": cpu}
    if spy is not None and profile_dir is not None:
        pair["profile"] = _parts(profile_dir, "chatbot-api-catalog.txt", chatbot["n_window"],
                                 chat_cpu.get("chatbot-api", 0.0))
    return pair


async def _latency_run(send: Send, users: int, seconds: float, model_ms: int, what: str, run: int,
                       runs: int) -> dict[str, Any]:
    """One measured window after an unmeasured second of warm-up; the users start one model round
    apart in total (see closed_loop), and every request of the window counts."""
    warm = await closed_loop(send, users, 1.0, ramp_s=model_ms / 1000)
    load = await closed_loop(send, users, seconds, ramp_s=model_ms / 1000)
    # an overloaded service failing requests is a result here, not a reason to stop
    summary = {**latency_summary(load.latencies_ms), "rps": round(load.rps, 1),
               "errors": load.errors, "first_error": load.first_error,
               "n_window": warm.completed + load.completed}  # answered, warm-up included
    log(f"chat latency {what} run {run + 1}/{runs}: p50 {summary['p50']} p95 {summary['p95']} "
        f"p99 {summary['p99']} ms over {summary['n']} requests, {load.errors} failed")
    return summary


def _parts(profile_dir: Path, name: str, turns: int, cpu_s: float) -> dict[str, Any]:
    """The profile's shares by part (profile_parts.py) and, from the run's CPU per turn, each part's
    CPU milliseconds per turn."""
    shares = profile_parts.summarise(profile_dir / name)
    per_turn = 1000 * cpu_s / max(turns, 1)
    log(f"  chatbot-api CPU by part ({name}, {per_turn:.1f} ms a turn): " + ", ".join(
        f"{part} {share * per_turn:.1f} ms" for part, share in shares.items()))
    return {"shares": shares, "cpu_ms_per_turn": round(per_turn, 2),
            "ms_per_turn": {part: round(share * per_turn, 2) for part, share in shares.items()}}


def _per_request(cpu: dict[str, float], completed: int) -> dict[str, float]:
    """CPU milliseconds each process spent per completed request of a run."""
    return {name: round(1000 * seconds / max(completed, 1), 2) for name, seconds in cpu.items()}


def _top(per_request: dict[str, float]) -> str:
    busy = sorted(per_request.items(), key=lambda kv: -kv[1])
    total = sum(per_request.values())
    return f"total {total:.1f}: " + ", ".join(f"{name} {ms:.1f}" for name, ms in busy if ms >= 0.1)
