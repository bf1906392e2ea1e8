"""The conversation aggregate: a session and its messages, and the rules every change obeys.

Plain Python, no I/O. A `Session` is loaded by its repository, changed through its methods, and
saved by the repository, which writes the new state only if the stored row is still at the version
it was loaded at. Each method checks the rules (the caller owns the session, it is not deleted),
assigns the next sequence numbers and event versions, and records the events it caused in
`session.events`. The version arithmetic lives here and nowhere else: one version per event, so
an exchange (two messages and the session change) advances the session by three.

Chatbot-api appends exchanges, renames and deletes; command-api's lifecycle jobs deactivate and
expire idle sessions. An exchange in an inactive session makes it active again: there is no other
way back.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from datetime import datetime
from enum import StrEnum
from typing import Any, NamedTuple

from techai_shared.errors import AppError, Forbidden, SessionNotFound
from techai_shared.ids import new_id

TITLE_LENGTH = 50


class ConcurrentChange(AppError):
    """The session changed since it was loaded: reload it (with its row lock) and apply again."""


def title_from(first_message: str) -> str:
    """The session title: the first 50 characters of its first message."""
    return first_message[:TITLE_LENGTH]


class Change(StrEnum):
    """What happened to the session, as the event types name it."""

    CREATED = "created"
    UPDATED = "updated"
    DELETED = "deleted"


@dataclass(frozen=True)
class NewMessage:
    """A message about to be stored; the session assigns its id and sequence number."""

    role: str
    content: str
    token_count: int
    sources: list[dict[str, Any]] = field(default_factory=list)
    message_id: str | None = None  # assigned beforehand when a stream announces it; else on store


@dataclass(frozen=True)
class StoredMessage:
    message_id: str
    session_id: str
    role: str
    content: str
    sequence_number: int
    token_count: int
    sources: list[dict[str, Any]]
    created_at: datetime
    version: int | None = None  # of its ConversationMessageCreated event; None on pre-0004 rows
    # The message it follows (None for a session's first question): messages form a tree whose
    # branches are regenerated answers and edited questions; sequence_number is the depth.
    parent_message_id: str | None = None


class HistoryMessage(NamedTuple):
    """A stored message as a prompt's history needs it (a tuple: a turn reads up to a hundred)."""

    role: str
    content: str
    sources: list[dict[str, Any]] | None


@dataclass(frozen=True)
class SessionState:
    """A session as it is at one version: what every session event carries and reads return."""

    session_id: str
    user_id: str
    title: str
    created_at: datetime
    last_message_at: datetime
    is_active: bool
    message_count: int
    version: int
    deleted_at: datetime | None = None
    expired_at: datetime | None = None
    # The current path through the message tree, root first: what history shows, what the next
    # question follows; message_count is its length.
    path: tuple[str, ...] = ()

    @property
    def leaf_message_id(self) -> str | None:
        return self.path[-1] if self.path else None


@dataclass(frozen=True)
class SessionChanged:
    """ConversationSessionCreated, Updated or Deleted: the session's state after the change."""

    change: Change
    state: SessionState
    occurred_at: datetime

    @property
    def version(self) -> int:
        return self.state.version


@dataclass(frozen=True)
class MessageAdded:
    """ConversationMessageCreated, at the version the message took."""

    message: StoredMessage
    user_id: str
    occurred_at: datetime

    @property
    def version(self) -> int:
        return self.message.version or 0


DomainEvent = SessionChanged | MessageAdded


@dataclass(frozen=True)
class Exchange:
    """A question and its answer, as stored."""

    user_message: StoredMessage
    assistant_message: StoredMessage


class Session:
    """The conversation aggregate root. `persisted_version` is the version the store holds (0 for
    a session not stored yet); `state` is the current one; `events` what changed in between."""

    def __init__(self, state: SessionState, persisted_version: int | None = None,
                 thread_key: str | None = None) -> None:
        self.state = state
        self.persisted_version = state.version if persisted_version is None else persisted_version
        self.events: list[DomainEvent] = []
        # The transcript key of the latest exchange as stored (not part of the state: no event
        # carries it, and only the turn that writes an exchange changes it).
        self.thread_key = thread_key

    @classmethod
    def start(cls, session_id: str, user_id: str, first_question: str, now: datetime) -> Session:
        """A new session titled after its first question (ConversationSessionCreated, version 1)."""
        state = SessionState(session_id=session_id, user_id=user_id, title=title_from(first_question),
                             created_at=now, last_message_at=now, is_active=True, message_count=0,
                             version=1)
        session = cls(state, persisted_version=0)
        session.events.append(SessionChanged(Change.CREATED, state, now))
        return session

    @property
    def session_id(self) -> str:
        return self.state.session_id

    @property
    def is_new(self) -> bool:
        return self.persisted_version == 0

    def check_owner(self, user_id: str) -> None:
        """SessionNotFound for a deleted session, Forbidden for another user's."""
        if self.state.deleted_at is not None:
            raise SessionNotFound(f"session {self.session_id} not found")
        if self.state.user_id != user_id:
            raise Forbidden("this session belongs to another user")

    def append_exchange(self, user_id: str, question: NewMessage, answer: NewMessage,
                        now: datetime) -> Exchange:
        """A question after the current leaf and its answer: the next two sequence numbers, one
        event version each, and a third for the session's new path, count and activity."""
        return self.branch_exchange(user_id, self.state.path, question, answer, now)

    def branch_exchange(self, user_id: str, base: tuple[str, ...], question: NewMessage,
                        answer: NewMessage, now: datetime) -> Exchange:
        """A question after the path `base` (the current one, or a prefix of some path: an edited
        question starts a new branch beside the one it replaces) and its answer; the new path is
        `base` and the two messages."""
        self.check_owner(user_id)
        q = self._stored(question, base, 1, now)
        a = self._stored(answer, (*base, q.message_id), 2, now)
        self.events += [MessageAdded(q, self.state.user_id, now), MessageAdded(a, self.state.user_id, now)]
        self._move((*base, q.message_id, a.message_id), now, self.state.version + 3)
        return Exchange(q, a)

    def add_answer(self, user_id: str, base: tuple[str, ...], answer: NewMessage,
                   now: datetime) -> StoredMessage:
        """Another answer to the question that ends `base` (a sibling of its earlier answers),
        which becomes the current leaf: one version for the message, one for the session."""
        self.check_owner(user_id)
        a = self._stored(answer, base, 1, now)
        self.events.append(MessageAdded(a, self.state.user_id, now))
        self._move((*base, a.message_id), now, self.state.version + 2)
        return a

    def switch(self, user_id: str, path: tuple[str, ...], now: datetime) -> None:
        """Make another path of the tree current (ConversationSessionUpdated); activity unchanged."""
        self.check_owner(user_id)
        if path != self.state.path:
            self._change(Change.UPDATED, now, path=path, message_count=len(path))

    def _stored(self, m: NewMessage, base: tuple[str, ...], offset: int, now: datetime
                ) -> StoredMessage:
        s = self.state
        return StoredMessage(m.message_id or new_id(), s.session_id, m.role, m.content,
                             len(base) + 1, m.token_count, m.sources, now,
                             s.version + offset, base[-1] if base else None)

    def _move(self, path: tuple[str, ...], now: datetime, version: int) -> None:
        self._change(Change.UPDATED, now, path=path, message_count=len(path), version=version,
                     last_message_at=now, is_active=True)

    def rename(self, user_id: str, title: str, now: datetime) -> None:
        """A new title (ConversationSessionUpdated)."""
        self.check_owner(user_id)
        self._change(Change.UPDATED, now, title=title)

    def delete(self, user_id: str, now: datetime) -> None:
        """Soft delete (ConversationSessionDeleted): later reads answer 404."""
        self.check_owner(user_id)
        self._change(Change.DELETED, now, deleted_at=now, is_active=False)

    def is_idle(self, idle_since: datetime) -> bool:
        """Live, and without a message since `idle_since`."""
        return self.state.deleted_at is None and self.state.last_message_at <= idle_since

    def deactivate(self, idle_since: datetime, now: datetime) -> bool:
        """An active session idle since `idle_since` becomes inactive; False if it is not one."""
        if not (self.state.is_active and self.is_idle(idle_since)):
            return False
        self._change(Change.UPDATED, now, is_active=False)
        return True

    def expire(self, idle_since: datetime, now: datetime) -> bool:
        """A session idle since `idle_since` is deleted and marked expired; False if it is not one."""
        if not self.is_idle(idle_since):
            return False
        self._change(Change.DELETED, now, is_active=False, deleted_at=now, expired_at=now)
        return True

    def _change(self, change: Change, now: datetime, **values: Any) -> None:
        values.setdefault("version", self.state.version + 1)
        self.state = replace(self.state, **values)
        self.events.append(SessionChanged(change, self.state, now))
