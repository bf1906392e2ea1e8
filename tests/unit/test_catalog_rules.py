"""Pure rules of the catalog command side: state comparison, ids, request bodies, the importer."""

from __future__ import annotations

import json
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from pydantic import ValidationError

from command_api.entrypoints.schemas import BookmarkCreate, BookmarkUpdate, ContestCreate
from command_api.service_layer.catalog_import import CatalogImporter
from techai_shared.bookmark_store import BOOKMARKS
from techai_shared.catalog import ContestPayload, _Item
from techai_shared.catalog_store import CONTESTS, NEWS_ARTICLES, Outcome, WriteResult
from techai_shared.errors import Conflict

pytestmark = pytest.mark.unit

C1 = {"id": "c-0001", "title": "해커톤", "status": "UPCOMING", "startDate": "2026-12-01T09:00:00+09:00",
      "tags": ["ai"]}


def row(**columns: Any) -> SimpleNamespace:
    return SimpleNamespace(**{"deleted_at": None, **columns})


def test_state_holds_the_columns_with_enum_values():
    state = CONTESTS.state(ContestPayload.model_validate(C1))
    assert state["status"] == "UPCOMING" and type(state["status"]) is str
    assert state["start_date"] == datetime(2026, 12, 1, 0, 0, tzinfo=UTC)
    assert set(state) == set(CONTESTS.fields)


def test_same_state_is_the_same_instant_in_any_offset_and_only_when_live():
    state = CONTESTS.state(ContestPayload.model_validate(C1))
    utc = CONTESTS.state(ContestPayload.model_validate({**C1, "startDate": "2026-12-01T00:00:00Z"}))
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
    state = CONTESTS.state(ContestPayload.model_validate({**C1, "startDate": "2026-12-01T00:00:00Z"}))
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


class FakeStore:
    """The importer's port: a store with a kind and an upsert."""

    def __init__(self, outcomes: list[Outcome | Exception]) -> None:
        self.kind = CONTESTS
        self.outcomes = outcomes
        self.items: list[_Item] = []

    async def upsert(self, item: _Item) -> WriteResult:
        self.items.append(item)
        outcome = self.outcomes.pop(0)
        if isinstance(outcome, Exception):
            raise outcome
        return WriteResult(outcome, item, 1)


async def test_importer_counts_outcomes_skips_bad_lines_and_reports_progress():
    good = json.dumps(C1)
    outcomes: list[Outcome | Exception] = [Outcome.CREATED] * 20 + [Outcome.UNCHANGED, Conflict("dup")]
    store = FakeStore(outcomes)
    lines: list[str] = []
    importer = CatalogImporter({"contests": store}, report=lines.append)  # type: ignore[dict-item]
    source = [good] * 20 + ["", "{not json", json.dumps({"id": "c-2"}), good, good]
    counts = await importer.import_lines("contests", source)
    assert (counts.created, counts.unchanged, counts.failed) == (20, 1, 3)
    assert "contests: 20 items ..." in lines
    assert lines[-1] == "contests: 24 items: 20 created, 0 updated, 1 unchanged, 3 failed"
    assert sum("skipped" in line for line in lines) == 3
