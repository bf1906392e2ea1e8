"""The query side: sessions and messages projected into MongoDB by query-sync."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from pymongo import ASCENDING, DESCENDING
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure

from chatbot_api.domain.session_search import (
    MAX_MESSAGE_IDS,
    Candidate,
    Postings,
    candidates,
    matches,
    snippet,
)
from chatbot_api.service_layer.ports import SessionMatch
from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.conversation.search import (
    POSTINGS,
    field_of,
    parse_messages,
    parse_titles,
    shard_of,
)
from techai_shared.korean import QueryTerm
from techai_shared.search_indexes import (
    CONVERSATION_MESSAGES,
    CONVERSATION_SESSIONS,
    CONVERSATION_TEXT_PATHS,
    text_index_name,
)

logger = logging.getLogger(__name__)

ATLAS_MAX_MESSAGES = 5_000  # matches read per search on Atlas (the page is ranked among them)


def _utc(value: datetime) -> datetime:
    return value if value.tzinfo else value.replace(tzinfo=UTC)


def _message(doc: dict[str, Any]) -> StoredMessage:
    return StoredMessage(
        message_id=doc["message_id"],
        session_id=doc["session_id"],
        role=doc["role"],
        content=doc["content"],
        sequence_number=int(doc["sequence_number"]),
        token_count=int(doc.get("token_count") or 0),
        sources=list(doc.get("sources") or []),
        created_at=_utc(doc["created_at"]),
        parent_message_id=doc.get("parent_message_id"),
    )


# a message document's fields history does not read: its rating is read from the command store
_NOT_FOR_HISTORY = {"_id": 0, "feedback": 0, "feedback_version": 0}


def _session(doc: dict[str, Any]) -> SessionState:
    return SessionState(
        session_id=doc["session_id"],
        user_id=str(doc["user_id"]),
        title=doc["title"],
        created_at=_utc(doc["created_at"]),
        last_message_at=_utc(doc["last_message_at"]),
        is_active=bool(doc["is_active"]),
        message_count=int(doc["message_count"]),
        version=int(doc["version"]),
        path=tuple(doc.get("path") or ()),
    )


class MongoReadModel:
    """Reads of conversation_sessions, conversation_messages and the search index."""

    def __init__(self, db: AsyncDatabase[dict[str, Any]], *, atlas: bool | None = None) -> None:
        self._sessions = db["conversation_sessions"]
        self._messages = db["conversation_messages"]
        self._postings = db[POSTINGS]
        self._atlas = atlas  # session search on Atlas Search; None: probe it

    async def search_sessions(self, user_id: str, terms: list[QueryTerm], offset: int, limit: int
                              ) -> tuple[list[SessionMatch], int]:
        """The user's live sessions holding every word, best first
        (chatbot_api.domain.session_search), and how many the index found: from Atlas Search
        where the deployment has it, else from the posting index query-sync keeps. The page's
        sessions are read from conversation_sessions (deleted or expired ones are left out) with
        one message of each for its snippet."""
        if await self._on_atlas():
            found = await self._atlas_candidates(user_id, terms)
        else:
            found = await self._posting_candidates(user_id, terms)
        page = found[offset:offset + limit]
        if not page:
            return [], len(found)
        live = {doc["session_id"]: _session(doc) async for doc in self._sessions.find(
            {"session_id": {"$in": [c.session_id for c in page]}, "user_id": user_id,
             "is_deleted": {"$ne": True}})}
        shown = {c.session_id: max(c.message_ids or c.any_ids) for c in page
                 if c.session_id in live and (c.message_ids or c.any_ids)}
        contents = {doc["message_id"]: doc["content"] async for doc in self._messages.find(
            {"message_id": {"$in": sorted(shown.values())}, "role": {"$exists": True}},
            {"message_id": 1, "content": 1, "_id": 0})}
        out = []
        for c in page:
            session = live.get(c.session_id)
            if session is None:  # deleted or expired since the index listed it
                continue
            mid = shown.get(c.session_id)
            if mid in contents:
                shows = snippet(contents[mid], terms, mid)
            elif matches(session.title, terms):
                shows = snippet(session.title, terms, None)
            else:  # a title that held the words once, a message gone with its session's TTL
                continue
            ids = sorted(c.message_ids or c.any_ids, reverse=True)[:MAX_MESSAGE_IDS]
            out.append(SessionMatch(session, ids, shows))
        return out, len(found)

    async def messages_by_ids(self, session_id: str, ids: list[str]) -> list[StoredMessage]:
        """The projected messages among `ids` (a stretch of the session's path); a document
        holding only a rating (its message not projected yet) is left out."""
        cursor = self._messages.find(
            {"session_id": session_id, "message_id": {"$in": ids}, "role": {"$exists": True}},
            _NOT_FOR_HISTORY, sort=[("sequence_number", ASCENDING)],
        )
        return [_message(doc) async for doc in cursor]

    async def list_sessions(
        self, user_id: str, *, is_active: bool | None, offset: int, limit: int
    ) -> tuple[list[SessionState], int]:
        """The user's live sessions, most recent activity first, and how many there are."""
        query: dict[str, Any] = {"user_id": user_id, "is_deleted": {"$ne": True}}
        if is_active is not None:
            query["is_active"] = is_active
        total = await self._sessions.count_documents(query)
        cursor = self._sessions.find(
            query,
            sort=[("last_message_at", DESCENDING), ("session_id", DESCENDING)],
            skip=offset,
            limit=limit,
        )
        return [_session(doc) async for doc in cursor], total

    async def _posting_candidates(self, user_id: str, terms: list[QueryTerm]) -> list[Candidate]:
        """Reads one posting document per bucket for each shard the words fall in: the cost grows
        with the user's buckets and the words, not with the user's messages."""
        keys = sorted({key for term in terms for key in term.keys})
        fields = {key: field_of(key) for key in keys}
        wanted = {f"{part}.{f}": 1 for f in fields.values() for part in ("w", "t")}
        index: dict[str, Postings] = {}
        async for doc in self._postings.find(
                {"user_id": user_id, "shard": {"$in": sorted({shard_of(k) for k in keys})}},
                {**wanted, "_id": 0}):
            words, titles = doc.get("w") or {}, doc.get("t") or {}
            for key, f in fields.items():
                if f in words or f in titles:
                    index.setdefault(key, Postings()).add(parse_messages(words.get(f) or ""),
                                                          parse_titles(titles.get(f) or ""))
        return candidates(terms, index)

    async def _on_atlas(self) -> bool:
        """Whether session search reads Atlas Search (probed once: the deployment lists search
        indexes), unless CHATBOT_SESSION_SEARCH chose."""
        if self._atlas is None:
            try:
                await (await self._messages.list_search_indexes()).to_list()
                self._atlas = True
            except OperationFailure:
                self._atlas = False
            logger.info("session search reads %s", "Atlas Search" if self._atlas
                        else "the posting index (search indexes are not supported here)")
        return self._atlas

    async def _atlas_candidates(self, user_id: str, terms: list[QueryTerm]) -> list[Candidate]:
        """Messages holding every word ($search on content, Nori and English), grouped by
        session, and sessions whose title holds every word."""
        def search(collection: str, extra: list[dict[str, Any]]) -> dict[str, Any]:
            path = CONVERSATION_TEXT_PATHS[collection]
            return {"$search": {"index": text_index_name(collection), "compound": {
                "filter": [{"equals": {"path": "user_id", "value": user_id}}, *extra],
                "must": [{"text": {"query": t.joined, "path": [
                    path, {"value": path, "multi": "english"}]}} for t in terms]}}}

        grouped = await (await self._messages.aggregate([
            search(CONVERSATION_MESSAGES, []), {"$limit": ATLAS_MAX_MESSAGES},
            {"$group": {"_id": "$session_id", "ids": {"$push": "$message_id"}}}])).to_list()
        titled = await (await self._sessions.aggregate([
            search(CONVERSATION_SESSIONS, [{"equals": {"path": "is_deleted", "value": False}}]),
            {"$limit": ATLAS_MAX_MESSAGES}, {"$project": {"_id": 0, "session_id": 1}}])).to_list()
        ids = {g["_id"]: frozenset(g["ids"]) for g in grouped}
        titles = {d["session_id"] for d in titled}
        found = [Candidate(sid, len(terms) if sid in titles else 0, ids.get(sid, frozenset()),
                           ids.get(sid, frozenset())) for sid in set(ids) | titles]
        return sorted(found, key=Candidate.rank, reverse=True)

