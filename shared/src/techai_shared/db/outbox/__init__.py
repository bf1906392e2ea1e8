"""Transactional outbox: events are inserted with the domain rows (`queries`), and one relay per
command store publishes them to Kafka (`relay`, elected by `leader`)."""

from techai_shared.db.outbox.queries import (
    add_events,
    in_flight_aggregates,
    outbox_backlog,
    purge_published,
)
from techai_shared.db.outbox.relay import OutboxRelay

__all__ = [
    "OutboxRelay", "add_events", "in_flight_aggregates", "outbox_backlog",
    "purge_published",
]
