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

Questions that match no answer (the general and catalog questions of the retrieval sets that are not
in the question bank, test-am to test-at, whose general questions keep suggestions from them) give
the share of them that get a suggestion and the share served anything (must be 0).

The default file is infra/seed/verified-answers.jsonl: 48 answers written for this by writers who
saw neither the matcher nor the earlier file, split `tune` (what the rules and the facet words were
chosen on) and `check` (not looked at while choosing). `--file infra/seed/verified-calibration.jsonl`
measures the earlier 18 answers (splits tune, check, holdout).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import threading
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import numpy as np
import uvicorn
from fastapi import FastAPI, Request

from chatbot_api.adapters.llm import make_model
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.usage import Pricing
from chatbot_api.language import korean
from chatbot_api.retrieval.question_bank import QuestionBank
from chatbot_api.service_layer.verified_judge import VerifiedJudge
from chatbot_api.settings import ChatbotSettings
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
from devstack.servers import free_port
from techai_shared.embeddings import Embedder, make_embedder
from techai_shared.settings import CommonSettings

SWEEP = (0.86, 0.88, 0.9, 0.92)
# retrieval sets that are not in the question bank (Makefile BANK_SETS): no question finds itself
UNRELATED = tuple(f"queries-test-a{x}.jsonl" for x in "mnopqrst")


@dataclass(frozen=True)
class Asked:
    split: str
    kind: str  # paraphrases | near_misses | unrelated
    answer_id: str
    question: Question
    cosines: np.ndarray  # to every phrasing, in Bench.phrasings order
    general: float | None  # to the closest general question of the question bank


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


def _unrelated(row: dict[str, Any]) -> str:
    """The split of a question of the retrieval sets: general (and greetings), or catalog."""
    return "general" if row.get("kind") in ("general", "greeting") else "catalog"


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
    unrelated = [(_unrelated(row), "unrelated", "", row["query"]) for name in UNRELATED
                 for line in (seed_dir / name).read_text(encoding="utf-8").splitlines() if line
                 for row in (json.loads(line),)]
    every = labelled + unrelated
    vectors = await _vectors(embedder, [text for *_, text in every])
    bank = QuestionBank.read(embedder)  # the relevance gate's, as chatbot-api reads it
    await bank.matrix()
    asked = [Asked(split, kind, answer_id, _question(text), matrix @ vectors[i],
                   bank.closest_general(vectors[i]))
             for i, (split, kind, answer_id, text) in enumerate(every)]
    splits = tuple(dict.fromkeys(r["split"] for r in rows))  # the labelled ones
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
                         suggest_cosine, now, general=a.general)
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
            # the model is shown every suggestion (an unsure match among them) and, judging
            # correctly, picks exactly this one
            sure = verdict.match is not None and verdict.match.sure
            c["judged"] += served == a.answer_id if sure else a.answer_id in suggested
        else:
            c["near_misses"] += 1
            c["near_served"] += served is not None
    report: dict[str, dict[str, Any]] = {}
    for split, c in counts.items():
        if split in ("general", "catalog"):
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


class _LabelledJudge:
    """A local server on the OpenAI Chat Completions wire that judges as the labels say: for a
    judgement prompt (chatbot_api.service_layer.verified_judge), the number of the listed question
    whose answer is the asked question's own (paraphrases), else 0 (near-misses, and a paraphrase
    whose answer is not listed)."""

    def __init__(self, labels: dict[str, str], answer_of: dict[str, str]) -> None:
        self.labels, self.answer_of, self.calls = labels, answer_of, 0
        app = FastAPI()

        @app.post("/v1/chat/completions")
        async def complete(request: Request) -> dict[str, Any]:
            body = await request.json()
            self.calls += 1
            text = self.reply(body["messages"][-1]["content"])
            return {"id": f"judge-{self.calls}", "object": "chat.completion", "created": 0,
                    "model": body.get("model", "judge"),
                    "choices": [{"index": 0, "finish_reason": "stop",
                                 "message": {"role": "assistant", "content": text}}],
                    "usage": {"prompt_tokens": 60, "completion_tokens": 1, "total_tokens": 61}}

        self.port = free_port()
        self._server = uvicorn.Server(uvicorn.Config(app, port=self.port, log_level="warning"))
        self._thread = threading.Thread(target=self._server.run, daemon=True)

    def reply(self, prompt: str) -> str:
        head, _, listed = prompt.partition("\n\nQuestions:\n")
        own = self.labels.get(head.removeprefix("User's question: "))
        for line in listed.splitlines():
            number, _, question = line.partition(". ")
            if own is not None and self.answer_of.get(question) == own:
                return number
        return "0"

    def __enter__(self) -> _LabelledJudge:
        self._thread.start()
        while not self._server.started:
            time.sleep(0.02)
        return self

    def __exit__(self, *_: object) -> None:
        self._server.should_exit = True
        self._thread.join(5)


async def judged(bench: Bench, min_cosine: float, suggest_cosine: float, rows: list[dict[str, Any]]
                 ) -> dict[str, dict[str, Any]]:
    """Per split, the share of paraphrases served and of near-misses served when the suggestions
    go to chatbot-api's judge (VerifiedJudge through the LangChain client) on a local server that
    judges as the labels say."""
    labels = {p: r["id"] for r in rows for p in r["paraphrases"]}
    answer_of = {q: r["id"] for r in rows for q in r["questions"]}
    now = datetime.now(UTC)
    counts: dict[str, dict[str, int]] = {}
    with _LabelledJudge(labels, answer_of) as server:
        settings = ChatbotSettings(chatbot_provider="openai", openai_api_key="local",
                                   openai_base_url=f"http://127.0.0.1:{server.port}/v1")
        model = make_model(settings)
        judge = VerifiedJudge(model, TokenCounter(), Pricing("local", 0.0, 0.0), 10.0)
        try:
            for a in bench.asked:
                if a.kind == "unrelated":
                    continue
                candidates = [(bench.phrasings[i], float(a.cosines[i]))
                              for i in np.flatnonzero(a.cosines >= suggest_cosine)]
                verdict = assess(a.question, candidates, bench.published, bench.names,
                                 min_cosine, suggest_cosine, now, general=a.general)
                found = verdict.match
                if verdict.suggestions and not (found is not None and found.sure):
                    found = (await judge.judge(a.question.text, verdict.suggestions)).chosen
                c = counts.setdefault(a.split, {"paraphrases": 0, "served": 0, "near_misses": 0,
                                                "false": 0})
                served = found.answer.answer_id if found else None
                if a.kind == "paraphrases":
                    c["paraphrases"] += 1
                    c["served"] += served == a.answer_id
                    c["false"] += served is not None and served != a.answer_id
                else:
                    c["near_misses"] += 1
                    c["false"] += served is not None
        finally:
            await model.aclose()
        calls = server.calls
    return {split: {"served": _share(c["served"], c["paraphrases"]),
                    "false": _share(c["false"], c["near_misses"]), "calls": calls}
            for split, c in counts.items()}


def _share(part: int, whole: int) -> float:
    return round(part / whole, 3) if whole else 0.0


def main(argv: Sequence[str] | None = None) -> int:
    args = argparse.ArgumentParser(prog="python -m devstack.calibrate_verified")
    args.add_argument("--file", type=Path, default=Path("infra/seed/verified-answers.jsonl"))
    args.add_argument("--seed-dir", type=Path, default=Path("infra/seed"))
    args.add_argument("--json", type=Path, help="also write the figures in use to this file")
    args.add_argument("--judge", action="store_true",
                      help="also put the suggestions to chatbot-api's model judge, on a local "
                           "server that judges as the labels say")
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
    for kind in ("general", "catalog"):
        u = report[kind]
        print(f"{kind} questions of the retrieval sets ({u['questions']}): with a suggestion "
              f"{u['with_suggestion']}, served {u['served']}")
    print("\nserving cosine sweep (suggesting from the cosine in use):")
    for cosine in SWEEP:
        swept = score(bench, cosine, min(suggest, cosine))
        print(f"{cosine:>6}  " + "  ".join(
            f"{s} {swept[s]['served']}/{swept[s]['false']}" for s in bench.splits))
    if parsed.judge:
        rows = [json.loads(line) for line in parsed.file.read_text(encoding="utf-8").splitlines()
                if line]
        with_judge = asyncio.run(judged(bench, used, suggest, rows))
        report["judge"] = with_judge
        print("\nwith the model judge on a local server that judges as the labels say:")
        for split in bench.splits:
            r = with_judge[split]
            print(f"{split:<10} paraphrases served {r['served']}  near-misses served {r['false']}")
        print(f"judge calls: {next(iter(with_judge.values()))['calls']}")
    if parsed.json:
        parsed.json.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
