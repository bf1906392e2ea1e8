"""Write chatbot-api's question bank (retrieval/question_bank.jsonl) from labelled question sets.

With it go the bank's vectors for the default embedding model (question_bank.npz), so that
chatbot-api does not embed the bank's questions at every start; another model embeds them at
start.

The relevance gate embeds the bank and lets a question's closest labelled questions vote on
whether it is a catalog question or a general one (docs/retrieval-quality.md). Each set given
here becomes part of what the gate has seen: `make eval` leaves the measured set's own questions
out of the bank, so a set in it is measured by the others (leave one set out); only a set that has
never been in the bank, nor used to choose a number, measures the gate as a new question would.

    python -m devstack.question_bank infra/seed/queries-dev.jsonl ...   (make question-bank)
"""

from __future__ import annotations

import argparse
import asyncio
import json
from pathlib import Path

import numpy as np

from chatbot_api.retrieval.question_bank import QUESTION_BANK, QUESTION_BANK_VECTORS, bank_digest
from chatbot_api.retrieval.signals import unit_rows
from techai_shared.embeddings import make_embedder
from techai_shared.settings import CommonSettings

GENERAL_KINDS = frozenset(("general", "greeting"))


def bank_rows(paths: list[Path]) -> list[dict[str, object]]:
    """One row per labelled question: its text, whether it is a general one, and where from."""
    rows: list[dict[str, object]] = []
    seen: set[str] = set()
    for path in paths:
        for line in path.read_text(encoding="utf-8").splitlines():
            if not line.strip():
                continue
            query = json.loads(line)
            if query["query"] in seen:
                continue
            seen.add(query["query"])
            rows.append({"question": query["query"], "general": query["kind"] in GENERAL_KINDS,
                         "from": f"{path.name}#{query['id']}"})
    return rows


async def write_vectors(questions: list[str], out: Path) -> str:
    """Embed `questions` as queries with the configured (default: bundled) model into `out`."""
    embedder = make_embedder(CommonSettings())
    vectors = unit_rows([await embedder.embed_query(q) for q in questions])
    np.savez_compressed(out, model=np.array(embedder.model_name), digest=np.array(
        bank_digest(questions)), vectors=vectors.astype(np.float16))
    return embedder.model_name


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="labelled question sets (JSON Lines)")
    parser.add_argument("--out", type=Path, default=QUESTION_BANK)
    parser.add_argument("--vectors", type=Path, default=QUESTION_BANK_VECTORS)
    args = parser.parse_args()
    rows = bank_rows(args.sets)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                        encoding="utf-8")
    general = sum(bool(r["general"]) for r in rows)
    print(f"{args.out}: {len(rows)} questions ({general} general, {len(rows) - general} catalog)")
    model = asyncio.run(write_vectors([str(r["question"]) for r in rows], args.vectors))
    print(f"{args.vectors}: their vectors for {model}")


if __name__ == "__main__":
    main()
