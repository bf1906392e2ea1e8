"""The search indexes of each catalog collection, on deployments that have search indexes.

On Atlas and Atlas Local, each collection (verified_answers too) gets the two indexes of
techai_shared.search_indexes if they are missing: the vector index (cosine, `numDimensions` from the
embedding model, the filter fields) and the text index of the keyword side (the embedding text, the
filter fields); the worker waits, bounded, until every index is queryable. SecantusDB and community
mongod reject the search index commands (code 115, CommandNotSupported): that is logged once and the
exact strategy is what searches use there.

An index built for another dimension is updated to the current one: the documents still need a
re-embed (python -m query_sync.entrypoints.reembed), which the projector reports on start.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping
from typing import Any

from pymongo.asynchronous.collection import AsyncCollection
from pymongo.asynchronous.database import AsyncDatabase
from pymongo.errors import OperationFailure
from pymongo.operations import SearchIndexModel

from query_sync.errors import SyncError
from techai_shared.search_indexes import (
    CONVERSATION_TEXT_PATHS,
    INDEXED_COLLECTIONS,
    conversation_index_definition,
    text_index_definition,
    vector_index_definition,
)

logger = logging.getLogger(__name__)

COMMAND_NOT_SUPPORTED = 115
_UNSUPPORTED_WORDS = ("not supported", "$listsearchindexes", "atlas search", "search index")


class SearchIndexTimeout(SyncError):
    """A search index did not become queryable within the configured time."""


def search_indexes_unsupported(exc: OperationFailure) -> bool:
    """True when the deployment has no search indexes at all (not a failure of one command)."""
    message = str(exc).lower()
    return exc.code == COMMAND_NOT_SUPPORTED or any(w in message for w in _UNSUPPORTED_WORDS)


async def ensure_vector_indexes(
    db: AsyncDatabase[dict[str, Any]],
    dimensions: int,
    *,
    timeout_seconds: float = 300.0,
    initial_backoff_seconds: float = 0.5,
    max_backoff_seconds: float = 5.0,
) -> bool:
    """Create the missing vector and text indexes and wait until they are queryable: True; False
    (logged once) where the deployment has no search indexes."""
    collections = [db[name] for name in INDEXED_COLLECTIONS]
    try:
        existing = await _search_indexes(collections[0])
    except OperationFailure as exc:
        if not search_indexes_unsupported(exc):
            raise
        logger.info("search indexes not supported here: the exact strategy is in use")
        return False
    await _ensure_collections(db)
    for collection, kind in zip(collections, INDEXED_COLLECTIONS, strict=True):
        found = existing if collection is collections[0] else await _search_indexes(collection)
        for model in _definitions(kind, dimensions):
            await _ensure_index(collection, model, found)
    await _wait_until_queryable(collections, dimensions, timeout_seconds,
                                initial_backoff_seconds, max_backoff_seconds)
    return True


def _definitions(kind: str, dimensions: int) -> list[SearchIndexModel]:
    if kind in CONVERSATION_TEXT_PATHS:
        return [conversation_index_definition(kind)]
    return [vector_index_definition(kind, dimensions), text_index_definition(kind)]


async def ensure_conversation_indexes(db: AsyncDatabase[dict[str, Any]], *,
                                      timeout_seconds: float = 300.0) -> bool:
    """The search indexes of conversation messages and session titles (Atlas): True once they are
    queryable; False (logged once) where the deployment has none, and the posting index of
    query_sync.adapters.search_index serves the search instead."""
    collections = [db[name] for name in CONVERSATION_TEXT_PATHS]
    try:
        await _search_indexes(collections[0])
    except OperationFailure as exc:
        if not search_indexes_unsupported(exc):
            raise
        return False
    present = set(await db.list_collection_names())
    for collection in collections:
        if collection.name not in present:
            await db.create_collection(collection.name, check_exists=False)
        found = await _search_indexes(collection)
        await _ensure_index(collection, conversation_index_definition(collection.name), found)
    await _wait_until_queryable(collections, 0, timeout_seconds, 0.5, 5.0)
    return True


async def _search_indexes(collection: AsyncCollection[dict[str, Any]]) -> dict[str, Mapping[str, Any]]:
    cursor = await collection.list_search_indexes()
    return {index["name"]: index for index in await cursor.to_list()}


async def _ensure_collections(db: AsyncDatabase[dict[str, Any]]) -> None:
    """Search indexes need an existing collection; the projector's indexes usually made it."""
    present = set(await db.list_collection_names())
    for name in INDEXED_COLLECTIONS:
        if name not in present:
            await db.create_collection(name, check_exists=False)


async def _ensure_index(collection: AsyncCollection[dict[str, Any]], model: SearchIndexModel,
                        found: Mapping[str, Mapping[str, Any]]) -> None:
    name, definition = model.document["name"], model.document["definition"]
    current = found.get(name)
    if current is None:
        await collection.create_search_index(model)
        logger.info("search index %s.%s created", collection.name, name)
    elif _signature(current.get("latestDefinition") or {}) != _signature(definition):
        await collection.update_search_index(name, definition)
        logger.warning("search index %s.%s updated to the current definition (a new filter field, "
                       "or another model's dimensions: then its documents need a re-embed)",
                       collection.name, name)


def _signature(definition: Mapping[str, Any]) -> set[tuple[str, str, Any]]:
    """What must match (Atlas may add defaults): a vector index's fields' types, paths and
    dimensions; a text index's mapped fields, their types and analyzers."""
    vector = {(f.get("type"), f.get("path"), f.get("numDimensions"))
              for f in definition.get("fields", [])}
    mapped = (definition.get("mappings") or {}).get("fields") or {}
    text = {(spec.get("type"), path, spec.get("analyzer")) for path, spec in mapped.items()}
    return vector | text


async def _wait_until_queryable(collections: list[AsyncCollection[dict[str, Any]]],
                                dimensions: int, within: float, backoff: float,
                                max_backoff: float) -> None:
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    pending = [(c, c.name) for c in collections]
    while pending:
        pending = [(c, k) for c, k in pending if not await _queryable(c, k, dimensions)]
        if not pending:
            break
        if loop.time() + backoff > deadline:
            names = ", ".join(c.name for c, _ in pending)
            raise SearchIndexTimeout(f"search indexes of {names} not queryable after {within} s")
        await asyncio.sleep(backoff)
        backoff = min(backoff * 2, max_backoff)
    logger.info("search indexes of %s queryable", ", ".join(c.name for c in collections))


async def _queryable(collection: AsyncCollection[dict[str, Any]], kind: str,
                     dimensions: int) -> bool:
    found = await _search_indexes(collection)
    names = [model.document["name"] for model in _definitions(kind, dimensions)]
    return all(found.get(name, {}).get("queryable") for name in names)
