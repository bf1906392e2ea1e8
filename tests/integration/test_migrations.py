"""The migrations and the table definitions in techai_shared.db.schema describe the same schema."""

from __future__ import annotations

from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection

from techai_shared.db.engine import make_engine
from techai_shared.db.schema import metadata
from techai_shared.settings import CommonSettings

pytestmark = pytest.mark.integration


def _differences(conn: Connection) -> list[Any]:
    context = MigrationContext.configure(conn, opts={"compare_type": False})
    return [d for d in compare_metadata(context, metadata) if not _is_alembic_table(d)]


def _is_alembic_table(diff: Any) -> bool:
    return isinstance(diff, tuple) and diff[0] == "remove_table" and diff[1].name == "alembic_version"


async def test_migrated_mariadb_matches_schema_module(mysql_database: str) -> None:
    engine = make_engine(CommonSettings(mysql_url=mysql_database))
    try:
        async with engine.connect() as conn:
            diffs = await conn.run_sync(_differences)
    finally:
        await engine.dispose()
    assert diffs == []
