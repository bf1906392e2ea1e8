"""A contest's stored status is the one its dates give: derived when it is written, whatever the
writer sent, and moved across its start and end by the advance-contest-status job, with an event,
so the read model agrees."""

from __future__ import annotations

from datetime import timedelta

import pytest

from command_api.service_layer.catalog import CatalogService
from techai_shared.events import AggregateType
from techai_shared.events.catalog import ContestStatus
from tests.conftest import eventually
from tests.integration.ops_pipeline import minutes, pipeline

pytestmark = pytest.mark.integration

JOB = "advance-contest-status"


async def test_a_contest_ends_in_the_command_store_and_the_read_model_when_its_end_passes(settings):
    async with pipeline(settings) as p:
        now = p.clock()
        catalog = CatalogService(p.uow)
        fields = {"title": "두 시간 스프린트", "description": "곧 끝나는 대회", "status": "UPCOMING",
                  "startDate": (now - timedelta(hours=1)).isoformat(),
                  "endDate": (now + minutes(2)).isoformat(), "tags": ["sprint"]}
        created = await catalog.create(AggregateType.CONTEST, fields)
        contest = str(created.item.id)
        assert created.item.status is ContestStatus.ONGOING  # the dates say so, not the writer
        assert (await p.ops.runner.run_manual(JOB)).rows_affected == 0

        p.clock.set(now + minutes(3))  # two minutes later its end has passed
        assert (await p.ops.runner.run_manual(JOB)).rows_affected == 1
        stored = await catalog.get(AggregateType.CONTEST, contest)
        assert (stored.item.status, stored.version) == (ContestStatus.ENDED, 2)

        async def ended_in_the_read_model() -> bool:
            doc = await p.db["contests"].find_one({"document_id": contest})
            return doc is not None and (doc["status"], doc["version"]) == ("ENDED", 2)

        await eventually(ended_in_the_read_model, within=30)
        assert (await p.ops.runner.run_manual(JOB)).rows_affected == 0  # nothing left to move


async def test_a_seeded_contest_written_after_its_dates_moved_on_is_stored_as_they_say(settings):
    async with pipeline(settings) as p:
        now = p.clock()
        catalog = CatalogService(p.uow)
        base = {"title": "예정 대회", "description": "", "tags": []}
        upcoming = await catalog.create(AggregateType.CONTEST, {
            **base, "status": "ENDED", "startDate": (now + timedelta(days=3)).isoformat(),
            "endDate": (now + timedelta(days=5)).isoformat()})
        ended = await catalog.create(AggregateType.CONTEST, {
            **base, "status": "ONGOING", "startDate": (now - timedelta(days=5)).isoformat(),
            "endDate": (now - timedelta(days=3)).isoformat()})
        undated = await catalog.create(AggregateType.CONTEST, {**base, "status": "UPCOMING"})
        assert [r.item.status for r in (upcoming, ended, undated)] == [
            ContestStatus.UPCOMING, ContestStatus.ENDED, ContestStatus.UPCOMING]
        p.clock.set(now + timedelta(days=4))
        assert (await p.ops.runner.run_manual(JOB)).rows_affected == 1  # the first one started
        moved = await catalog.get(AggregateType.CONTEST, str(upcoming.item.id))
        assert moved.item.status is ContestStatus.ONGOING
