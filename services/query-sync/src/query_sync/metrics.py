"""Prometheus metrics of the sync worker, served on /metrics of its health server."""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram

EVENTS = Counter(
    "sync_events_total",
    "Records handled by the projection consumer, by event type and outcome",
    ["topic", "event_type", "outcome"],
)
DEAD_LETTERS = Counter(
    "sync_dead_letters_total", "Records sent to the dead-letter topic", ["topic", "reason"]
)
RETRIES = Counter(
    "sync_retries_total", "In-place retries of a record, by kind of failure", ["topic", "kind"]
)
COMMIT_FAILURES = Counter("sync_commit_failures_total", "Offset commits that failed or timed out")
PROJECTION_LAG = Histogram(
    "sync_projection_lag_seconds",
    "Time from an event's occurredAt to its projection into MongoDB",
    ["topic"],
    buckets=(0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300, 900, 3600),
)
CONSUMER_LAG = Gauge(
    "sync_consumer_lag", "Records not yet consumed: highwater - position", ["topic", "partition"]
)
TOPIC_CHECK_FAILURES = Counter(
    "sync_topic_check_failures_total", "Failed attempts to check or create the Kafka topics"
)
