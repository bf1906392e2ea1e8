"""What command-api's use cases need from the outside, named as Protocols.

The adapters (MySQL or SQLite through the unit of work, MongoDB) implement these; bootstrap wires
them. The values that cross a port (a job run) and the errors a port raises for its caller to act
on (a lost race) are defined here too; a catalog write's result is the domain's
(command_api.domain.catalog).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from types import TracebackType
from typing import Any, Protocol, Self

from command_api.domain.catalog import WriteResult
from techai_shared.clock import iso
from techai_shared.conversation.model import Session, SessionState, StoredMessage
from techai_shared.events import EventEnvelope
from techai_shared.events.catalog import BookmarkItemType, CatalogItem
from techai_shared.events.verified import VerifiedAnswerPayload

# -- the catalog --------------------------------------------------------------------------------


class LostRace(Exception):
    """A concurrent writer changed (or inserted) the item between this write's read and its
    conditional write. Nothing of the write may be kept: roll the unit of work back and run the
    write again on a fresh read."""


class CatalogRepository(Protocol):
    """Contests or news articles. Writes raise LostRace on a lost race (see above), the kind's
    not-found error for a missing item, Conflict when the write breaks a rule."""

    async def get(self, item_id: str) -> WriteResult:
        """The live item (as an UNCHANGED result)."""
        ...

    async def upsert(self, item: CatalogItem) -> WriteResult:
        """Create the item under its id, revive it if deleted, or replace its state; UNCHANGED
        (and no event) if it is so already."""
        ...

    async def create(self, item: CatalogItem) -> WriteResult:
        """Create the item; Conflict if its id is live already."""
        ...

    async def delete(self, item_id: str) -> WriteResult:
        """Soft delete."""
        ...

    async def snapshot_events(self, after_id: str, limit: int) -> list[EventEnvelope]:
        """Items above `after_id` (deleted ones too), in id order, each as a new event at its
        current version."""
        ...

    async def versions(self, after_id: str, limit: int) -> list[StoredVersion]:
        """Each item's id, version and whether it is deleted, above `after_id`, in id order."""
        ...

    async def status_due(self, now: datetime, limit: int) -> list[str]:
        """Live contests whose stored status their dates have left behind (none for other kinds)."""
        ...

    async def snapshots_of(self, item_ids: Sequence[str]) -> list[EventEnvelope]:
        """These items (deleted ones as their Deleted event) as new events at their versions."""
        ...


@dataclass(frozen=True)
class StoredVersion:
    """An aggregate as the command store holds it, as far as a read-model comparison needs."""

    id: str
    version: int
    deleted: bool


class BookmarkRepository(CatalogRepository, Protocol):
    """Bookmarks: each user's own (Forbidden for another user's, BookmarkNotFound for a missing
    one), one live bookmark per user and item (Conflict naming the existing one)."""

    async def create_for(
        self, user_id: str, item_type: BookmarkItemType, item_id: str, *, tag: str | None = None,
        memo: str | None = None, item_title: str | None = None, item_summary: str | None = None,
        bookmark_id: str | None = None,
    ) -> WriteResult:
        """Bookmark a live catalog item (ItemNotFound if there is none)."""
        ...

    async def get_owned(self, bookmark_id: str, user_id: str) -> WriteResult: ...

    async def update_owned(self, bookmark_id: str, user_id: str, changes: dict[str, str | None]
                           ) -> WriteResult:
        """Change the tag and/or memo; UNCHANGED when they are so already."""
        ...

    async def delete_owned(self, bookmark_id: str, user_id: str) -> WriteResult: ...

    async def list_owned(self, user_id: str, *, offset: int, limit: int
                         ) -> tuple[list[WriteResult], int]:
        """The user's live bookmarks, newest first, and their total count."""
        ...


# -- conversations ------------------------------------------------------------------------------


class SessionRepository(Protocol):
    """The shared session repository, as the lifecycle jobs and the repairs use it."""

    async def idle(self, idle_since: datetime, limit: int, *, active_only: bool) -> list[Session]:
        """Up to `limit` live sessions without a message since `idle_since`, least recent first."""
        ...

    async def save(self, session: Session) -> None:
        """Raises ConcurrentChange if the stored session is no longer at the loaded version."""
        ...

    async def by_ids(self, session_ids: Sequence[str]) -> list[SessionState]: ...

    async def ids_after(self, after: str, limit: int) -> list[str]: ...

    async def messages(self, session_id: str, *, offset: int = 0, limit: int = 1000
                       ) -> list[StoredMessage]: ...


# -- the answer-improvement loop ----------------------------------------------------------------


@dataclass(frozen=True)
class AnswerStats:
    """What a verified answer did for users: how often chatbot-api served it (`judged` of them on
    a model's yes) and suggested it, and how users rated the answers it served."""

    served: int = 0
    judged: int = 0
    suggested: int = 0
    rated_up: int = 0
    rated_down: int = 0
    last_served_at: datetime | None = None

    def public(self) -> dict[str, Any]:
        return {"served": self.served, "judged": self.judged, "suggested": self.suggested,
                "ratings": {"up": self.rated_up, "down": self.rated_down},
                "lastServedAt": iso(self.last_served_at) if self.last_served_at else None}


@dataclass(frozen=True)
class AnswerUse:
    """A question a verified answer was served (`judged`: on a model's yes) or suggested for, as
    the user asked it."""

    kind: str  # served | suggested
    judged: bool
    question: str
    message_id: str
    user_id: str
    created_at: datetime

    def public(self) -> dict[str, Any]:
        return {"kind": self.kind, "judged": self.judged, "question": self.question,
                "messageId": self.message_id, "userId": self.user_id,
                "createdAt": iso(self.created_at)}


@dataclass(frozen=True)
class StoredAnswer:
    """A verified answer as stored, with the version of its last change and its author, and what
    it did for users."""

    answer: VerifiedAnswerPayload
    version: int
    author: str
    stats: AnswerStats = AnswerStats()

    def public(self) -> dict[str, Any]:
        return {**self.answer.model_dump(mode="json", by_alias=True), "version": self.version,
                "author": self.author, "stats": self.stats.public()}


class VerifiedAnswerRepository(Protocol):
    """Verified answers; VerifiedAnswerNotFound for a missing or deleted one. Each write adds its
    event to the outbox."""

    async def create(self, fields: dict[str, Any], author: str, now: datetime,
                     feedback_id: str | None = None) -> StoredAnswer: ...

    async def get(self, answer_id: str) -> StoredAnswer: ...

    async def replace(self, answer_id: str, fields: dict[str, Any], now: datetime
                      ) -> StoredAnswer: ...

    async def delete(self, answer_id: str, now: datetime) -> StoredAnswer: ...

    async def page(self, status: str | None, offset: int, limit: int
                   ) -> tuple[list[StoredAnswer], int]: ...

    async def stats(self, answer_ids: Sequence[str]) -> dict[str, AnswerStats]:
        """What each answer did for users (answers never served nor suggested are left out)."""
        ...

    async def uses(self, answer_id: str, kind: str | None, offset: int, limit: int
                   ) -> tuple[list[AnswerUse], int]:
        """The questions the answer was served or suggested for, newest first, and how many."""
        ...

    async def versions(self, after_id: str, limit: int) -> list[StoredVersion]:
        """Each answer's public id, version and deletion above `after_id` (public ids), in order."""
        ...

    async def snapshots_of(self, answer_ids: Sequence[str], now: datetime
                           ) -> list[EventEnvelope]: ...

    async def snapshot_events(self, after: int, limit: int, now: datetime
                              ) -> list[EventEnvelope]: ...


class FeedbackRepository(Protocol):
    """Users' ratings, which chatbot-api writes: counted for /metrics, republished by a rebuild."""

    async def counts_by_day(self, since: datetime) -> list[tuple[str, date, int]]: ...

    async def snapshot_events(self, after: str, limit: int, now: datetime
                              ) -> list[EventEnvelope]: ...


@dataclass(frozen=True)
class FeedbackEntry:
    """A rating with the exchange it rates, as operators review it (from the read model)."""

    feedback_id: str
    rating: str
    reasons: list[str]
    comment: str | None
    question: str | None
    answer: str
    sources: list[dict[str, Any]]
    session_id: str
    message_id: str
    user_id: str
    created_at: datetime
    updated_at: datetime

    def public(self) -> dict[str, Any]:
        return {"feedbackId": self.feedback_id, "rating": self.rating, "reasons": self.reasons,
                "comment": self.comment, "question": self.question, "answer": self.answer,
                "sources": self.sources, "sessionId": self.session_id,
                "messageId": self.message_id, "userId": self.user_id,
                "createdAt": iso(self.created_at), "updatedAt": iso(self.updated_at)}


# -- job runs and leases ------------------------------------------------------------------------

RUNNING, SUCCEEDED, FAILED = "running", "succeeded", "failed"


@dataclass(frozen=True)
class JobRun:
    run_id: int
    job_name: str
    scheduled_for: datetime
    trigger: str
    status: str
    worker: str
    started_at: datetime
    finished_at: datetime | None
    rows_affected: int | None
    error: str | None
    summary: str | None = None  # what the run found, in one line (reconcile-projections)

    def public(self) -> dict[str, Any]:
        return {
            "runId": str(self.run_id),
            "jobName": self.job_name,
            "scheduledFor": iso(self.scheduled_for),
            "trigger": self.trigger,
            "status": self.status,
            "worker": self.worker,
            "startedAt": iso(self.started_at),
            "finishedAt": iso(self.finished_at) if self.finished_at else None,
            "rowsAffected": self.rows_affected,
            "error": self.error,
            "summary": self.summary,
        }


class JobRepository(Protocol):
    """Claims of (job, fire time), the one lease per job, and the runs' history."""

    async def is_claimed(self, job_name: str, scheduled_for: datetime) -> bool: ...

    async def claim(self, job_name: str, scheduled_for: datetime, trigger: str, worker: str,
                    now: datetime) -> JobRun | None:
        """The run, inserted as running; None when this (job, fire time) was claimed already."""
        ...

    async def finish(self, run_id: int, status: str, rows_affected: int, error: str | None,
                     now: datetime, summary: str | None = None) -> None: ...

    async def acquire_lease(self, job_name: str, holder: str, now: datetime, seconds: float
                            ) -> bool:
        """Take the lease if it is free, expired or `holder`'s; marks the runs of an expired
        holder failed. True when `holder` holds it now."""
        ...

    async def renew_lease(self, job_name: str, holder: str, now: datetime, seconds: float
                          ) -> bool:
        """False when the lease is no longer `holder`'s."""
        ...

    async def release_lease(self, job_name: str, holder: str) -> None: ...

    async def lease_holder(self, job_name: str, now: datetime) -> str | None: ...

    async def recent_runs(self, job_name: str, limit: int = 10) -> list[JobRun]:
        """Newest first."""
        ...

    async def get_run(self, run_id: int) -> JobRun | None: ...

    async def purge_finished(self, finished_before: datetime, limit: int) -> int:
        """Delete up to `limit` runs that finished before the cutoff, oldest first; how many
        (a running run is never deleted)."""
        ...


# -- the unit of work ---------------------------------------------------------------------------


class Outbox(Protocol):
    async def add(self, events: Sequence[EventEnvelope]) -> None:
        """Add events in the unit of work's transaction."""
        ...


class CommandUnitOfWork(Protocol):
    """One transaction: nothing is written unless commit() is called inside the block."""

    @property
    def sessions(self) -> SessionRepository: ...

    @property
    def contests(self) -> CatalogRepository: ...

    @property
    def news(self) -> CatalogRepository: ...

    @property
    def bookmarks(self) -> BookmarkRepository: ...

    @property
    def jobs(self) -> JobRepository: ...

    @property
    def verified(self) -> VerifiedAnswerRepository: ...

    @property
    def feedback(self) -> FeedbackRepository: ...

    @property
    def outbox(self) -> Outbox: ...

    async def __aenter__(self) -> Self: ...

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None: ...

    async def commit(self) -> None: ...


UnitOfWorkFactory = Callable[[], CommandUnitOfWork]


# -- the outbox's maintenance -------------------------------------------------------------------


class OutboxLog(Protocol):
    """The outbox table beyond adding events: each call a short transaction of its own."""

    async def purge_published(self, published_before: datetime, limit: int) -> int:
        """Delete up to `limit` rows published before the cutoff, oldest first; how many."""
        ...

    async def backlog(self) -> tuple[int, float]:
        """Unpublished rows and the age in seconds of the oldest."""
        ...

    async def in_flight(self, aggregate_type: str, published_since: datetime) -> set[str]:
        """Aggregates with a row not yet published or published since the cutoff: their events
        are probably still on their way to the read model."""
        ...


# -- the read model -----------------------------------------------------------------------------


@dataclass(frozen=True)
class ProjectedSession:
    version: int
    message_count: int
    is_deleted: bool


@dataclass(frozen=True)
class ProjectedItem:
    """A catalog item or verified answer as the read model holds it: the version of its live
    document and of its tombstone (None for what is not there)."""

    document: int | None
    tombstone: int | None


class ReadModel(Protocol):
    """The projections on MongoDB, as the repairs read (and a rebuild empties) them."""

    async def sessions(self, session_ids: Sequence[str]) -> dict[str, ProjectedSession]: ...

    async def message_counts(self, session_ids: Sequence[str]) -> dict[str, int]:
        """How many messages of each session are projected (sessions without any are absent)."""
        ...

    async def items(self, aggregate_type: str, item_ids: Sequence[str]
                    ) -> dict[str, ProjectedItem]:
        """The projected state of these catalog items or verified answers (absent: nothing)."""
        ...

    async def message_ids(self, session_ids: Sequence[str]) -> dict[str, set[str]]:
        """The projected message ids of each session (sessions without any are absent)."""
        ...

    async def empty(self) -> dict[str, int]:
        """Delete every document of the conversation and catalog projections, keeping their
        indexes; the documents removed per collection."""
        ...


class FeedbackReadModel(Protocol):
    """Ratings as query-sync projected them into the messages' documents."""

    async def feedback_page(self, rating: str | None, since: datetime | None,
                            until: datetime | None, offset: int, limit: int
                            ) -> tuple[list[FeedbackEntry], int]:
        """Ratings changed in [since, until), newest first, and how many there are."""
        ...

    async def feedback_entry(self, feedback_id: str) -> FeedbackEntry | None: ...


# -- users' token budgets ---------------------------------------------------------------------


@dataclass(frozen=True)
class UserBudget:
    """A user's own daily token budget (0: none), and who set it when."""

    user_id: str
    daily_tokens: int
    updated_by: str
    updated_at: datetime


class UserBudgetStore(Protocol):
    async def get(self, user_id: str) -> UserBudget | None: ...

    async def put(self, budget: UserBudget) -> None: ...

    async def remove(self, user_id: str) -> None: ...
