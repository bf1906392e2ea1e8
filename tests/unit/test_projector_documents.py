"""Pure parts of the projector: payload -> document mapping, failure classes, backoff, DLQ headers."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from aiokafka.errors import CommitFailedError, KafkaConnectionError, RequestTimedOutError
from aiokafka.structs import ConsumerRecord
from pymongo.errors import (
    AutoReconnect,
    DuplicateKeyError,
    NetworkTimeout,
    OperationFailure,
    ServerSelectionTimeoutError,
    WTimeoutError,
)

from query_sync.adapters.dead_letters import dead_letter_headers
from query_sync.documents import message_document, session_document
from query_sync.entrypoints.consumer import parse_event
from query_sync.errors import InvalidEnvelope, InvalidPayload
from query_sync.retry import Backoff, is_transient
from techai_shared.conversation.events import message_payload, session_payload
from techai_shared.conversation.model import SessionState, StoredMessage
from techai_shared.events import AggregateType, EventEnvelope, EventType

pytestmark = pytest.mark.unit

T0 = datetime(2025, 3, 1, 9, 30, 15, 123000, tzinfo=UTC)
NOW = T0 + timedelta(seconds=2)


def _session(**changes: object) -> SessionState:
    base = dict(session_id="s1", user_id="u1", title="AI 해커톤 있어?", created_at=T0,
                last_message_at=T0, is_active=True, message_count=2, version=4)
    return SessionState(**{**base, **changes})


def _event(event_type: EventType, version: int, payload: dict[str, object],
           aggregate_id: str = "s1") -> EventEnvelope:
    return EventEnvelope(event_type=event_type, aggregate_type=AggregateType.CONVERSATION,
                         aggregate_id=aggregate_id, version=version, occurred_at=T0, payload=payload)


def _record(value: bytes | None, headers: tuple[tuple[str, bytes], ...] = ()) -> ConsumerRecord:
    return ConsumerRecord(topic="t.conversation", partition=2, offset=41, timestamp=0,
                          timestamp_type=0, key=b"s1", value=value, checksum=None,
                          serialized_key_size=2, serialized_value_size=0, headers=headers)


def test_session_payload_maps_to_snake_case_document_with_bson_datetimes():
    event = _event(EventType.SESSION_UPDATED, 4, session_payload(_session(path=("q1", "a1"))).to_payload())
    doc = session_document(event, NOW)
    assert doc == {
        "session_id": "s1", "user_id": "u1", "title": "AI 해커톤 있어?",
        "created_at": T0, "last_message_at": T0, "is_active": True, "message_count": 2,
        "deleted_at": None, "is_deleted": False, "version": 4,
        "event_occurred_at": T0, "updated_at": NOW, "path": ["q1", "a1"], "leaf_message_id": "a1",
        "search_pending": True,
    }
    assert doc["created_at"].tzinfo is not None


def test_deleted_event_is_a_tombstone_even_without_deleted_at():
    payload = session_payload(_session(is_active=True)).to_payload()
    doc = session_document(_event(EventType.SESSION_DELETED, 5, payload), NOW)
    assert doc["is_deleted"] is True
    assert doc["is_active"] is False
    assert doc["deleted_at"] == T0  # the event's time stands in for the missing field


def test_offsets_other_than_utc_are_normalised():
    payload = session_payload(_session()).to_payload() | {"createdAt": "2025-03-01T18:30:15.123+09:00"}
    doc = session_document(_event(EventType.SESSION_CREATED, 1, payload), NOW)
    assert doc["created_at"] == T0
    assert doc["created_at"].utcoffset() == timedelta(0)


def test_message_payload_maps_to_document_with_event_version():
    message = StoredMessage("m1", "s1", "assistant", "답변", 2, 7, [{"type": "contest", "id": "c1"}], T0,
                            parent_message_id="q1")
    doc = message_document(_event(EventType.MESSAGE_CREATED, 3, message_payload(message, "u1").to_payload()))
    assert doc == {
        "message_id": "m1", "session_id": "s1", "user_id": "u1", "role": "assistant",
        "content": "답변", "sequence_number": 2, "token_count": 7,
        "sources": [{"type": "contest", "id": "c1"}], "created_at": T0, "version": 3,
        "parent_message_id": "q1", "search_pending": True,
    }


def test_a_session_event_written_before_the_tree_leaves_the_path_alone():
    payload = session_payload(_session()).to_payload()
    del payload["path"], payload["leafMessageId"]
    assert "path" not in session_document(_event(EventType.SESSION_UPDATED, 4, payload), NOW)


@pytest.mark.parametrize("payload", [
    {},
    {"sessionId": "s1", "userId": "u1"},
    session_payload(_session()).to_payload() | {"createdAt": "yesterday"},
    session_payload(_session()).to_payload() | {"messageCount": -1},
    session_payload(_session(session_id="another")).to_payload(),
])
def test_impossible_session_payload_is_invalid(payload):
    with pytest.raises(InvalidPayload):
        session_document(_event(EventType.SESSION_UPDATED, 2, payload), NOW)


def test_message_without_id_is_invalid():
    payload = message_payload(StoredMessage("m1", "s1", "user", "q", 1, 1, [], T0), "u1").to_payload()
    del payload["messageId"]
    with pytest.raises(InvalidPayload):
        message_document(_event(EventType.MESSAGE_CREATED, 2, payload))


@pytest.mark.parametrize("value", [
    None,
    b"{not json",
    b"\xff\xfe",
    b'{"eventType": "ConversationSessionCreated"}',
    b'{"eventId": "e", "eventType": "SomethingNew", "aggregateType": "conversation",'
    b' "aggregateId": "s1", "version": 1, "occurredAt": "2025-03-01T00:00:00Z", "payload": {}}',
])
def test_records_that_are_not_envelopes_are_poison(value):
    with pytest.raises(InvalidEnvelope):
        parse_event(_record(value))


def test_valid_record_parses_to_its_envelope():
    event = _event(EventType.SESSION_CREATED, 1, session_payload(_session()).to_payload())
    assert parse_event(_record(event.to_json().encode())) == event


@pytest.mark.parametrize("exc", [
    AutoReconnect("down"), NetworkTimeout("slow"), ServerSelectionTimeoutError("none"),
    WTimeoutError("wc", 64, {}), OperationFailure("stepping down", 189),
    KafkaConnectionError(), RequestTimedOutError(), TimeoutError(),
])
def test_unreachable_servers_are_transient(exc):
    assert is_transient(exc)


@pytest.mark.parametrize("exc", [
    DuplicateKeyError("dup", 11000), OperationFailure("bad", 2), CommitFailedError(),
    ValueError("bug"), KeyError("x"),
])
def test_errors_about_the_record_or_code_are_not_transient(exc):
    assert not is_transient(exc)


def test_backoff_doubles_up_to_its_cap_and_resets():
    backoff = Backoff(0.1, 0.5)
    assert [backoff.next_delay() for _ in range(5)] == pytest.approx([0.1, 0.2, 0.4, 0.5, 0.5])
    backoff.reset()
    assert backoff.next_delay() == pytest.approx(0.1)


def test_backoff_rejects_an_initial_delay_above_the_cap():
    with pytest.raises(ValueError):
        Backoff(2.0, 1.0)


def test_dead_letter_headers_keep_originals_and_say_why_and_where_from():
    record = _record(b"x", (("event_id", b"e1"), ("dlq_error", b"an earlier trip")))
    headers = dead_letter_headers(record, InvalidEnvelope("not JSON"), 1)
    assert headers == [
        ("event_id", b"e1"),
        ("dlq_error", b"InvalidEnvelope: not JSON"),
        ("dlq_attempts", b"1"),
        ("dlq_original_topic", b"t.conversation"),
        ("dlq_original_partition", b"2"),
        ("dlq_original_offset", b"41"),
    ]
