"""Bring the command store to the newest schema: `python -m techai_shared.db.migrate`."""

from __future__ import annotations

import asyncio
import logging
from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection
from sqlalchemy.ext.asyncio import AsyncEngine

from techai_shared.db.engine import make_engine
from techai_shared.logging import configure_logging
from techai_shared.settings import CommonSettings

logger = logging.getLogger(__name__)
MIGRATIONS = Path(__file__).with_name("migrations")


def _config() -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    return cfg


async def upgrade_to_head(engine: AsyncEngine) -> None:
    """Apply every pending migration on this engine's database."""

    def _upgrade(connection: Connection) -> None:
        cfg = _config()
        cfg.attributes["connection"] = connection
        command.upgrade(cfg, "head")

    async with engine.begin() as conn:
        await conn.run_sync(_upgrade)


async def _main() -> None:
    settings = CommonSettings()
    configure_logging(settings.log_level, settings.log_json)
    engine = make_engine(settings)
    try:
        await upgrade_to_head(engine)
        logger.info("command store migrated to head (%s)", engine.url.render_as_string())
    finally:
        await engine.dispose()


def main() -> None:
    asyncio.run(_main())


if __name__ == "__main__":
    main()
