"""Leader election for the outbox relays of one command store."""

from __future__ import annotations

import fcntl
import logging
from typing import IO

from sqlalchemy import text
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

logger = logging.getLogger(__name__)


class LeaderLock:
    """Leader election for the relays of one command store.

    MySQL/MariaDB: a named lock (GET_LOCK) held on a dedicated connection and re-verified before each
    batch; it is released by the server if the process or its connection dies. SQLite: an exclusive
    flock on a file beside the database, released by the kernel when the process dies.
    """

    def __init__(self, engine: AsyncEngine, name: str) -> None:
        self._engine = engine
        self._name = name
        self._conn: AsyncConnection | None = None
        self._file: IO[bytes] | None = None
        self._sqlite = engine.dialect.name == "sqlite"

    async def hold(self) -> bool:
        if self._sqlite:
            return self._hold_file()
        try:
            if self._conn is not None:
                row = await self._conn.execute(
                    text("SELECT IS_USED_LOCK(:n) = CONNECTION_ID()"), {"n": self._name}
                )
                if row.scalar():
                    return True
                await self.release()
            self._conn = await self._engine.connect()
            got = (
                await self._conn.execute(text("SELECT GET_LOCK(:n, 0)"), {"n": self._name})
            ).scalar()
            await self._conn.commit()  # end the implicit transaction; the lock is per session
            if got == 1:
                logger.info("outbox relay: this process is now the publisher")
                return True
            await self.release()
            return False
        except Exception:
            logger.warning("outbox relay: lock check failed", exc_info=True)
            await self.release()
            return False

    def _hold_file(self) -> bool:
        if self._file is not None:
            return True
        database = self._engine.url.database
        if not database or database == ":memory:":
            return True  # a private in-memory database has exactly one writer
        handle = open(f"{database}.relay.lock", "ab")  # noqa: SIM115 - held while leader
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:
            handle.close()
            return False
        self._file = handle
        logger.info("outbox relay: this process is now the publisher")
        return True

    async def release(self) -> None:
        if self._file is not None:
            handle, self._file = self._file, None
            handle.close()  # closing the descriptor drops the flock
        if self._conn is not None:
            conn, self._conn = self._conn, None
            try:
                await conn.execute(text("SELECT RELEASE_LOCK(:n)"), {"n": self._name})
            except Exception:  # the connection may already be gone, and the lock with it
                logger.debug("outbox relay: release failed", exc_info=True)
            try:
                await conn.close()
            except Exception:
                logger.debug("outbox relay: close failed", exc_info=True)


