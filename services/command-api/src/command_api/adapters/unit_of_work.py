"""command-api's unit of work on the command store: sessions (the lifecycle jobs and the repairs),
contests, news articles and bookmarks, verified answers, ratings (read), job runs and leases, and
the outbox beside them."""

from __future__ import annotations

from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine

from command_api.adapters.bookmark_store import BookmarkRepository
from command_api.adapters.catalog_store import CONTESTS, NEWS_ARTICLES, CatalogRepository
from command_api.adapters.feedback_store import FeedbackRepository
from command_api.adapters.job_store import JobRepository
from command_api.adapters.verified_store import VerifiedAnswerRepository
from techai_shared.clock import Clock, utcnow
from techai_shared.conversation.repository import SessionRepository
from techai_shared.db.unit_of_work import UnitOfWork, Wakeable


class SqlCommandUnitOfWork(UnitOfWork):
    sessions: SessionRepository
    contests: CatalogRepository
    news: CatalogRepository
    bookmarks: BookmarkRepository
    jobs: JobRepository
    verified: VerifiedAnswerRepository
    feedback: FeedbackRepository

    def __init__(self, engine: AsyncEngine, relay: Wakeable | None = None,
                 clock: Clock = utcnow) -> None:
        super().__init__(engine, relay)
        self._clock = clock  # the catalog's created/updated/deleted times

    def _bind(self, conn: AsyncConnection) -> None:
        self.sessions = SessionRepository(conn, self.outbox)
        self.contests = CatalogRepository(conn, self.outbox, CONTESTS, self._clock)
        self.news = CatalogRepository(conn, self.outbox, NEWS_ARTICLES, self._clock)
        self.bookmarks = BookmarkRepository(conn, self.outbox, self._clock)
        self.jobs = JobRepository(conn)
        self.verified = VerifiedAnswerRepository(conn, self.outbox)
        self.feedback = FeedbackRepository(conn)
