"""What a model call costs, and the day it is counted on. Plain Python."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import date, datetime

from chatbot_api.domain.context import KST


@dataclass(frozen=True)
class TokenUsage:
    input_tokens: int
    output_tokens: int
    estimated_cost: float

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens


@dataclass(frozen=True)
class Pricing:
    """US dollars per million input and output tokens of the answering model."""

    model: str
    input_per_million: float
    output_per_million: float

    def usage(self, input_tokens: int, output_tokens: int) -> TokenUsage:
        cost = (input_tokens * self.input_per_million
                + output_tokens * self.output_per_million) / 1_000_000
        return TokenUsage(input_tokens, output_tokens, round(cost, 8))


# What may follow a model name in a dated snapshot of it: -20250929, -2024-07-18, -latest.
_SNAPSHOT = re.compile(r"^-(\d{4}-?\d{2}-?\d{2}|latest)$")


@dataclass(frozen=True)
class PriceTable:
    """Model -> (USD per million input tokens, per million output tokens), whatever the provider."""

    prices: Mapping[str, tuple[float, float]]

    def find(self, model: str) -> Pricing | None:
        """The model's prices: its own entry, else that of the model it is a dated snapshot of;
        None when the table has neither."""
        if model in self.prices:
            return Pricing(model, *self.prices[model])
        for known in sorted(self.prices, key=len, reverse=True):
            if model.startswith(known) and _SNAPSHOT.match(model[len(known):]):
                return Pricing(model, *self.prices[known])
        return None


# The names usage is counted under when no model made the answer; a token budget leaves them out.
NO_MODEL = "retrieval-only"
VERIFIED = "verified"
FREE_MODELS = (NO_MODEL, VERIFIED)


def usage_day(now: datetime) -> date:
    """Usage is totalled per Korean calendar day."""
    return now.astimezone(KST).date()
