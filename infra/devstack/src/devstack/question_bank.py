"""Write chatbot-api's question bank (retrieval/question_bank.jsonl) from labelled question sets.

The relevance gate embeds the bank and lets a question's closest labelled questions vote on
whether it is a catalog question or a general one (docs/retrieval-quality.md). Each set given
here becomes part of what the gate has seen: a set measured after it is in the bank measures
nothing, so the held-out sets stay out of it.

    python -m devstack.question_bank infra/seed/queries-dev.jsonl ...   (make question-bank)
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from chatbot_api.retrieval.relevance import QUESTION_BANK

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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("sets", nargs="+", type=Path, help="labelled question sets (JSON Lines)")
    parser.add_argument("--out", type=Path, default=QUESTION_BANK)
    args = parser.parse_args()
    rows = bank_rows(args.sets)
    args.out.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows),
                        encoding="utf-8")
    general = sum(bool(r["general"]) for r in rows)
    print(f"{args.out}: {len(rows)} questions ({general} general, {len(rows) - general} catalog)")


if __name__ == "__main__":
    main()
