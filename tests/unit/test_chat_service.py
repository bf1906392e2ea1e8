"""The chat use case's rules, with in-memory fakes of its ports (no network, milliseconds)."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime
from typing import Any

import pytest

from chatbot_api.adapters.tokens import TokenCounter
from chatbot_api.domain.conversation import ChatTurn
from chatbot_api.domain.usage import Pricing
from chatbot_api.service_layer.chat import ChatOptions, ChatService, Transcript, load_prompt
from chatbot_api.service_layer.titles import TitleWriter
from chatbot_api.settings import ChatbotSettings
from techai_shared.auth import Principal
from techai_shared.errors import (
    Forbidden,
    InvalidInput,
    LlmTimeout,
    RateLimited,
    SessionNotFound,
    TokenLimitExceeded,
)
from tests.unit.fakes import (
    FakeAnswerCache,
    FakeDatabase,
    FakeModel,
    FakeRateLimiter,
    FakeSearch,
    FakeUnitOfWork,
    hit,
)

pytestmark = pytest.mark.unit

NOW = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)
ALICE, BOB = Principal("1001", "USER"), Principal("1002", "USER")
QUESTION = "이번 달 AI 해커톤 있어?"
TOKENS = TokenCounter()


class Harness:
    """A ChatService over fakes, and the fakes to look at."""

    def __init__(self, *, model: FakeModel | None = None, search: FakeSearch | None = None,
                 limit: int = 100, titles: bool = False, **settings: Any) -> None:
        self.db = FakeDatabase()
        self.model = model or FakeModel()
        self.search = search or FakeSearch()
        self.cache = FakeAnswerCache()
        self.limiter = FakeRateLimiter(limit)
        cfg = ChatbotSettings(**settings)
        pricing = Pricing("fake-model", 1.0, 2.0)
        self.title_model = FakeModel("AI 해커톤 일정")
        writer = (TitleWriter(self.title_model, self.uow, load_prompt("title", "v1"), pricing,
                              lambda: NOW, TOKENS) if titles else None)
        self.chat = ChatService(cfg, self.uow, self.model, self.limiter, TOKENS, lambda: NOW,
                                self.search, self.cache, pricing, writer)

    def uow(self) -> FakeUnitOfWork:
        return FakeUnitOfWork(self.db)

    def stored_messages(self) -> int:
        return sum(len(m) for m in self.db.messages.values())


async def test_a_first_question_is_answered_stored_and_counted():
    h = Harness()
    result = await h.chat.chat(ALICE, QUESTION, None)
    assert result.mode == "rag" and result.created_session
    assert [s["documentId"] for s in result.sources] == ["c-0001"]
    assert result.usage.input_tokens == 120 and result.usage.output_tokens == 30
    assert result.session.message_count == 2 and result.session.version == 4
    assert [e.event_type.value for e in h.db.outbox] == [
        "ConversationSessionCreated", "ConversationMessageCreated", "ConversationMessageCreated",
        "ConversationSessionUpdated"]
    assert [e.version for e in h.db.outbox] == [1, 2, 3, 4]
    assert h.db.usage == [("1001", NOW.date(), "fake-model", 120, 30, 0.00018, 1)]
    assert h.db.commits == 1  # messages, session and usage together


async def test_only_first_turns_are_cached_and_served_from_the_cache():
    h = Harness()
    first = await h.chat.chat(ALICE, QUESTION, None)
    again = await h.chat.chat(BOB, QUESTION, None)
    assert len(h.model.calls) == 1, "the same first question was answered from the cache"
    assert again.answer == first.answer
    assert again.usage.total_tokens == 0 and again.sources == first.sources
    lookups = h.cache.lookups
    await h.chat.chat(ALICE, QUESTION, first.session.session_id)
    assert h.cache.lookups == lookups, "a follow-up in a session never consults the cache"
    assert len(h.model.calls) == 2


async def test_a_retrieval_failure_answers_as_general_and_is_not_cached():
    h = Harness(search=FakeSearch(fail=True))
    result = await h.chat.chat(ALICE, QUESTION, None)
    assert result.mode == "general" and result.sources == []
    assert h.cache.entries == {}
    assert [t.role for t in h.model.calls[0]] == ["system", "user"], "no catalog context"


async def test_a_catalog_question_that_found_nothing_is_not_cached():
    h = Harness(search=FakeSearch([]))
    await h.chat.chat(ALICE, QUESTION, None)
    assert h.cache.entries == {}, "the item may be added the next minute"
    h.search.hits = [hit("c-0007", "부산 핀테크 해커톤")]
    later = await h.chat.chat(BOB, QUESTION, None)
    assert [s["documentId"] for s in later.sources] == ["c-0007"] and h.cache.entries


async def test_a_model_failure_stores_nothing():
    h = Harness(model=FakeModel(fail=LlmTimeout("the model timed out")))
    with pytest.raises(LlmTimeout):
        await h.chat.chat(ALICE, QUESTION, None)
    assert h.db.sessions == {} and h.stored_messages() == 0 and h.db.usage == []
    assert h.db.outbox == [] and h.db.commits == 0


async def test_a_stream_whose_client_leaves_is_still_stored():
    h = Harness(model=FakeModel("one two three four five six", delay=0.002))
    prepared = await h.chat.prepare(ALICE, QUESTION, None, ChatOptions())
    events = h.chat.stream(prepared)
    assert (await anext(events)).name == "metadata"
    assert (await anext(events)).name == "delta"
    await events.aclose()  # the client went away after the first piece of text
    await h.chat.drain(within=2)
    assert h.stored_messages() == 2
    answer = h.db.messages[prepared.session_id][1]
    assert answer.role == "assistant" and answer.content == "one two three four five six"


async def test_a_stream_sends_metadata_deltas_sources_and_done_in_order():
    h = Harness(model=FakeModel("a streamed answer"))
    prepared = await h.chat.prepare(ALICE, QUESTION, None, ChatOptions())
    events = [e async for e in h.chat.stream(prepared)]
    names = [e.name for e in events]
    assert names[0] == "metadata" and names[-2:] == ["sources", "done"]
    assert "".join(e.data["text"] for e in events if e.name == "delta") == "a streamed answer "
    done = events[-1].data
    assert done["messageId"] == h.db.messages[prepared.session_id][1].message_id
    # the first event names the answer before it exists; each event's id numbers it and counts
    # the characters of the answer delivered so far
    assert events[0].data["messageId"] == done["messageId"]
    assert [e.id for e in events] == [
        f"{i}.{len(''.join(d.data['text'] for d in events[:i] if d.name == 'delta'))}"
        for i in range(1, len(events) + 1)]


async def test_the_title_task_is_spawned_once_for_a_new_session():
    h = Harness(titles=True)
    first = await h.chat.chat(ALICE, QUESTION, None)
    await h.chat.chat(ALICE, "그거 마감은 언제야?", first.session.session_id)
    await h.chat.drain(within=2)
    assert len(h.title_model.calls) == 1
    session = h.db.sessions[first.session.session_id]
    assert session.title == "AI 해커톤 일정"
    assert [u[6] for u in h.db.usage].count(0) == 1, "the title's tokens, without a request"


async def test_no_title_task_without_a_model():
    h = Harness(model=FakeModel(configured=False), titles=True)
    result = await h.chat.chat(ALICE, QUESTION, None)
    await h.chat.drain(within=2)
    assert result.mode == "retrieval-only" and h.title_model.calls == []
    assert "AI 해커톤 2026" in result.answer


async def test_a_question_over_the_token_budget_is_refused_before_anything_runs():
    h = Harness(chatbot_prompt_token_budget=60)
    with pytest.raises(TokenLimitExceeded):
        await h.chat.chat(ALICE, "해커톤 " * 120, None)
    assert h.model.calls == [] and h.search.questions == [] and h.db.commits == 0


async def test_over_the_rate_limit_nothing_is_answered():
    h = Harness(limit=1)
    await h.chat.chat(ALICE, QUESTION, None)
    with pytest.raises(RateLimited):
        await h.chat.chat(ALICE, QUESTION, None)
    assert len(h.model.calls) == 1 and h.db.commits == 1


async def test_an_empty_question_is_invalid_input():
    h = Harness()
    with pytest.raises(InvalidInput):
        await h.chat.chat(ALICE, " \u200b\t ", None)
    assert h.limiter.hits == {} and h.db.commits == 0


async def test_another_users_session_is_forbidden_and_an_unknown_one_not_found():
    h = Harness()
    mine = await h.chat.chat(ALICE, QUESTION, None)
    with pytest.raises(Forbidden):
        await h.chat.chat(BOB, "그거 마감은?", mine.session.session_id)
    with pytest.raises(SessionNotFound):
        await h.chat.chat(ALICE, "그거 마감은?", "no-such-session")
    assert h.stored_messages() == 2


async def test_a_follow_up_sees_the_previous_exchange_and_its_sources():
    h = Harness(search=FakeSearch([hit("c-0007", "부산 핀테크 해커톤")]))
    first = await h.chat.chat(ALICE, QUESTION, None)
    await h.chat.chat(ALICE, "그거 신청 마감은 언제야?", first.session.session_id)
    _, previous = h.search.questions[-1]
    assert previous is not None and previous.question == QUESTION
    assert [s["documentId"] for s in previous.sources] == ["c-0007"]
    history = [t.content for t in h.model.calls[-1] if t.role in ("user", "assistant")]
    assert history[:2] == [QUESTION, "An answer from the model."]


async def test_a_turn_whose_session_changed_meanwhile_appends_after_the_change():
    h = Harness()
    first = await h.chat.chat(ALICE, QUESTION, None)
    h.db.changed_under_reader.add(first.session.session_id)  # renamed between read and write
    second = await h.chat.chat(ALICE, "그거 마감은?", first.session.session_id)
    assert second.session.title == "renamed meanwhile"
    assert second.session.version == first.session.version + 1 + 3
    sequences = [m.sequence_number for m in h.db.messages[first.session.session_id]]
    assert sequences == [1, 2, 3, 4]


async def test_background_answers_finish_before_drain_returns():
    h = Harness(model=FakeModel("slow answer", delay=0.01))
    prepared = await h.chat.prepare(ALICE, QUESTION, None, ChatOptions())
    consumer = asyncio.ensure_future(anext(h.chat.stream(prepared)))
    await consumer
    await h.chat.drain(within=2)
    assert h.stored_messages() == 2


async def _ask(h: Harness, question: str, transcript: list[ChatTurn],
               options: ChatOptions | None = None) -> Any:
    """A turn of a client that resends its transcript and names no session."""
    prepared = await h.chat.prepare(ALICE, question, None, options or ChatOptions(),
                                    Transcript.of(transcript))
    return await h.chat.answer(prepared, streaming=False, on_delta=_ignore)


async def _ignore(_: str) -> None:
    return None


async def test_a_client_that_resends_its_transcript_keeps_one_session():
    h = Harness()
    transcript = [ChatTurn("system", "client instructions")]
    sessions = []
    for question in (QUESTION, "그거 신청 마감은 언제야?", "상금은?"):
        result = await _ask(h, question, transcript)
        sessions.append(result.session.session_id)
        # the model saw the stored history: the client's earlier turns, not its instructions
        seen = [t.content for t in h.model.calls[-1] if t.role != "system"]
        assert seen == [t.content for t in transcript[1:]] + [question]
        transcript += [ChatTurn("user", question), ChatTurn("assistant", result.answer)]
    assert len(set(sessions)) == 1 and h.stored_messages() == 6


async def test_an_edited_transcript_is_a_new_session_whose_history_is_what_the_client_sent():
    h = Harness()
    first = await _ask(h, QUESTION, [])
    edited = [ChatTurn("user", QUESTION), ChatTurn("assistant", "an answer the client rewrote")]
    lookups = h.cache.lookups
    branch = await _ask(h, "그거 마감은?", edited)
    assert branch.session.session_id != first.session.session_id
    assert [t.content for t in h.model.calls[-1] if t.role != "system"] == [
        QUESTION, "an answer the client rewrote", "그거 마감은?"]
    assert h.cache.lookups == lookups, "an answer in context is never served from the cache"
    # the new session's key includes what the client sent: its next turn continues it
    again = await _ask(h, "상금은?", [*edited, ChatTurn("user", "그거 마감은?"),
                                     ChatTurn("assistant", branch.answer)])
    assert again.session.session_id == branch.session.session_id
    assert h.stored_messages() == 6  # two of each session; the client's own turns are not stored


async def test_sources_in_text_end_the_answer_and_are_stored_as_shown():
    h = Harness(search=FakeSearch([hit("c-0007", "부산 핀테크 해커톤")]))
    options = ChatOptions(sources_in_text=True)
    prepared = await h.chat.prepare(ALICE, QUESTION, None, options, Transcript.of([]))
    parts: list[str] = []

    async def collect(text: str) -> None:
        parts.append(text)

    result = await h.chat.answer(prepared, streaming=True, on_delta=collect)
    assert result.answer.startswith("An answer from the model.")
    assert result.answer.endswith("\n\n출처:\n[1] 부산 핀테크 해커톤")
    # the stream's last delta is the list (the fake model streams word by word)
    assert parts[-1] == "\n\n출처:\n[1] 부산 핀테크 해커톤"
    assert "".join(parts[:-1]).strip() == "An answer from the model."
    stored = h.db.messages[result.session.session_id][1].content
    assert stored == result.answer
    # the envelope endpoint's answers keep the text as the model wrote it
    plain = await h.chat.chat(BOB, "부산 핀테크 해커톤 알려줘", None)
    assert plain.answer == "An answer from the model."
    # a retrieval-only answer lists its items itself
    bare = Harness(model=FakeModel(configured=False),
                   search=FakeSearch([hit("c-0007", "부산 핀테크 해커톤")]))
    listed = await _ask(bare, QUESTION, [], options)
    assert listed.mode == "retrieval-only" and "출처:" not in listed.answer
