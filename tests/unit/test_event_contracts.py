"""One contract per event: every event type, written as the writers write it, survives the wire
and parses with the same payload model query-sync uses."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from query_sync.catalog_documents import CATALOG_KINDS
from query_sync.documents import feedback_document, message_document, session_document
from techai_shared.conversation.events import feedback_event, to_envelope
from techai_shared.conversation.model import NewMessage, Session
from techai_shared.events import (
    SCHEMA_VERSION,
    AggregateType,
    ContractViolation,
    EventEnvelope,
    EventType,
    parse_payload,
)
from techai_shared.events.catalog import (
    CATALOG_EVENTS,
    BookmarkItemType,
    BookmarkPayload,
    ContestPayload,
    ContestStatus,
    NewsArticlePayload,
)
from techai_shared.events.conversation import FeedbackPayload, MessagePayload, SessionPayload
from techai_shared.events.verified import VerifiedAnswerPayload

pytestmark = pytest.mark.unit

T0 = datetime(2026, 11, 23, 3, 0, 0, 123000, tzinfo=UTC)
T1 = datetime(2026, 11, 23, 3, 5, 0, 456000, tzinfo=UTC)


def _wire(event: EventEnvelope) -> EventEnvelope:
    """The event as query-sync receives it: JSON out of the outbox, parsed back."""
    return EventEnvelope.from_json(event.to_json().encode())


def _conversation_events() -> list[EventEnvelope]:
    session = Session.start("s-1", "1001", "다음 달 AI 해커톤 있어?", T0)
    session.append_exchange("1001", NewMessage("user", "다음 달 AI 해커톤 있어?", 12),
                            NewMessage("assistant", "두 개 있습니다.", 7,
                                       [{"documentId": "c-0001", "collection": "contests"}]), T0)
    session.rename("1001", "AI 해커톤", T1)
    session.delete("1001", T1)
    return [to_envelope(e) for e in session.events]


def _catalog_payloads() -> dict[AggregateType, object]:
    return {
        AggregateType.CONTEST: ContestPayload(
            id="c-0001", title="AI 해커톤", description="대학생 대상", status=ContestStatus.ONGOING,
            start_date=T0, end_date=T1, tags=["AI"], created_at=T0, updated_at=T1),
        AggregateType.NEWS: NewsArticlePayload(
            id="n-0001", title="LLM 출시", summary="요약", content="본문", published_at=T0,
            created_at=T0, updated_at=T0),
        AggregateType.BOOKMARK: BookmarkPayload(
            id="b-0001", user_id="1001", item_type=BookmarkItemType.CONTEST, item_id="c-0001",
            item_title="AI 해커톤", memo="팀원 찾기", created_at=T0, updated_at=T0),
    }


def _catalog_events() -> list[EventEnvelope]:
    events = []
    for aggregate_type, payload in _catalog_payloads().items():
        model, upserted, deleted = CATALOG_EVENTS[aggregate_type]
        assert isinstance(payload, model)
        body = payload.model_dump(mode="json", by_alias=True)
        for version, event_type in enumerate((upserted, deleted), 1):
            events.append(EventEnvelope(event_type=event_type, aggregate_type=aggregate_type,
                                        aggregate_id=payload.id, version=version,
                                        occurred_at=T1, payload=body))
    return events


def _feedback_events() -> list[EventEnvelope]:
    row = {"feedback_id": "f-1", "message_id": "m-2", "session_id": "s-1", "user_id": "1001",
           "rating": "down", "reasons": ["wrong", "outdated"], "comment": "마감일이 틀려요",
           "created_at": T0, "updated_at": T1, "deleted_at": None, "version": 2}
    return [feedback_event(row, T1), feedback_event({**row, "deleted_at": T1, "version": 3}, T1)]


def _verified_events() -> list[EventEnvelope]:
    payload = VerifiedAnswerPayload(id="v-0001", status="published",
                                    questions=["AI 해커톤 상금은?", "AI hackathon prize?"],
                                    answer="총상금 **1,000만 원**", sources=["c-0001"],
                                    valid_until=T1, created_at=T0, updated_at=T0)
    body = payload.model_dump(mode="json", by_alias=True)
    return [EventEnvelope(event_type=t, aggregate_type=AggregateType.VERIFIED_ANSWER,
                          aggregate_id="v-0001", version=v, occurred_at=T1, payload=body)
            for v, t in enumerate((EventType.VERIFIED_ANSWER_UPSERTED,
                                   EventType.VERIFIED_ANSWER_DELETED), 1)]


def test_every_event_type_has_a_round_trip_below():
    covered = {e.event_type for e in _conversation_events() + _catalog_events()
               + _feedback_events() + _verified_events()}
    assert covered == set(EventType)


def test_feedback_events_round_trip_and_carry_the_rating_or_null():
    given, removed = (_wire(e) for e in _feedback_events())
    assert (given.aggregate_type, given.aggregate_id, given.version) == (
        AggregateType.CONVERSATION, "s-1", 2)
    session_id, message_id, feedback = feedback_document(given)
    assert (session_id, message_id) == ("s-1", "m-2")
    assert feedback is not None
    assert (feedback["rating"], feedback["reasons"], feedback["comment"]) == (
        "down", ["wrong", "outdated"], "마감일이 틀려요")
    assert feedback["updated_at"] == T1
    assert feedback_document(removed)[2] is None
    parsed = parse_payload(FeedbackPayload, removed, key="session_id")
    assert parsed.feedback is None and parsed.user_id == "1001"


def test_verified_answer_events_round_trip():
    for sent in _verified_events():
        received = _wire(sent)
        assert received == sent
        payload = VerifiedAnswerPayload.model_validate(received.payload)
        assert payload.questions == ["AI 해커톤 상금은?", "AI hackathon prize?"]
        assert payload.valid_until == T1 and payload.sources == ["c-0001"]


def test_conversation_events_round_trip_through_their_payload_models():
    events = _conversation_events()
    assert [e.version for e in events] == [1, 2, 3, 4, 5, 6]
    for sent in events:
        received = _wire(sent)
        assert received == sent and received.schema_version == SCHEMA_VERSION
        model = MessagePayload if sent.event_type is EventType.MESSAGE_CREATED else SessionPayload
        parsed = parse_payload(model, received, key="session_id")
        assert parsed.to_payload() == sent.payload
    created, user_message = events[0], events[1]
    assert session_document(_wire(created), T1)["title"] == "다음 달 AI 해커톤 있어?"
    assert message_document(_wire(user_message))["sequence_number"] == 1
    assert session_document(_wire(events[-1]), T1)["is_deleted"] is True


def test_catalog_events_round_trip_through_their_payload_models():
    kinds = {kind.aggregate_type: kind for kind in CATALOG_KINDS}
    for sent in _catalog_events():
        received = _wire(sent)
        assert received == sent
        item = kinds[sent.aggregate_type].parse(received)
        assert item.model_dump(mode="json", by_alias=True) == sent.payload


def test_a_payload_for_another_aggregate_is_a_contract_violation():
    event = _conversation_events()[0]
    moved = event.model_copy(update={"aggregate_id": "another-session"})
    with pytest.raises(ContractViolation):
        parse_payload(SessionPayload, moved, key="session_id")
