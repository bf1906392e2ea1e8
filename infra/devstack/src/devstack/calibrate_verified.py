"""`make calibrate-verified`: how well verified answers reach the people who ask them, on labelled
paraphrases and near-misses, with chatbot-api's own rules (chatbot_api.verified.match).

Each line of a calibration file is a verified answer (its phrasings, its text, its split) with
paraphrases, which should be served that answer, and near-misses (the same words about another
question, or the same question about another item), which must be served nothing. All the answers
of a file are published at once, as in production, and each question is assessed against all of
them. Printed per split, at the cosines in use and over a sweep of the serving cosine:

- `served`: the share of paraphrases served their own answer;
- `false`: the share of near-misses served any answer (a wrong answer served to a paraphrase
  counts here too);
- `suggested`: the share of the paraphrases not served whose own answer is among the suggestions;
- `judged`: the share of paraphrases served when a model judges the suggestions and judges
  correctly (it picks the paraphrase's own answer when it is among them, and no other): what a
  configured model adds (near-misses stay unserved: a correct judge says no to each);
- `reached`: the share of paraphrases whose own answer is served or suggested first.

Questions that match no answer (the general and catalog questions of the retrieval sets) give the
share of them that get a suggestion and the share served anything (must be 0).

The default file is infra/seed/verified-answers.jsonl: 48 answers written for this by writers who
saw neither the matcher nor the earlier file, split `tune` (what the rules and the facet words were
chosen on) and `check` (not looked at while choosing). `--file infra/seed/verified-calibration.jsonl`
measures the earlier 18 answers (splits tune, check, holdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from chatbot_api.language import korean
from chatbot_api.verified.match import (
    MIN_COSINE,
    SUGGEST_COSINE,
    Answer,
    Phrasing,
    Published,
    Question,
    assess,
    phrasing,
)
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.settings import CommonSettings

SWEEP = (0.86, 0.88, 0.9, 0.92)
UNRELATED = ("queries-dev.jsonl", "queries-general-1.jsonl", "queries-test-a.jsonl")


@dataclass(frozen=True)
class Asked:
    split: str
    kind: str  # paraphrases | near_misses | unrelated
    answer_id: str
    question: Question
    cosines: np.ndarray  # to every phrasing, in Bench.phrasings order


@dataclass(frozen=True)
class Bench:
    phrasings: list[Phrasing]
    published: Published
    names: frozenset[str]
    asked: list[Asked]
    splits: tuple[str, ...]


async def _vectors(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    return np.asarray([await embedder.embed_query(t) for t in texts], dtype=np.float32)


def _catalog_names(seed_dir: Path) -> frozenset[str]:
    titles = [json.loads(line)["title"] for name in ("contests.jsonl", "news_articles.jsonl")
              for line in (seed_dir / name).read_text(encoding="utf-8").splitlines() if line]
    return frozenset().union(*(korean.analyse(t) for t in titles))


def _question(text: str) -> Question:
    return Question(text, korean.content_terms(text), korean.name_hints(text))


async def prepare(path: Path, seed_dir: Path, embedder: Embedder) -> Bench:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    phrasings = [phrasing(r["id"], q, korean.content_terms) for r in rows for q in r["questions"]]
    answers = {r["id"]: Answer(r["id"], r["answer"], (), None, None) for r in rows}
    published = Published.of(answers, phrasings,
                             {r["id"]: korean.content_terms(r["answer"]) for r in rows})
    matrix = await _vectors(embedder, [p.text for p in phrasings])
    labelled = [(r["split"], kind, r["id"], text) for r in rows
                for kind in ("paraphrases", "near_misses") for text in r[kind]]
    unrelated = [("unrelated", "unrelated", "", json.loads(line)["query"]) for name in UNRELATED
                 for line in (seed_dir / name).read_text(encoding="utf-8").splitlines() if line]
    every = labelled + unrelated
    vectors = await _vectors(embedder, [text for *_, text in every])
    asked = [Asked(split, kind, answer_id, _question(text), matrix @ vectors[i])
             for i, (split, kind, answer_id, text) in enumerate(every)]
    splits = tuple(dict.fromkeys(r["split"] for r in rows))
    return Bench(phrasings, published, _catalog_names(seed_dir), asked, splits)


def score(bench: Bench, min_cosine: float, suggest_cosine: float) -> dict[str, dict[str, Any]]:
    """Per split (and `unrelated`), the figures of the module's docstring."""
    now = datetime.now(UTC)
    counts: dict[str, dict[str, int]] = {}
    for a in bench.asked:
        c = counts.setdefault(a.split, dict.fromkeys(
            ("paraphrases", "served", "wrong", "near_misses", "near_served", "unserved",
             "suggested", "judged", "reached", "unrelated", "with_suggestion", "unrelated_served"),
            0))
        candidates = [(bench.phrasings[i], float(a.cosines[i]))
                      for i in np.flatnonzero(a.cosines >= suggest_cosine)]
        verdict = assess(a.question, candidates, bench.published, bench.names, min_cosine,
                         suggest_cosine, now)
        served = verdict.match.answer.answer_id if verdict.match else None
        suggested = [s.answer.answer_id for s in verdict.suggestions]
        if a.kind == "unrelated":
            c["unrelated"] += 1
            c["with_suggestion"] += bool(suggested)
            c["unrelated_served"] += served is not None
        elif a.kind == "paraphrases":
            c["paraphrases"] += 1
            c["served"] += served == a.answer_id
            c["wrong"] += served is not None and served != a.answer_id
            if served is None:
                c["unserved"] += 1
                c["suggested"] += a.answer_id in suggested
            first = served or (suggested[0] if suggested else None)
            c["reached"] += first == a.answer_id
            # the model is shown every suggestion and, judging correctly, picks exactly this one
            c["judged"] += served == a.answer_id or (served is None and a.answer_id in suggested)
        else:
            c["near_misses"] += 1
            c["near_served"] += served is not None
    report: dict[str, dict[str, Any]] = {}
    for split, c in counts.items():
        if split == "unrelated":
            report[split] = {"questions": c["unrelated"],
                             "with_suggestion": _share(c["with_suggestion"], c["unrelated"]),
                             "served": _share(c["unrelated_served"], c["unrelated"])}
            continue
        report[split] = {
            "paraphrases": c["paraphrases"], "near_misses": c["near_misses"],
            "served": _share(c["served"], c["paraphrases"]),
            "false": _share(c["near_served"] + c["wrong"], c["near_misses"]),
            "suggested": _share(c["suggested"], c["unserved"]) if c["unserved"] else 1.0,
            "judged": _share(c["judged"], c["paraphrases"]),
            "reached": _share(c["reached"], c["paraphrases"])}
    return report


def _share(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m devstack.calibrate_verified")
    args.add_argument("--file", type=Path, default=Path("infra/seed/verified-answers.jsonl"))
    args.add_argument("--seed-dir", type=Path, default=Path("infra/seed"))
    args.add_argument("--json", type=Path, help="also write the figures in use to this file")
    parsed = args.parse_args(argv)
    embedder = make_embedder(CommonSettings())
    bench = asyncio.run(prepare(parsed.file, parsed.seed_dir, embedder))
    used, suggest = MIN_COSINE.get(embedder.model_name), SUGGEST_COSINE.get(embedder.model_name)
    print(f"embedding model {embedder.model_name}; serving cosine {used}, suggesting from {suggest}")
    if used is None or suggest is None:
        print("no cosine calibrated for this model: verified answers are not served")
        return 0
    report = score(bench, used, suggest)
    print(f"{'split':<10} {'paraphrases':>11} {'served':>7} {'false':>6} {'suggested':>9} "
          f"{'judged':>7} {'reached':>8}")
    for split in bench.splits:
        r = report[split]
        print(f"{split:<10} {r['paraphrases']:>11} {r['served']:>7} {r['false']:>6} "
              f"{r['suggested']:>9} {r['judged']:>7} {r['reached']:>8}")
    u = report["unrelated"]
    print(f"unrelated questions {u['questions']}: with a suggestion {u['with_suggestion']}, "
          f"served {u['served']}")
    print("\nserving cosine sweep (suggesting from the cosine in use):")
    for cosine in SWEEP:
        swept = score(bench, cosine, min(suggest, cosine))
        print(f"{cosine:>6}  " + "  ".join(
            f"{s} {swept[s]['served']}/{swept[s]['false']}" for s in bench.splits))
    if parsed.json:
        parsed.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
