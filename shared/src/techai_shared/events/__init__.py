"""Event contracts shared by the writers (chatbot-api, command-api) and the projector (query-sync).

`envelope` is what every event looks like on the wire; `conversation` and `catalog` are the payload
models of each aggregate, used by the writers to serialise and by query-sync to parse.
"""

from techai_shared.events.envelope import (
    SCHEMA_VERSION,
    AggregateType,
    ContractViolation,
    EventEnvelope,
    EventType,
    parse_payload,
)

__all__ = [
    "SCHEMA_VERSION", "AggregateType", "ContractViolation", "EventEnvelope", "EventType", "parse_payload",
]
