"""chatbot-api settings: the common ones plus CHATBOT_* and the model providers' keys.

The chat model is a LangChain chat model of the provider CHATBOT_PROVIDER names: `openai` (also any
OpenAI-compatible server through OPENAI_BASE_URL) or `anthropic`. Without the chosen provider's key,
or with `none`, the service answers from the catalog alone (retrieval-only).
"""

from __future__ import annotations

import re
from typing import Annotated, Literal

from pydantic import AliasChoices, Field, field_validator
from pydantic_settings import NoDecode

from techai_shared.settings import CommonSettings

Provider = Literal["openai", "anthropic", "none"]

# CHATBOT_MODEL unset: the provider's default. Claude Sonnet 4.6 rather than the newer Sonnet 5.x:
# those take no temperature and think adaptively within max_tokens, which the 2,000-token default
# here would cut short.
DEFAULT_MODELS: dict[str, str] = {"openai": "gpt-4o-mini", "anthropic": "claude-sonnet-4-6"}

# USD per million input / output tokens, "model=input/output": the providers' list prices when this
# table was written (check their price pages); a dated snapshot (gpt-4o-mini-2024-07-18) is priced
# as its model.
DEFAULT_MODEL_PRICES = [
    "gpt-4o-mini=0.15/0.6",
    "gpt-4o=2.5/10",
    "claude-sonnet-4-6=3/15",
    "claude-sonnet-4-5=3/15",
    "claude-haiku-4-5=1/5",
]
_PRICE = re.compile(r"^(?P<model>[^=\s]+)=(?P<input>\d+(?:\.\d+)?)/(?P<output>\d+(?:\.\d+)?)$")


def parse_price(entry: str) -> tuple[str, float, float]:
    """`model=input/output` (USD per million tokens) as (model, input, output)."""
    match = _PRICE.match(entry.strip())
    if match is None:
        raise ValueError(f"a model price is model=input/output (USD per million tokens), not {entry!r}")
    return match["model"], float(match["input"]), float(match["output"])


def _former(name: str, former: str) -> AliasChoices:
    """The variable, and the OPENAI_ name it had when OpenAI was the only provider (still read)."""
    return AliasChoices(name, former)


class ChatbotSettings(CommonSettings):
    chatbot_host: str = "127.0.0.1"
    chatbot_port: int = 8084
    chatbot_max_body_bytes: int = 64 * 1024
    chatbot_history_token_window: int = Field(default=2000, ge=0)
    chatbot_history_max_messages: int = Field(default=100, ge=0)
    chatbot_rate_limit_per_minute: int = Field(default=10, ge=0)  # 0 turns the limit off
    # Model tokens a user may spend per Asia/Seoul day (service_layer.budget); 0: no budget. An
    # administrator sets a user's own with PUT /api/v1/admin/users/{userId}/budget (command-api).
    chatbot_daily_token_budget: int = Field(default=0, ge=0)
    # How long an admitted turn holds its tokens at most (a turn that dies releases them then).
    chatbot_budget_hold_seconds: int = Field(default=300, ge=10)
    chatbot_system_prompt_version: str = "v2"  # prompts/system_<v>.txt, context_<v>.txt, ...
    chatbot_title_prompt_version: str = "v1"
    # Token budgets (o200k_base): retrieved context, and the whole prompt (history trimmed first).
    chatbot_context_token_budget: int = Field(default=3000, ge=0)
    chatbot_prompt_token_budget: int = Field(default=4000, ge=1)
    # The response cache (first-turn questions only); 0 turns it off.
    chatbot_cache_ttl_seconds: int = Field(default=3600, ge=0)
    chatbot_cache_prefix: str = "chatcache"
    # Generate a short session title with the model after the first exchange.
    chatbot_generate_titles: bool = True
    # Verified answers: the cosine a question must reach to a phrasing (docs/verified-answers.md).
    # Unset: the value calibrated for the embedding model (chatbot_api.verified.match.MIN_COSINE);
    # a model without one serves no verified answers until this is set.
    chatbot_verified_min_cosine: float | None = Field(default=None, gt=0, le=1)
    # With a model configured, a question close to verified answers but not served is put to the
    # model (one short call, its tokens the user's): its yes serves the answer, its no keeps the
    # "did you mean" suggestions.
    chatbot_verified_judge: bool = True
    chatbot_verified_judge_timeout_seconds: float = Field(default=10.0, gt=0)

    # The chat model (docs/configuration.md, ChatbotSettings).
    chatbot_provider: Provider = "openai"
    chatbot_model: str | None = None  # None: DEFAULT_MODELS[provider]
    chatbot_model_temperature: float = Field(default=0.7, ge=0, le=2)
    chatbot_model_max_output_tokens: int = Field(default=2000, gt=0)
    # One attempt (connect, and each wait for more of the answer), then the whole call with retries.
    chatbot_model_timeout_seconds: float = Field(
        default=60.0, gt=0, validation_alias=_former("chatbot_model_timeout_seconds",
                                                     "openai_timeout_seconds"))
    chatbot_model_max_retries: int = Field(
        default=2, ge=0, le=5, validation_alias=_former("chatbot_model_max_retries",
                                                        "openai_max_retries"))
    chatbot_model_total_timeout_seconds: float = Field(
        default=120.0, gt=0, validation_alias=_former("chatbot_model_total_timeout_seconds",
                                                      "openai_total_timeout_seconds"))
    chatbot_model_prices: Annotated[list[str], NoDecode] = Field(
        default_factory=lambda: list(DEFAULT_MODEL_PRICES))
    # A stream sends an SSE comment this often, so proxies keep it open while the model thinks.
    chatbot_stream_keepalive_seconds: float = Field(default=10.0, gt=0, le=15)
    # How long a streamed answer's events are kept in Redis after its last one, for a client that
    # lost its connection to resume with Last-Event-ID (then the stored answer serves it).
    chatbot_stream_resume_seconds: int = Field(default=900, ge=600)
    # The model id the OpenAI-compatible endpoint (/v1) lists and accepts; it names the chatbot,
    # not the model behind it.
    chatbot_openai_model: str = Field(default="techai-chat", min_length=1, max_length=200)
    # Its body limit: its clients resend the whole conversation with each question.
    chatbot_openai_max_body_bytes: int = Field(default=1024 * 1024, gt=0)

    # OPENAI_API_KEY and OPENAI_BASE_URL are common settings (the OpenAI embedder reads them too).
    anthropic_api_key: str | None = None
    anthropic_base_url: str | None = None

    @field_validator("chatbot_model_prices", mode="before")
    @classmethod
    def _split_prices(cls, value: object) -> object:
        if isinstance(value, str):
            return [part.strip() for part in value.split(",") if part.strip()]
        return value

    @field_validator("chatbot_model_prices")
    @classmethod
    def _valid_prices(cls, value: list[str]) -> list[str]:
        for entry in value:
            parse_price(entry)
        return value

    @property
    def model_name(self) -> str:
        """The model that answers: CHATBOT_MODEL, else the provider's default."""
        return self.chatbot_model or DEFAULT_MODELS.get(self.chatbot_provider, "none")

    @property
    def model_api_key(self) -> str | None:
        """The chosen provider's key; None when there is none (retrieval-only)."""
        return {"openai": self.openai_api_key,
                "anthropic": self.anthropic_api_key}.get(self.chatbot_provider)

    @property
    def model_prices(self) -> dict[str, tuple[float, float]]:
        """Model -> (USD per million input tokens, per million output tokens)."""
        return {model: (inp, out) for model, inp, out in map(parse_price, self.chatbot_model_prices)}
