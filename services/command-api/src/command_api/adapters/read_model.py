"""What the operations jobs read from (and, for a rebuild, empty in) the MongoDB read model.

The collection and field names are query-sync's projection contract (docs/architecture.md, The
projection). Emptying uses delete_many, not drop: the projector's unique indexes, which its version
check relies on, stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from command_api.service_layer.ports import FeedbackEntry, ProjectedItem, ProjectedSession

SESSIONS = "conversation_sessions"
MESSAGES = "conversation_messages"
CONVERSATION_COLLECTIONS = (SESSIONS, MESSAGES)
TOMBSTONES = "catalog_tombstones"
CATALOG_BY_KIND = {"contest": "contests", "news": "news_articles", "bookmark": "bookmarks"}
CATALOG_COLLECTIONS = (*CATALOG_BY_KIND.values(), TOMBSTONES)
VERIFIED_ANSWERS = "verified_answers"
VERIFIED_ANSWER = "verified-answer"  # its aggregate type
PROJECTIONS = (*CONVERSATION_COLLECTIONS, *CATALOG_COLLECTIONS, VERIFIED_ANSWERS)


class MongoReadModel:
    """Read access to the projected conversations, and the rebuild's emptying."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]]) -> None:
        self._db = db

    async def sessions(self, session_ids: Sequence[str]) -> dict[str, ProjectedSession]:
        cursor = self._db[SESSIONS].find(
            {"session_id": {"$in": list(session_ids)}},
            {"_id": 0, "session_id": 1, "version": 1, "message_count": 1, "is_deleted": 1},
        )
        return {
            doc["session_id"]: ProjectedSession(int(doc.get("version", 0)),
                                                int(doc.get("message_count", 0)),
                                                bool(doc.get("is_deleted", False)))
            async for doc in cursor
        }

    async def message_ids(self, session_ids: Sequence[str]) -> dict[str, set[str]]:
        """The projected message ids of each session (sessions without any are absent)."""
        found: dict[str, set[str]] = {}
        cursor = self._db[MESSAGES].find(
            {"session_id": {"$in": list(session_ids)}}, {"_id": 0, "session_id": 1, "message_id": 1}
        )
        async for doc in cursor:
            found.setdefault(doc["session_id"], set()).add(doc["message_id"])
        return found

    async def message_counts(self, session_ids: Sequence[str]) -> dict[str, int]:
        """Projected messages per session, counted by the server (one $group, no documents)."""
        cursor = await self._db[MESSAGES].aggregate([
            {"$match": {"session_id": {"$in": list(session_ids)}}},
            {"$group": {"_id": "$session_id", "n": {"$sum": 1}}},
        ])
        return {doc["_id"]: int(doc["n"]) async for doc in cursor}

    async def items(self, aggregate_type: str, item_ids: Sequence[str]
                    ) -> dict[str, ProjectedItem]:
        """The projected versions of these items: the document's and the tombstone's, read by
        id with only the version fields."""
        ids = list(item_ids)
        if aggregate_type == VERIFIED_ANSWER:
            return await self._answers(ids)
        collection = CATALOG_BY_KIND[aggregate_type]
        documents = {d["document_id"]: int(d["version"]) async for d in self._db[collection].find(
            {"document_id": {"$in": ids}}, {"_id": 0, "document_id": 1, "version": 1})}
        tombstones = {d["document_id"]: int(d["version"]) async for d in self._db[TOMBSTONES].find(
            {"collection": collection, "document_id": {"$in": ids}},
            {"_id": 0, "document_id": 1, "version": 1})}
        return {i: ProjectedItem(documents.get(i), tombstones.get(i))
                for i in documents.keys() | tombstones.keys()}

    async def _answers(self, ids: list[str]) -> dict[str, ProjectedItem]:
        """A verified answer is one document per phrasing, all at the answer's version; a
        deleted one keeps them marked is_deleted, which is its tombstone."""
        newest: dict[str, tuple[int, bool]] = {}
        async for d in self._db[VERIFIED_ANSWERS].find(
                {"answer_id": {"$in": ids}}, {"_id": 0, "answer_id": 1, "version": 1,
                                              "is_deleted": 1}):
            version, live = int(d["version"]), not d.get("is_deleted", False)
            seen = newest.get(d["answer_id"])
            if seen is None or (version, live) > seen:
                newest[d["answer_id"]] = (version, live)
        return {i: ProjectedItem(v, None) if live else ProjectedItem(None, v)
                for i, (v, live) in newest.items()}

    # -- ratings (query-sync projects them into the messages' documents) --------------------------

    async def feedback_page(self, rating: str | None, since: datetime | None,
                            until: datetime | None, offset: int, limit: int
                            ) -> tuple[list[FeedbackEntry], int]:
        """Ratings changed in [since, until), newest first, with the exchanges they rate, and how
        many there are."""
        query: dict[str, Any] = {"role": "assistant", "feedback.feedback_id": {"$exists": True}}
        if rating is not None:
            query["feedback.rating"] = rating
        window = {**({"$gte": since} if since else {}), **({"$lt": until} if until else {})}
        if window:
            query["feedback.updated_at"] = window
        total = await self._db[MESSAGES].count_documents(query)
        docs = [doc async for doc in self._db[MESSAGES].find(
            query, sort=[("feedback.updated_at", -1), ("message_id", -1)], skip=offset, limit=limit)]
        return await self._entries(docs), total

    async def feedback_entry(self, feedback_id: str) -> FeedbackEntry | None:
        """The rating with this id and its exchange, or None."""
        doc = await self._db[MESSAGES].find_one(
            {"feedback.feedback_id": feedback_id, "role": "assistant"})
        return (await self._entries([doc]))[0] if doc else None

    async def _entries(self, docs: list[dict[str, Any]]) -> list[FeedbackEntry]:
        """Each rated answer with its question (the message before it in its session)."""
        wanted = [{"session_id": d["session_id"], "sequence_number": d["sequence_number"] - 1}
                  for d in docs]
        questions = {(q["session_id"], q["sequence_number"]): q["content"]
                     async for q in self._db[MESSAGES].find({"$or": wanted})} if wanted else {}
        return [_entry(d, questions.get((d["session_id"], d["sequence_number"] - 1)))
                for d in docs]

    async def empty(self) -> dict[str, int]:
        """Delete every document of the projections (conversations and catalog), keeping their
        indexes; the documents removed per collection."""
        removed = {}
        for name in PROJECTIONS:
            result = await self._db[name].delete_many({})
            removed[name] = result.deleted_count
        return removed

    async def ping(self) -> None:
        await self._db.client.admin.command("ping")


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _entry(doc: dict[str, Any], question: str | None) -> FeedbackEntry:
    rated = doc["feedback"]
    return FeedbackEntry(
        feedback_id=rated["feedback_id"], rating=rated["rating"], reasons=list(rated["reasons"]),
        comment=rated.get("comment"), question=question, answer=doc["content"],
        sources=list(doc.get("sources") or []), session_id=doc["session_id"],
        message_id=doc["message_id"], user_id=str(doc["user_id"]),
        created_at=_utc(rated["created_at"]), updated_at=_utc(rated["updated_at"]))
