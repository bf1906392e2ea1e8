"""`make eval-chat`: the whole answering pipeline on labelled queries, in retrieval-only mode.

Loads the sample catalog into a temporary SecantusDB as `make eval` does (the same cached
projection), builds chatbot-api's ChatService over a temporary SQLite command store without a model,
and sends every query of the file as its userId with its options, as a first turn. Prints, per kind,
the share of labelled queries whose expected items are all among the cited sources, the share with
at least one, the sources that are other users' bookmarks (leaks; must be 0), and the share of
greeting and general questions answered with any source (offtopic_cited; must be 0). The last line
is exactly `cited_all=<x> cited_any=<y> leaks=<n> offtopic_cited=<share>` for scripts.
"""

from __future__ import annotations

import asyncio
from collections import defaultdict
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient

from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.adapters.llm import UnconfiguredModel
from chatbot_api.bootstrap import build_chat, unit_of_work
from chatbot_api.retrieval.relevance import RelevanceGate
from chatbot_api.service_layer.chat import ChatOptions, ChatService
from chatbot_api.settings import ChatbotSettings
from devstack.evaluate import (
    OFFTOPIC_KINDS,
    SEED_FILES,
    eval_arguments,
    fixed_clock,
    load_catalog,
    read_jsonl,
    temporary_secantus,
)
from query_sync.catalog_documents import BOOKMARKS
from techai_shared.auth import Principal
from techai_shared.cache import make_redis
from techai_shared.clock import Clock, utcnow
from techai_shared.db.engine import make_engine
from techai_shared.db.migrate import upgrade_to_head
from techai_shared.embeddings import Embedder, make_embedder


@dataclass
class Cited:
    kind: str
    labelled: bool
    all_found: bool
    any_found: bool
    leaks: int
    mode: str
    cited: int = 0


def options_of(query: dict[str, Any]) -> ChatOptions:
    o = query.get("options", {})
    return ChatOptions(o.get("includeContests", True), o.get("includeNews", True),
                       o.get("includeBookmarks", False), o.get("maxResults", 5),
                       o.get("minSimilarityScore", 0.7))


async def cite(chat: ChatService, query: dict[str, Any], owners: dict[str, str]) -> Cited:
    """One query through the pipeline as its user; what the answer cited."""
    user = str(query["userId"])
    result = await chat.chat(Principal(user_id=user, role="USER"), query["query"], None, options_of(query))
    got = {(s["collection"], s["documentId"]) for s in result.sources}
    expected = {(e["collection"], e["id"]) for e in query.get("expected", [])}
    leaks = sum(1 for c, d in got if c == "bookmarks" and owners.get(d) != user)
    return Cited(query.get("kind", "?"), bool(expected), expected <= got, bool(expected & got), leaks,
                 result.mode, len(got))


def report(outcomes: list[Cited]) -> str:
    groups: dict[str, list[Cited]] = defaultdict(list)
    for o in outcomes:
        groups[o.kind].append(o)
        groups["overall"].append(o)
    lines = [f"{'kind':<18}{'queries':>8}{'labelled':>9}{'cited_all':>10}{'cited_any':>10}{'leaks':>7}"]
    for name in [*sorted(n for n in groups if n != "overall"), "overall"]:
        g = groups[name]
        labelled = [o for o in g if o.labelled]
        share_all = f"{sum(o.all_found for o in labelled) / len(labelled):.3f}" if labelled else "-"
        share_any = f"{sum(o.any_found for o in labelled) / len(labelled):.3f}" if labelled else "-"
        lines.append(f"{name:<18}{len(g):>8}{len(labelled):>9}{share_all:>10}{share_any:>10}"
                     f"{sum(o.leaks for o in g):>7}")
    labelled = [o for o in outcomes if o.labelled] or [Cited("", True, False, False, 0, "")]
    offtopic = [o for o in outcomes if o.kind in OFFTOPIC_KINDS]
    offtopic_share = sum(1 for o in offtopic if o.cited) / len(offtopic) if offtopic else 0.0
    lines.append(f"cited_all={sum(o.all_found for o in labelled) / len(labelled):.3f} "
                 f"cited_any={sum(o.any_found for o in labelled) / len(labelled):.3f} "
                 f"leaks={sum(o.leaks for o in outcomes)} offtopic_cited={offtopic_share:.3f}")
    return "\n".join(lines)


def eval_settings(mongo_url: str, sqlite_path: Path) -> ChatbotSettings:
    """Retrieval-only (no model), no cache, no rate limit: every query runs the whole pipeline."""
    return ChatbotSettings(
        environment="development", mysql_url=f"sqlite+aiosqlite:///{sqlite_path}",
        mongodb_uri=mongo_url, mongodb_database="techai_eval", openai_api_key=None,
        chatbot_cache_ttl_seconds=0, chatbot_rate_limit_per_minute=0, chatbot_generate_titles=False,
    )


async def run_all(settings: ChatbotSettings, queries: list[dict[str, Any]], seed_dir: Path,
                  embedder: Embedder | None = None, load: bool = True,
                  clock: Clock = utcnow) -> list[Cited]:
    """Every query through a ChatService over `settings`; loads the catalog first when asked."""
    embedder = embedder or make_embedder(settings)
    engine = make_engine(settings)
    await upgrade_to_head(engine)
    mongo: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(settings.mongodb_uri)
    redis = make_redis(settings)
    try:
        if load:
            await load_catalog(mongo[settings.mongodb_database], embedder, seed_dir)
        owners = {d["id"]: str(d["userId"]) for d in read_jsonl(seed_dir / SEED_FILES[BOOKMARKS])}
        db = mongo[settings.mongodb_database]
        sample = CatalogSample(db, embedder.model_name)
        # the queries' own questions are left out of the question bank: each would find itself
        gate = RelevanceGate.for_model(sample, embedder,
                                       leave_out=frozenset(q["query"] for q in queries))
        chat = build_chat(settings, unit_of_work(engine), mongo, redis, UnconfiguredModel(),
                          embedder, clock, CatalogRetriever(db, embedder, sample=sample,
                                                            clock=clock),
                          gate=gate)
        return [await cite(chat, q, owners) for q in queries]
    finally:
        await redis.aclose()
        await mongo.close()
        await engine.dispose()


def main() -> None:
    args = eval_arguments(__doc__.splitlines()[0])
    with temporary_secantus("techai-eval-chat-") as (server, tmp):
        settings = eval_settings(server.url, tmp / "store.db")
        outcomes = asyncio.run(run_all(settings, read_jsonl(args.queries), args.seed_dir,
                                       clock=fixed_clock(args.as_of)))
        print(report(outcomes))


if __name__ == "__main__":
    main()
