"""Users' ratings of answers: rate an answer of one's own session, replace or remove the rating.

Every change is a command on the command store: the session is read with its row lock (owner and
liveness checked there, so a session created a moment ago is found), the message must be one of
its assistant messages, and the rating is written with its event through the outbox. History reads
ratings from the command store with the session's path; query-sync projects the event into the
message's document, where the operators' feedback review reads it.
"""

from __future__ import annotations

from collections.abc import Sequence

from prometheus_client import Counter

from chatbot_api.service_layer.ports import UnitOfWorkFactory
from techai_shared.clock import Clock
from techai_shared.errors import InvalidInput, MessageNotFound
from techai_shared.events.conversation import FeedbackState

FEEDBACK_CHANGES = Counter("chatbot_feedback_changes_total",
                           "Ratings of answers given, replaced or removed", ["change"])


class FeedbackService:
    def __init__(self, uow: UnitOfWorkFactory, clock: Clock) -> None:
        self._uow = uow
        self._clock = clock

    async def rate(self, session_id: str, message_id: str, user_id: str, rating: str,
                   reasons: Sequence[str], comment: str | None) -> FeedbackState:
        """Rate an assistant message of the caller's session (a second rating replaces the first)."""
        async with self._uow() as uow:
            await uow.sessions.get_owned(session_id, user_id, for_update=True)
            message = await uow.feedback.message(session_id, message_id)
            if message is None:
                raise MessageNotFound(f"message {message_id} not found in session {session_id}")
            if message.role != "assistant":
                raise InvalidInput("only an answer (an assistant message) can be rated",
                                   data={"messageId": "is not an assistant message"})
            replacing = await uow.feedback.get(message_id) is not None
            state = await uow.feedback.put(message, user_id, rating, list(dict.fromkeys(reasons)),
                                           comment, self._clock())
            await uow.commit()
        FEEDBACK_CHANGES.labels("replaced" if replacing else "given").inc()
        return state

    async def remove(self, session_id: str, message_id: str, user_id: str) -> bool:
        """Remove the caller's rating of the message; False when there was none (nothing changes)."""
        async with self._uow() as uow:
            await uow.sessions.get_owned(session_id, user_id, for_update=True)
            if await uow.feedback.message(session_id, message_id) is None:
                raise MessageNotFound(f"message {message_id} not found in session {session_id}")
            removed = await uow.feedback.remove(message_id, self._clock())
            await uow.commit()
        if removed:
            FEEDBACK_CHANGES.labels("removed").inc()
        return removed
