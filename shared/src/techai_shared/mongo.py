"""MongoDB access through PyMongo's async API (Motor's official successor; Motor is end-of-life)."""

from __future__ import annotations

from typing import Any

from pymongo import AsyncMongoClient

from techai_shared.settings import CommonSettings


def make_mongo_client(settings: CommonSettings) -> AsyncMongoClient[dict[str, Any]]:
    """A client with bounded server selection so a down server fails fast instead of hanging."""
    return AsyncMongoClient(
        settings.mongodb_uri,
        serverSelectionTimeoutMS=settings.mongodb_server_selection_timeout_ms,
        connectTimeoutMS=5_000,
        tz_aware=True,
        maxPoolSize=50,
    )
