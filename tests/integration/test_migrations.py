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


async def test_0004_backfills_message_versions_from_the_outbox(settings) -> None:
    """Messages written before 0004 get the version of their ConversationMessageCreated event."""
    import json
    from datetime import UTC, datetime

    from alembic import command
    from sqlalchemy import text

    from techai_shared.db.migrate import _config

    engine = make_engine(CommonSettings(mysql_url=settings.mysql_url))

    def _to(connection: Connection, revision: str, down: bool = False) -> None:
        cfg = _config()
        cfg.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(cfg, revision)

    now = datetime.now(UTC).replace(tzinfo=None)
    body = json.dumps({"payload": {"messageId": "m-1"}})
    try:
        async with engine.begin() as conn:
            await conn.run_sync(_to, "0003", True)
            await conn.execute(text(
                "INSERT INTO conversation_sessions (session_id, user_id, title, created_at, "
                "last_message_at, is_active, message_count, version) "
                "VALUES ('s-1', 'u', 't', :now, :now, 1, 1, 7)"), {"now": now})
            await conn.execute(text(
                "INSERT INTO conversation_messages (message_id, session_id, role, content, "
                "sequence_number, token_count, created_at) "
                "VALUES ('m-1', 's-1', 'user', 'hi', 1, 1, :now), "
                "('m-2', 's-1', 'assistant', 'yo', 2, 1, :now)"), {"now": now})
            await conn.execute(text(
                "INSERT INTO outbox_events (event_id, aggregate_type, aggregate_id, event_type, "
                "version, body, created_at, attempts) VALUES ('e-1', 'conversation', 's-1', "
                "'ConversationMessageCreated', 5, :body, :now, 0)"), {"body": body, "now": now})
            await conn.run_sync(_to, "head")
            rows = (await conn.execute(text(
                "SELECT message_id, version FROM conversation_messages ORDER BY message_id"))).all()
    finally:
        await engine.dispose()
    assert [tuple(r) for r in rows] == [("m-1", 5), ("m-2", None)]  # m-2 had no outbox row


@pytest.mark.parametrize("store", ["mariadb", "sqlite"])
async def test_0008_turns_existing_conversations_into_linear_paths(settings, tmp_path, store) -> None:
    """Messages written before the tree follow the one before them; each session's path is its
    messages in order; and on MariaDB the revision goes down and up again (SQLite, the make-run
    store, cannot drop a column of a table others refer to while foreign keys are on: its
    downgrades are not supported, as for 0007)."""
    import json
    from datetime import UTC, datetime

    from alembic import command
    from sqlalchemy import text

    from techai_shared.db.migrate import _config

    url = settings.mysql_url if store == "mariadb" else f"sqlite+aiosqlite:///{tmp_path}/t.db"
    engine = make_engine(CommonSettings(mysql_url=url))

    def _to(connection: Connection, revision: str, down: bool = False) -> None:
        cfg = _config()
        cfg.attributes["connection"] = connection
        (command.downgrade if down else command.upgrade)(cfg, revision)

    now = datetime.now(UTC).replace(tzinfo=None)
    try:
        async with engine.begin() as conn:
            if store == "mariadb":
                await conn.run_sync(_to, "0007", True)
            else:
                await conn.run_sync(_to, "0007")
            for sid, count in (("s-a", 3), ("s-b", 0)):
                await conn.execute(text(
                    "INSERT INTO conversation_sessions (session_id, user_id, title, created_at, "
                    "last_message_at, is_active, message_count, version) "
                    "VALUES (:sid, 'u', 't', :now, :now, 1, :count, 7)"),
                    {"sid": sid, "now": now, "count": count})
            for n in (3, 1, 2):  # written out of order: the sequence decides
                await conn.execute(text(
                    "INSERT INTO conversation_messages (message_id, session_id, role, content, "
                    "sequence_number, token_count, created_at) "
                    "VALUES (:mid, 's-a', 'user', 'hi', :n, 1, :now)"),
                    {"mid": f"m-{n}", "n": n, "now": now})
            await conn.run_sync(_to, "head")
            parents = dict((await conn.execute(text(
                "SELECT message_id, parent_message_id FROM conversation_messages"))).all())
            paths = dict((await conn.execute(text(
                "SELECT session_id, path FROM conversation_sessions"))).all())
            # siblings share a sequence number now
            await conn.execute(text(
                "INSERT INTO conversation_messages (message_id, session_id, role, content, "
                "sequence_number, token_count, created_at, parent_message_id) "
                "VALUES ('m-2b', 's-a', 'user', 'hi', 2, 1, :now, 'm-1')"), {"now": now})
            await conn.execute(text("DELETE FROM conversation_messages WHERE message_id = 'm-2b'"))
            if store == "mariadb":
                await conn.run_sync(_to, "0007", True)
                await conn.run_sync(_to, "head")
    finally:
        await engine.dispose()
    assert parents == {"m-1": None, "m-2": "m-1", "m-3": "m-2"}
    assert {sid: json.loads(p) if isinstance(p, str) else p for sid, p in paths.items()} == {
        "s-a": ["m-1", "m-2", "m-3"], "s-b": []}
