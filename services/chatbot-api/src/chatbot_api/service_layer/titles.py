"""Session titles written by the model after the first exchange, in the background.

The first 50 characters of the first question are the title from the start; this only replaces
them, through the same rename path a user's PUT takes (so the change is an event like any other).
A missing or failing model, or an answer that is not a usable title, leaves the title as it was.
"""

from __future__ import annotations

import logging
import re

from chatbot_api.adapters.llm import ChatModel
from chatbot_api.adapters.usage import SideUsage
from chatbot_api.domain.conversation import ChatTurn
from techai_shared.conversations import ConversationStore, SessionState
from techai_shared.errors import AppError
from techai_shared.tokens import TokenCounter

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
    def __init__(self, model: ChatModel, store: ConversationStore, instructions: str,
                 usage: SideUsage | None = None) -> None:
        self._model = model
        self._store = store
        self._instructions = instructions
        self._usage = usage
        self._tokens = TokenCounter()

    async def retitle(self, session: SessionState, first_question: str) -> None:
        """Ask the model for a title of the session and apply it; failures keep the old title."""
        try:
            turns = [ChatTurn("system", self._instructions), ChatTurn("user", first_question)]
            reply = await self._model.complete(turns)
            if self._usage is not None:  # counted whether or not the title is usable: it was paid
                prompt = reply.input_tokens
                if prompt is None:
                    prompt = sum(self._tokens.count_message(t.role, t.content) for t in turns)
                completion = reply.output_tokens
                if completion is None:
                    completion = self._tokens.count(reply.text)
                await self._usage.record(session.user_id, prompt, completion)
            title = clean_title(reply.text)
            if title is None:
                logger.info("model title not usable, keeping the first words: %r", reply.text[:80])
                return
            await self._store.rename(session.session_id, session.user_id, title)
        except AppError as exc:
            logger.warning("session title not generated: %s", exc.message)
        except Exception:
            logger.exception("session title not generated")
