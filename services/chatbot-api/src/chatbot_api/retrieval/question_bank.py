"""The question bank: questions users ask, labelled as catalog or general ones
(question_bank.jsonl, written from the labelled question sets by `make question-bank`), embedded
with the query's model. The kind of a new question's closest labelled questions says what kind of
question it is, where its closeness to the catalog does not ("How do I make strawberry jam?"
stands close to a game jam; "Will it rain in Busan?" names a city a contest is held in)."""

from __future__ import annotations

import asyncio
import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from chatbot_api.retrieval.signals import unit_rows
from techai_shared.embeddings import Embedder
from techai_shared.tasks import cancel_and_wait

logger = logging.getLogger(__name__)

QUESTION_BANK = Path(__file__).with_name("question_bank.jsonl")
# the bank's vectors for one model, written with it by make question-bank: no embedding at start
QUESTION_BANK_VECTORS = QUESTION_BANK.with_suffix(".npz")
NEIGHBOURS = 7  # labelled questions that vote on a question's kind

# (model name, question) -> its vector: each bank question is embedded once per process and model
_BANK_VECTORS: dict[tuple[str, str], list[float]] = {}


class QuestionBank:
    """Questions users ask, labelled as catalog or general ones (question_bank.jsonl, written from
    the labelled question sets by `make question-bank`), embedded with the query's model: the kind
    of a new question's closest labelled questions says what kind of question it is, where its
    closeness to the catalog does not ("How do I make strawberry jam?" stands close to a game jam;
    "Will it rain in Busan?" names a city a contest is held in)."""

    def __init__(self, embedder: Embedder, examples: Sequence[tuple[str, bool]]) -> None:
        self._embedder = embedder
        self._texts = [text for text, _ in examples]
        self._general = np.asarray([general for _, general in examples], dtype=bool)
        self._matrix: np.ndarray | None = None
        self._general_rows: np.ndarray | None = None  # the general questions' rows, taken once
        self._lock = asyncio.Lock()
        self._embedding: asyncio.Task[np.ndarray] | None = None

    @classmethod
    def read(cls, embedder: Embedder, path: Path = QUESTION_BANK,
             leave_out: frozenset[str] = frozenset(),
             vectors: Path = QUESTION_BANK_VECTORS) -> QuestionBank:
        """The bank of `path`, without the questions of `leave_out` (an evaluation leaves out the
        questions it measures: a question would find itself); its vectors are taken from
        `vectors` when they were made by the embedder's model for these very questions."""
        rows = [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]
        kept = [i for i, row in enumerate(rows) if row["question"] not in leave_out]
        bank = cls(embedder, [(rows[i]["question"], bool(rows[i]["general"])) for i in kept])
        if vectors.exists():
            with np.load(vectors) as stored:
                if (str(stored["model"]) == embedder.model_name
                        and str(stored["digest"]) == bank_digest([r["question"] for r in rows])):
                    bank._matrix = stored["vectors"].astype(np.float32)[kept]
        return bank

    def __len__(self) -> int:
        return len(self._texts)

    def start(self) -> None:
        """Embed the bank now, in the background, rather than on the first question (about 30 ms
        of one core per question with multilingual-e5-small; nothing when its vectors were shipped
        for the model); again after a failure."""
        if self._matrix is None and (self._embedding is None or self._embedding.done()):
            self._embedding = asyncio.get_running_loop().create_task(self.matrix())
            self._embedding.add_done_callback(_log_failure)

    @property
    def ready(self) -> bool:
        return self._matrix is not None

    async def matrix(self) -> np.ndarray:
        """The bank's unit vectors, one row per question (embedded on the first call; each
        question once per process and model, so an embedding cut short by a shutdown is taken up
        where it stopped)."""
        if self._matrix is None:
            async with self._lock:
                if self._matrix is None:
                    model = self._embedder.model_name
                    for text in self._texts:
                        if (model, text) not in _BANK_VECTORS:
                            _BANK_VECTORS[model, text] = await self._embedder.embed_query(text)
                    self._matrix = unit_rows([_BANK_VECTORS[model, t] for t in self._texts])
                    logger.info("question bank embedded: %d questions", len(self._texts))
        return self._matrix

    async def close(self) -> None:
        await cancel_and_wait(self._embedding)

    async def vote(self, unit: np.ndarray) -> tuple[int, float] | None:
        """How many of the NEIGHBOURS labelled questions closest to `unit` are general ones, and
        the lead of the closest catalog question over the closest general one (cosines; a bank
        of one kind leads by +1 or -1); None for an empty bank."""
        if not self._texts:
            return None
        cosines = await self.matrix() @ unit
        closest = np.argsort(-cosines)[:NEIGHBOURS]
        general, catalog = cosines[self._general], cosines[~self._general]
        lead = (float(catalog.max() - general.max()) if len(general) and len(catalog)
                else -1.0 if len(general) else 1.0)
        return int(self._general[closest].sum()), lead


    def closest_general(self, unit: np.ndarray) -> float | None:
        """The cosine of the general question closest to `unit`; None while the bank is not
        embedded or holds no general question (never waits for the embedding)."""
        if self._matrix is None or not self._general.any():
            return None
        if self._general_rows is None:
            self._general_rows = self._matrix[self._general]
        return float((self._general_rows @ unit).max())


def bank_digest(questions: Sequence[str]) -> str:
    """What stored bank vectors are checked against: the questions they were made from."""
    return hashlib.blake2b("\n".join(questions).encode(), digest_size=16).hexdigest()


def _log_failure(task: asyncio.Task[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        logger.warning("question bank not embedded (tried again when readiness is next checked): "
                       "%s", task.exception())
