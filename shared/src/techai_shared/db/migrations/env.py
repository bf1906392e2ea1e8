"""Alembic environment: runs on a connection handed in by techai_shared.db.migrate, or on its own
async engine when invoked as `alembic -c <ini> upgrade head` with MYSQL_URL set."""

from __future__ import annotations

import asyncio
import os

from alembic import context
from sqlalchemy.engine import Connection

from techai_shared.db.schema import metadata

config = context.config


def _run(connection: Connection) -> None:
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
        compare_type=True,
    )
    with context.begin_transaction():
        context.run_migrations()


async def _run_with_own_engine() -> None:
    from techai_shared.db.engine import make_engine
    from techai_shared.settings import CommonSettings

    settings = CommonSettings(mysql_url=os.environ.get("MYSQL_URL", CommonSettings().mysql_url))
    engine = make_engine(settings)
    async with engine.connect() as conn:
        await conn.run_sync(_run)
        await conn.commit()
    await engine.dispose()


connection = config.attributes.get("connection")
if connection is not None:
    _run(connection)
else:
    asyncio.run(_run_with_own_engine())
