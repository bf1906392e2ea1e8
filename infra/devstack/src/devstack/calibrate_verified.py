"""`make calibrate-verified`: how well verified answers are matched, on labelled paraphrases and
near-misses (infra/seed/verified-calibration.jsonl), with chatbot-api's own rules.

Each line is a verified answer (its phrasings and text) with paraphrases, which should be served
that answer, and near-misses (close in words, about another contest or another detail), which must
be served nothing. Each split is a set of published answers of its own (all of its answers loaded at
once, as in production), and each question goes through chatbot_api.verified.match with the
configured embedder and the names of the sample catalog (infra/seed titles). Printed per split and
per cosine (`tune`: what the cosine and the facet words were calibrated on; `check`: not tuned on,
but its failures were read once; `holdout`: written before the last round of rule changes and never
looked at while making them): the share of paraphrases served their answer, and the share of near-
misses served any answer (a wrong answer served to a paraphrase counts there too). The cosine in use
is the highest at which the tune split keeps its best share of paraphrases served with no near-miss
served.
"""

from __future__ import annotations

import argparse
import asyncio
import json
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np

from chatbot_api.language import korean
from chatbot_api.verified.match import MIN_COSINE, Answer, Phrasing, Question, best_match, phrasing
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.settings import CommonSettings

SWEEP = (0.83, 0.85, 0.86, 0.87, 0.88, 0.89, 0.9, 0.92, 0.94)
SPLITS = ("tune", "check", "holdout")


async def _matrix(embedder: Embedder, texts: Sequence[str]) -> np.ndarray:
    return np.asarray([await embedder.embed_query(t) for t in texts], dtype=np.float32)


def _catalog_names(seed_dir: Path) -> frozenset[str]:
    titles = [json.loads(line)["title"] for name in ("contests.jsonl", "news_articles.jsonl")
              for line in (seed_dir / name).read_text(encoding="utf-8").splitlines() if line]
    return frozenset().union(*(korean.analyse(t) for t in titles))


async def evaluate(path: Path, seed_dir: Path, embedder: Embedder) -> dict[str, Any]:
    rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
    phrasings: list[Phrasing] = [phrasing(r["id"], q, korean.content_terms)
                                 for r in rows for q in r["questions"]]
    by_answer: dict[str, list[Phrasing]] = {}
    for p in phrasings:
        by_answer.setdefault(p.answer_id, []).append(p)
    answers = {r["id"]: Answer(r["id"], r["answer"], (), None, None) for r in rows}
    split_of = {r["id"]: r["split"] for r in rows}
    matrix = await _matrix(embedder, [p.text for p in phrasings])
    names = _catalog_names(seed_dir)
    now = datetime.now(UTC)
    asked: list[tuple[str, str, str, str, np.ndarray]] = []  # split, kind, answer id, text, cosines
    for r in rows:
        for kind in ("paraphrases", "near_misses"):
            for text in r[kind]:
                vector = (await _matrix(embedder, [text]))[0]
                asked.append((r["split"], kind, r["id"], text, matrix @ vector))
    report: dict[str, Any] = {}
    for cosine in SWEEP:
        for split in SPLITS:
            served = wrong = paraphrases = near = 0
            for s, kind, answer_id, text, cosines in asked:
                if s != split:
                    continue
                found = best_match(Question(text, korean.content_terms(text), korean.name_hints(text)),
                                   [(phrasings[i], float(cosines[i])) for i in range(len(phrasings))
                                    if split_of[phrasings[i].answer_id] == split],
                                   lambda a: by_answer.get(a, []), answers, names, cosine, now)
                if kind == "paraphrases":
                    paraphrases += 1
                    served += found is not None and found.answer.answer_id == answer_id
                    wrong += found is not None and found.answer.answer_id != answer_id
                else:
                    near += 1
                    wrong += found is not None
            report[f"{split}@{cosine}"] = {"paraphrases_served": round(served / paraphrases, 3),
                                           "false_matches": round(wrong / near, 3),
                                           "paraphrases": paraphrases, "near_misses": near}
    return report


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m devstack.calibrate_verified")
    args.add_argument("--file", type=Path, default=Path("infra/seed/verified-calibration.jsonl"))
    args.add_argument("--seed-dir", type=Path, default=Path("infra/seed"))
    parsed = args.parse_args(argv)
    embedder = make_embedder(CommonSettings())
    report = asyncio.run(evaluate(parsed.file, parsed.seed_dir, embedder))
    print(f"embedding model {embedder.model_name}; cosine in use "
          f"{MIN_COSINE.get(embedder.model_name, 'none (not calibrated)')}")
    print("cosine  " + "  ".join(f"{s + ' served':>15} {s + ' false':>14}" for s in SPLITS))
    for cosine in SWEEP:
        cells = [report[f"{s}@{cosine}"] for s in SPLITS]
        print(f"{cosine:>6}  " + "  ".join(f"{c['paraphrases_served']:>15} {c['false_matches']:>14}"
                                           for c in cells))
    used = MIN_COSINE.get(embedder.model_name)
    if used in SWEEP:
        print(" ".join(f"served_{s}={report[f'{s}@{used}']['paraphrases_served']} "
                       f"false_{s}={report[f'{s}@{used}']['false_matches']}" for s in SPLITS))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
