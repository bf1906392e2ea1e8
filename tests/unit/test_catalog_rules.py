"""Pure rules of the catalog command side: state comparison, ids, request bodies, the importer, and
the retry of a write that lost a race (against in-memory fakes of the unit of work)."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace, TracebackType
from typing import Any, Self

import pytest
from pydantic import ValidationError

from command_api.adapters.bookmark_store import BOOKMARKS
from command_api.adapters.catalog_store import CONTESTS, NEWS_ARTICLES
from command_api.domain.catalog import Outcome, WriteResult
from command_api.entrypoints.schemas import BookmarkCreate, BookmarkUpdate, ContestCreate
from command_api.service_layer.catalog import MAX_ATTEMPTS, CatalogService
from command_api.service_layer.catalog_import import CatalogImporter
from command_api.service_layer.ports import LostRace
from techai_shared.errors import Conflict
from techai_shared.events import AggregateType
from techai_shared.events.catalog import CatalogItem, ContestPayload

pytestmark = pytest.mark.unit

C1 = {"id": "c-0001", "title": "해커톤", "status": "UPCOMING", "startDate": "2026-12-01T09:00:00+09:00",
      "tags": ["ai"]}


NOW = datetime(2026, 11, 22, tzinfo=UTC)


def row(**columns: Any) -> SimpleNamespace:
    return SimpleNamespace(**{"deleted_at": None, **columns})


def test_state_holds_the_columns_with_enum_values():
    state = CONTESTS.state(ContestPayload.model_validate(C1), NOW)
    assert state["status"] == "UPCOMING" and type(state["status"]) is str
    assert state["start_date"] == datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    assert set(state) == set(CONTESTS.fields)


def test_a_contests_stored_status_is_the_one_its_dates_give_when_written():
    sent = ContestPayload.model_validate({**C1, "status": "ENDED"})
    assert CONTESTS.state(sent, NOW)["status"] == "UPCOMING"
    assert CONTESTS.state(sent, datetime(2026, 12, 2, tzinfo=UTC))["status"] == "ONGOING"
    undated = ContestPayload.model_validate({**C1, "startDate": None, "status": "ENDED"})
    assert CONTESTS.state(undated, NOW)["status"] == "ENDED"  # nothing to derive it from


def test_same_state_is_the_same_instant_in_any_offset_and_only_when_live():
    state = CONTESTS.state(ContestPayload.model_validate(C1), NOW)
    utc = CONTESTS.state(ContestPayload.model_validate({**C1, "startDate": "2026-12-01T00:00:00Z"}),
                         NOW)
    assert CONTESTS.same(row(**state), utc)
    assert not CONTESTS.same(row(**{**state, "tags": ["ai", "ml"]}), utc)
    assert not CONTESTS.same(row(**{**state, "deleted_at": datetime.now(UTC)}), utc)
    assert not CONTESTS.same(None, utc)


def test_generated_ids_are_prefixed_short_and_unique():
    ids = {kind.new_id() for kind in (CONTESTS, NEWS_ARTICLES, BOOKMARKS) for _ in range(100)}
    assert len(ids) == 300
    assert {i[:2] for i in ids} == {"c-", "n-", "b-"} and max(map(len, ids)) <= 64


def test_payload_of_a_row_is_the_event_contract():
    created = datetime(2026, 11, 1, tzinfo=UTC)
    state = CONTESTS.state(ContestPayload.model_validate({**C1, "startDate": "2026-12-01T00:00:00Z"}),
                           NOW)
    item = CONTESTS.payload(row(contest_id="c-0001", created_at=created, updated_at=created, **state))
    body = WriteResult(Outcome.CREATED, item, 1).public()
    assert body["id"] == "c-0001" and body["version"] == 1 and body["startDate"] == "2026-12-01T00:00:00Z"
    assert body["createdAt"].startswith("2026-11-01") and body["deletedAt"] is None


def test_contest_body_rejects_an_end_before_its_start_and_odd_ids():
    with pytest.raises(ValidationError):
        ContestCreate.model_validate({**C1, "endDate": "2026-11-30T00:00:00Z"})
    with pytest.raises(ValidationError):
        ContestCreate.model_validate({**C1, "id": "../etc"})
    assert ContestCreate.model_validate({**C1, "id": None}).id is None


def test_bookmark_bodies_never_take_a_user_and_patch_only_what_was_sent():
    create = BookmarkCreate.model_validate({"itemType": "CONTEST", "itemId": "c-1", "userId": "x"})
    assert "user_id" not in create.model_dump()
    assert BookmarkUpdate.model_validate({"memo": None}).changes() == {"memo": None}
    assert BookmarkUpdate.model_validate({"tag": "관심"}).changes() == {"tag": "관심"}
    with pytest.raises(ValidationError):
        BookmarkUpdate.model_validate({})


class FakeContests:
    """The contests repository as the importer and the catalog service use it: each write takes
    the next outcome, or raises it."""

    def __init__(self, outcomes: list[Outcome | Exception]) -> None:
        self.outcomes = outcomes
        self.items: list[CatalogItem] = []

    async def upsert(self, item: CatalogItem) -> WriteResult:
        self.items.append(item)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return WriteResult(outcome, item, 1)

    create = upsert


class FakeUnitOfWork:
    """Counts the units of work begun and committed; a write that raised is never committed."""

    def __init__(self, contests: FakeContests) -> None:
        self.contests = contests
        self.begun = self.commits = 0

    def __call__(self) -> Self:
        return self

    async def __aenter__(self) -> Self:
        self.begun += 1
        return self

    async def __aexit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                        tb: TracebackType | None) -> None:
        pass

    async def commit(self) -> None:
        self.commits += 1


async def test_importer_counts_outcomes_skips_bad_lines_and_reports_progress():
    good = json.dumps(C1)
    outcomes: list[Outcome | Exception] = [Outcome.CREATED] * 20 + [Outcome.UNCHANGED, Conflict("dup")]
    uow = FakeUnitOfWork(FakeContests(outcomes))
    lines: list[str] = []
    importer = CatalogImporter(uow, report=lines.append)  # type: ignore[arg-type]
    source = [good] * 20 + ["", "{not json", json.dumps({"id": "c-2"}), good, good]
    counts = await importer.import_lines("contests", source)
    assert (counts.created, counts.unchanged, counts.failed) == (20, 1, 3)
    assert "contests: 20 items ..." in lines
    assert lines[-1] == "contests: 24 items: 20 created, 0 updated, 1 unchanged, 3 failed"
    assert sum("skipped" in line for line in lines) == 3
    assert (uow.begun, uow.commits) == (22, 21)  # a unit of work per item; the refused one uncommitted


async def test_a_write_that_lost_a_race_runs_again_in_a_new_unit_of_work():
    won: list[Outcome | Exception] = [LostRace("c-1") for _ in range(MAX_ATTEMPTS - 1)]
    won.append(Outcome.UPDATED)
    uow = FakeUnitOfWork(FakeContests(won))
    result = await CatalogService(uow).put(AggregateType.CONTEST, "c-1", C1)  # type: ignore[arg-type]
    assert result.outcome is Outcome.UPDATED and result.item.id == "c-1"
    assert (uow.begun, uow.commits) == (MAX_ATTEMPTS, 1)


async def test_a_write_that_loses_every_race_is_a_conflict_and_commits_nothing():
    uow = FakeUnitOfWork(FakeContests([LostRace("c-1")] * MAX_ATTEMPTS))
    with pytest.raises(Conflict, match="being changed concurrently"):
        await CatalogService(uow).create(AggregateType.CONTEST, C1, "c-1")  # type: ignore[arg-type]
    assert (uow.begun, uow.commits) == (MAX_ATTEMPTS, 0)
