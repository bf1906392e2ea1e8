"""Which failures are worth waiting out, and how long to wait between attempts.

A transient failure (the store or the broker unreachable, a timeout, a failover) says nothing about
the record, so it is retried in place for as long as it lasts; skipping the record instead would
leave a hole in the projection.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from aiokafka.errors import KafkaConnectionError, KafkaError, KafkaTimeoutError
from pymongo.errors import (
    ConnectionFailure,
    ExecutionTimeout,
    OperationFailure,
    PyMongoError,
    WriteConcernError,
)

# Server error codes that mean "try again later": shutdown, failover, timeouts, lock contention.
TRANSIENT_MONGO_CODES = frozenset({
    6,  # HostUnreachable
    7,  # HostNotFound
    24,  # LockTimeout
    46,  # LockBusy
    50,  # MaxTimeMSExpired
    89,  # NetworkTimeout
    91,  # ShutdownInProgress
    112,  # WriteConflict
    133,  # FailedToSatisfyReadPreference
    189,  # PrimarySteppedDown
    202,  # NetworkInterfaceExceededTimeLimit
    262,  # ExceededTimeLimit
    9001,  # SocketException
    10107,  # NotWritablePrimary
    11600,  # InterruptedAtShutdown
    11602,  # InterruptedDueToReplStateChange
    13435,  # NotPrimaryNoSecondaryOk
    13436,  # NotPrimaryOrSecondary
})
_TRANSIENT_LABELS = ("RetryableWriteError", "TransientTransactionError", "NetworkError")


def _transient_mongo(exc: PyMongoError) -> bool:
    if isinstance(exc, ConnectionFailure | ExecutionTimeout | WriteConcernError):
        return True  # AutoReconnect, NetworkTimeout, ServerSelectionTimeoutError, WTimeoutError...
    if any(exc.has_error_label(label) for label in _TRANSIENT_LABELS):
        return True
    return isinstance(exc, OperationFailure) and exc.code in TRANSIENT_MONGO_CODES


def is_transient(exc: BaseException) -> bool:
    """True when the failure is about reaching a server, not about the record being processed."""
    if isinstance(exc, PyMongoError):
        return _transient_mongo(exc)
    if isinstance(exc, KafkaConnectionError | KafkaTimeoutError):
        return True
    if isinstance(exc, KafkaError):
        return bool(exc.retriable)
    return isinstance(exc, TimeoutError | ConnectionError)


@dataclass
class Backoff:
    """Capped exponential delays: initial, initial*factor, ... up to cap, then cap forever."""

    initial: float
    cap: float
    factor: float = 2.0
    _next: float = field(init=False, repr=False)

    def __post_init__(self) -> None:
        if not 0 < self.initial <= self.cap or self.factor < 1:
            raise ValueError("Backoff needs 0 < initial <= cap and factor >= 1")
        self._next = self.initial

    def next_delay(self) -> float:
        """The delay before the next attempt; each call grows it until the cap."""
        delay = self._next
        self._next = min(self._next * self.factor, self.cap)
        return delay

    def reset(self) -> None:
        self._next = self.initial
