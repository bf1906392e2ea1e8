"""A model's judgement of a near match: is the user's question one of the suggested verified
questions, about the same item?

The rules of chatbot_api.verified.match serve a verified answer only when they are sure; a
question close to published answers but not served gets them as suggestions. With a model
provider configured, the suggestions are put to the model as one short structured question (the
user's question and the numbered suggestions; the reply is the number of the one that asks the
same thing about the same item, or 0). A number serves that verified answer; 0, anything else, or
a failure of the call keeps the suggestions. The call's tokens are the turn's (usage, budget).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Sequence
from dataclasses import dataclass

from chatbot_api.domain.usage import Pricing, TokenUsage
from chatbot_api.service_layer.ports import ChatModel, ChatTurn, Tokens
from chatbot_api.verified.match import Match, Suggestion

INSTRUCTIONS = (
    "You compare a user's question with numbered questions that have verified answers. Reply with "
    "the number of the question that asks the same thing as the user's question, about the same "
    "item (the same contest, article, account feature or action), so that its verified answer "
    "fully answers the user. If none does, reply 0. Reply with the number only.")
_NUMBER = re.compile(r"\s*(\d+)\b")


@dataclass(frozen=True)
class Judgement:
    chosen: Match | None  # the verified answer to serve, None for "none of them"
    usage: TokenUsage


def prompt(question: str, suggestions: Sequence[Suggestion]) -> list[ChatTurn]:
    listed = "\n".join(f"{i}. {s.question}" for i, s in enumerate(suggestions, 1))
    return [ChatTurn("system", INSTRUCTIONS),
            ChatTurn("user", f"User's question: {question}\n\nQuestions:\n{listed}")]


def chosen(reply: str, suggestions: Sequence[Suggestion]) -> Suggestion | None:
    """The suggestion a reply names: the number it starts with, if it is one of theirs (a reply
    that does not start with a number is a no)."""
    found = _NUMBER.match(reply)
    number = int(found.group(1)) if found else 0
    return suggestions[number - 1] if 1 <= number <= len(suggestions) else None


class VerifiedJudge:
    def __init__(self, model: ChatModel, tokens: Tokens, pricing: Pricing, timeout: float) -> None:
        self._model = model
        self._tokens = tokens
        self._pricing = pricing
        self._timeout = timeout

    @property
    def configured(self) -> bool:
        return self._model.configured

    async def judge(self, question: str, suggestions: Sequence[Suggestion]) -> Judgement:
        """One call; raises what the model raises (the caller keeps the suggestions)."""
        turns = prompt(question, suggestions)
        reply = await asyncio.wait_for(self._model.complete(turns), self._timeout)
        inp = (reply.input_tokens if reply.input_tokens is not None else
               sum(self._tokens.count_message(t.role, t.content) for t in turns)
               + self._tokens.REPLY_PRIMING)
        out = (reply.output_tokens if reply.output_tokens is not None
               else self._tokens.count(reply.text))
        picked = chosen(reply.text, suggestions)
        match = Match(picked.answer, picked.question, picked.cosine) if picked else None
        return Judgement(match, self._pricing.usage(inp, out))
