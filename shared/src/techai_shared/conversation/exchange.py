"""Appending a chat turn's exchange to its session: the one write whose read happened earlier.

A turn reads its session (and history) before it calls the model and writes after the answer, so
a slow model never holds a row lock. If another writer changed the session in between (a
concurrent turn, a rename), the conditional save fails and the exchange is applied to the session
read again under its row lock, where it cannot fail for that reason twice.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol

from techai_shared.conversation.model import ConcurrentChange, Exchange, NewMessage, Session


class SessionStore(Protocol):
    async def get_owned(self, session_id: str, user_id: str, *, for_update: bool = False
                        ) -> Session: ...

    async def save(self, session: Session) -> None:
        """Raises ConcurrentChange if the stored session is no longer at the loaded version."""
        ...


async def append_exchange(sessions: SessionStore, session: Session, user_id: str,
                          question: NewMessage, answer: NewMessage, now: datetime
                          ) -> tuple[Session, Exchange]:
    """Append and save the exchange; returns the session as saved and the stored messages."""
    try:
        exchange = session.append_exchange(user_id, question, answer, now)
        await sessions.save(session)
    except ConcurrentChange:
        session = await sessions.get_owned(session.session_id, user_id, for_update=True)
        exchange = session.append_exchange(user_id, question, answer, now)
        await sessions.save(session)
    return session, exchange
