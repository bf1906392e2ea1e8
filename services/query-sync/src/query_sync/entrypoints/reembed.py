"""`python -m query_sync.entrypoints.reembed`: re-embed the catalog with the configured model.

Vectors of two models cannot be compared, so changing EMBEDDING_PROVIDER/EMBEDDING_MODEL (or the
dimension) is an operation, not a setting flip:
1. stop the sync worker (or let it run: it will report the mismatch at start and keep writing
   new versions with whichever model it is configured with);
2. run this with the new settings: every document of another model is embedded again from its
   stored `embedding_text`, in batches, and marked with the new model and hash;
3. start the worker with the new settings; it logs no mismatch error any more. For Atlas, the
   vector index must be re-created with the new numDimensions.
Rebuilding instead (drop the three collections, keep catalog_tombstones, replay or republish the
catalog events) gives the same result, more slowly.
"""

from __future__ import annotations

import asyncio
import logging

from query_sync.adapters.catalog import CatalogProjector
from query_sync.catalog_documents import CATALOG_KINDS
from query_sync.settings import SyncSettings
from techai_shared.embeddings import make_embedder
from techai_shared.logging import configure_logging
from techai_shared.mongo import make_mongo_client

logger = logging.getLogger(__name__)


async def reembed(settings: SyncSettings) -> dict[str, int]:
    """collection -> number of documents embedded again."""
    embedder = make_embedder(settings)
    client = make_mongo_client(settings)
    try:
        db = client[settings.mongodb_database]
        counts = {}
        for kind in CATALOG_KINDS:
            projector = CatalogProjector(db, kind, embedder, batch_size=settings.embedding_batch_size)
            counts[kind.collection] = await projector.reembed()
            logger.info("%s: %d document(s) re-embedded with %s",
                        kind.collection, counts[kind.collection], embedder.model_name)
        return counts
    finally:
        await client.close()


def main() -> None:
    settings = SyncSettings()
    configure_logging(settings.log_level, settings.log_json)
    asyncio.run(reembed(settings))


if __name__ == "__main__":
    main()
