"""Session titles written by the model after the first exchange, in the background.

The first 50 characters of the first question are the title from the start (title_from), and the
first response shows them; this only replaces them, through the session's rename as a user's PUT
does (so the change is an event like any other), and only while they are still the title: a title
the user set in the meantime is never overwritten. A missing or failing model, or an answer that is
not a usable title, leaves the title as it was.
"""

from __future__ import annotations

import logging
import re
from datetime import datetime

from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.usage import Pricing, usage_day
from chatbot_api.service_layer.budget import TokenBudgets
from chatbot_api.service_layer.ports import ChatModel, ChatUnitOfWork, Tokens, UnitOfWorkFactory
from techai_shared.clock import Clock
from techai_shared.conversation.model import SessionState, title_from
from techai_shared.errors import AppError

logger = logging.getLogger(__name__)

MAX_WORDS = 8  # asked for 3-5; a few more are tolerated, a paragraph is not a title
MAX_CHARS = 60
_TRIM = re.compile(r"^[\s\"'“”‘’「」*#:-]+|[\s\"'“”‘’「」*#.:!?。-]+$")


def clean_title(text: str) -> str | None:
    """The model's answer as a title, or None when it is not one (empty, long, several lines)."""
    lines = [line for line in text.strip().splitlines() if line.strip()]
    if len(lines) != 1:
        return None
    title = _TRIM.sub("", re.sub(r"^(title|제목)\s*[:：]\s*", "", lines[0].strip(), flags=re.I))
    if not title or len(title) > MAX_CHARS or len(title.split()) > MAX_WORDS:
        return None
    return title


class TitleWriter:
    def __init__(self, model: ChatModel, uow: UnitOfWorkFactory, instructions: str,
                 pricing: Pricing, clock: Clock, tokens: Tokens,
                 budgets: TokenBudgets | None = None) -> None:
        self._budgets = budgets
        self._model = model
        self._uow = uow
        self._instructions = instructions
        self._pricing = pricing
        self._clock = clock
        self._tokens = tokens

    async def retitle(self, session: SessionState, first_question: str) -> None:
        """Ask the model for a title of the session and apply it; failures keep the old title.
        The call's tokens go to the user's daily usage whether or not the title is usable (it was
        paid for), without counting a request."""
        try:
            turns = [ChatTurn("system", self._instructions), ChatTurn("user", first_question)]
            reply = await self._model.complete(turns)
            prompt = reply.input_tokens
            if prompt is None:
                prompt = sum(self._tokens.count_message(t.role, t.content) for t in turns)
            completion = reply.output_tokens
            if completion is None:
                completion = self._tokens.count(reply.text)
            title = clean_title(reply.text)
            if title is None:
                logger.info("model title not usable, keeping the first words: %r", reply.text[:80])
            now = self._clock()
            usage = self._pricing.usage(prompt, completion)
            async with self._uow() as uow:
                await uow.usage.add(session.user_id, usage_day(now), self._pricing.model, prompt,
                                    completion, usage.estimated_cost, requests=0)
                if title is not None:
                    await _rename(uow, session, title_from(first_question), title, now)
                await uow.commit()
            if self._budgets is not None:
                await self._budgets.count(session.user_id, now, prompt + completion)
        except AppError as exc:
            logger.warning("session title not generated: %s", exc.message)
        except Exception:
            logger.exception("session title not generated")


async def _rename(uow: ChatUnitOfWork, session: SessionState, automatic: str, title: str,
                  now: datetime) -> None:
    """Rename the session to `title` if its title is still the `automatic` one (under the row lock,
    so a user's rename either happened before, and wins, or waits for this one)."""
    try:
        current = await uow.sessions.get_owned(session.session_id, session.user_id, for_update=True)
    except AppError as exc:  # deleted meanwhile: the usage is still recorded
        logger.info("session title not applied: %s", exc.message)
        return
    if current.state.title != automatic:
        logger.info("session title not applied: the user renamed the session meanwhile")
        return
    current.rename(session.user_id, title, now)
    await uow.sessions.save(current)
