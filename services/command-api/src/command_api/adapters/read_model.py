"""What the operations jobs read from (and, for a rebuild, empty in) the MongoDB read model.

The collection and field names are query-sync's projection contract (docs/architecture.md, The
projection). Emptying uses delete_many, not drop: the projector's unique indexes, which its version
check relies on, stay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pymongo.asynchronous.database import AsyncDatabase

from command_api.service_layer.ports import ProjectedSession

SESSIONS = "conversation_sessions"
MESSAGES = "conversation_messages"
CONVERSATION_COLLECTIONS = (SESSIONS, MESSAGES)
CATALOG_COLLECTIONS = ("contests", "news_articles", "bookmarks", "catalog_tombstones")
PROJECTIONS = (*CONVERSATION_COLLECTIONS, *CATALOG_COLLECTIONS)


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
