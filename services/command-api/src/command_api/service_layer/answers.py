"""The answer-improvement loop on command-api: operators review users' ratings and publish
verified answers, which chatbot-api serves to questions that match them (docs/architecture.md,
Verified answers).

Ratings are read from the read model (query-sync projects them into the messages' documents, next
to the exchange they rate). Verified answers are written here, each change with its event; a
draft is created from a rated exchange and published by an update.
"""

from __future__ import annotations

from dataclasses import replace
from datetime import datetime
from typing import Any

from command_api.service_layer.ports import (
    AnswerStats,
    AnswerUse,
    FeedbackEntry,
    FeedbackReadModel,
    StoredAnswer,
    UnitOfWorkFactory,
)
from techai_shared.clock import Clock
from techai_shared.errors import FeedbackNotFound, InvalidInput, ItemNotFound
from techai_shared.events.verified import MAX_ANSWER_CHARS, MAX_SOURCES

CATALOG_COLLECTIONS = ("contests", "news_articles")


class VerifiedAnswerService:
    def __init__(self, uow: UnitOfWorkFactory, read_model: FeedbackReadModel, clock: Clock) -> None:
        self._uow = uow
        self._read_model = read_model
        self._clock = clock

    async def create(self, fields: dict[str, Any], author: str) -> StoredAnswer:
        async with self._uow() as uow:
            await self._check_sources(uow, fields["sources"])
            created = await uow.verified.create(fields, author, self._clock())
            await uow.commit()
        return created

    async def get(self, answer_id: str) -> StoredAnswer:
        """The answer, with what it did for users."""
        async with self._uow() as uow:
            found = await uow.verified.get(answer_id)
            return await _with_stats(uow, found)

    async def uses(self, answer_id: str, kind: str | None, offset: int, limit: int
                   ) -> tuple[list[AnswerUse], int]:
        """The questions a live answer was served or suggested for (VerifiedAnswerNotFound for
        another), newest first: the wordings an operator may add as phrasings."""
        async with self._uow() as uow:
            found = await uow.verified.get(answer_id)
            return await uow.verified.uses(found.answer.id, kind, offset, limit)

    async def page(self, status: str | None, offset: int, limit: int
                   ) -> tuple[list[StoredAnswer], int]:
        """A page of answers, newest first, each with what it did for users."""
        async with self._uow() as uow:
            found, total = await uow.verified.page(status, offset, limit)
            stats = await uow.verified.stats([a.answer.id for a in found])
        return [replace(a, stats=stats.get(a.answer.id, AnswerStats())) for a in found], total

    async def replace(self, answer_id: str, fields: dict[str, Any]) -> StoredAnswer:
        async with self._uow() as uow:
            await self._check_sources(uow, fields["sources"])
            written = await uow.verified.replace(answer_id, fields, self._clock())
            await uow.commit()
            return await _with_stats(uow, written)

    async def delete(self, answer_id: str) -> StoredAnswer:
        async with self._uow() as uow:
            deleted = await uow.verified.delete(answer_id, self._clock())
            await uow.commit()
            return await _with_stats(uow, deleted)

    async def draft_from_feedback(self, feedback_id: str, author: str) -> StoredAnswer:
        """A draft whose first phrasing is the rated question and whose text is the rated answer;
        its sources are the answer's catalog items that still exist (never bookmarks)."""
        entry = await self._read_model.feedback_entry(feedback_id)
        if entry is None:
            raise FeedbackNotFound(f"feedback {feedback_id} not found")
        if not entry.question:
            raise InvalidInput(f"the question of feedback {feedback_id} is not available yet",
                               data={"feedbackId": "its question is not projected yet"})
        async with self._uow() as uow:
            sources = [s for s in _catalog_sources(entry) if await _exists(uow, s)][:MAX_SOURCES]
            created = await uow.verified.create(
                {"status": "draft", "questions": [entry.question[:500]],
                 "answer": entry.answer[:MAX_ANSWER_CHARS], "sources": sources,
                 "valid_from": None, "valid_until": None},
                author, self._clock(), feedback_id=feedback_id)
            await uow.commit()
        return created

    async def feedback(self, rating: str | None, since: datetime | None, until: datetime | None,
                       offset: int, limit: int) -> tuple[list[FeedbackEntry], int]:
        return await self._read_model.feedback_page(rating, since, until, offset, limit)

    @staticmethod
    async def _check_sources(uow: Any, sources: list[str]) -> None:
        missing = [s for s in sources if not await _exists(uow, s)]
        if missing:
            raise InvalidInput(f"no such contest or news article: {', '.join(missing)}",
                               data={"sources": f"unknown items: {', '.join(missing)}"})


async def _with_stats(uow: Any, answer: StoredAnswer) -> StoredAnswer:
    """The answer with what it did for users (by its public id, v-0001, however it was asked
    for)."""
    stats = await uow.verified.stats([answer.answer.id])
    return replace(answer, stats=stats.get(answer.answer.id, AnswerStats()))


def _catalog_sources(entry: FeedbackEntry) -> list[str]:
    return list(dict.fromkeys(
        str(s["documentId"]) for s in entry.sources
        if s.get("collection") in CATALOG_COLLECTIONS and s.get("documentId")))


async def _exists(uow: Any, item_id: str) -> bool:
    """A live contest or news article with this id."""
    for repository in (uow.contests, uow.news):
        try:
            await repository.get(item_id)
            return True
        except ItemNotFound:
            continue
    return False
