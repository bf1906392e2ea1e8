"""`python -m command_api.seed [--dir infra/seed]`: load the sample catalog into the command store.

Migrates the store first (so it works on a fresh `make run` SQLite file), then upserts every item
through the command layer, whose events the outbox relay of a running API publishes. Idempotent:
a second run reports every item unchanged. Exits 1 if any line failed.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from pathlib import Path

from command_api.bootstrap import unit_of_work
from command_api.service_layer.catalog_import import CatalogImporter, ImportCounts
from command_api.settings import CommandSettings
from techai_shared.db.engine import make_engine
from techai_shared.db.migrate import upgrade_to_head
from techai_shared.logging import configure_logging


async def seed(settings: CommandSettings, directory: Path) -> dict[str, ImportCounts]:
    """Migrate, then import the directory's JSONL files; prints progress to stdout."""
    engine = make_engine(settings)
    try:
        await upgrade_to_head(engine)
        importer = CatalogImporter(unit_of_work(engine), report=lambda line: print(line, flush=True))
        return await importer.import_dir(directory)
    finally:
        await engine.dispose()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m command_api.seed", description=__doc__)
    parser.add_argument("--dir", type=Path, default=None,
                        help="directory of contests/news_articles/bookmarks.jsonl "
                             "(default: COMMAND_SEED_DIR, the repository's infra/seed)")
    parser.add_argument("--database-url", default=None,
                        help="the command store (default: MYSQL_URL)")
    args = parser.parse_args(argv)
    overrides = {"mysql_url": args.database_url} if args.database_url else {}
    settings = CommandSettings(**overrides)
    configure_logging(settings.log_level, settings.log_json)
    directory = args.dir or settings.command_seed_dir
    if not directory.is_dir():
        print(f"seed directory {directory} not found", file=sys.stderr)
        return 2
    counts = asyncio.run(seed(settings, directory))
    for kind, c in counts.items():
        print(f"{kind:<13} created={c.created} updated={c.updated} unchanged={c.unchanged} "
              f"failed={c.failed}")
    return 1 if any(c.failed for c in counts.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
