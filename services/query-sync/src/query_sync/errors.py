"""The exceptions of query-sync: one base, and the poison kinds that go to the dead-letter topic."""

from __future__ import annotations


class SyncError(Exception):
    """Base of every error query-sync raises on purpose."""


class PoisonEvent(SyncError):
    """A record that can never be projected as it is; it goes to the DLQ at once, without retries."""


class InvalidEnvelope(PoisonEvent):
    """The record's value is not JSON or not a valid event envelope."""


class UnknownEvent(PoisonEvent):
    """A valid envelope this projector does not handle (type, aggregate or schema version)."""


class InvalidPayload(PoisonEvent):
    """The envelope is valid but its payload does not describe the entity its type promises."""


class EmbeddingFailed(SyncError):
    """The embedding provider failed on a catalog item: retried, then dead-lettered (not poison:
    the same record may well succeed once the provider is back)."""


class ConsumerNotRunning(SyncError):
    """Readiness: the projection consumer has not started yet, or its task has ended."""
