"""The search indexes of the catalog collections and of the verified answers: defined here because
query-sync creates them and chatbot-api's Atlas strategy queries them by name. Pure functions, no I/O."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pymongo.operations import SearchIndexModel


class Collection(StrEnum):
    """The searchable MongoDB collections (documents written by query-sync's catalog projector)."""

    CONTESTS = "contests"
    NEWS = "news_articles"
    BOOKMARKS = "bookmarks"


# Verified answers (one document per phrasing, written by query-sync) get the same two indexes.
VERIFIED_ANSWERS = "verified_answers"
INDEXED_COLLECTIONS: tuple[str, ...] = (*(c.value for c in Collection), VERIFIED_ANSWERS)

VECTOR_PATH = "embedding_vector"
FILTER_PATHS = ("status", "start_date", "end_date", "published_at", "user_id", "item_type")
TEXT_PATH = "embedding_text"
# CJK bigrams, like the exact strategy's BM25 tokens for Hangul; other scripts as lower-cased words
TEXT_ANALYZER = "lucene.cjk"


def vector_index_name(collection: Collection | str) -> str:
    """The name of the vector search index of `collection`, e.g. "contests_vector"."""
    return f"{collection}_vector"


def text_index_name(collection: Collection | str) -> str:
    """The name of the Atlas Search (keyword) index of `collection`, e.g. "contests_text"."""
    return f"{collection}_text"


def vector_index_definition(collection: Collection | str, dimensions: int) -> SearchIndexModel:
    """The vectorSearch index of `collection`: cosine over the embedding, plus the filter fields."""
    fields: list[dict[str, Any]] = [
        {"type": "vector", "path": VECTOR_PATH, "numDimensions": dimensions, "similarity": "cosine"},
        *({"type": "filter", "path": path} for path in FILTER_PATHS),
    ]
    return SearchIndexModel(definition={"fields": fields}, name=vector_index_name(collection),
                            type="vectorSearch")


def text_index_definition(collection: Collection | str) -> SearchIndexModel:
    """The search index of `collection`: the embedding text for BM25, plus the filter fields
    (`token` for exact string matches, `date` for the publication window and a contest's end)."""
    fields = {
        TEXT_PATH: {"type": "string", "analyzer": TEXT_ANALYZER},
        "status": {"type": "token"},
        "user_id": {"type": "token"},
        "item_type": {"type": "token"},  # a bookmark's kind of item, when a question names one
        "published_at": {"type": "date"},
        "start_date": {"type": "date"},  # a contest's period against the question's window
        "end_date": {"type": "date"},  # whether a contest is still active, as of the question
    }
    return SearchIndexModel(definition={"mappings": {"dynamic": False, "fields": fields}},
                            name=text_index_name(collection), type="search")


# Conversation search on Atlas (GET /api/v1/chatbot/sessions/search): messages and session titles,
# Korean by Nori (morphemes, compounds split: 해커톤 in AI해커톤은), Latin words also by the
# English analyzer (CTFs finds ctf); filtered to the caller. Elsewhere the posting index of
# techai_shared.conversation.search serves the same route.
CONVERSATION_MESSAGES = "conversation_messages"
CONVERSATION_SESSIONS = "conversation_sessions"
CONVERSATION_ANALYZER = "lucene.nori"
CONVERSATION_TEXT_PATHS = {CONVERSATION_MESSAGES: "content", CONVERSATION_SESSIONS: "title"}


def conversation_index_definition(collection: str) -> SearchIndexModel:
    """The search index of conversation_messages (content) or conversation_sessions (title)."""
    text = {"type": "string", "analyzer": CONVERSATION_ANALYZER,
            "multi": {"english": {"type": "string", "analyzer": "lucene.english"}}}
    fields: dict[str, Any] = {CONVERSATION_TEXT_PATHS[collection]: text,
                              "user_id": {"type": "token"}}
    if collection == CONVERSATION_SESSIONS:
        fields["is_deleted"] = {"type": "boolean"}
    return SearchIndexModel(definition={"mappings": {"dynamic": False, "fields": fields}},
                            name=text_index_name(collection), type="search")
