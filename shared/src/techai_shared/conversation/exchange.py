"""Writing a chat turn's messages to its session: the one write whose read happened earlier.

A turn reads its session (and history) before it calls the model and writes after the answer, so
a slow model never holds a row lock. If another writer changed the session in between (a
concurrent turn, a rename), the conditional save fails and the change is applied to the session
read again under its row lock, where it cannot fail for that reason twice.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Protocol, TypeVar

from techai_shared.conversation.model import ConcurrentChange, Exchange, NewMessage, Session

T = TypeVar("T")


class SessionStore(Protocol):
    async def get_owned(self, session_id: str, user_id: str, *, for_update: bool = False
                        ) -> Session: ...

    async def save(self, session: Session) -> None:
        """Raises ConcurrentChange if the stored session is no longer at the loaded version."""
        ...


async def apply_and_save(sessions: SessionStore, session: Session, user_id: str,
                         change: Callable[[Session], T]) -> tuple[Session, T]:
    """Apply `change` to the session and save it, again on the locked row if it changed since
    it was read; returns the session as saved and what `change` returned."""
    try:
        result = change(session)
        await sessions.save(session)
    except ConcurrentChange:
        session = await sessions.get_owned(session.session_id, user_id, for_update=True)
        result = change(session)
        await sessions.save(session)
    return session, result


async def append_exchange(sessions: SessionStore, session: Session, user_id: str,
                          question: NewMessage, answer: NewMessage, now: datetime
                          ) -> tuple[Session, Exchange]:
    """Append and save the exchange after the current leaf; returns the session as saved and the
    stored messages."""
    return await apply_and_save(sessions, session, user_id,
                                lambda s: s.append_exchange(user_id, question, answer, now))
