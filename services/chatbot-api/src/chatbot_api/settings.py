"""chatbot-api settings: the common ones plus CHATBOT_* and the model provider's OPENAI_*."""

from __future__ import annotations

from pydantic import Field

from techai_shared.settings import CommonSettings


class ChatbotSettings(CommonSettings):
    chatbot_host: str = "127.0.0.1"
    chatbot_port: int = 8084
    chatbot_max_body_bytes: int = 64 * 1024
    chatbot_history_token_window: int = Field(default=2000, ge=0)
    chatbot_history_max_messages: int = Field(default=100, ge=0)
    chatbot_rate_limit_per_minute: int = Field(default=10, ge=0)  # 0 turns the limit off
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

    openai_api_key: str | None = None
    openai_base_url: str | None = None
    openai_model: str = "gpt-4o-mini"
    openai_timeout_seconds: float = Field(default=20.0, gt=0)
    openai_max_retries: int = Field(default=2, ge=0, le=5)
    openai_total_timeout_seconds: float = Field(default=60.0, gt=0)
    # How long an idle connection to the provider is kept for reuse: below the server's idle timeout.
    openai_keepalive_seconds: float = Field(default=4.0, gt=0)
    openai_max_output_tokens: int = Field(default=800, gt=0)
    openai_temperature: float = 0.3
    # USD per million tokens (gpt-4o-mini list price), for tokenUsage.estimatedCost.
    openai_input_price_per_million: float = 0.15
    openai_output_price_per_million: float = 0.60
