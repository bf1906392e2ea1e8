"""Declared MongoDB indexes, created idempotently when the worker starts.

Creating an index that exists with the same definition is a no-op. A TTL whose period changed in
the settings is updated in place with collMod rather than dropped and rebuilt.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from pymongo.asynchronous.collection import AsyncCollection
from pymongo.errors import OperationFailure

logger = logging.getLogger(__name__)

INDEX_OPTIONS_CONFLICT = 85
INDEX_KEY_SPECS_CONFLICT = 86


@dataclass(frozen=True)
class IndexSpec:
    """One index: its name, its keys ((field, 1 | -1), ...) and its options."""

    name: str
    keys: tuple[tuple[str, int], ...]
    unique: bool = False
    expire_after_seconds: int | None = None

    def options(self) -> dict[str, Any]:
        options: dict[str, Any] = {"name": self.name}
        if self.unique:
            options["unique"] = True
        if self.expire_after_seconds is not None:
            options["expireAfterSeconds"] = self.expire_after_seconds
        return options


async def ensure_indexes(collection: AsyncCollection[Any], specs: Iterable[IndexSpec]) -> None:
    """Create each index if missing; bring a changed TTL period up to date."""
    for spec in specs:
        await _ensure_index(collection, spec)


async def _ensure_index(collection: AsyncCollection[Any], spec: IndexSpec) -> None:
    try:
        await collection.create_index(list(spec.keys), **spec.options())
    except OperationFailure as exc:
        conflict = exc.code in (INDEX_OPTIONS_CONFLICT, INDEX_KEY_SPECS_CONFLICT)
        if not conflict or spec.expire_after_seconds is None:
            raise
        await _update_ttl(collection, spec)


async def _update_ttl(collection: AsyncCollection[Any], spec: IndexSpec) -> None:
    await collection.database.command({
        "collMod": collection.name,
        "index": {"name": spec.name, "expireAfterSeconds": spec.expire_after_seconds},
    })
    logger.info("index %s.%s: TTL set to %s s", collection.name, spec.name, spec.expire_after_seconds)
