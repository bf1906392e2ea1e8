"""Messages as a tree: the aggregate's branch operations, the tree's shape, and regenerate / edit /
resume in the chat use case (in-memory fakes of its ports)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from chatbot_api.service_layer.chat import Branch, ChatOptions
from techai_shared.conversation.model import NewMessage, Session
from techai_shared.conversation.tree import Node, Tree
from techai_shared.errors import Forbidden, InvalidInput, MessageNotFound
from tests.unit.fakes import FakeModel, FakeSearch, hit
from tests.unit.test_chat_service import ALICE, BOB, Harness

pytestmark = pytest.mark.unit

T0 = datetime(2026, 11, 23, 3, 0, tzinfo=UTC)


def _q(text: str = "q") -> NewMessage:
    return NewMessage("user", text, 1)


def _a(text: str = "a") -> NewMessage:
    return NewMessage("assistant", text, 1)


def test_an_answer_added_again_is_a_sibling_and_the_new_leaf():
    s = Session.start("s1", "u", "q", T0)
    first = s.append_exchange("u", _q(), _a("first"), T0)
    base = (first.user_message.message_id,)
    again = s.add_answer("u", base, _a("second"), T0 + timedelta(minutes=1))
    assert again.parent_message_id == first.user_message.message_id
    assert again.sequence_number == first.assistant_message.sequence_number == 2
    assert s.state.path == (*base, again.message_id) and s.state.message_count == 2
    assert s.state.version == 6  # 1 created, 3 for the exchange, 2 for the new answer


def test_an_edited_question_branches_beside_the_old_one_and_the_path_drops_what_followed():
    s = Session.start("s1", "u", "q", T0)
    one = s.append_exchange("u", _q("one"), _a(), T0)
    two = s.append_exchange("u", _q("two"), _a(), T0)
    s.append_exchange("u", _q("three"), _a(), T0)
    base = (one.user_message.message_id, one.assistant_message.message_id)
    edited = s.branch_exchange("u", base, _q("two, edited"), _a(), T0)
    assert edited.user_message.parent_message_id == two.user_message.parent_message_id
    assert s.state.path == (*base, edited.user_message.message_id, edited.assistant_message.message_id)
    assert s.state.message_count == 4


def test_only_the_owner_branches_and_switches():
    s = Session.start("s1", "u", "q", T0)
    s.append_exchange("u", _q(), _a(), T0)
    with pytest.raises(Forbidden):
        s.add_answer("other", s.state.path[:1], _a(), T0)
    with pytest.raises(Forbidden):
        s.switch("other", s.state.path, T0)


def test_switching_to_the_current_path_changes_nothing():
    s = Session.start("s1", "u", "q", T0)
    s.append_exchange("u", _q(), _a(), T0)
    version, events = s.state.version, len(s.events)
    s.switch("u", s.state.path, T0)
    assert s.state.version == version and len(s.events) == events


def test_a_branch_ends_at_the_deepest_descendant_along_the_latest_children():
    # q1 -> a1 -> q2 -> a2 ; q1 -> a1' (regenerated, later) -> q3 -> a3
    tree = Tree([Node("q1", None, "user", 1), Node("a1", "q1", "assistant", 2),
                 Node("q2", "a1", "user", 3), Node("a2", "q2", "assistant", 4),
                 Node("a1b", "q1", "assistant", 6), Node("q3", "a1b", "user", 8),
                 Node("a3", "q3", "assistant", 9)])
    assert tree.branch_of("q1") == ("q1", "a1b", "q3", "a3")
    assert tree.branch_of("a1") == ("q1", "a1", "q2", "a2")
    assert tree.path_to("a2") == ("q1", "a1", "q2", "a2")
    assert tree.siblings("a1b") == ["a1", "a1b"] and tree.siblings("q1") == ["q1"]
    assert "a3" in tree and "zz" not in tree


async def test_regenerating_answers_the_same_question_again_with_the_same_history():
    h = Harness(model=FakeModel("another answer"))
    first = await h.chat.chat(ALICE, "첫 질문", None)
    second = await h.chat.chat(ALICE, "이번 달 AI 해커톤 있어?", first.session.session_id)
    prepared = await h.chat.prepare_branch(ALICE, first.session.session_id,
                                           Branch("regenerate", second.message.message_id), None,
                                           ChatOptions())
    assert prepared.question == "이번 달 AI 해커톤 있어?" and prepared.cache_key is None
    assert [t.content for t in prepared.turns if t.role in ("user", "assistant")][:2] == [
        "첫 질문", "another answer"]
    again = await h.chat.answer(prepared, streaming=False, on_delta=_nothing)
    assert again.message.parent_message_id == second.message.parent_message_id
    assert again.session.message_count == 4 and again.session.leaf_message_id == again.message.message_id
    assert h.stored_messages() == 5  # the question is not stored again
    assert len(h.db.usage) == 3  # each turn, the regenerated one too, is counted


async def test_a_branch_needs_the_right_kind_of_message_of_the_callers_session():
    h = Harness()
    first = await h.chat.chat(ALICE, "첫 질문", None)
    sid, answer_id = first.session.session_id, first.message.message_id
    question_id = first.session.path[0]
    with pytest.raises(InvalidInput):
        await h.chat.prepare_branch(ALICE, sid, Branch("regenerate", question_id), None, ChatOptions())
    with pytest.raises(InvalidInput):
        await h.chat.prepare_branch(ALICE, sid, Branch("edit", answer_id), "다른 질문", ChatOptions())
    with pytest.raises(MessageNotFound):
        await h.chat.prepare_branch(ALICE, sid, Branch("regenerate", "nope"), None, ChatOptions())
    with pytest.raises(Forbidden):
        await h.chat.prepare_branch(BOB, sid, Branch("regenerate", answer_id), None, ChatOptions())


async def test_a_follow_up_after_an_edit_is_about_the_edited_question():
    search = FakeSearch([hit("c-0002", "Blue Harbor CTF")])
    h = Harness(search=search)
    first = await h.chat.chat(ALICE, "이번 달 AI 해커톤 있어?", None)
    sid = first.session.session_id
    search.hits = [hit("c-0003", "Seoul Security CTF")]
    prepared = await h.chat.prepare_branch(ALICE, sid, Branch("edit", first.session.path[0]),
                                           "보안 CTF 대회 있어?", ChatOptions())
    edited = await h.chat.answer(prepared, streaming=False, on_delta=_nothing)
    assert edited.session.message_count == 2
    follow = await h.chat.prepare(ALICE, "그거 마감 언제야?", sid, ChatOptions())
    previous = search.questions[-1][1]
    assert previous is not None and previous.question == "보안 CTF 대회 있어?"
    assert [s["documentId"] for s in previous.sources] == ["c-0003"]
    assert follow.session is not None and follow.session.state.path == edited.session.path


async def test_a_stored_answer_resumes_from_where_the_client_was():
    h = Harness(model=FakeModel("one two three four five six", delay=0.001))
    prepared = await h.chat.prepare(ALICE, "이번 달 AI 해커톤 있어?", None, ChatOptions())
    events = [e async for e in h.chat.stream(prepared)]
    stored = h.db.messages[prepared.session_id][1].content
    cut = events[2]  # the client saw metadata and two deltas
    rest = [e async for e in await h.chat.resume(ALICE, prepared.session_id, prepared.answer_id, cut.id)]
    seen = "".join(e.data["text"] for e in events[:3] if e.name == "delta")
    assert seen + "".join(e.data["text"] for e in rest if e.name == "delta") == stored
    assert [e.name for e in rest][-2:] == ["sources", "done"] and rest[0].number == cut.number + 1
    with pytest.raises(Forbidden):
        await h.chat.resume(BOB, prepared.session_id, prepared.answer_id, cut.id)
    with pytest.raises(InvalidInput):
        await h.chat.resume(ALICE, prepared.session_id, prepared.answer_id, "three")
    # a bare number says nothing of the text delivered: the stored answer starts again
    again = [e async for e in await h.chat.resume(ALICE, prepared.session_id, prepared.answer_id, "3")]
    assert [e.name for e in again] == ["metadata", "delta", "sources", "done"]
    assert again[1].data["text"] == stored


async def _nothing(_: str) -> None:
    return None


async def test_the_title_follows_an_edited_first_question_unless_the_user_named_the_session():
    h = Harness()
    first = await h.chat.chat(ALICE, "이번 달 AI 해커톤 있어?", None)
    sid = first.session.session_id
    prepared = await h.chat.prepare_branch(ALICE, sid, Branch("edit", first.session.path[0]),
                                           "다음 달 보안 CTF 있어?", ChatOptions())
    edited = await h.chat.answer(prepared, streaming=False, on_delta=_nothing)
    assert edited.session.title == "다음 달 보안 CTF 있어?"

    state = h.db.sessions[sid]
    h.db.sessions[sid] = type(state)(**{**state.__dict__, "title": "내 대화"})  # the user's own
    prepared = await h.chat.prepare_branch(ALICE, sid, Branch("edit", edited.session.path[0]),
                                           "올해 해커톤 있어?", ChatOptions())
    assert (await h.chat.answer(prepared, streaming=False, on_delta=_nothing)).session.title == "내 대화"
