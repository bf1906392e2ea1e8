"""`make eval-sets`: the search evaluation of many labelled sets in one process, one row a set,
the overall figures, and each figure's change against a committed baseline.

The sets are listed in infra/seed/eval-sets.toml, each with its catalog folder and the day its
questions are answered as of. Each catalog is projected once (cached across runs, like `make
eval`). The question bank leaves out the measured set's own questions (leave one set out) or,
with --leave-items-out, every bank question about an item the measured set asks about: a set that
asks about items the bank has seen is measured as if those items were new.

With --union every set is asked of one catalog holding all the sets' catalogs at once; with
--pad N, of its catalog with its contests and news filled up to N each (devstack.pad_catalog:
the statistics the gate reads at the portal's size). The first padded run embeds the padding
(about 20 minutes for 10,000 a collection on two cores); later runs read it from the cache.

    python -m devstack.eval_sets [--only dev,portal-a] [--leave-items-out] [--union] [--pad N]
                                 [--write-baseline]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import tempfile
import tomllib
from dataclasses import dataclass, replace
from datetime import datetime
from pathlib import Path
from typing import Any

from pymongo import AsyncMongoClient
from pymongo.asynchronous.database import AsyncDatabase

from chatbot_api.retrieval.question_bank import QUESTION_BANK
from devstack.evaluate import (
    SEED_FILES,
    Group,
    Outcome,
    Readers,
    as_of_date,
    load_catalog,
    measure,
    offtopic_cited,
    read_jsonl,
    summarise,
    temporary_secantus,
)
from devstack.pad_catalog import padded
from query_sync.catalog_documents import BOOKMARKS
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.settings import CommonSettings

MANIFEST = Path("infra/seed/eval-sets.toml")
BASELINE = Path("infra/seed/eval-baseline.json")
FIGURES = ("recall", "mrr", "offtopic_cited", "leaks")


@dataclass(frozen=True)
class EvalSet:
    name: str
    queries: Path
    catalog: Path
    as_of: datetime


def padded_folder(catalog: Path, size: int, as_of: datetime) -> Path:
    """Where the padded copy of `catalog` is written (the embedding cache is keyed by its files)."""
    name = f"techai-padded-{catalog.resolve().name}-{size}-{as_of.date().isoformat()}"
    return Path(tempfile.gettempdir()) / name


def read_manifest(path: Path) -> list[EvalSet]:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    return [EvalSet(s["name"], Path(s["queries"]), Path(s["catalog"]), as_of_date(s["as_of"]))
            for s in data["set"]]


def figures(groups: dict[str, Group], outcomes: list[Outcome]) -> dict[str, float]:
    overall = groups["overall"]
    labelled = max(overall.labelled, 1)
    return {"recall": round(overall.recall / labelled, 3),
            "mrr": round(overall.reciprocal / labelled, 3),
            "offtopic_cited": round(offtopic_cited(outcomes), 3), "leaks": overall.leaks}


def items_asked(queries: list[dict[str, Any]]) -> set[tuple[str, str]]:
    return {(e["collection"], e["id"]) for q in queries for e in q.get("expected", [])}


def bank_questions_about(items: set[tuple[str, str]], seed: Path) -> frozenset[str]:
    """The bank's questions whose labelled answers include one of `items` (their sets are read
    from `seed`, where the bank was written from)."""
    left_out: set[str] = set()
    sets: dict[str, dict[str, dict[str, Any]]] = {}
    for line in QUESTION_BANK.read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        name, _, qid = str(row.get("from", "")).partition("#")
        if name not in sets:
            source = seed / name
            sets[name] = {q["id"]: q for q in read_jsonl(source)} if source.exists() else {}
        asked = sets[name].get(qid)
        if asked is not None and items_asked([asked]) & items:
            left_out.add(row["question"])
    return frozenset(left_out)


async def evaluate_set(db: AsyncDatabase[dict[str, Any]], embedder: Embedder, s: EvalSet,
                       leave_items_out: bool, readers: Readers | None = None
                       ) -> tuple[dict[str, float], list[str]]:
    queries = read_jsonl(s.queries)
    owners = {d["id"]: str(d["userId"]) for d in read_jsonl(s.catalog / SEED_FILES[BOOKMARKS])}
    # a bookmark of another catalog's user is still another user's
    leave_out = frozenset(q["query"] for q in queries)
    if leave_items_out:
        leave_out |= bank_questions_about(items_asked(queries), Path("infra/seed"))
    outcomes = await measure(db, embedder, queries, owners, s.as_of, leave_out, readers)
    groups = summarise(queries, outcomes)
    return figures(groups, outcomes), groups["overall"].misses


async def run(sets: list[EvalSet], mongo_url: str, leave_items_out: bool, union: bool = False
              ) -> dict[str, dict[str, float]]:
    embedder = make_embedder(CommonSettings())
    client: AsyncMongoClient[dict[str, Any]] = AsyncMongoClient(mongo_url)
    results: dict[str, dict[str, float]] = {}
    loaded: dict[Path, AsyncDatabase[dict[str, Any]]] = {}
    readers: Readers = {}
    try:
        if union:  # one database holds every catalog
            db = client["techai_eval_union"]
            for catalog in dict.fromkeys(s.catalog for s in sets):
                await load_catalog(db, embedder, catalog)
            loaded = dict.fromkeys((s.catalog for s in sets), db)
        for s in sets:
            if s.catalog not in loaded:
                loaded[s.catalog] = client[f"techai_eval_{len(loaded)}"]
                await load_catalog(loaded[s.catalog], embedder, s.catalog)
            results[s.name], misses = await evaluate_set(loaded[s.catalog], embedder, s,
                                                         leave_items_out, readers)
            print(f"  {s.name}: {results[s.name]}" + (f"  missed {', '.join(misses)}"
                                                       if misses else ""), flush=True)
    finally:
        await client.close()
    return results


def report(results: dict[str, dict[str, float]], baseline: dict[str, dict[str, float]]) -> str:
    """One row a set, each figure with its change against the baseline, then the mean."""
    lines = [f"{'set':<12}" + "".join(f"{f:>22}" for f in FIGURES)]
    for name, figs in [*results.items(), ("mean", _mean(results))]:
        was = baseline.get(name, {})
        cells = [f"{figs[f]:.3f}".rstrip("0").rstrip(".") if f == "leaks" else f"{figs[f]:.3f}"
                 for f in FIGURES]
        deltas = [f" ({figs[f] - was[f]:+.3f})" if f in was and figs[f] != was[f] else ""
                  for f in FIGURES]
        lines.append(f"{name:<12}" + "".join(f"{c + d:>22}" for c, d in zip(cells, deltas,
                                                                             strict=True)))
    return "\n".join(lines)


def _mean(results: dict[str, dict[str, float]]) -> dict[str, float]:
    return {f: round(sum(r[f] for r in results.values()) / max(len(results), 1), 3)
            for f in FIGURES}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--manifest", type=Path, default=MANIFEST)
    parser.add_argument("--baseline", type=Path, default=BASELINE)
    parser.add_argument("--only", default="", help="comma-separated set names (default: all)")
    parser.add_argument("--leave-items-out", action="store_true",
                        help="leave out of the question bank every question about an item the "
                             "measured set asks about")
    parser.add_argument("--union", action="store_true",
                        help="ask every set of one catalog holding all the sets' catalogs")
    parser.add_argument("--pad", type=int, default=0, metavar="N",
                        help="fill each catalog's contests and news up to N each")
    parser.add_argument("--write-baseline", action="store_true",
                        help="write these figures as the baseline (commit it with the change)")
    args = parser.parse_args()
    wanted = {n.strip() for n in args.only.split(",") if n.strip()}
    sets = [s for s in read_manifest(args.manifest) if not wanted or s.name in wanted]
    if args.pad:
        sets = [replace(s, catalog=padded(s.catalog, padded_folder(s.catalog, args.pad, s.as_of),
                                          args.pad, s.as_of)) for s in sets]
    baseline = json.loads(args.baseline.read_text()) if args.baseline.exists() else {}
    key = "+".join(["leave-items-out" if args.leave_items_out else "sets",
                    *(["union"] if args.union else []), *([f"pad-{args.pad}"] if args.pad else [])])
    with temporary_secantus("techai-eval-sets-") as (server, _):
        results = asyncio.run(run(sets, server.url, args.leave_items_out, args.union))
    print(report(results, baseline.get(key, {})))
    if args.write_baseline:
        merged = {name: figs for name, figs in {**baseline.get(key, {}), **results}.items()
                  if name != "mean"}
        baseline[key] = {**merged, "mean": _mean(merged)}  # the mean of every set recorded
        args.baseline.write_text(json.dumps(baseline, indent=2, sort_keys=True) + "\n")
        print(f"baseline written to {args.baseline} ({key})")


if __name__ == "__main__":
    main()
