"""command-api's ops routes and lifespan against the real stores: readiness names what is down."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import httpx
import pytest
from devstack.servers import free_port
from fastapi import FastAPI
from sqlalchemy import select

from command_api.entrypoints.app import create_app
from command_api.settings import CommandSettings
from techai_shared.db.outbox import add_events
from techai_shared.db.schema import outbox_events
from techai_shared.events import AggregateType, EventEnvelope, EventType
from techai_shared.settings import CommonSettings
from tests.conftest import eventually

pytestmark = pytest.mark.integration


def _command_settings(settings: CommonSettings, **changes: object) -> CommandSettings:
    return CommandSettings(**{**settings.model_dump(), **changes})


@asynccontextmanager
async def serving(app: FastAPI) -> AsyncIterator[httpx.AsyncClient]:
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://command-api") as client:
            yield client


@pytest.fixture
async def client(settings: CommonSettings) -> AsyncIterator[httpx.AsyncClient]:
    async with serving(create_app(_command_settings(settings))) as c:
        yield c


async def test_ready_when_database_kafka_and_redis_answer(client):
    response = await client.get("/readyz")
    assert response.status_code == 200
    assert response.json()["data"] == {"database": "UP", "kafka": "UP", "redis": "UP"}
    assert (await client.get("/healthz")).json()["data"] == {"status": "UP"}


async def test_not_ready_names_the_store_that_is_down(settings):
    down = _command_settings(settings, redis_url=f"redis://127.0.0.1:{free_port()}/0")
    async with serving(create_app(down)) as client:
        response = await client.get("/readyz")
        body = response.json()
        assert response.status_code == 503
        assert body["message"] == "not ready: redis"
        assert body["data"]["redis"].startswith("DOWN")
        assert body["data"]["database"] == "UP"
        assert (await client.get("/healthz")).status_code == 200  # alive, only not ready


async def test_metrics_expose_the_relay_and_request_latency(client):
    await client.get("/healthz")
    text = (await client.get("/metrics")).text
    assert "outbox_events_published_total" in text
    assert "http_request_duration_seconds" in text


async def test_relay_runs_in_the_lifespan(client, engine):
    event = EventEnvelope(
        eventType=EventType.CONTEST_UPSERTED, aggregateType=AggregateType.CONTEST,
        aggregateId=uuid.uuid4().hex, version=1, payload={"title": "AI 해커톤"},
    )
    async with engine.begin() as conn:
        await add_events(conn, [event])

    async def published() -> bool:
        async with engine.connect() as conn:
            row = await conn.execute(
                select(outbox_events.c.published_at).where(outbox_events.c.event_id == event.event_id)
            )
            return row.scalar_one() is not None

    await eventually(published)
