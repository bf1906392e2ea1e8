"""The monotonic write every projection uses: replace a document only with a newer version.

The filter matches the document only while its version is older; when a document with this version
or a newer one exists, the filter misses, the upsert's insert hits the unique index on the key, and
the DuplicateKeyError means "stale event". A concurrent first insert of the same key is the other
cause of that error, so the check is repeated a few times before giving up.
"""

from __future__ import annotations

from typing import Any

from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import DuplicateKeyError

from query_sync.errors import SyncError
from query_sync.projection import Outcome

UPSERT_ATTEMPTS = 3


async def has_version(collection: AsyncCollection[dict[str, Any]], key_field: str, key: str,
                      version: int) -> bool:
    """True when the document holds this version or a newer one."""
    found = await collection.find_one({key_field: key, "version": {"$gte": version}}, {"_id": 1})
    return found is not None


async def upsert_if_newer(collection: AsyncCollection[dict[str, Any]], key_field: str, key: str,
                          version: int, document: dict[str, Any]) -> Outcome:
    """$set `document` unless a document with `version` or newer exists (then STALE)."""
    for _ in range(UPSERT_ATTEMPTS):
        try:
            await collection.update_one(
                {key_field: key, "version": {"$lt": version}}, {"$set": document}, upsert=True
            )
            return Outcome.APPLIED
        except DuplicateKeyError:
            if await has_version(collection, key_field, key, version):
                return Outcome.STALE
    raise SyncError(f"{collection.name} {key} v{version}: upsert kept conflicting")
