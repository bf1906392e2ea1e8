"""The model port's configuration rules: which LangChain chat model each provider gets and with what
parameters, the start-up failure of a missing integration, the message shapes, the price table, and
the background title that never overwrites the user's. No network: nothing here calls a model (the
wire formats are tested against local servers in tests/integration/test_model_providers.py)."""

from __future__ import annotations

import logging
import sys
from datetime import UTC, datetime

import pytest
from langchain_anthropic import ChatAnthropic
from langchain_core.messages import AIMessage, HumanMessage, SystemMessage
from langchain_openai import ChatOpenAI

from chatbot_api import bootstrap
from chatbot_api.adapters.llm import (
    LangChainChatModel,
    MissingProviderPackage,
    UnconfiguredModel,
    is_timeout,
    make_model,
    to_messages,
)
from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.usage import PriceTable, Pricing
from chatbot_api.service_layer.chat import load_prompt
from chatbot_api.service_layer.titles import TitleWriter
from chatbot_api.settings import DEFAULT_MODELS, ChatbotSettings
from techai_shared.conversation.model import Session, SessionState, title_from
from tests.unit.fakes import FakeDatabase, FakeModel, FakeUnitOfWork

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)
OPENAI = {"openai_api_key": "sk-test", "openai_base_url": "http://127.0.0.1:9/v1"}
ANTHROPIC = {"chatbot_provider": "anthropic", "anthropic_api_key": "sk-ant-test",
             "anthropic_base_url": "http://127.0.0.1:9"}


@pytest.fixture(autouse=True)
def no_model_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only what a test passes configures the model (the SDKs read some variables themselves)."""
    for name in ("CHATBOT_PROVIDER", "CHATBOT_MODEL", "OPENAI_API_KEY", "OPENAI_BASE_URL",
                 "ANTHROPIC_API_KEY", "ANTHROPIC_BASE_URL", "CHATBOT_MODEL_PRICES"):
        monkeypatch.delenv(name, raising=False)


def langchain_of(settings: ChatbotSettings) -> LangChainChatModel:
    model = make_model(settings)
    assert isinstance(model, LangChainChatModel)
    return model


# -- which model, with which parameters ---------------------------------------------------------


def test_openai_is_the_default_provider_with_the_issue_parameters():
    model = langchain_of(ChatbotSettings(**OPENAI))
    llm = model.llm
    assert isinstance(llm, ChatOpenAI)
    assert (llm.model_name, llm.temperature, llm.max_tokens) == ("gpt-4o-mini", 0.7, 2000)
    assert (llm.request_timeout, llm.max_retries, llm.stream_usage) == (60.0, 2, True)
    assert llm.openai_api_base == "http://127.0.0.1:9/v1" and llm.use_responses_api is False
    assert model.name == "openai:gpt-4o-mini|t=0.7|max=2000"


def test_anthropic_gets_chat_anthropic_and_a_claude_sonnet_model():
    model = langchain_of(ChatbotSettings(**ANTHROPIC))
    llm = model.llm
    assert isinstance(llm, ChatAnthropic)
    assert llm.model == DEFAULT_MODELS["anthropic"] and llm.model.startswith("claude-sonnet-")
    assert (llm.temperature, llm.max_tokens) == (0.7, 2000)
    assert (llm.default_request_timeout, llm.max_retries, llm.stream_usage) == (60.0, 2, True)
    assert llm.anthropic_api_url == "http://127.0.0.1:9"


def test_every_model_parameter_is_configuration():
    model = langchain_of(ChatbotSettings(
        **ANTHROPIC, chatbot_model="claude-haiku-4-5", chatbot_model_temperature=0.2,
        chatbot_model_max_output_tokens=500, chatbot_model_timeout_seconds=7,
        chatbot_model_max_retries=4))
    llm = model.llm
    assert isinstance(llm, ChatAnthropic)
    assert (llm.model, llm.temperature, llm.max_tokens) == ("claude-haiku-4-5", 0.2, 500)
    assert (llm.default_request_timeout, llm.max_retries) == (7, 4)


def test_a_model_that_takes_no_temperature_is_sent_none():
    model = langchain_of(ChatbotSettings(**ANTHROPIC, chatbot_model="claude-sonnet-5-5"))
    assert model.llm.temperature is None  # type: ignore[attr-defined]
    assert "|t=None|" in model.name


def test_an_openai_compatible_server_is_openai_with_a_base_url():
    model = langchain_of(ChatbotSettings(openai_api_key="ollama", chatbot_model="llama3.2:3b",
                                         openai_base_url="http://127.0.0.1:11434/v1"))
    assert isinstance(model.llm, ChatOpenAI) and model.llm.model_name == "llama3.2:3b"


@pytest.mark.parametrize("settings", [
    {},                                                # no OPENAI_API_KEY
    {"chatbot_provider": "anthropic", **OPENAI},       # the other provider's key does not count
    {**OPENAI, **ANTHROPIC, "chatbot_provider": "none"},
], ids=["openai-without-key", "anthropic-without-key", "none"])
def test_without_the_chosen_providers_key_the_service_is_retrieval_only(settings):
    assert isinstance(make_model(ChatbotSettings(**settings)), UnconfiguredModel)


def test_a_provider_whose_package_is_missing_fails_at_start_naming_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "langchain_anthropic", None)  # import raises ImportError
    with pytest.raises(MissingProviderPackage, match="langchain-anthropic"):
        make_model(ChatbotSettings(**ANTHROPIC))


def test_timeouts_are_told_from_other_failures_whichever_layer_raised_them():
    import anthropic
    import httpx2
    import openai
    from langchain_core.exceptions import ModelTimeoutError

    request = httpx2.Request("POST", "http://127.0.0.1:9/v1/messages")
    assert is_timeout(TimeoutError()) and is_timeout(ModelTimeoutError())
    assert is_timeout(httpx2.ReadTimeout("read", request=request))  # a stream gone silent
    assert is_timeout(openai.APITimeoutError(request)) and is_timeout(anthropic.APITimeoutError(request))
    assert not is_timeout(httpx2.RemoteProtocolError("peer closed", request=request))
    assert not is_timeout(anthropic.APIConnectionError(request=request))


# -- messages -------------------------------------------------------------------------------------


TURNS = [ChatTurn("system", "규칙"), ChatTurn("user", "q1"), ChatTurn("assistant", "a1"),
         ChatTurn("system", "참고 자료"), ChatTurn("user", "q2")]


def test_turns_keep_their_order_and_roles_for_chat_completions():
    messages = to_messages(TURNS)
    assert [type(m) for m in messages] == [SystemMessage, HumanMessage, AIMessage, SystemMessage,
                                           HumanMessage]
    assert [m.content for m in messages] == [t.content for t in TURNS]


def test_the_messages_api_gets_one_system_prompt_first():
    messages = to_messages(TURNS, one_system=True)
    assert [type(m) for m in messages] == [SystemMessage, HumanMessage, AIMessage, HumanMessage]
    assert messages[0].content == "규칙\n\n참고 자료"


# -- prices ---------------------------------------------------------------------------------------


def test_the_default_price_table_covers_both_default_models():
    table = PriceTable(ChatbotSettings().model_prices)
    for model in DEFAULT_MODELS.values():
        found = table.find(model)
        assert found is not None and found.input_per_million > 0 and found.output_per_million > 0
    assert table.find("gpt-4o-mini") == Pricing("gpt-4o-mini", 0.15, 0.6)


def test_a_dated_snapshot_is_priced_as_its_model_and_only_it():
    table = PriceTable({"gpt-4o": (2.5, 10.0), "gpt-4o-mini": (0.15, 0.6)})
    assert table.find("gpt-4o-mini-2024-07-18") == Pricing("gpt-4o-mini-2024-07-18", 0.15, 0.6)
    assert table.find("gpt-4o-2024-08-06") == Pricing("gpt-4o-2024-08-06", 2.5, 10.0)
    assert table.find("gpt-4o-audio-preview") is None


def test_cost_follows_the_model_whichever_provider_answers():
    claude = bootstrap.pricing(ChatbotSettings(**ANTHROPIC))
    assert claude.model == DEFAULT_MODELS["anthropic"]
    assert claude.usage(1_000_000, 100_000).estimated_cost == pytest.approx(3.0 + 1.5)
    gpt = bootstrap.pricing(ChatbotSettings(**OPENAI))
    assert gpt.usage(1_000_000, 1_000_000).estimated_cost == pytest.approx(0.15 + 0.6)


def test_prices_are_configured_as_model_equals_input_slash_output(monkeypatch):
    monkeypatch.setenv("CHATBOT_MODEL_PRICES", "llama3.2:3b=0/0, my-model=1.5/2")
    assert ChatbotSettings().model_prices == {"llama3.2:3b": (0.0, 0.0), "my-model": (1.5, 2.0)}
    with pytest.raises(ValueError, match="model=input/output"):
        ChatbotSettings(chatbot_model_prices="my-model=cheap")


def test_an_unknown_model_costs_zero_with_one_warning(caplog):
    settings = ChatbotSettings(**OPENAI, chatbot_model="unpriced-model-for-the-warning-test")
    with caplog.at_level(logging.WARNING, logger="chatbot_api.bootstrap"):
        first = bootstrap.pricing(settings)
        second = bootstrap.pricing(settings)
    assert first == second == Pricing("unpriced-model-for-the-warning-test", 0.0, 0.0)
    warnings = [r for r in caplog.records if "unpriced-model-for-the-warning-test" in r.getMessage()]
    assert len(warnings) == 1


def test_the_former_openai_names_of_the_timeouts_are_still_read(monkeypatch):
    monkeypatch.setenv("OPENAI_TIMEOUT_SECONDS", "3")
    monkeypatch.setenv("OPENAI_MAX_RETRIES", "1")
    settings = ChatbotSettings()
    assert (settings.chatbot_model_timeout_seconds, settings.chatbot_model_max_retries) == (3.0, 1)
    monkeypatch.setenv("CHATBOT_MODEL_TIMEOUT_SECONDS", "4")
    assert ChatbotSettings().chatbot_model_timeout_seconds == 4.0


# -- the background title -------------------------------------------------------------------------


QUESTION = "이번 달에 마감하는 AI 해커톤과 클라우드 공모전을 모두 알려주고, 상금이 큰 순서로 정리해 줄래?"


async def _first_exchange(db: FakeDatabase) -> SessionState:
    session = Session.start("s-1", "1001", QUESTION, NOW)
    async with FakeUnitOfWork(db) as uow:
        await uow.sessions.save(session)
        await uow.commit()
    return session.state


def _writer(db: FakeDatabase) -> TitleWriter:
    return TitleWriter(FakeModel("AI 해커톤 일정"), lambda: FakeUnitOfWork(db),
                       load_prompt("title", "v1"), Pricing("fake-model", 1.0, 2.0), lambda: NOW,
                       TokenCounter())


async def test_the_model_title_replaces_the_automatic_one():
    db = FakeDatabase()
    state = await _first_exchange(db)
    assert state.title == title_from(QUESTION) == QUESTION[:50]
    await _writer(db).retitle(state, QUESTION)
    assert db.sessions["s-1"].title == "AI 해커톤 일정"


async def test_the_model_title_never_overwrites_a_title_the_user_set_meanwhile():
    db = FakeDatabase()
    state = await _first_exchange(db)
    async with FakeUnitOfWork(db) as uow:  # the user's PUT, while the model was writing a title
        current = await uow.sessions.get_owned("s-1", "1001", for_update=True)
        current.rename("1001", "내가 정한 제목", NOW)
        await uow.sessions.save(current)
        await uow.commit()
    await _writer(db).retitle(state, QUESTION)
    assert db.sessions["s-1"].title == "내가 정한 제목"
    assert [u[6] for u in db.usage] == [0], "the title's tokens are still counted, as no request"
